//! The web board's view of a game of any type: [`WebGame`] starts sessions, [`WebSession`]
//! is one [`Session`] behind an object-safe interface whose answers are JSON, so that the
//! server holds sessions of every game in one map. [`erase`] makes a [`WebGame`] of any
//! registered game; the registry calls it ([`crate::registry::RegisteredGame::web`]).
//!
//! The JSON shapes are the page's contract; `docs/web.md` lists them.

use std::sync::{Arc, Mutex};

use ply::diagram::{Diagram, PieceKind, Shade};
use ply::search::{ProgressInfo, SearchReport, Value};
use ply::{MoveList, Notation, Record};
use serde_json::{json, Value as Json};

use crate::agents::{AgentKit, ToolGame};
use crate::error::{ToolError, ToolResult};
use crate::play::analysis::MoveAnalysis;
use crate::play::display::{describe_outcome, format_line};
use crate::play::search_handle::SearchHandle;
use crate::play::session::Session;
use crate::play::{PlayConfig, Seat};
use crate::spec::AgentSpec;
use crate::units::si;

/// What a running search shows, as JSON, read by the server's event stream while the session
/// is busy; `None` when nothing is published yet.
pub type LiveView = Box<dyn Fn() -> Option<Json> + Send + Sync>;

/// Where a session puts the [`LiveView`] of its running search (and takes it away when the
/// search ends), and a line about a long job (`analysing move 3 of 40`).
#[derive(Clone, Default)]
pub struct Live {
    /// The running search's view.
    pub search: Arc<Mutex<Option<LiveView>>>,
    /// What a long job is doing.
    pub status: Arc<Mutex<Option<String>>>,
    /// Where the session's searches publish and the flag that stops them.
    pub watch: SearchHandle,
}

impl Live {
    /// The JSON the event stream sends now: the search's view and the job's line.
    pub fn snapshot(&self) -> Json {
        let search = lock(&self.search).as_ref().and_then(|view| view());
        let status = lock(&self.status).clone();
        json!({ "thinking": search, "status": status })
    }

    fn set_search(&self, view: Option<LiveView>) {
        *lock(&self.search) = view;
    }

    fn set_status(&self, status: Option<String>) {
        *lock(&self.status) = status;
    }
}

/// The data behind a mutex, even if a thread panicked while holding it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A game the web board can start sessions of.
pub trait WebGame: Send + Sync {
    /// The registry name (`english-checkers`).
    fn name(&self) -> &str;

    /// A title for the page: the summary and the options (`English checkers, standard 8x8`).
    fn title(&self) -> &str;

    /// The seats' names.
    fn seat_names(&self) -> &[String];

    /// The engine spec a new engine seat gets.
    fn default_engine(&self) -> &AgentSpec;

    /// A new game with `seats` (a human, or an engine built from its spec), its engines'
    /// seeds derived from `seed`, its searches shown through `live`.
    ///
    /// # Errors
    /// A wrong number of seats or an engine spec that does not build for this game.
    fn start(&self, seats: Vec<Seat>, seed: u64, live: Live) -> ToolResult<Box<dyn WebSession>>;
}

/// One game in play for one browser tab; every answer is the JSON the page reads.
pub trait WebSession: Send {
    /// The game: the position after `at` moves (the last one by default) with its diagram,
    /// the moves so far, the legal moves with their cells, the seats and the result.
    ///
    /// # Errors
    /// `at` past the moves played.
    fn view(&self, at: Option<usize>) -> ToolResult<Json>;

    /// Plays the legal move numbered `index` (in the view's list) or named `text`.
    ///
    /// # Errors
    /// No such move, or the game is over.
    fn play(&mut self, index: Option<usize>, text: Option<&str>) -> ToolResult<()>;

    /// The engine of the seat to move plays: its search report.
    ///
    /// # Errors
    /// A human to move, a finished game, or a failed search.
    fn engine_move(&mut self) -> ToolResult<Json>;

    /// The move the seat's helper engine suggests, with its search report.
    ///
    /// # Errors
    /// A finished game or a failed search.
    fn hint(&mut self) -> ToolResult<Json>;

    /// Takes back to the last human move: whether anything was taken back.
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

    /// The game in the game's record format, and the file name extension that fits it.
    fn save(&self) -> (String, &'static str);

    /// Each move's value beside the best move's, by an engine built from `spec`.
    ///
    /// # Errors
    /// A spec that does not build or a failed search.
    fn analyse(&mut self, spec: &AgentSpec) -> ToolResult<Json>;
}

/// A game of type `G` as a [`WebGame`]: the game lives as long as the server (it is leaked
/// once, when the server loads it), so that its sessions can borrow it.
struct GameOf<G: ToolGame> {
    game: &'static G,
    kit: AgentKit<G>,
    name: String,
    title: String,
    names: Vec<String>,
    engine: AgentSpec,
}

/// `game` with its agent kit as a [`WebGame`] named `name`, its seats named `names`, new
/// engine seats given `engine`. The game is leaked: a server loads each game once.
pub fn erase<G: ToolGame>(
    game: G,
    kit: AgentKit<G>,
    name: &str,
    title: &str,
    names: &[String],
    engine: AgentSpec,
) -> Arc<dyn WebGame> {
    let game: &'static G = Box::leak(Box::new(game));
    // Seat names fit one player count (Black and White): other counts number the players.
    let names = match names.len() == game.num_players() {
        true => names.to_vec(),
        false => (1..=game.num_players()).map(|i| format!("player {i}")).collect(),
    };
    Arc::new(GameOf { game, kit, name: name.into(), title: title.into(), names, engine })
}

impl<G: ToolGame> WebGame for GameOf<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn title(&self) -> &str {
        &self.title
    }

    fn seat_names(&self) -> &[String] {
        &self.names
    }

    fn default_engine(&self) -> &AgentSpec {
        &self.engine
    }

    fn start(&self, seats: Vec<Seat>, seed: u64, live: Live) -> ToolResult<Box<dyn WebSession>> {
        let players = self.game.num_players();
        if seats.len() != players {
            let n = seats.len();
            return Err(ToolError::Invalid(format!("{n} seats given; this game has {players}")));
        }
        let config = PlayConfig {
            seats,
            seed,
            color: false,
            names: self.names.clone(),
            echo: false,
            ponder: false,
            assistant: self.engine.clone(),
            live: false,
            viewer: ply::Player::FIRST,
        };
        let mut session = Session::new(self.game, self.game.initial_state(), &config, &self.kit)
            .map_err(|e| ToolError::Invalid(e.to_string()))?;
        session.watch(live.watch.clone());
        Ok(Box::new(SessionOf { session, live }))
    }
}

/// A [`Session`] as a [`WebSession`].
struct SessionOf<G: ToolGame> {
    session: Session<'static, G>,
    live: Live,
}

impl<G: ToolGame> SessionOf<G> {
    fn game(&self) -> &'static G {
        self.session.game()
    }

    fn record(&self) -> &Record<'static, G> {
        self.session.record()
    }

    /// Shows the search of the position now as the live view while `run` runs.
    fn searching<T>(&mut self, run: impl FnOnce(&mut Self) -> T) -> T {
        let game = self.game();
        let state = self.record().state().clone();
        let progress = self.live.watch.progress.clone();
        let view: LiveView = Box::new(move || {
            progress.latest::<G::Move>().map(|info| thinking_json(game, &state, &info))
        });
        self.live.set_search(Some(view));
        let out = run(self);
        self.live.set_search(None);
        out
    }

    /// The finished game's result in words, if it is over.
    fn result(&self) -> Option<String> {
        let outcome = self.record().outcome()?;
        Some(describe_outcome(&outcome, self.session.names(), self.record().is_repetition_draw()))
    }
}

impl<G: ToolGame> WebSession for SessionOf<G> {
    fn view(&self, at: Option<usize>) -> ToolResult<Json> {
        let game = self.game();
        let record = self.record();
        let moves = record.moves();
        let at = at.unwrap_or(moves.len());
        if at > moves.len() {
            let n = moves.len();
            return Err(ToolError::Invalid(format!("move {at} asked; the game has {n}")));
        }
        let mut state = record.start().clone();
        let mut history = Vec::with_capacity(moves.len());
        let mut last_cells = Vec::new();
        for (i, &mv) in moves.iter().enumerate() {
            if i < at {
                last_cells = game.move_cells(&state, mv);
            }
            history.push(json!({
                "text": game.format_move(&state, mv),
                "mover": game.to_move(&state).index(),
            }));
            if i < at {
                game.apply(&mut state, mv);
            }
        }
        let current = at == moves.len();
        let over = record.outcome().is_some();
        let legal = match current && !over {
            true => legal_json(game, &state),
            false => Vec::new(),
        };
        let seats: Vec<Json> = self
            .session
            .seats()
            .iter()
            .map(|seat| match seat {
                Seat::Human => Json::Null,
                Seat::Engine(spec) => json!(spec.to_string()),
            })
            .collect();
        let last_move = at.checked_sub(1).map(|i| moves[i]);
        Ok(json!({
            "names": self.session.names(),
            "seats": seats,
            "to_move": game.outcome(&state).is_none().then(|| game.to_move(&state).index()),
            "result": if current { self.result() } else { None },
            "at": at,
            "moves": history,
            "legal": legal,
            "diagram": game.diagram(&state).map(|d| diagram_json(&d)),
            "text": game.render(&state, last_move, false),
            "last": last_cells,
            "position": game.format_state(&state),
            "can_undo": self.session.can_undo(),
            "can_redo": self.session.can_redo(),
            "helper": self.session.helper().to_string(),
        }))
    }

    fn play(&mut self, index: Option<usize>, text: Option<&str>) -> ToolResult<()> {
        if let Some(result) = self.result() {
            return Err(ToolError::Invalid(format!("the game is over: {result}")));
        }
        let mv = match (index, text) {
            (Some(i), _) => {
                let legal = self.record().legal_moves();
                let n = legal.len();
                *legal.as_slice().get(i).ok_or_else(|| {
                    ToolError::Invalid(format!("no move {i}: there are {n} legal moves"))
                })?
            }
            (None, Some(text)) => self.session.parse_move(text)?,
            (None, None) => return Err(ToolError::Invalid("give a move: index or text".into())),
        };
        self.session.play(mv)
    }

    fn engine_move(&mut self) -> ToolResult<Json> {
        if let Some(result) = self.result() {
            return Err(ToolError::Invalid(format!("the game is over: {result}")));
        }
        if !self.session.engine_to_move() {
            return Err(ToolError::Invalid("a person plays the side to move".into()));
        }
        let game = self.game();
        let before = self.record().state().clone();
        let report = self.searching(|s| s.session.engine_turn(false, &mut std::io::sink()));
        let report = report.map_err(|e| ToolError::Failed(e.to_string()))?;
        Ok(report_json(game, &before, &report))
    }

    fn hint(&mut self) -> ToolResult<Json> {
        if let Some(result) = self.result() {
            return Err(ToolError::Invalid(format!("the game is over: {result}")));
        }
        let game = self.game();
        let state = self.record().state().clone();
        let report = self.searching(|s| s.session.suggest())?;
        let mut out = report_json(game, &state, &report);
        let legal = self.record().legal_moves();
        out["index"] = json!(legal.as_slice().iter().position(|&m| m == report.best_move));
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
        let who = engine.map_or(Seat::Human, Seat::Engine);
        self.session.set_seat(seat, who)
    }

    fn load(&mut self, text: &str) -> ToolResult<usize> {
        self.session.load_text(text)
    }

    fn save(&self) -> (String, &'static str) {
        let text = self.session.game_text();
        let extension = record_extension(&text);
        (text, extension)
    }

    fn analyse(&mut self, spec: &AgentSpec) -> ToolResult<Json> {
        let game = self.game();
        let live = self.live.clone();
        let start = self.record().start().clone();
        let moves = self.record().moves().to_vec();
        let mut progress = |done: usize, total: usize| {
            live.set_status(Some(format!("analysing position {} of {total}", done + 1)));
        };
        let analysed = self.searching(|s| s.session.analyse(spec, &mut progress));
        self.live.set_status(None);
        let analysed = analysed?;
        Ok(json!({
            "spec": spec.to_string(),
            "moves": analysis_json(game, &start, &moves, &analysed),
            "stopped": analysed.len() < moves.len(),
        }))
    }
}

/// The file name extension of a game's record text: `pdn` for PDN (tags in brackets), `ggf`
/// for GGF, `txt` for ply's own text.
fn record_extension(text: &str) -> &'static str {
    let head = text.trim_start();
    if head.starts_with("(;") {
        "ggf"
    } else if head.starts_with('[') {
        "pdn"
    } else {
        "txt"
    }
}

/// The legal moves of `state`: each move's text and cells.
fn legal_json<G: Notation>(game: &G, state: &G::State) -> Vec<Json> {
    let mut legal = MoveList::new();
    game.generate_moves(state, &mut legal);
    legal
        .as_slice()
        .iter()
        .map(|&mv| json!({ "text": game.format_move(state, mv), "cells": game.move_cells(state, mv) }))
        .collect()
}

/// A diagram as JSON: its size, labels and cells (`shade`, `piece`, `label`).
pub(crate) fn diagram_json(d: &Diagram) -> Json {
    let cells: Vec<Json> = d
        .cells
        .iter()
        .map(|cell| {
            let piece = cell.piece.map(|p| {
                let (kind, glyph) = match p.kind {
                    PieceKind::Man => ("man", None),
                    PieceKind::King => ("king", None),
                    PieceKind::Disc => ("disc", None),
                    PieceKind::Seeds => ("seeds", None),
                    PieceKind::Glyph(c) => ("glyph", Some(c.to_string())),
                };
                json!({ "owner": p.owner.index(), "kind": kind, "count": p.count, "glyph": glyph })
            });
            let shade = match cell.shade {
                Shade::Plain => "plain",
                Shade::Light => "light",
                Shade::Dark => "dark",
                Shade::Pit => "pit",
                Shade::Store => "store",
                Shade::Off => "off",
            };
            json!({ "shade": shade, "piece": piece, "label": cell.label })
        })
        .collect();
    json!({
        "rows": d.rows,
        "cols": d.cols,
        "cells": cells,
        "col_labels": d.col_labels,
        "row_labels": d.row_labels,
    })
}

/// A value as JSON: its text (`+35`, `win in 7`) and a number for charts (evaluation units,
/// or +-100000 for proven results).
fn value_json(value: Value) -> Json {
    let number = match value {
        Value::Heuristic(v) => Some(v),
        Value::Reward(r) => Some((r - 0.5) * 200.0),
        Value::Win(_) => Some(100_000.0),
        Value::Loss(_) => Some(-100_000.0),
        Value::Draw => Some(0.0),
        Value::Unknown => None,
    };
    json!({ "text": value.to_string(), "number": number })
}

/// What a search in progress has found: depth, value, line in notation, nodes and speed.
fn thinking_json<G: Notation>(game: &G, state: &G::State, info: &ProgressInfo<G::Move>) -> Json {
    let secs = info.elapsed.as_secs_f64();
    let nps = if secs > 0.0 { info.nodes as f64 / secs } else { 0.0 };
    json!({
        "depth": info.depth,
        "seldepth": info.seldepth,
        "value": info.value.map(value_json),
        "pv": format_line(game, state, &info.pv),
        "nodes": info.nodes,
        "nps": si(nps),
        "elapsed_ms": info.elapsed.as_millis() as u64,
    })
}

/// A finished search of `state`: the move, its value and line in notation, and its cost.
fn report_json<G: Notation>(game: &G, state: &G::State, report: &SearchReport<G::Move>) -> Json {
    json!({
        "move": game.format_move(state, report.best_move),
        "cells": game.move_cells(state, report.best_move),
        "value": value_json(report.value),
        "pv": format_line(game, state, &report.pv),
        "depth": report.depth,
        "nodes": report.nodes,
        "nps": si(report.nps()),
        "elapsed_ms": report.elapsed.as_millis() as u64,
    })
}

/// An analysis as JSON, one entry per move: the move played and its value, the best move and
/// its value, and the engine's line.
fn analysis_json<G: Notation>(
    game: &G,
    start: &G::State,
    moves: &[G::Move],
    analysed: &[MoveAnalysis<G::Move>],
) -> Vec<Json> {
    let mut state = start.clone();
    let mut out = Vec::with_capacity(analysed.len());
    for (a, &mv) in analysed.iter().zip(moves) {
        out.push(json!({
            "played": game.format_move(&state, a.played),
            "played_value": a.played_value.map(value_json),
            "best": game.format_move(&state, a.best),
            "best_value": value_json(a.best_value),
            "differs": a.differs(),
            "pv": format_line(game, &state, &a.pv),
        }));
        game.apply(&mut state, mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::TicTacToe;

    fn tictactoe() -> Arc<dyn WebGame> {
        let spec: AgentSpec = "alphabeta:depth=2".parse().unwrap();
        erase(TicTacToe, AgentKit::default(), "tictactoe", "Tic-tac-toe", &[], spec)
    }

    #[test]
    fn a_session_plays_views_and_refuses_what_is_not_legal() {
        let game = tictactoe();
        let seats = vec![Seat::Human, Seat::Engine("alphabeta:depth=2".parse().unwrap())];
        let mut s = game.start(seats, 1, Live::default()).unwrap();
        let view = s.view(None).unwrap();
        assert_eq!(view["legal"].as_array().unwrap().len(), 9);
        assert_eq!(view["to_move"], 0);
        assert!(s.play(Some(9), None).unwrap_err().to_string().contains("no move 9"));
        assert!(s.play(None, Some("z9")).is_err());
        s.play(None, Some("b2")).unwrap();
        assert!(s.play(Some(0), None).is_ok(), "a human may play the engine's seat too");
        let report = s.engine_move();
        assert!(report.is_err(), "a person plays the side to move");
        s.set_seat(0, Some("alphabeta:depth=1".parse().unwrap())).unwrap();
        let report = s.engine_move().unwrap();
        assert!(report["move"].is_string(), "{report}");
        let view = s.view(None).unwrap();
        assert_eq!(view["moves"].as_array().unwrap().len(), 3);
        assert_eq!(s.view(Some(1)).unwrap()["legal"].as_array().unwrap().len(), 0);
        assert!(s.view(Some(4)).is_err());
        assert!(s.set_seat(5, None).is_err());
        let (text, ext) = s.save();
        assert_eq!(ext, "txt");
        s.new_game();
        assert_eq!(s.load(&text).unwrap(), 3);
        assert!(s.load("not a game").is_err());
        assert_eq!(s.take_back_to(1), 2);
        assert!(s.redo());
    }

    #[test]
    fn seat_names_that_do_not_fit_the_player_count_are_numbered() {
        let spec: AgentSpec = "random".parse().unwrap();
        let names = ["Black".to_string(), "White".to_string()];
        let game = ply::games::ThreeHeaps::standard();
        let three = erase(game, AgentKit::default(), "three-heaps", "", &names, spec);
        assert_eq!(three.seat_names(), ["player 1", "player 2", "player 3"]);
        let seats = vec![Seat::Human, Seat::Human, Seat::Human];
        assert!(three.start(seats, 1, Live::default()).is_ok());
        assert!(three.start(vec![Seat::Human], 1, Live::default()).is_err());
    }

    #[test]
    fn record_formats_are_told_apart_by_their_first_characters() {
        assert_eq!(record_extension("[Event \"x\"]\n1. 11-15"), "pdn");
        assert_eq!(record_extension("(;GM[Othello]"), "ggf");
        assert_eq!(record_extension("position x\n"), "txt");
    }
}
