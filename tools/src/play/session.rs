//! [`Session`]: a game in play, with one method per command of the terminal game (play a
//! move, let an engine move, undo, redo, new, swap, a hint, a budget change, save, load,
//! analyse). It owns its game (shared, so that it can be kept as long as a front end likes)
//! and its engines. The terminal ([`super::terminal`]) reads commands and prints what the
//! methods return; the web board and Python drive the same state machine through
//! [`crate::dynamic::DynSession`].
//!
//! ```
//! use std::sync::Arc;
//! use ply::games::TicTacToe;
//! use ply::Game;
//! use ply_tools::agents::AgentKit;
//! use ply_tools::play::{Seat, Session, SessionConfig};
//!
//! let config = SessionConfig {
//!     seats: vec![Seat::Human, Seat::Engine("alphabeta:depth=9".parse()?)],
//!     seed: 1,
//!     names: Vec::new(),
//!     assistant: "alphabeta:depth=9".parse()?,
//! };
//! let game = Arc::new(TicTacToe);
//! let mut session = Session::new(game, TicTacToe.initial_state(), &config, &AgentKit::default())?;
//! let centre = session.parse_move("b2")?;
//! session.play(centre)?;
//! session.engine_turn(false, &mut std::io::sink())?;
//! assert_eq!(session.record().moves().len(), 2);
//! assert_eq!(session.undo(), Some(2));
//! assert_eq!(session.redo(), Some(2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use ply::search::{Position, SearchReport};
use ply::{Notation, Player, Record};

use super::analysis::MoveAnalysis;
use super::engines::{assist, build_engines, change_budgets, observe_all, replay, replay_from};
pub use super::search_handle::SearchHandle;
use super::{
    book_line, engine_line, from_book, only_pass, terminal_width, wrap, BudgetChange, Engine,
    PlayLoopError, Seat,
};
use crate::agents::AgentKit;
use crate::error::{ToolError, ToolResult};
use crate::spec::AgentSpec;

/// Where the continuation lines of a wrapped engine line start.
pub(crate) const ENGINE_INDENT: &str = "      ";

/// What a session is started with: who sits where, the seed, the seats' names and the
/// engine that answers `hint` and `go` for a seat where no engine has sat.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// Who plays each seat.
    pub seats: Vec<Seat>,
    /// Engine seeds derive from it (seat `s` gets `mix64(seed ^ s)` unless its spec pins one).
    pub seed: u64,
    /// A name per seat; missing ones are "player N".
    pub names: Vec<String>,
    /// The engine of `hint` and `go` for a seat where no engine has sat.
    pub assistant: AgentSpec,
}

impl SessionConfig {
    fn name(&self, p: Player) -> String {
        self.names.get(p.index()).cloned().unwrap_or_else(|| p.to_string())
    }
}

/// What a ponder search left for an engine's next move (see [pondering](super::terminal)).
pub enum Pondered<M> {
    /// The human played the expected move: the report of the search of the position after it.
    Hit(SearchReport<M>),
    /// The engine searched the human's position; its next search goes on from the reply.
    BeforeReply,
}

/// A game in play: the record, who sits at each seat, the engines, and what `undo` took back.
pub struct Session<G: Notation + Sync + 'static> {
    game: Arc<G>,
    kit: AgentKit<G>,
    seed: u64,
    names: Vec<String>,
    /// Who plays each seat now (`swap` changes it).
    seats: Vec<Seat>,
    /// The spec that `hint` and `go` use for each seat: the engine that sat there, else the
    /// assistant.
    helpers: Vec<AgentSpec>,
    /// Each seat's engine; `None` for a human, or while the engine is lent out to ponder.
    engines: Vec<Option<Engine<G>>>,
    record: Record<'static, G>,
    /// The moves `undo` took back, the next one last.
    redo: Vec<G::Move>,
    /// The principal variation of the last engine search and the number of moves played
    /// before it, for the move a human is expected to play.
    last_pv: Option<(usize, Vec<G::Move>)>,
    /// Where searches publish their progress, if a front end watches them.
    watch: Option<SearchHandle>,
}

impl<G: Notation + Sync + 'static> Session<G> {
    /// A game of `game` from `start` with the seats, names and seed of `config`, its engines
    /// built by `kit`.
    ///
    /// # Errors
    /// A wrong number of seats ([`ToolError::Input`]), or an engine spec that does not build
    /// for this game ([`ToolError::Spec`]).
    pub fn new(
        game: Arc<G>,
        start: G::State,
        config: &SessionConfig,
        kit: &AgentKit<G>,
    ) -> ToolResult<Self> {
        let players = game.num_players();
        if config.seats.len() != players {
            let n = config.seats.len();
            return Err(ToolError::Input(format!("{n} seats given; this game has {players}")));
        }
        let names = (0..players).map(|i| config.name(Player::new(i))).collect();
        let seats = config.seats.clone();
        let helpers = seats
            .iter()
            .map(|s| match s {
                Seat::Engine(spec) => spec.clone(),
                Seat::Human => config.assistant.clone(),
            })
            .collect();
        let engines = build_engines(&seats, config.seed, kit)?;
        Ok(Session {
            record: Record::shared(game.clone(), start),
            game,
            kit: kit.clone(),
            seed: config.seed,
            names,
            seats,
            helpers,
            engines,
            redo: Vec::new(),
            last_pv: None,
            watch: None,
        })
    }

    /// The game this session plays.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game so far.
    pub fn record(&self) -> &Record<'static, G> {
        &self.record
    }

    /// Who plays each seat now.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The seats' names (`Black`, `White`, or `player 1`, ...).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The seed the engines derive theirs from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The kit that builds this game's agents.
    pub fn kit(&self) -> &AgentKit<G> {
        &self.kit
    }

    /// The seat to move.
    pub fn seat_to_move(&self) -> usize {
        self.game.to_move(self.record.state()).index()
    }

    /// True when an engine plays the seat to move.
    pub fn engine_to_move(&self) -> bool {
        self.seats[self.seat_to_move()] != Seat::Human
    }

    /// The spec that answers `hint` and `go` for the seat to move.
    pub fn helper(&self) -> &AgentSpec {
        &self.helpers[self.seat_to_move()]
    }

    /// Reads `text` as a legal move of the current position.
    ///
    /// # Errors
    /// The notation's message, or a move that is not legal here ([`ToolError::Input`]).
    pub fn parse_move(&self, text: &str) -> ToolResult<G::Move> {
        let state = self.record.state();
        let mv = self.game.parse_move(state, text).map_err(ToolError::input)?;
        match self.record.legal_moves().contains(&mv) {
            true => Ok(mv),
            false => Err(ToolError::Input(format!("{text:?} is not a legal move here"))),
        }
    }

    /// Plays `mv` for the human to move; `searched` is the seat of an engine that already
    /// searched the position after it (a pondering hit), which is not told of the move.
    ///
    /// # Errors
    /// A move the record refuses ([`ToolError::Input`]).
    pub fn play_searched(&mut self, mv: G::Move, searched: Option<usize>) -> ToolResult<()> {
        let before = self.record.state().clone();
        self.record.play(mv).map_err(ToolError::input)?;
        note_played(&mut self.redo, mv);
        observe_all(&*self.game, &mut self.engines, &before, mv, searched);
        Ok(())
    }

    /// Plays `mv` for the side to move.
    ///
    /// # Errors
    /// A move the record refuses.
    pub fn play(&mut self, mv: G::Move) -> ToolResult<()> {
        self.play_searched(mv, None)
    }

    /// The pass of a seat that has no other move, if that is all it can do.
    pub fn forced_pass(&self) -> Option<G::Move> {
        only_pass(&*self.game, self.record.state())
    }

    /// The engine of the seat to move plays: from `pondered`, what its ponder search left, or
    /// a search (with its live line on `out` when `live`). Its line (the move, the search's
    /// figures, a ponder hit) is written to `out`.
    ///
    /// # Errors
    /// An engine that cannot move or answers an illegal move; failed output.
    pub fn engine_turn_with(
        &mut self,
        pondered: Option<Pondered<G::Move>>,
        live: bool,
        out: &mut impl Write,
    ) -> Result<SearchReport<G::Move>, PlayLoopError> {
        let seat = self.seat_to_move();
        let who = self.names[seat].clone();
        let played = self.record.moves().len();
        if let Some(watch) = &self.watch {
            watch.clear();
        }
        let game = &*self.game;
        let engine =
            self.engines[seat].as_mut().ok_or_else(|| PlayLoopError::NoEngine(who.clone()))?;
        let hit = matches!(pondered, Some(Pondered::Hit(_)));
        let before_reply = matches!(pondered, Some(Pondered::BeforeReply));
        let spec = engine.spec.to_string();
        let report = match pondered {
            Some(Pondered::Hit(report)) => report,
            _ => {
                let position = Position::with_history(self.record.state(), self.record.hashes());
                let searched = match live {
                    true => super::engines::search_showing_time(
                        game,
                        position,
                        &mut engine.agent,
                        &engine.budget,
                        &who,
                        out,
                    )?,
                    false => engine.agent.choose(game, position, &engine.budget),
                };
                searched.map_err(|source| PlayLoopError::Search { spec: spec.clone(), source })?
            }
        };
        let state = self.record.state();
        let mut line = match from_book(engine.book.as_deref(), game, state, &report) {
            true => book_line(game, state, &who, &report),
            false => engine_line(game, state, &who, &report),
        };
        if hit {
            line += "  (ponder hit)";
        }
        let kept = engine.agent.carried_over();
        if before_reply && kept > 0 {
            line += &format!("  (pondered: {} playouts kept)", crate::units::si(kept as f64));
        }
        writeln!(out, "{}", wrap(&line, terminal_width(), ENGINE_INDENT))?;
        let before = self.record.state().clone();
        self.record.play(report.best_move).map_err(|_| PlayLoopError::IllegalMove {
            spec: spec.clone(),
            mv: format!("{:?}", report.best_move),
        })?;
        observe_all(game, &mut self.engines, &before, report.best_move, None);
        note_played(&mut self.redo, report.best_move);
        self.last_pv = Some((played, report.pv.clone()));
        Ok(report)
    }

    /// The engine of the seat to move plays its move (`live`: with a status line on `out`
    /// while it thinks).
    ///
    /// # Errors
    /// An engine that cannot move or answers an illegal move; failed output.
    pub fn engine_turn(
        &mut self,
        live: bool,
        out: &mut impl Write,
    ) -> Result<SearchReport<G::Move>, PlayLoopError> {
        self.engine_turn_with(None, live, out)
    }

    /// The move the human to move is expected to play: the continuation of the last engine
    /// search's principal variation, if the moves since followed it.
    pub fn expected_move(&self) -> Option<G::Move> {
        expected_move(self.last_pv.as_ref(), self.record.moves())
    }

    /// The engines, by seat (`None` for a human, or an engine lent out).
    pub fn engines(&self) -> &[Option<Engine<G>>] {
        &self.engines
    }

    /// Takes the engine of `seat` out of its seat (to search on another thread, as a ponder
    /// search does); [`Session::return_engine`] puts it back. `None` for a human seat.
    pub fn lend_engine(&mut self, seat: usize) -> Option<Engine<G>> {
        self.engines.get_mut(seat)?.take()
    }

    /// Puts `engine` back in `seat` (or in any engine seat: a test's own agent).
    ///
    /// # Panics
    /// If `seat` is not a seat of the game.
    pub fn return_engine(&mut self, seat: usize, engine: Engine<G>) {
        self.engines[seat] = Some(engine);
    }

    /// The engine's suggestion for the side to move (`hint`, `go`), from the spec of the
    /// seat's helper.
    ///
    /// # Errors
    /// An engine spec that does not build, or a search that fails.
    pub fn suggest(&self) -> ToolResult<SearchReport<G::Move>> {
        assist(&self.record, self.helper(), self.seed, &self.kit, None, self.watch.as_ref())
    }

    /// [`Session::suggest`], with (`live`) a status line on `out` while the engine thinks,
    /// labelled `who`, as for an engine's own move.
    ///
    /// # Errors
    /// As [`Session::suggest`], and failed output.
    pub fn suggest_live(
        &self,
        live: bool,
        who: &str,
        out: &mut impl Write,
    ) -> ToolResult<SearchReport<G::Move>> {
        let live = live.then_some((who, out as &mut dyn Write));
        assist(&self.record, self.helper(), self.seed, &self.kit, live, self.watch.as_ref())
    }

    /// Every search of this session (engine moves, `hint`, `go`, analyses) publishes to
    /// `watch` and stops when its flag is raised.
    pub fn watch(&mut self, watch: SearchHandle) {
        for engine in self.engines.iter_mut().flatten() {
            engine.budget = watch.attach(engine.budget.clone());
        }
        self.watch = Some(watch);
    }

    /// Seats `seat` with `who` (a person, or an engine built from its spec; a human seat's
    /// `hint` then uses the spec the seat's engine had), keeping the game: the engines are
    /// built again and follow the moves so far.
    ///
    /// # Errors
    /// A seat out of range, or an engine spec that does not build; the session is then
    /// unchanged.
    pub fn set_seat(&mut self, seat: usize, who: Seat) -> ToolResult<()> {
        if seat >= self.seats.len() {
            let n = self.seats.len();
            return Err(ToolError::Input(format!("no seat {seat}: this game has {n} seats")));
        }
        let mut seats = self.seats.clone();
        seats[seat] = who;
        let mut engines = build_engines(&seats, self.seed, &self.kit)?;
        if let Seat::Engine(spec) = &seats[seat] {
            self.helpers[seat] = spec.clone();
        }
        let moves = self.record.moves().to_vec();
        self.record =
            replay(&self.record, &moves, &mut engines).expect("replaying moves that were legal");
        self.seats = seats;
        self.engines = engines;
        if let Some(watch) = self.watch.clone() {
            self.watch(watch);
        }
        self.last_pv = None;
        Ok(())
    }

    /// Takes the game back to its first `plies` moves (a click on the move list): the moves
    /// after them, and those an earlier take-back kept, can be played again with
    /// [`Session::redo`]. Returns the number taken back.
    pub fn take_back_to(&mut self, plies: usize) -> usize {
        let moves = self.record.moves().to_vec();
        if plies >= moves.len() {
            return 0;
        }
        self.redo.extend(moves[plies..].iter().rev());
        self.record = replay(&self.record, &moves[..plies], &mut self.engines)
            .expect("replaying moves that were legal");
        self.last_pv = None;
        moves.len() - plies
    }

    /// The move number `undo` goes back to: the last choice of a human seat.
    fn undo_target(&self) -> Option<usize> {
        let choices = human_choices(&self.record, &self.seats);
        choices.iter().rposition(|&human| human)
    }

    /// True when `undo` has a human choice to go back to.
    pub fn can_undo(&self) -> bool {
        self.undo_target().is_some()
    }

    /// Takes back to the previous choice of a human seat: the number of moves taken back,
    /// `None` when there is nothing to undo.
    pub fn undo(&mut self) -> Option<usize> {
        let target = self.undo_target()?;
        Some(self.take_back_to(target))
    }

    /// True when `redo` has moves to play again.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Plays again what `undo` took back, up to the next choice of a human seat: the number of
    /// moves, `None` when there is nothing to redo.
    pub fn redo(&mut self) -> Option<usize> {
        if self.redo.is_empty() {
            return None;
        }
        let mut count = 0;
        while let Some(mv) = self.redo.pop() {
            let before = self.record.state().clone();
            if self.record.play(mv).is_err() {
                self.redo.clear();
                break;
            }
            observe_all(&*self.game, &mut self.engines, &before, mv, None);
            count += 1;
            let next = self.game.to_move(self.record.state()).index();
            if self.record.outcome().is_some() || self.seats[next] == Seat::Human {
                break;
            }
        }
        self.last_pv = None;
        Some(count)
    }

    /// Starts again from the start position.
    pub fn new_game(&mut self) {
        self.record = replay(&self.record, &[], &mut self.engines).expect("no moves to replay");
        self.redo.clear();
        self.last_pv = None;
    }

    /// The seat `swap` exchanges with: the next seat after the one to move that an engine
    /// plays.
    fn swap_partner(&self) -> Option<usize> {
        let seat = self.seat_to_move();
        let n = self.seats.len();
        (1..n).map(|k| (seat + k) % n).find(|&s| matches!(self.seats[s], Seat::Engine(_)))
    }

    /// True when an engine plays a seat that `swap` can exchange with.
    pub fn can_swap(&self) -> bool {
        self.swap_partner().is_some()
    }

    /// Exchanges the seat to move with the next seat an engine plays: that seat, `None` when
    /// no engine plays.
    pub fn swap(&mut self) -> Option<usize> {
        let seat = self.seat_to_move();
        let other = self.swap_partner()?;
        self.seats.swap(seat, other);
        self.engines.swap(seat, other);
        self.helpers.swap(seat, other);
        self.last_pv = None;
        Some(other)
    }

    /// Gives every engine (and the helpers) the budget `change`: a line saying which engines
    /// took it.
    pub fn change_budget(&mut self, change: BudgetChange) -> String {
        change_budgets(&mut self.seats, &mut self.engines, &mut self.helpers, change)
    }

    /// The game in the game's record text (PDN for the draughts games, with today's date
    /// in its `Date` tag).
    pub fn game_text(&self) -> String {
        let text = self.game.write_record(self.record.start(), self.record.moves());
        dated(&text, &pdn_date(std::time::SystemTime::now()))
    }

    /// Writes the game to `path`: the number of moves written.
    ///
    /// # Errors
    /// A file that cannot be written ([`ToolError::File`]).
    pub fn save(&self, path: &str) -> ToolResult<usize> {
        std::fs::write(path, self.game_text())
            .map_err(|e| ToolError::file(Path::new(path), format!("cannot write {path}: {e}")))?;
        Ok(self.record.moves().len())
    }

    /// Reads the game in `path`: its start and moves, for [`Session::resume`].
    ///
    /// # Errors
    /// A file that cannot be read or is not a game of this game.
    pub fn read_game(&self, path: &str) -> ToolResult<(G::State, Vec<G::Move>)> {
        let text = crate::files::read_text(Path::new(path), crate::files::MAX_TEXT)?;
        self.game.read_record(&text).map_err(ToolError::input)
    }

    /// Reads a game from `text` (the game's record format, as [`Session::game_text`] writes
    /// it) and continues it: the number of moves read.
    ///
    /// # Errors
    /// Text that is not a game of this game; the game is then unchanged.
    pub fn load_text(&mut self, text: &str) -> ToolResult<usize> {
        let (start, moves) = self.game.read_record(text).map_err(ToolError::input)?;
        self.resume(&start, &moves);
        Ok(moves.len())
    }

    /// Reads a game from `path` and continues it: the number of moves read.
    ///
    /// # Errors
    /// A file that cannot be read or is not a game of this game; the game is then unchanged.
    pub fn load(&mut self, path: &str) -> ToolResult<usize> {
        let (start, moves) = self.read_game(path)?;
        self.resume(&start, &moves);
        Ok(moves.len())
    }

    /// Continues the game `start` and `moves` (legal moves, as [`Session::read_game`] gives).
    pub fn resume(&mut self, start: &G::State, moves: &[G::Move]) {
        self.record = replay_from(&self.record, start, moves, &mut self.engines)
            .expect("the moves of a read game");
        self.redo.clear();
        self.last_pv = None;
    }

    /// An analysis of the game so far by an engine built from `spec` (see
    /// [`super::analysis`]); `progress(done, total)` is called before each search.
    ///
    /// # Errors
    /// A spec that does not build or a search that fails.
    pub fn analyse(
        &self,
        spec: &AgentSpec,
        progress: &mut dyn FnMut(usize, usize),
    ) -> ToolResult<Vec<MoveAnalysis<G::Move>>> {
        let (start, moves) = (self.record.start(), self.record.moves());
        super::analysis::analyse(
            &*self.game,
            start,
            moves,
            &self.kit,
            spec,
            self.watch.as_ref(),
            progress,
        )
    }
}

/// The move expected at the end of `moves`: the continuation of the principal variation
/// `line.1` of the search made when `line.0` moves had been played, if the moves since
/// followed it.
fn expected_move<M: Copy + PartialEq>(line: Option<&(usize, Vec<M>)>, moves: &[M]) -> Option<M> {
    let (from, pv) = line?;
    let since = moves.get(*from..)?;
    (pv.len() > since.len() && pv[..since.len()] == *since).then(|| pv[since.len()])
}

/// Keeps the moves of `redo` while play follows them, drops them once it leaves them.
fn note_played<M: PartialEq>(redo: &mut Vec<M>, mv: M) {
    if redo.last() == Some(&mv) {
        redo.pop();
    } else {
        redo.clear();
    }
}

/// For each ply of `record`, whether a human chose the move there (a human seat was to move
/// and had more than a pass to play): the plies `undo` goes back to.
fn human_choices<G: Notation>(record: &Record<'_, G>, seats: &[Seat]) -> Vec<bool> {
    let game = record.game();
    let mut state = record.start().clone();
    let mut choices = Vec::with_capacity(record.moves().len());
    for &mv in record.moves() {
        let seat = game.to_move(&state).index();
        choices.push(seats[seat] == Seat::Human && only_pass(game, &state).is_none());
        game.apply(&mut state, mv);
    }
    choices
}

/// `text` with a `Date` tag holding `date` after its `Event` tag, if it is a PDN record
/// (it starts with the `Event` tag) without a date; other records unchanged.
fn dated(text: &str, date: &str) -> String {
    let Some(event_end) = text.find('\n').filter(|_| text.starts_with("[Event ")) else {
        return text.to_string();
    };
    if text.lines().any(|l| l.starts_with("[Date ")) {
        return text.to_string();
    }
    let (event, rest) = text.split_at(event_end + 1);
    format!("{event}[Date \"{date}\"]\n{rest}")
}

/// The day of `now` (UTC) as PDN writes dates: `2026.11.27`.
fn pdn_date(now: std::time::SystemTime) -> String {
    let secs = now.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_date(secs / 86_400);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The year, month and day of `days` after 1970-01-01 (proleptic Gregorian calendar; Howard
/// Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::TicTacToe;
    use ply::Game;

    fn spec(text: &str) -> AgentSpec {
        text.parse().unwrap()
    }

    fn session() -> Session<TicTacToe> {
        let config = SessionConfig {
            seats: vec![Seat::Human, Seat::Engine(spec("alphabeta:depth=3"))],
            seed: 7,
            names: vec!["X".into(), "O".into()],
            assistant: spec("alphabeta:depth=2"),
        };
        Session::new(Arc::new(TicTacToe), TicTacToe.initial_state(), &config, &AgentKit::default())
            .unwrap()
    }

    /// `hint` and `go` show the same live line as an engine's own move, then clear it.
    #[test]
    fn suggestions_show_a_live_line_while_the_engine_thinks() {
        let game = ply::games::ConnectFour::standard();
        let config = SessionConfig {
            seats: vec![Seat::Human, Seat::Human],
            seed: 1,
            names: Vec::new(),
            assistant: spec("alphabeta:time=300ms"),
        };
        let start = game.initial_state();
        let s = Session::new(Arc::new(game), start, &config, &AgentKit::default()).unwrap();
        let mut out = Vec::new();
        s.suggest_live(true, "hint:", &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("\rhint: thinking"), "{text:?}");
        assert!(text.ends_with('\r'), "the line is cleared: {text:?}");
        let mut quiet = Vec::new();
        s.suggest_live(false, "hint:", &mut quiet).unwrap();
        assert!(quiet.is_empty());
    }

    #[test]
    fn a_wrong_number_of_seats_is_an_error() {
        let config = SessionConfig {
            seats: vec![Seat::Human],
            seed: 1,
            names: Vec::new(),
            assistant: spec("random"),
        };
        let start = TicTacToe.initial_state();
        let e = Session::new(Arc::new(TicTacToe), start, &config, &AgentKit::default()).err();
        assert!(e.unwrap().to_string().contains("1 seats given; this game has 2"));
    }

    #[test]
    fn pdn_records_get_the_date() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_784), (2026, 11, 27));
        let day = std::time::UNIX_EPOCH + std::time::Duration::from_secs(20_784 * 86_400 + 3600);
        assert_eq!(pdn_date(day), "2026.11.27");
        let pdn = "[Event \"ply game\"]\n[Result \"2-0\"]\n\n1. 32-28 *\n";
        let with = dated(pdn, "2026.11.27");
        assert_eq!(
            with,
            "[Event \"ply game\"]\n[Date \"2026.11.27\"]\n[Result \"2-0\"]\n\n1. 32-28 *\n"
        );
        assert_eq!(dated(&with, "2030.01.01"), with, "a date is never written twice");
        assert_eq!(dated("(;GM[Othello]...;)", "2026.11.27"), "(;GM[Othello]...;)");
    }

    #[test]
    fn every_command_changes_the_state_it_names() {
        let mut s = session();
        assert!(s.parse_move("z9").is_err());
        assert_eq!((s.undo(), s.redo()), (None, None), "nothing yet");
        let mv = s.parse_move("a1").unwrap();
        s.play(mv).unwrap();
        assert!(s.engine_to_move());
        s.engine_turn(false, &mut std::io::sink()).unwrap();
        assert_eq!(s.record().moves().len(), 2);
        assert!(s.suggest().is_ok());

        // save, then new, then load: the same two moves back.
        let path = std::env::temp_dir().join(format!("ply-session-{}.txt", std::process::id()));
        let path = path.to_str().unwrap();
        assert_eq!(s.save(path).unwrap(), 2);
        s.new_game();
        assert!(s.record().moves().is_empty());
        assert_eq!(s.load(path).unwrap(), 2);
        assert_eq!(s.record().moves()[0], mv);
        std::fs::write(path, "not a game").unwrap();
        assert!(s.load(path).is_err());
        assert_eq!(s.record().moves().len(), 2, "a failed load keeps the game");
        let _ = std::fs::remove_file(path);
        assert!(s
            .save("/nonexistent/dir/game.txt")
            .unwrap_err()
            .to_string()
            .contains("cannot write"));

        // swap: the human now plays O, the engine X.
        assert_eq!(s.swap(), Some(1));
        assert_eq!(s.seats()[1], Seat::Human);
        assert!(matches!(s.seats()[0], Seat::Engine(_)));
        let line = s.change_budget(BudgetChange::Depth(1));
        assert!(line.contains("depth=1"), "{line}");
    }

    #[test]
    fn undo_skips_the_passes_made_for_a_human() {
        let g = ply_reversi::Reversi::new(4, 2).unwrap();
        let mut record = Record::new(&g, g.parse_state("21../..../..../.... 1").unwrap());
        for text in ["pass", "c1"] {
            let mv = g.parse_move(record.state(), text).unwrap();
            record.play(mv).unwrap();
        }
        assert_eq!(human_choices(&record, &[Seat::Human, Seat::Human]), vec![false, true]);
        let engine_second = [Seat::Human, Seat::Engine(spec("random"))];
        assert_eq!(human_choices(&record, &engine_second), vec![false, false]);
    }

    #[test]
    fn the_expected_move_follows_the_last_line() {
        assert_eq!(expected_move(Some(&(1, vec![4, 0, 8])), &[3, 4]), Some(0));
        assert_eq!(expected_move(Some(&(1, vec![4, 0, 8])), &[3, 2]), None);
        assert_eq!(expected_move(Some(&(1, vec![4])), &[3, 4]), None);
        assert_eq!(expected_move::<u8>(None, &[3]), None);
    }
}
