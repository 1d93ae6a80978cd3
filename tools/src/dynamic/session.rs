//! [`DynSession`]: a [`Session`] of any game behind one object-safe interface whose answers
//! are plain data with moves in notation ([`super::view`]). The web board keeps one per
//! browser tab, Python one per `Game.session()`; both read a session's [`Monitor`] from
//! another thread while it searches, to show the engine thinking and to stop it.

use std::sync::{Arc, Mutex};

use ply::MoveList;

use super::view::{
    AnalysedMove, Analysis, DiagramView, LegalMove, Live, PlayedMove, Report, SavedGame, Thinking,
    View,
};
use crate::agents::ToolGame;
use crate::error::{ToolError, ToolResult};
use crate::play::display::describe_outcome;
use crate::play::search_handle::SearchHandle;
use crate::play::{Seat, Session};
use crate::spec::AgentSpec;

/// What shows a running search: called by the monitor's reader, on its thread.
type ThinkingSource = Box<dyn Fn() -> Option<Thinking> + Send + Sync>;

/// The data behind a mutex, even if a thread panicked while holding it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What another thread keeps of a session to watch it work and stop it: cheap to clone, and
/// never locked for long, so a reader is not held up by a search.
#[derive(Clone, Default)]
pub struct Monitor {
    handle: SearchHandle,
    thinking: Arc<Mutex<Option<ThinkingSource>>>,
    status: Arc<Mutex<Option<String>>>,
}

impl Monitor {
    /// The running search and the job's line, now.
    pub fn snapshot(&self) -> Live {
        let thinking = lock(&self.thinking).as_ref().and_then(|source| source());
        Live { thinking, status: lock(&self.status).clone() }
    }

    /// Where the session's searches publish and the flag that stops them.
    pub fn handle(&self) -> &SearchHandle {
        &self.handle
    }

    /// Asks the running job to stop: its search answers with its best move so far, and no
    /// other search of the job starts.
    pub fn stop(&self) {
        self.handle.stop.store(true, std::sync::atomic::Ordering::Release);
    }

    fn set_thinking(&self, source: Option<ThinkingSource>) {
        *lock(&self.thinking) = source;
    }

    fn set_status(&self, status: Option<String>) {
        *lock(&self.status) = status;
    }
}

/// One game in play, of any game: every answer is data with moves in notation.
pub trait DynSession: Send {
    /// The position after `at` moves (the last one by default) with its diagram, the moves
    /// so far, the legal moves with their cells, the seats and the result.
    ///
    /// # Errors
    /// `at` past the moves played.
    fn view(&self, at: Option<usize>) -> ToolResult<View>;

    /// Plays the legal move numbered `index` (in the view's list).
    ///
    /// # Errors
    /// No such move, or the game is over.
    fn play_index(&mut self, index: usize) -> ToolResult<()>;

    /// Plays the move written `text`.
    ///
    /// # Errors
    /// Text that is not a legal move here, or the game is over.
    fn play_text(&mut self, text: &str) -> ToolResult<()>;

    /// The engine of the seat to move plays: its search report.
    ///
    /// # Errors
    /// A person to move, a finished game, or a failed search.
    fn engine_move(&mut self) -> ToolResult<Report>;

    /// The move the seat's helper engine suggests, with its search report and its index in
    /// the legal moves.
    ///
    /// # Errors
    /// A finished game or a failed search.
    fn hint(&mut self) -> ToolResult<Report>;

    /// Takes back to the last move a person chose: whether anything was taken back.
    fn undo(&mut self) -> bool;

    /// Plays again what undo took back: whether anything was.
    fn redo(&mut self) -> bool;

    /// Back to the start position.
    fn new_game(&mut self);

    /// Back to the first `plies` moves: how many were taken back.
    fn take_back_to(&mut self, plies: usize) -> usize;

    /// Seats `seat` with a person (`None`) or an engine.
    ///
    /// # Errors
    /// No such seat, or a spec that does not build.
    fn set_seat(&mut self, seat: usize, engine: Option<AgentSpec>) -> ToolResult<()>;

    /// Continues the game in `text` (PDN, GGF or ply's game text): the moves read.
    ///
    /// # Errors
    /// Text that is not a game of this game; the session is then unchanged.
    fn load(&mut self, text: &str) -> ToolResult<usize>;

    /// The game in the game's record format.
    fn save(&self) -> SavedGame;

    /// Each move's value beside the best move's, by an engine built from `spec`; a stop
    /// ends it with the moves analysed so far.
    ///
    /// # Errors
    /// A spec that does not build or a failed search.
    fn analyse(&mut self, spec: &AgentSpec) -> ToolResult<Analysis>;

    /// What another thread keeps to watch this session's searches and stop them.
    fn monitor(&self) -> Monitor;
}

/// A [`Session`] as a [`DynSession`].
pub(crate) struct SessionOf<G: ToolGame> {
    session: Session<G>,
    monitor: Monitor,
}

impl<G: ToolGame> SessionOf<G> {
    /// `session`, watched through a fresh monitor.
    pub(crate) fn new(mut session: Session<G>) -> SessionOf<G> {
        let monitor = Monitor::default();
        session.watch(monitor.handle.clone());
        SessionOf { session, monitor }
    }

    /// Shows the search of the position now through the monitor while `run` runs.
    fn searching<T>(&mut self, run: impl FnOnce(&mut Self) -> T) -> T {
        let record = self.session.record().clone();
        let progress = self.monitor.handle.progress.clone();
        self.monitor.set_thinking(Some(Box::new(move || {
            let info = progress.latest::<G::Move>()?;
            Some(Thinking::of(record.game(), record.state(), &info))
        })));
        let out = run(self);
        self.monitor.set_thinking(None);
        out
    }

    /// The finished game's result in words, if it is over.
    fn result(&self) -> Option<String> {
        let record = self.session.record();
        let outcome = record.outcome()?;
        Some(describe_outcome(&outcome, self.session.names(), record.is_repetition_draw()))
    }

    /// An error if the game is over.
    fn going_on(&self) -> ToolResult<()> {
        match self.result() {
            Some(result) => Err(ToolError::Input(format!("the game is over: {result}"))),
            None => Ok(()),
        }
    }
}

impl<G: ToolGame> DynSession for SessionOf<G> {
    fn view(&self, at: Option<usize>) -> ToolResult<View> {
        let game = self.session.game();
        let record = self.session.record();
        let moves = record.moves();
        let at = at.unwrap_or(moves.len());
        if at > moves.len() {
            let n = moves.len();
            return Err(ToolError::Input(format!("move {at} asked; the game has {n}")));
        }
        let mut state = record.start().clone();
        let mut history = Vec::with_capacity(moves.len());
        let mut last = Vec::new();
        for (i, &mv) in moves.iter().enumerate() {
            if i < at {
                last = game.move_cells(&state, mv);
            }
            history.push(PlayedMove {
                text: game.format_move(&state, mv),
                mover: game.to_move(&state).index(),
            });
            if i < at {
                game.apply(&mut state, mv);
            }
        }
        let current = at == moves.len();
        let legal = match current && record.outcome().is_none() {
            true => {
                let mut legal = MoveList::new();
                game.generate_moves(&state, &mut legal);
                let each = |&mv: &G::Move| LegalMove {
                    text: game.format_move(&state, mv),
                    cells: game.move_cells(&state, mv),
                };
                legal.iter().map(each).collect()
            }
            false => Vec::new(),
        };
        let seats = self
            .session
            .seats()
            .iter()
            .map(|seat| match seat {
                Seat::Human => None,
                Seat::Engine(spec) => Some(spec.to_string()),
            })
            .collect();
        let last_move = at.checked_sub(1).map(|i| moves[i]);
        Ok(View {
            names: self.session.names().to_vec(),
            seats,
            to_move: game.outcome(&state).is_none().then(|| game.to_move(&state).index()),
            result: if current { self.result() } else { None },
            at,
            moves: history,
            legal,
            diagram: game.diagram(&state).as_ref().map(DiagramView::from),
            text: game.render(&state, last_move, false),
            last,
            position: game.format_state(&state),
            can_undo: self.session.can_undo(),
            can_redo: self.session.can_redo(),
            helper: self.session.helper().to_string(),
        })
    }

    fn play_index(&mut self, index: usize) -> ToolResult<()> {
        self.going_on()?;
        let legal = self.session.record().legal_moves();
        let n = legal.len();
        let mv = *legal.as_slice().get(index).ok_or_else(|| {
            ToolError::Input(format!("no move {index}: there are {n} legal moves"))
        })?;
        self.session.play(mv)
    }

    fn play_text(&mut self, text: &str) -> ToolResult<()> {
        self.going_on()?;
        let mv = self.session.parse_move(text)?;
        self.session.play(mv)
    }

    fn engine_move(&mut self) -> ToolResult<Report> {
        self.going_on()?;
        if !self.session.engine_to_move() {
            return Err(ToolError::Input("a person plays the side to move".into()));
        }
        let before = self.session.record().state().clone();
        let report = self.searching(|s| s.session.engine_turn(false, &mut std::io::sink()))?;
        Ok(Report::of(self.session.game(), &before, &report))
    }

    fn hint(&mut self) -> ToolResult<Report> {
        self.going_on()?;
        let state = self.session.record().state().clone();
        let report = self.searching(|s| s.session.suggest())?;
        let mut out = Report::of(self.session.game(), &state, &report);
        let legal = self.session.record().legal_moves();
        out.index = legal.as_slice().iter().position(|&m| m == report.best_move);
        Ok(out)
    }

    fn undo(&mut self) -> bool {
        self.session.undo().is_some()
    }

    fn redo(&mut self) -> bool {
        self.session.redo().is_some()
    }

    fn new_game(&mut self) {
        self.session.new_game();
    }

    fn take_back_to(&mut self, plies: usize) -> usize {
        self.session.take_back_to(plies)
    }

    fn set_seat(&mut self, seat: usize, engine: Option<AgentSpec>) -> ToolResult<()> {
        self.session.set_seat(seat, engine.map_or(Seat::Human, Seat::Engine))
    }

    fn load(&mut self, text: &str) -> ToolResult<usize> {
        self.session.load_text(text)
    }

    fn save(&self) -> SavedGame {
        SavedGame::of(self.session.game_text())
    }

    fn analyse(&mut self, spec: &AgentSpec) -> ToolResult<Analysis> {
        let monitor = self.monitor.clone();
        let start = self.session.record().start().clone();
        let moves = self.session.record().moves().to_vec();
        let mut progress = |done: usize, total: usize| {
            monitor.set_status(Some(format!("analysing position {} of {total}", done + 1)));
        };
        let analysed = self.searching(|s| s.session.analyse(spec, &mut progress));
        self.monitor.set_status(None);
        let analysed = analysed?;
        Ok(Analysis {
            spec: spec.to_string(),
            moves: AnalysedMove::all(self.session.game(), &start, &moves, &analysed),
            stopped: analysed.len() < moves.len(),
        })
    }

    fn monitor(&self) -> Monitor {
        self.monitor.clone()
    }
}
