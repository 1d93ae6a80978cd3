//! The extension module `ply_games._native` (feature `python`): thin pyo3 wrappers over
//! [`crate::checkers`] and [`crate::games`]. Every call runs under [`crate::guard`], and the
//! searches and perft release the GIL. The Python package (`ply_games/__init__.py`,
//! `ply_games/checkers.py`) re-exports these with keyword-argument front ends.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ply_tools::error::ErrorKind;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyType};

use crate::games::{self, DynGame, DynSession, GameOptions, Monitor};
use crate::{checkers, guard, Error};

/// The Python exception of `e`: the class of `ply_games.errors` its kind names (each a
/// `ValueError`, `OSError` or `RuntimeError` too), or the built-in class where that module
/// cannot be imported.
fn py_err(e: Error) -> PyErr {
    let class = match e.kind() {
        ErrorKind::GameOption => "GameOptionError",
        ErrorKind::Spec => "SpecError",
        ErrorKind::File => "FileError",
        ErrorKind::Engine => "EngineError",
        ErrorKind::Input => "InputError",
        ErrorKind::Internal => "InternalError",
    };
    let message = e.to_string();
    Python::attach(|py| {
        let found = py
            .import("ply_games.errors")
            .and_then(|m| m.getattr(class))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match found {
            Ok(class) => PyErr::from_type(class, message),
            Err(_) => match e.kind() {
                ErrorKind::Engine | ErrorKind::Internal => PyRuntimeError::new_err(message),
                _ => PyValueError::new_err(message),
            },
        }
    })
}

/// A JSON value as the Python object it reads as (dicts, lists, str, int, float, bool, None).
fn to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as J;
    Ok(match value {
        J::Null => py.None().into_bound(py),
        J::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        J::String(text) => PyString::new(py, text).into_any(),
        J::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        J::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// A view of ply's (plain data) as a Python dict.
fn view_to_py<'py>(py: Python<'py>, view: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(view)
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))?;
    to_py(py, &value)
}

/// Runs `f` under [`guard`] and turns its error into a Python exception.
fn run<T, E: Into<Error>>(f: impl FnOnce() -> Result<T, E>) -> PyResult<T> {
    guard(|| f().map_err(Into::into)).map_err(py_err)
}

/// Runs a search (`work`, given a stop flag) on a thread of its own with the GIL released,
/// looking at Python's signals every 50 ms: on Ctrl-C it sets the flag, so the search ends at
/// once, waits for it and raises `KeyboardInterrupt`.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Arc<AtomicBool>) -> crate::Result<T> + Send,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    let (result, interrupted) = py.detach(|| {
        std::thread::scope(|scope| {
            let searching = scope.spawn(|| guard(|| work(&stop)));
            let mut interrupted = None;
            while !searching.is_finished() {
                std::thread::sleep(Duration::from_millis(50));
                if interrupted.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        stop.store(true, Ordering::SeqCst);
                        interrupted = Some(e);
                    }
                }
            }
            let result = searching
                .join()
                .unwrap_or_else(|_| Err(Error::Internal("the search thread panicked".to_string())));
            (result, interrupted)
        })
    });
    match interrupted {
        Some(e) => Err(e),
        None => result.map_err(py_err),
    }
}

/// Every legal move of `color` on `board`, each a list of visited (row, col) squares.
///
/// board: a list of N strings of N characters from `_ b B w W`, row 0 (Black's side) first.
/// color: "b" or "w". rules: "deepomatic" (the default) or "standard".
/// Raises ValueError, with the JSON mode's message, for a board or colour it cannot use.
#[pyfunction]
#[pyo3(signature = (board, color, rules = "deepomatic".to_string()))]
fn allowed_moves(
    board: Vec<String>,
    color: String,
    rules: String,
) -> PyResult<Vec<Vec<(usize, usize)>>> {
    run(|| checkers::allowed_moves(&board, &color, &rules))
}

/// The board (a new list of strings) after `color` plays `move`, one of allowed_moves.
///
/// move: a list of (row, col) pairs (tuples or lists). Raises ValueError for a bad board or
/// colour, or a move that is not legal.
#[pyfunction]
#[pyo3(signature = (board, color, r#move, rules = "deepomatic".to_string()))]
fn apply_move(
    board: Vec<String>,
    color: String,
    r#move: Vec<Vec<i64>>,
    rules: String,
) -> PyResult<Vec<String>> {
    let mut path = Vec::with_capacity(r#move.len());
    for square in &r#move {
        match square[..] {
            [r, c] if r >= 0 && c >= 0 => path.push((r as usize, c as usize)),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "bad square {square:?} in the move: expected (row, col)"
                )))
            }
        }
    }
    run(|| checkers::apply_move(&board, &color, &path, &rules))
}

/// The engine's move for `color` on `board`: a list of visited (row, col) squares.
///
/// time: seconds per move (default 1.0 when no depth is given); depth: plies. With both,
/// the search stops at whichever comes first. Raises ValueError for a bad board, colour,
/// time or depth, or when `color` has no legal move. Releases the GIL while it searches.
#[pyfunction]
#[pyo3(signature = (board, color, rules = "deepomatic".to_string(), time = None, depth = None))]
fn play(
    py: Python<'_>,
    board: Vec<String>,
    color: String,
    rules: String,
    time: Option<f64>,
    depth: Option<i64>,
) -> PyResult<Vec<(usize, usize)>> {
    interruptible(py, |stop| checkers::play_until(&board, &color, &rules, time, depth, stop))
}

/// A game loaded by `ply_games.load(name, **options)`.
#[pyclass(frozen, name = "Game", module = "ply_games")]
struct PyGame {
    inner: Arc<dyn DynGame>,
}

/// A position of a game. States are immutable: `Game.apply` returns a new one.
#[pyclass(frozen, name = "State", module = "ply_games")]
struct PyState {
    game: Arc<dyn DynGame>,
    state: games::State,
}

impl PyGame {
    fn wrap(&self, state: games::State) -> PyState {
        PyState { game: self.inner.clone(), state }
    }
}

/// Applies `mv` (notation text, or an index in `legal_moves`) to `state` in `game`.
fn apply_any(
    game: &Arc<dyn DynGame>,
    state: &games::State,
    mv: &Bound<'_, PyAny>,
) -> PyResult<games::State> {
    if mv.is_instance_of::<PyString>() {
        let text: String = mv.extract()?;
        return run(|| game.apply(state, &text));
    }
    if mv.is_instance_of::<pyo3::types::PyInt>() {
        let index: i64 = mv.extract()?;
        let index = usize::try_from(index).map_err(|_| {
            PyValueError::new_err(format!("move index {index} out of range: it cannot be negative"))
        })?;
        return run(|| game.apply_index(state, index));
    }
    Err(PyTypeError::new_err("a move is a str (notation) or an int (an index in legal_moves)"))
}

#[pymethods]
impl PyGame {
    /// The registry name, such as "english-checkers".
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }

    /// The options it was loaded with, as a dict of strings (and players as an int).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let o = self.inner.options();
        if let Some(r) = &o.rules {
            d.set_item("rules", r)?;
        }
        if let Some(s) = &o.size {
            d.set_item("size", s)?;
        }
        if let Some(p) = o.players {
            d.set_item("players", p)?;
        }
        for (k, v) in &o.variants {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// A line about the game.
    #[getter]
    fn summary(&self) -> String {
        self.inner.info().summary.clone()
    }

    /// The options the game accepts, their values and defaults.
    #[getter]
    fn options_help(&self) -> String {
        self.inner.info().options_help.clone()
    }

    /// A name per seat ("Black", "White"); empty where the game names none.
    #[getter]
    fn seat_names(&self) -> Vec<String> {
        self.inner.info().seat_names.clone()
    }

    /// How many players take part.
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    /// The size of the move-key space: every legal_move_keys value is below it (0: no keys).
    fn move_key_space(&self) -> u32 {
        self.inner.move_key_space()
    }

    /// The start position.
    fn new_initial_state(&self) -> PyState {
        self.wrap(self.inner.initial_state())
    }

    /// The legal moves of `state` in notation, in generation order (empty when terminal).
    fn legal_moves(&self, state: &Bound<'_, PyState>) -> PyResult<Vec<String>> {
        run(|| self.inner.legal_moves(&state.get().state))
    }

    /// The move key (Game::move_key) of each legal move, in the order of legal_moves.
    fn legal_move_keys(&self, state: &Bound<'_, PyState>) -> PyResult<Vec<u32>> {
        run(|| self.inner.legal_move_keys(&state.get().state))
    }

    /// The state after `move` (notation text, or an index in legal_moves(state)); `state` is
    /// not changed. Raises ValueError for a move that is not legal.
    #[pyo3(signature = (state, r#move))]
    fn apply(&self, state: &Bound<'_, PyState>, r#move: &Bound<'_, PyAny>) -> PyResult<PyState> {
        apply_any(&self.inner, &state.get().state, r#move).map(|s| self.wrap(s))
    }

    /// True when the game is over.
    fn is_terminal(&self, state: &Bound<'_, PyState>) -> PyResult<bool> {
        run(|| self.inner.is_terminal(&state.get().state))
    }

    /// Each player's reward: 1 for a sole win, 0 for a sole loss, 0.5 each for a two-player
    /// draw (ranks in between with more players); zeros while the game goes on.
    fn returns(&self, state: &Bound<'_, PyState>) -> PyResult<Vec<f64>> {
        run(|| self.inner.returns(&state.get().state))
    }

    /// The seat to move (0 moves first), or TERMINAL (-4) when the game is over.
    fn current_player(&self, state: &Bound<'_, PyState>) -> PyResult<i64> {
        run(|| self.inner.current_player(&state.get().state))
    }

    /// The game's heuristic evaluation of `state` for `player` (larger is better).
    fn evaluate(&self, state: &Bound<'_, PyState>, player: usize) -> PyResult<f64> {
        run(|| self.inner.evaluate(&state.get().state, player))
    }

    /// The position as text (FEN or the game's equivalent).
    #[pyo3(name = "to_string")]
    fn format_state(&self, state: &Bound<'_, PyState>) -> PyResult<String> {
        run(|| self.inner.format_state(&state.get().state))
    }

    /// Reads a position from its text; raises ValueError with the notation's message.
    #[pyo3(name = "from_string")]
    fn parse_state(&self, text: String) -> PyResult<PyState> {
        run(|| self.inner.parse_state(&text)).map(|s| self.wrap(s))
    }

    /// A multi-line picture of the position.
    fn render(&self, state: &Bound<'_, PyState>) -> PyResult<String> {
        run(|| self.inner.render(&state.get().state))
    }

    /// A game in play (ply_games.Game.session): `seats` has an entry per seat, None for a
    /// person or an agent spec ("alphabeta:depth=4"); no seats is a person in the first seat
    /// and the game's engine in the others. Engines are seeded from `seed` (the clock's by
    /// default).
    #[pyo3(signature = (seats = Vec::new(), seed = None))]
    fn session(&self, seats: Vec<Option<String>>, seed: Option<u64>) -> PyResult<PySession> {
        let session = run(|| games::session(&self.inner, &seats, seed))?;
        Ok(PySession {
            monitor: session.monitor(),
            session: Mutex::new(session),
            game: self.inner.clone(),
        })
    }

    /// This game (games are immutable, so a clone is the same game).
    fn clone(&self) -> PyGame {
        PyGame { inner: self.inner.clone() }
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyGame>().is_ok_and(|o| o.get().inner.key() == self.inner.key())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.key().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        let o = self.inner.options();
        let mut args = vec![format!("{:?}", self.inner.name())];
        if let Some(r) = &o.rules {
            args.push(format!("rules={r:?}"));
        }
        if let Some(s) = &o.size {
            args.push(format!("size={s:?}"));
        }
        if let Some(p) = o.players {
            args.push(format!("players={p}"));
        }
        for (k, v) in &o.variants {
            args.push(format!("{k}={v:?}"));
        }
        format!("ply_games.load({})", args.join(", "))
    }
}

#[pymethods]
impl PyState {
    /// The game this state belongs to.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame { inner: self.game.clone() }
    }

    /// The legal moves in notation (Game.legal_moves).
    fn legal_moves(&self) -> PyResult<Vec<String>> {
        run(|| self.game.legal_moves(&self.state))
    }

    /// The move keys of the legal moves (Game.legal_move_keys).
    fn legal_move_keys(&self) -> PyResult<Vec<u32>> {
        run(|| self.game.legal_move_keys(&self.state))
    }

    /// The state after `move` (Game.apply); this state is not changed.
    #[pyo3(signature = (r#move))]
    fn child(&self, r#move: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let state = apply_any(&self.game, &self.state, r#move)?;
        Ok(PyState { game: self.game.clone(), state })
    }

    /// True when the game is over (Game.is_terminal).
    fn is_terminal(&self) -> PyResult<bool> {
        run(|| self.game.is_terminal(&self.state))
    }

    /// Each player's reward (Game.returns).
    fn returns(&self) -> PyResult<Vec<f64>> {
        run(|| self.game.returns(&self.state))
    }

    /// The seat to move, or TERMINAL (Game.current_player).
    fn current_player(&self) -> PyResult<i64> {
        run(|| self.game.current_player(&self.state))
    }

    /// A multi-line picture of the position (Game.render).
    fn render(&self) -> PyResult<String> {
        run(|| self.game.render(&self.state))
    }

    /// This state (states are immutable, so a clone is an equal state).
    fn clone(&self) -> PyState {
        PyState { game: self.game.clone(), state: self.state.clone() }
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    fn __str__(&self) -> PyResult<String> {
        run(|| self.game.format_state(&self.state))
    }

    fn __repr__(&self) -> PyResult<String> {
        let text = run(|| self.game.format_state(&self.state))?;
        Ok(format!("<ply_games.State of {}: {text:?}>", self.game.key()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<PyState>() else { return Ok(false) };
        let other = other.get();
        if other.state.game_key() != self.state.game_key() {
            return Ok(false);
        }
        run(|| self.game.equal(&self.state, &other.state))
    }

    fn __hash__(&self) -> PyResult<u64> {
        use std::hash::{Hash, Hasher};
        let text = run(|| self.game.format_state(&self.state))?;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.state.game_key(), text).hash(&mut h);
        Ok(h.finish())
    }
}

/// A game in play: moves, engine moves, hints, undo and redo, analyses, saved games.
/// Every answer is a dict (the web board's JSON shapes, docs/web.md).
#[pyclass(frozen, name = "Session", module = "ply_games")]
struct PySession {
    session: Mutex<Box<dyn DynSession>>,
    monitor: Monitor,
    game: Arc<dyn DynGame>,
}

impl PySession {
    /// Runs `work` on the session with the GIL released, on a thread of its own, while this
    /// thread looks every 100 ms at Python's signals (Ctrl-C stops the job and raises
    /// KeyboardInterrupt) and, given `progress`, calls it with what the search shows
    /// (`{"thinking": ..., "status": ...}`) whenever that changes.
    fn job<T: Send>(
        &self,
        py: Python<'_>,
        progress: Option<&Bound<'_, PyAny>>,
        work: impl FnOnce(&mut dyn DynSession) -> crate::Result<T> + Send,
    ) -> PyResult<T> {
        let monitor = self.monitor.clone();
        monitor.handle().begin(false);
        let progress = progress.map(|p| p.clone().unbind());
        let (result, failed) = py.detach(|| {
            std::thread::scope(|scope| {
                let working = scope.spawn(|| {
                    guard(|| {
                        let mut session = self.session.lock().unwrap_or_else(|e| e.into_inner());
                        work(&mut **session)
                    })
                });
                let mut failed: Option<PyErr> = None;
                let mut last = String::new();
                while !working.is_finished() {
                    std::thread::sleep(Duration::from_millis(100));
                    if failed.is_some() {
                        continue;
                    }
                    let live = monitor.snapshot();
                    let text = serde_json::to_string(&live).unwrap_or_default();
                    let called = Python::attach(|py| -> PyResult<()> {
                        py.check_signals()?;
                        if let Some(callback) = progress.as_ref().filter(|_| text != last) {
                            callback.call1(py, (view_to_py(py, &live)?,))?;
                        }
                        Ok(())
                    });
                    last = text;
                    if let Err(e) = called {
                        monitor.stop();
                        failed = Some(e);
                    }
                }
                let result = working.join().unwrap_or_else(|_| {
                    Err(Error::Internal("the session's thread panicked".into()))
                });
                (result, failed)
            })
        });
        match failed {
            Some(e) => Err(e),
            None => result.map_err(py_err),
        }
    }

    /// The session, for a quick call.
    fn quick<T>(&self, work: impl FnOnce(&mut dyn DynSession) -> crate::Result<T>) -> PyResult<T> {
        run(|| {
            let mut session = self.session.lock().unwrap_or_else(|e| e.into_inner());
            work(&mut **session)
        })
    }
}

#[pymethods]
impl PySession {
    /// The game this session plays.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame { inner: self.game.clone() }
    }

    /// The game as a dict: the position after `at` moves (the last by default), its diagram,
    /// the moves so far, the legal moves with their cells, the seats and the result.
    #[pyo3(signature = (at = None))]
    fn view<'py>(&self, py: Python<'py>, at: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        let view = self.quick(|s| s.view(at))?;
        view_to_py(py, &view)
    }

    /// Plays `move`: its notation, or its index in the view's legal moves.
    #[pyo3(signature = (r#move))]
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        if r#move.is_instance_of::<PyString>() {
            let text: String = r#move.extract()?;
            return self.quick(|s| s.play_text(&text));
        }
        if r#move.is_instance_of::<pyo3::types::PyInt>() {
            let index: i64 = r#move.extract()?;
            let index = usize::try_from(index).map_err(|_| {
                PyValueError::new_err(format!(
                    "move index {index} out of range: it cannot be negative"
                ))
            })?;
            return self.quick(|s| s.play_index(index));
        }
        Err(PyTypeError::new_err("a move is a str (notation) or an int (an index in legal)"))
    }

    /// The engine of the seat to move plays; its search report as a dict. `progress` is
    /// called with what the search shows while it runs.
    #[pyo3(signature = (progress = None))]
    fn engine_move<'py>(
        &self,
        py: Python<'py>,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let report = self.job(py, progress, |s| s.engine_move())?;
        view_to_py(py, &report)
    }

    /// The move the seat's helper engine suggests, with its report (and `index` in legal).
    #[pyo3(signature = (progress = None))]
    fn hint<'py>(
        &self,
        py: Python<'py>,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let report = self.job(py, progress, |s| s.hint())?;
        view_to_py(py, &report)
    }

    /// Each move's value beside the best move's, by `engine` (an agent spec; the game's
    /// engine by default). `progress` is called as it goes; Ctrl-C ends it with the moves
    /// analysed so far (`"stopped": True`).
    #[pyo3(signature = (engine = None, progress = None))]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        engine: Option<String>,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let spec = match engine {
            Some(text) => run(|| text.parse::<ply_tools::spec::AgentSpec>().map_err(Error::from))?,
            None => self.game.default_engine().clone(),
        };
        let analysis = self.job(py, progress, |s| s.analyse(&spec))?;
        view_to_py(py, &analysis)
    }

    /// Takes back to the last move a person chose: whether anything was taken back.
    fn undo(&self) -> PyResult<bool> {
        self.quick(|s| Ok(s.undo()))
    }

    /// Plays again what undo took back: whether anything was.
    fn redo(&self) -> PyResult<bool> {
        self.quick(|s| Ok(s.redo()))
    }

    /// Back to the start position.
    fn new_game(&self) -> PyResult<()> {
        self.quick(|s| {
            s.new_game();
            Ok(())
        })
    }

    /// Back to the first `plies` moves: how many were taken back.
    fn take_back_to(&self, plies: usize) -> PyResult<usize> {
        self.quick(|s| Ok(s.take_back_to(plies)))
    }

    /// Seats `seat` (from 0) with a person (`engine=None`) or an engine spec.
    #[pyo3(signature = (seat, engine = None))]
    fn set_seat(&self, seat: usize, engine: Option<String>) -> PyResult<()> {
        self.quick(|s| {
            let spec = engine.map(|t| t.parse::<ply_tools::spec::AgentSpec>()).transpose()?;
            s.set_seat(seat, spec)
        })
    }

    /// Continues the game in `text` (PDN, GGF or ply's text): the number of moves read.
    fn load(&self, text: &str) -> PyResult<usize> {
        self.quick(|s| s.load(text))
    }

    /// The game in its record format: `{"text": ..., "extension": "pdn" | "ggf" | "txt"}`.
    fn save<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let saved = self.quick(|s| Ok(s.save()))?;
        view_to_py(py, &saved)
    }

    fn __repr__(&self) -> String {
        format!("<ply_games.Session of {}>", self.game.key())
    }
}

/// What a search found (ply_games.search).
#[pyclass(frozen, get_all, name = "SearchResult", module = "ply_games")]
struct PySearchResult {
    /// The move to play, in notation.
    r#move: String,
    /// Its index in legal_moves(state).
    index: usize,
    /// The value's kind: "heuristic", "reward", "win", "loss", "draw" or "unknown".
    kind: String,
    /// The heuristic score (alpha-beta family) or expected reward in [0, 1] (MCTS), else None.
    value: Option<f64>,
    /// Plies to the proven end for "win" and "loss", else None.
    plies: Option<u32>,
    /// The value as the tools print it ("+35", "61.2%", "win in 5").
    value_text: String,
    /// The principal variation in notation, the move first.
    pv: Vec<String>,
    /// Depth of the last completed iteration (alpha-beta) or of the tree (MCTS).
    depth: u32,
    /// Deepest ply reached, quiescence included.
    seldepth: u32,
    /// Nodes visited.
    nodes: u64,
    /// MCTS iterations (0 for other searches).
    iterations: u64,
    /// Seconds spent.
    elapsed: f64,
    /// The agent spec that searched, in canonical form.
    agent: String,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(move={:?}, value={}, depth={}, nodes={}, agent={:?})",
            self.r#move, self.value_text, self.depth, self.nodes, self.agent
        )
    }
}

impl From<games::SearchResult> for PySearchResult {
    fn from(r: games::SearchResult) -> Self {
        use ply::search::Value;
        let (kind, value, plies) = match r.value {
            Value::Heuristic(v) => ("heuristic", Some(v), None),
            Value::Reward(v) => ("reward", Some(v), None),
            Value::Win(n) => ("win", None, Some(n)),
            Value::Loss(n) => ("loss", None, Some(n)),
            Value::Draw => ("draw", None, None),
            Value::Unknown => ("unknown", None, None),
        };
        PySearchResult {
            r#move: r.best_move,
            index: r.index,
            kind: kind.to_string(),
            value,
            plies,
            value_text: r.value.to_string(),
            pv: r.pv,
            depth: r.depth,
            seldepth: r.seldepth,
            nodes: r.nodes,
            iterations: r.iterations,
            elapsed: r.elapsed.as_secs_f64(),
            agent: r.agent,
        }
    }
}

/// The game `name` with options as the command line has them (the Python front end is
/// ply_games.load(name, **options)).
#[pyfunction]
#[pyo3(signature = (name, rules = None, size = None, players = None, variants = Vec::new()))]
fn load(
    name: String,
    rules: Option<String>,
    size: Option<String>,
    players: Option<i64>,
    variants: Vec<(String, String)>,
) -> PyResult<PyGame> {
    let players = players
        .map(|p| {
            usize::try_from(p).map_err(|_| {
                PyValueError::new_err(format!(
                    "{name}: bad --players {p}: expected a positive number"
                ))
            })
        })
        .transpose()?;
    let options = GameOptions { rules, size, players, variants };
    run(|| games::load(&name, &options)).map(|inner| PyGame { inner })
}

/// The names of the games load() knows.
#[pyfunction]
fn game_names() -> Vec<String> {
    games::names()
}

/// Searches `state` with the agent `algorithm` plus `options` ((key, value) strings) and
/// `time` in seconds (the Python front end is ply_games.search). Releases the GIL.
#[pyfunction]
#[pyo3(signature = (game, state, algorithm, options = Vec::new(), time = None))]
fn search(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    state: &Bound<'_, PyState>,
    algorithm: String,
    options: Vec<(String, String)>,
    time: Option<f64>,
) -> PyResult<PySearchResult> {
    let game = game.get().inner.clone();
    let state = state.get().state.clone();
    let result = interruptible(py, |stop| {
        let spec = games::agent_spec(&algorithm, &options, time)?;
        Ok(game.search_until(&state, &spec, games::clock_seed(), stop)?)
    })?;
    Ok(result.into())
}

fn depth_arg(depth: i64) -> PyResult<u32> {
    u32::try_from(depth)
        .map_err(|_| PyValueError::new_err(format!("bad depth {depth}: expected 0 or more plies")))
}

/// The number of leaves `depth` plies below `state` (bulk counting). Releases the GIL.
#[pyfunction]
fn perft(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    state: &Bound<'_, PyState>,
    depth: i64,
) -> PyResult<u64> {
    let depth = depth_arg(depth)?;
    let game = game.get().inner.clone();
    let state = state.get().state.clone();
    py.detach(|| run(|| game.perft(&state, depth)))
}

/// Perft split by first move: a list of (move, leaves) in generation order. Releases the GIL.
#[pyfunction]
fn divide(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    state: &Bound<'_, PyState>,
    depth: i64,
) -> PyResult<Vec<(String, u64)>> {
    let depth = depth_arg(depth)?;
    let game = game.get().inner.clone();
    let state = state.get().state.clone();
    py.detach(|| run(|| game.divide(&state, depth)))
}

/// `state`'s exact value under perfect play (ply's `solve`): a dict with value, result,
/// plies, text, best, moves (with `analyse`), nodes and time_ms. Releases the GIL; Ctrl-C
/// stops it with KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (game, state, weak=false, analyse=false, time=None, memory=256, threads=0))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    state: &Bound<'py, PyState>,
    weak: bool,
    analyse: bool,
    time: Option<f64>,
    memory: usize,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let time = match time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(PyValueError::new_err(format!("bad time {t}: expected seconds above 0")));
        }
        t => t.map(Duration::from_secs_f64),
    };
    let limits = ply_tools::solve::SolveLimits { weak, analyse, memory_mib: memory, threads, time };
    let game = game.get().inner.clone();
    let state = state.get().state.clone();
    let report = interruptible(py, |stop| Ok(game.solve(&state, &limits, stop)?))?;
    view_to_py(py, &report)
}

/// The native part of ply_games: use the package (`import ply_games`), not this module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_items(m)
}

/// Adds the package's native API to `m` (the classes `Game`, `State` and `SearchResult`, the
/// functions `load`, `game_names`, `search`, `perft` and `divide`, the constants and the
/// `checkers` submodule), serving the games of `registry` in place of the bundled ones: the
/// one call a crate's own Python module makes to expose its games.
///
/// ```ignore
/// use pyo3::prelude::*;
///
/// #[pymodule]
/// fn my_games(m: &Bound<'_, PyModule>) -> PyResult<()> {
///     let mut games = ply_bundle::registry();
///     games.add(my_crate::nim_entry());
///     ply_games::bindings::add_api(m, games)
/// }
/// ```
///
/// # Errors
/// `RuntimeError` if this process already serves a registry (two modules of ply in one
/// interpreter share one list of games).
pub fn add_api(m: &Bound<'_, PyModule>, registry: ply_tools::registry::Registry) -> PyResult<()> {
    games::use_registry(registry).map_err(py_err)?;
    add_items(m)
}

fn add_items(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // The checkers networks load once, in tens to hundreds of milliseconds: on a thread of
    // their own at import, so that the first `play` spends its time searching.
    std::thread::spawn(ply_checkers::engine::warm);
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("TERMINAL", games::TERMINAL)?;
    m.add("DEFAULT_SEARCH_TIME", games::DEFAULT_SEARCH_TIME.as_secs_f64())?;
    let agents: Vec<&str> = ply_tools::spec::Algorithm::all().map(|a| a.name()).collect();
    m.add("AGENTS", agents)?;
    m.add("AGENTS_HELP", ply_tools::spec::accepted())?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PySearchResult>()?;
    m.add_class::<PySession>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(game_names, m)?)?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(divide, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    let sub = PyModule::new(py, "checkers")?;
    sub.add_function(wrap_pyfunction!(allowed_moves, &sub)?)?;
    sub.add_function(wrap_pyfunction!(play, &sub)?)?;
    sub.add_function(wrap_pyfunction!(apply_move, &sub)?)?;
    m.add_submodule(&sub)?;
    Ok(())
}
