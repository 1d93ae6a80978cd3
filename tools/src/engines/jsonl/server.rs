//! The JSON-lines server: a game's rules and a ply agent for any program (the challenge's
//! Python harness, an arena), for any game with a [`JsonlCodec`].
//!
//! - moves ([`answer_moves`], [`serve_moves`]): `{"board": [...rows...], "color": "b"}`
//!   gives every legal move as an array of moves, each an array of `[row, col]` pairs (the
//!   seed's `allowed_moves`);
//! - play ([`PlayServer`]): the same with an optional `"time_ms"` gives the engine's move as
//!   an array of `[row, col]` pairs (the seed's `play`).
//!
//! A line that cannot be used gets `{"error": "..."}`.
//!
//! # One game across requests
//!
//! A [`PlayServer`] keeps its engine, and with it the transposition table, from one request
//! to the next, and follows the game: a board that one legal move of the side to move turns
//! from the position after its last answer continues the game, so that repetitions count and
//! the draw counters run on. A request may also say where it stands outright, with optional
//! fields:
//!
//! - `"moves"`: the game's moves so far (each a `[row, col]` path), played from `"start"`
//!   (`{"board": [...], "color": "b"}`, default the usual starting position of the board's
//!   size); they must lead to `"board"` and `"color"`;
//! - `"new_game": true`: a new game starts (a fresh engine and table).
//!
//! # The end of the input
//!
//! The end of the input means quit, as in the engines of the field: [`PlayServer::serve`]
//! reads on a thread of its own, and when the input closes, the search in progress stops at
//! once and answers with the best move it has found; requests still waiting are answered the
//! same way (each search stopped before it starts, so the engine's first choice), and the
//! server returns.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use ply::search::{Agent, Budget, Position};
use ply::{Game, MoveList};
use serde::Deserialize;
use serde_json::json;

use super::{JsonlCodec, Path};
use crate::engines::EngineError;
use crate::error::ToolResult;

/// A position as a request gives it: rows and the colour to move.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Board {
    board: Vec<String>,
    color: String,
}

/// One request line.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Request {
    board: Vec<String>,
    color: String,
    #[serde(default)]
    time_ms: Option<u64>,
    #[serde(default)]
    moves: Option<Vec<Vec<[usize; 2]>>>,
    #[serde(default)]
    start: Option<Board>,
    #[serde(default)]
    new_game: Option<bool>,
}

/// The error line for `message`.
fn error(message: impl std::fmt::Display) -> String {
    json!({ "error": message.to_string() }).to_string()
}

fn color_char(color: &str) -> Result<char, EngineError> {
    let mut chars = color.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => {
            Err(EngineError::Protocol(format!("unknown colour {color:?}: expected \"b\" or \"w\"")))
        }
    }
}

/// The longest thinking time a request may ask for, in milliseconds (one hour).
pub const MAX_TIME_MS: u64 = 3_600_000;

/// The longest request line read, in bytes; a longer one is answered with an error.
pub const MAX_LINE: usize = 1 << 20;

/// Kept back from a `play` request's time: a tenth of it, between 1 and 10 ms.
fn answer_margin(time: Duration) -> Duration {
    (time / 10).clamp(Duration::from_millis(1), Duration::from_millis(10))
}

/// A path as JSON pairs.
fn pairs(path: &[(usize, usize)]) -> Vec<[usize; 2]> {
    path.iter().map(|&(r, c)| [r, c]).collect()
}

/// A board's height and width, which tell one game from another of the same rules.
fn dims(board: &[String]) -> (usize, usize) {
    (board.len(), board.first().map_or(0, |row| row.chars().count()))
}

/// The answer to one line of the moves mode: every legal move of the board in a game like
/// `game` (its rules), or an error object.
pub fn answer_moves<G: Game>(line: &str, game: &G, codec: JsonlCodec<G>) -> String {
    match moves_of(line, game, codec) {
        Ok(moves) => {
            let moves: Vec<_> = moves.iter().map(|m| pairs(m)).collect();
            json!(moves).to_string()
        }
        Err(e) => error(e),
    }
}

fn moves_of<G: Game>(line: &str, game: &G, codec: JsonlCodec<G>) -> Result<Vec<Path>, EngineError> {
    let request: Request = serde_json::from_str(line)
        .map_err(|e| EngineError::Protocol(format!("bad request: {e}")))?;
    let color = color_char(&request.color)?;
    let play_only = [
        ("time_ms", request.time_ms.is_some()),
        ("moves", request.moves.is_some()),
        ("start", request.start.is_some()),
        ("new_game", request.new_game.is_some()),
    ];
    if let Some((field, _)) = play_only.iter().find(|(_, given)| *given) {
        return Err(EngineError::Protocol(format!("{field} is only read by the play mode")));
    }
    match (codec.read_board)(game, &request.board, color) {
        Ok((game, state)) => {
            let moves = (codec.legal_paths)(&game, &state)?;
            Ok(moves.into_iter().map(|(_, path)| path).collect())
        }
        Err(e) => match codec.other_boards.map(|o| (o.moves)(game, &request.board, color)) {
            Some(Ok(Some(moves))) => Ok(moves),
            Some(Err(other)) => Err(EngineError::protocol(other)),
            Some(Ok(None)) | None => Err(EngineError::protocol(e)),
        },
    }
}

/// Builds the engine of a [`PlayServer`] for a game (its rules and board size): typically
/// an agent spec through the game's registration
/// ([`GameEntry::kit_for`](crate::registry::GameEntry::kit_for)), with the book and tables of
/// that game.
pub type EngineBuilder<G> = Box<dyn FnMut(&G) -> ToolResult<Box<dyn Agent<G> + Send>> + Send>;

/// The play mode: answers requests with the engine's move, keeping the engine and the game
/// from one request to the next (see the [module documentation](self)).
pub struct PlayServer<G: Game> {
    /// The game whose rules the boards are read in.
    game: G,
    codec: JsonlCodec<G>,
    time: Duration,
    build: EngineBuilder<G>,
    session: Option<Session<G>>,
    /// Set when the input has closed: stops the search in progress and every later one.
    closed: Arc<AtomicBool>,
}

/// The game a [`PlayServer`] is in.
struct Session<G: Game> {
    game: G,
    /// The board's height and width.
    dims: (usize, usize),
    engine: Box<dyn Agent<G> + Send>,
    /// The position after the engine's last move, if it has moved in this game.
    after: Option<G::State>,
    /// The hashes of the game's positions up to `after` (or up to the last request's).
    history: Vec<u64>,
}

impl<G: Game> PlayServer<G> {
    /// A server reading boards in games like `game` (its rules, any board size the codec
    /// reads), whose engine `build` makes once per game and board size, thinking `time` a
    /// move when a request gives no `time_ms`.
    pub fn new(game: G, codec: JsonlCodec<G>, time: Duration, build: EngineBuilder<G>) -> Self {
        PlayServer { game, codec, time, build, session: None, closed: Arc::default() }
    }

    /// The answer to one request line: the engine's move as `[row, col]` pairs, or an error
    /// object.
    pub fn answer(&mut self, line: &str) -> String {
        match self.try_answer(line) {
            Ok(path) => json!(pairs(&path)).to_string(),
            Err(e) => error(e),
        }
    }

    fn try_answer(&mut self, line: &str) -> Result<Path, EngineError> {
        let request: Request = serde_json::from_str(line)
            .map_err(|e| EngineError::Protocol(format!("bad request: {e}")))?;
        let color = color_char(&request.color)?;
        if request.time_ms.is_some_and(|t| t == 0 || t > MAX_TIME_MS) {
            return Err(EngineError::Protocol(format!("time_ms must be from 1 to {MAX_TIME_MS}")));
        }
        let time = request.time_ms.map_or(self.time, Duration::from_millis);
        // The answer must arrive within `time_ms`: keep back a margin for reading the
        // request, setting up the search and writing the answer on a loaded machine.
        // The time runs from here: building an engine for a new game is part of it.
        let answer_by = Instant::now() + time.saturating_sub(answer_margin(time));
        let budget = Budget::time(time.saturating_sub(answer_margin(time)))
            .with_deadline(answer_by)
            .with_stop(self.closed.clone());
        let (game, state) = match (self.codec.read_board)(&self.game, &request.board, color) {
            Ok(read) => read,
            // Boards the game plays outside any game (the seed's checkers boards with pieces
            // on both colours of square), by a fresh engine of its own.
            Err(e) => {
                let alone = request.moves.is_none() && request.start.is_none();
                if let Some(other) = self.codec.other_boards.filter(|_| alone) {
                    if let Some(path) = (other.play)(&self.game, &request.board, color, &budget)? {
                        return Ok(path);
                    }
                }
                return Err(EngineError::protocol(e));
            }
        };
        let dims = dims(&request.board);
        if request.new_game == Some(true) || self.session.as_ref().is_none_or(|s| s.dims != dims) {
            let engine = (self.build)(&game)?;
            self.session = Some(Session { game, dims, engine, after: None, history: Vec::new() });
        }
        let Some(session) = self.session.as_mut() else {
            return Err(EngineError::protocol("no game to play"));
        };
        let state = match &request.moves {
            Some(moves) => {
                let start = request.start.as_ref();
                session.replay(&self.game, self.codec, start, moves, &state)?
            }
            None => session.follow(self.codec, state),
        };
        session.play(self.codec, state, &budget)
    }

    /// Builds the engine of the starting position's game now, so that its first answer does
    /// not spend its time loading networks, books or tables; a request for another board
    /// size builds its own.
    fn warm(&mut self) {
        if self.session.is_some() {
            return;
        }
        let start = self.game.initial_state();
        let Ok((board, color)) = (self.codec.request)(&self.game, &start) else {
            return;
        };
        if let Ok((game, _)) = (self.codec.read_board)(&self.game, &board, color) {
            if let Ok(engine) = (self.build)(&game) {
                let dims = dims(&board);
                self.session =
                    Some(Session { game, dims, engine, after: None, history: Vec::new() });
            }
        }
    }

    /// Answers every non-blank line of `input` on `out` until the end of the input, which
    /// stops the search in progress (see [the end of the input](self#the-end-of-the-input)).
    /// The input is read on a thread of its own.
    ///
    /// # Errors
    /// If the input cannot be read; a closed output ends the loop quietly.
    pub fn serve(
        mut self,
        input: impl BufRead + Send + 'static,
        out: &mut impl Write,
    ) -> io::Result<()> {
        self.warm();
        let (tx, rx) = mpsc::channel();
        let closed = self.closed.clone();
        let reader = std::thread::spawn(move || {
            let mut input = input;
            let result = loop {
                match next_request(&mut input) {
                    Ok(Some(request)) => {
                        if tx.send(request).is_err() {
                            break Ok(());
                        }
                    }
                    Ok(None) => break Ok(()),
                    Err(e) => break Err(e),
                }
            };
            closed.store(true, Ordering::SeqCst);
            result
        });
        for request in rx {
            let reply = match request {
                Ok(line) => self.answer(&line),
                Err(bad) => error(bad),
            };
            if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
                // Nobody reads the answers: quit (the reader ends with the input).
                return Ok(());
            }
        }
        reader.join().unwrap_or_else(|_| Err(io::Error::other("the input reader panicked")))
    }
}

impl<G: Game> Session<G> {
    fn hash(&self, state: &G::State) -> u64 {
        self.game.hash(state).unwrap_or_default()
    }

    /// The request's position `state` as the game's next position if one legal move turns
    /// the position after the engine's last move into it; else as a new start.
    fn follow(&mut self, codec: JsonlCodec<G>, state: G::State) -> G::State {
        let seen = (codec.request)(&self.game, &state).ok();
        let next = self.after.take().filter(|_| seen.is_some()).and_then(|after| {
            let mut moves = MoveList::new();
            self.game.generate_moves(&after, &mut moves);
            moves.iter().find_map(|&mv| {
                let mut next = after.clone();
                self.game.apply(&mut next, mv);
                let same = (codec.request)(&self.game, &next).ok() == seen;
                same.then_some(next)
            })
        });
        match next {
            Some(next) => {
                self.history.push(self.hash(&next));
                next
            }
            None => {
                self.history = vec![self.hash(&state)];
                state
            }
        }
    }

    /// The position reached by `moves` from `start` (or the starting position), which must
    /// be the request's `state`; `rules` is the server's game, which reads `start`.
    fn replay(
        &mut self,
        rules: &G,
        codec: JsonlCodec<G>,
        start: Option<&Board>,
        moves: &[Vec<[usize; 2]>],
        state: &G::State,
    ) -> Result<G::State, EngineError> {
        let mut at = match start {
            Some(b) => {
                let (_, start) = (codec.read_board)(rules, &b.board, color_char(&b.color)?)
                    .map_err(|e| EngineError::Protocol(format!("start: {e}")))?;
                if dims(&b.board) != self.dims {
                    return Err(EngineError::protocol("start and board differ in size"));
                }
                start
            }
            None => self.game.initial_state(),
        };
        let mut history = vec![self.hash(&at)];
        for (i, path) in moves.iter().enumerate() {
            let path: Path = path.iter().map(|&[r, c]| (r, c)).collect();
            let mv = (codec.parse_path)(&self.game, &at, &path).map_err(|_| {
                let path = json!(pairs(&path));
                EngineError::Protocol(format!("moves[{i}] {path} is not a legal move there"))
            })?;
            self.game.apply(&mut at, mv);
            history.push(self.hash(&at));
        }
        let reached = (codec.request)(&self.game, &at).map_err(EngineError::protocol)?;
        if Some(reached) != (codec.request)(&self.game, state).ok() {
            return Err(EngineError::protocol(
                "the moves do not lead to the board and colour of the request",
            ));
        }
        self.history = history;
        self.after = None;
        Ok(at)
    }

    /// The engine's move in `state` (the last position of the history), remembered as the
    /// game's next position.
    fn play(
        &mut self,
        codec: JsonlCodec<G>,
        state: G::State,
        budget: &Budget,
    ) -> Result<Path, EngineError> {
        let mut legal = MoveList::new();
        self.game.generate_moves(&state, &mut legal);
        let mv = match legal.as_slice() {
            [] => {
                return Err(EngineError::protocol(
                    "no move to play: the side to move has no legal move",
                ))
            }
            [only] => *only,
            _ => {
                let position = Position::with_history(&state, &self.history);
                self.engine
                    .choose(&self.game, position, budget)
                    .map_err(|e| EngineError::Protocol(format!("no move to play: {e}")))?
                    .best_move
            }
        };
        let paths = (codec.legal_paths)(&self.game, &state).map_err(EngineError::protocol)?;
        let Some((_, path)) = paths.into_iter().find(|(m, _)| *m == mv) else {
            return Err(EngineError::protocol("no move to play: the engine chose no listed move"));
        };
        let mut after = state;
        self.game.apply(&mut after, mv);
        self.history.push(self.hash(&after));
        self.after = Some(after);
        Ok(path)
    }
}

/// Answers every non-blank line of `input` on `out` with [`answer_moves`] until the end of
/// the input. A line that is not UTF-8 text, or longer than [`MAX_LINE`], gets
/// `{"error": ...}` like any other bad line, and the next line is read.
///
/// # Errors
/// If the input cannot be read; a closed output ends the loop quietly.
pub fn serve_moves<G: Game>(
    game: &G,
    codec: JsonlCodec<G>,
    mut input: impl BufRead,
    out: &mut impl Write,
) -> io::Result<()> {
    while let Some(request) = next_request(&mut input)? {
        let reply = match request {
            Ok(line) => answer_moves(&line, game, codec),
            Err(bad) => error(bad),
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// The next non-blank line of `input` (`None` at its end), or why a line cannot be a request:
/// it is not UTF-8 text, or it is longer than [`MAX_LINE`] (the rest of it is skipped).
fn next_request(input: &mut impl BufRead) -> io::Result<Option<Result<String, EngineError>>> {
    use ply::lines::{read_line, Line};
    loop {
        match read_line(input, MAX_LINE)? {
            None => return Ok(None),
            Some(Line::Text(line)) if line.trim().is_empty() => {}
            Some(Line::Text(line)) => return Ok(Some(Ok(line))),
            Some(Line::NotUtf8) => {
                return Ok(Some(Err(EngineError::protocol("the line is not UTF-8 text"))))
            }
            Some(Line::TooLong(_)) => {
                return Ok(Some(Err(EngineError::Protocol(format!(
                    "request longer than {MAX_LINE} bytes"
                )))))
            }
        }
    }
}
