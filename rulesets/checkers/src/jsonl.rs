//! The seed's API as JSON lines (feature `json`): one request object per line, one answer
//! line each, so that any program (the challenge's Python harness, an arena) can use the rules
//! and the engine.
//!
//! - moves: `{"board": [...rows...], "color": "b"}` gives every legal move as an array of
//!   moves, each an array of `[row, col]` pairs (the seed's `allowed_moves`);
//! - play: the same with an optional `"time_ms"` gives the engine's move as an array of
//!   `[row, col]` pairs (the seed's `play`).
//!
//! A line that cannot be used gets `{"error": "..."}`.
//!
//! ```
//! use ply_checkers::{jsonl, Rules};
//!
//! let line = r#"{"board": ["________","__b_b___","_w______","______b_","_______b","________","________","________"], "color": "w"}"#;
//! assert_eq!(jsonl::answer(line, Rules::Deepomatic, None), "[[[2,1],[0,3],[2,5]]]");
//! ```
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
//!
//! ```
//! use std::time::Duration;
//! use ply_checkers::{jsonl::PlayServer, Rules};
//!
//! let mut server = PlayServer::new(Rules::Deepomatic, Duration::from_millis(20));
//! let start = r#"["_b_b_b_b","b_b_b_b_","_b_b_b_b","________","________","w_w_w_w_","_w_w_w_w","w_w_w_w_"]"#;
//! let line = format!(r#"{{"board": {start}, "color": "b", "moves": [], "time_ms": 20}}"#);
//! let reply: Vec<[usize; 2]> = serde_json::from_str(&server.answer(&line)).unwrap();
//! assert_eq!(reply.len(), 2);
//! ```

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use ply::search::{Agent, Budget, Position};
use ply::{Game, MoveList};
use serde::Deserialize;
use serde_json::json;

use crate::error::BoardError;
use crate::rules::{CheckersState, EnglishCheckers};
use crate::seed::{self, Path};
use crate::Rules;

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

fn color_char(color: &str) -> Result<char, String> {
    let mut chars = color.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(format!("unknown colour {color:?}: expected \"b\" or \"w\"")),
    }
}

/// The longest thinking time a request may ask for, in milliseconds (one hour).
pub const MAX_TIME_MS: u64 = 3_600_000;

/// Kept back from a `play` request's time: a tenth of it, between 1 and 10 ms.
fn answer_margin(time: Duration) -> Duration {
    (time / 10).clamp(Duration::from_millis(1), Duration::from_millis(10))
}

/// A path as JSON pairs.
fn pairs(path: &[(usize, usize)]) -> Vec<[usize; 2]> {
    path.iter().map(|&(r, c)| [r, c]).collect()
}

/// The answer to one line: the legal moves (`time` is `None`) or the engine's move, by a
/// fresh [`PlayServer`] (no game before this line).
pub fn answer(line: &str, rules: Rules, time: Option<Duration>) -> String {
    match time {
        None => answer_moves(line, rules),
        Some(time) => PlayServer::new(rules, time).answer(line),
    }
}

/// The answer to one line of the moves mode: every legal move.
fn answer_moves(line: &str, rules: Rules) -> String {
    let request: Request = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => return error(format!("bad request: {e}")),
    };
    let color = match color_char(&request.color) {
        Ok(c) => c,
        Err(e) => return error(e),
    };
    let play_only = [
        ("time_ms", request.time_ms.is_some()),
        ("moves", request.moves.is_some()),
        ("start", request.start.is_some()),
        ("new_game", request.new_game.is_some()),
    ];
    if let Some((field, _)) = play_only.iter().find(|(_, given)| *given) {
        return error(format!("{field} is only read by the play mode"));
    }
    match seed::allowed_moves_with(rules, &request.board, color) {
        Ok(moves) => {
            let moves: Vec<_> = moves.iter().map(|m| pairs(m)).collect();
            json!(moves).to_string()
        }
        Err(e) => error(e),
    }
}

/// Builds the engine of a [`PlayServer`] for a game (its rules and board size).
pub type EngineBuilder = Box<
    dyn FnMut(&EnglishCheckers) -> Result<Box<dyn Agent<EnglishCheckers> + Send>, String> + Send,
>;

/// The play mode: answers requests with the engine's move, keeping the engine and the game
/// from one request to the next (see the [module documentation](self)).
pub struct PlayServer {
    rules: Rules,
    time: Duration,
    build: EngineBuilder,
    session: Option<Session>,
    /// Set when the input has closed: stops the search in progress and every later one.
    closed: Arc<AtomicBool>,
}

/// The game a [`PlayServer`] is in.
struct Session {
    game: EnglishCheckers,
    engine: Box<dyn Agent<EnglishCheckers> + Send>,
    /// The position after the engine's last move, if it has moved in this game.
    after: Option<CheckersState>,
    /// The hashes of the game's positions up to `after` (or up to the last request's).
    history: Vec<u64>,
}

impl PlayServer {
    /// A server whose engine is the shipped one ([`crate::engine::engine`]: alpha-beta with
    /// [`CheckersNet`](crate::net::CheckersNet), ProbCut and, under the standard rules, LMR),
    /// thinking `time` a move when a request gives no `time_ms`.
    pub fn new(rules: Rules, time: Duration) -> Self {
        Self::with_engine(
            rules,
            time,
            Box::new(|game| Ok(Box::new(crate::engine::engine(game.rules())))),
        )
    }

    /// A server whose engine `build` makes, once per game and board size.
    pub fn with_engine(rules: Rules, time: Duration, build: EngineBuilder) -> Self {
        PlayServer { rules, time, build, session: None, closed: Arc::default() }
    }

    /// The answer to one request line: the engine's move as `[row, col]` pairs, or an error
    /// object.
    pub fn answer(&mut self, line: &str) -> String {
        match self.try_answer(line) {
            Ok(path) => json!(pairs(&path)).to_string(),
            Err(e) => error(e),
        }
    }

    fn try_answer(&mut self, line: &str) -> Result<Path, String> {
        let request: Request =
            serde_json::from_str(line).map_err(|e| format!("bad request: {e}"))?;
        let color = color_char(&request.color)?;
        if request.time_ms.is_some_and(|t| t == 0 || t > MAX_TIME_MS) {
            return Err(format!("time_ms must be from 1 to {MAX_TIME_MS}"));
        }
        let time = request.time_ms.map_or(self.time, Duration::from_millis);
        // The answer must arrive within `time_ms`: keep back a margin for reading the
        // request, setting up the search and writing the answer on a loaded machine.
        // The time runs from here: building an engine for a new game is part of it.
        let answer_by = Instant::now() + time.saturating_sub(answer_margin(time));
        let budget = Budget::time(time.saturating_sub(answer_margin(time)))
            .with_deadline(answer_by)
            .with_stop(self.closed.clone());
        let (game, state) = match seed::parse_board(&request.board, color, self.rules) {
            Ok(parsed) => parsed,
            // The seed's boards with pieces on both colours of square: played as two boards
            // by a fresh engine, outside any game.
            Err(BoardError::LightSquare { .. })
                if request.moves.is_none() && request.start.is_none() =>
            {
                return seed::play_budget(self.rules, &request.board, color, &budget)
                    .map_err(|e| e.to_string());
            }
            Err(e) => return Err(e.to_string()),
        };
        let fresh = request.new_game == Some(true)
            || self.session.as_ref().is_none_or(|s| s.game.size() != game.size());
        if fresh {
            let engine = (self.build)(&game)?;
            self.session = Some(Session { game, engine, after: None, history: Vec::new() });
        }
        let session = self.session.as_mut().expect("a session was set above");
        let state = match &request.moves {
            Some(moves) => session.replay(request.start.as_ref(), moves, &state, self.rules)?,
            None => session.follow(state),
        };
        session.play(state, &budget)
    }

    /// Builds the engine of an 8x8 game now, so that its first answer does not spend its
    /// time loading networks, books or tables; a request for another size builds its own.
    fn warm(&mut self) {
        if self.session.is_some() {
            return;
        }
        if let Ok(game) = EnglishCheckers::new(8, self.rules) {
            if let Ok(engine) = (self.build)(&game) {
                self.session = Some(Session { game, engine, after: None, history: Vec::new() });
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

impl Session {
    fn hash(&self, state: &CheckersState) -> u64 {
        self.game.hash(state).unwrap_or_default()
    }

    /// The request's position `state` as the game's next position if one legal move turns
    /// the position after the engine's last move into it; else as a new start.
    fn follow(&mut self, state: CheckersState) -> CheckersState {
        let rows = seed::board_rows(&self.game, &state);
        let to_move = self.game.to_move(&state);
        let next = self.after.take().and_then(|after| {
            let mut moves = MoveList::new();
            self.game.generate_moves(&after, &mut moves);
            moves.iter().find_map(|&mv| {
                let mut next = after;
                self.game.apply(&mut next, mv);
                let same = self.game.to_move(&next) == to_move
                    && seed::board_rows(&self.game, &next) == rows;
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
    /// be the request's `state`.
    fn replay(
        &mut self,
        start: Option<&Board>,
        moves: &[Vec<[usize; 2]>],
        state: &CheckersState,
        rules: Rules,
    ) -> Result<CheckersState, String> {
        let mut at = match start {
            Some(b) => {
                let (game, start) = seed::parse_board(&b.board, color_char(&b.color)?, rules)
                    .map_err(|e| format!("start: {e}"))?;
                if game.size() != self.game.size() {
                    return Err("start and board differ in size".into());
                }
                start
            }
            None => self.game.initial_state(),
        };
        let mut history = vec![self.hash(&at)];
        for (i, path) in moves.iter().enumerate() {
            let path: Vec<(usize, usize)> = path.iter().map(|&[r, c]| (r, c)).collect();
            let mut legal = MoveList::new();
            self.game.generate_moves(&at, &mut legal);
            let mv = legal.iter().copied().find(|&mv| self.coords(&at, mv) == path).ok_or_else(
                || format!("moves[{i}] {} is not a legal move there", json!(pairs(&path))),
            )?;
            self.game.apply(&mut at, mv);
            history.push(self.hash(&at));
        }
        if self.game.to_move(&at) != self.game.to_move(state)
            || seed::board_rows(&self.game, &at) != seed::board_rows(&self.game, state)
        {
            return Err("the moves do not lead to the board and colour of the request".into());
        }
        self.history = history;
        self.after = None;
        Ok(at)
    }

    /// The squares `mv` visits from `state`, as `(row, col)`.
    fn coords(&self, state: &CheckersState, mv: crate::Move) -> Path {
        self.game.path(state, mv).into_iter().map(|sq| self.game.coords(sq)).collect()
    }

    /// The engine's move in `state` (the last position of the history), remembered as the
    /// game's next position.
    fn play(&mut self, state: CheckersState, budget: &Budget) -> Result<Path, String> {
        let mut legal = MoveList::new();
        self.game.generate_moves(&state, &mut legal);
        let mv = match legal.as_slice() {
            [] => {
                let none = crate::Error::Search("the side to move has no legal move".into());
                return Err(none.to_string());
            }
            [only] => *only,
            _ => {
                let position = Position::with_history(&state, &self.history);
                self.engine
                    .choose(&self.game, position, budget)
                    .map_err(|e| crate::Error::Search(e.to_string()).to_string())?
                    .best_move
            }
        };
        let path = self.coords(&state, mv);
        let mut after = state;
        self.game.apply(&mut after, mv);
        self.history.push(self.hash(&after));
        self.after = Some(after);
        Ok(path)
    }
}

/// The longest request line read, in bytes; a longer one is answered with an error.
pub const MAX_LINE: usize = 1 << 20;

/// Answers every non-blank line of stdin on stdout until end of input: the legal moves
/// (`time` is `None`) or, by a [`PlayServer`] with its default engine, the engine's moves.
///
/// # Errors
/// If stdin cannot be read; a closed stdout ends the loop quietly.
pub fn serve(rules: Rules, time: Option<Duration>) -> io::Result<()> {
    serve_lines(io::BufReader::new(io::stdin()), &mut io::stdout().lock(), rules, time)
}

/// [`serve`] on any input and output.
///
/// # Errors
/// If the input cannot be read; a closed output ends the loop quietly.
pub fn serve_lines(
    input: impl BufRead + Send + 'static,
    out: &mut impl Write,
    rules: Rules,
    time: Option<Duration>,
) -> io::Result<()> {
    match time {
        None => serve_with(input, out, |line| answer_moves(line, rules)),
        Some(time) => PlayServer::new(rules, time).serve(input, out),
    }
}

/// Writes `respond`'s answer to every non-blank line of `input`. A line that is not UTF-8
/// text, or longer than [`MAX_LINE`], gets `{"error": ...}` like any other bad line, and the
/// next line is read.
fn serve_with(
    mut input: impl BufRead,
    out: &mut impl Write,
    mut respond: impl FnMut(&str) -> String,
) -> io::Result<()> {
    while let Some(request) = next_request(&mut input)? {
        let reply = match request {
            Ok(line) => respond(&line),
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
fn next_request(input: &mut impl BufRead) -> io::Result<Option<Result<String, String>>> {
    use ply::lines::{read_line, Line};
    loop {
        match read_line(input, MAX_LINE)? {
            None => return Ok(None),
            Some(Line::Text(line)) if line.trim().is_empty() => {}
            Some(Line::Text(line)) => return Ok(Some(Ok(line))),
            Some(Line::NotUtf8) => return Ok(Some(Err("the line is not UTF-8 text".into()))),
            Some(Line::TooLong(_)) => {
                return Ok(Some(Err(format!("request longer than {MAX_LINE} bytes"))))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE_2: &str = r#"{"board": ["________", "__b_b___", "_w______", "______b_", "_______b", "________", "________", "________"], "color": "w"}"#;

    #[test]
    fn lines_that_are_not_text_or_too_long_get_an_error_and_processing_goes_on() {
        let mut input = b"\xff\xfe\n".to_vec();
        input.extend_from_slice(&vec![b'x'; MAX_LINE + 10]);
        input.push(b'\n');
        input.extend_from_slice(EXAMPLE_2.as_bytes());
        input.push(b'\n');
        let mut out = Vec::new();
        serve_lines(io::Cursor::new(input), &mut out, Rules::Deepomatic, None).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].contains("not UTF-8"), "{}", lines[0]);
        assert!(lines[1].contains("longer than"), "{}", lines[1]);
        assert_eq!(lines[2], "[[[2,1],[0,3],[2,5]]]");
    }

    #[test]
    fn play_refuses_times_out_of_range() {
        for t in ["0", "3600001", "18446744073709551615"] {
            let line = format!(
                r#"{{"board": ["_b__", "____", "__w_", "____"], "color": "w", "time_ms": {t}}}"#
            );
            let reply = answer(&line, Rules::Deepomatic, Some(Duration::from_millis(10)));
            assert!(reply.contains("time_ms must be from 1 to 3600000"), "{t}: {reply}");
        }
    }

    #[test]
    fn moves_answers_the_seed_example() {
        let reply = answer(EXAMPLE_2, Rules::Deepomatic, None);
        assert_eq!(reply, "[[[2,1],[0,3],[2,5]]]");
        let standard = answer(EXAMPLE_2, Rules::Standard, None);
        assert_eq!(standard, "[[[2,1],[0,3]]]");
    }

    /// Random and mutated request lines (of the `moves` mode): always one JSON answer, an
    /// array of moves or an error object, never a panic.
    #[test]
    fn random_and_mutated_requests_get_a_json_answer() {
        let requests = [
            r#"{"board": ["_b__", "____", "__w_", "____"], "color": "w"}"#,
            r#"{"board": ["________", "__b_b___", "_w______", "______b_", "_______b", "________", "________", "________"], "color": "w"}"#,
        ];
        let answer_of = |line: &str| -> Result<serde_json::Value, String> {
            let reply = answer(line, Rules::Deepomatic, None);
            let value: serde_json::Value =
                serde_json::from_str(&reply).map_err(|e| e.to_string())?;
            if value.is_array() || value.get("error").is_some() {
                Ok(value)
            } else {
                Err(format!("{line:?} answered {reply}"))
            }
        };
        for r in requests {
            assert!(answer_of(r).unwrap().is_array(), "{r}");
        }
        // The answers are not requests: only the absence of panics and of other answers is
        // checked, through a parser that always reads its own output back.
        let values: Vec<String> = requests.iter().map(|r| r.to_string()).collect();
        let parse = |line: &str| answer_of(line).map(|_| line.to_string());
        ply::testing::check_parser(&values, |v: &String| v.clone(), parse, 2_000, 26)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn play_answers_a_legal_move() {
        let line = r#"{"board": ["_b__", "____", "__w_", "____"], "color": "w", "time_ms": 50}"#;
        let reply = answer(line, Rules::Deepomatic, Some(Duration::from_millis(1000)));
        let moves = answer(line.replace(", \"time_ms\": 50", "").as_str(), Rules::Deepomatic, None);
        let chosen: serde_json::Value = serde_json::from_str(&reply).unwrap();
        let legal: serde_json::Value = serde_json::from_str(&moves).unwrap();
        assert!(legal.as_array().unwrap().contains(&chosen), "{reply} not in {moves}");
    }

    /// An engine that plays the first legal move and records the history it is given.
    struct Recorder(std::sync::Arc<std::sync::Mutex<Vec<usize>>>);

    impl Agent<EnglishCheckers> for Recorder {
        fn name(&self) -> String {
            "recorder".into()
        }

        fn choose(
            &mut self,
            game: &EnglishCheckers,
            position: Position<'_, CheckersState>,
            _: &Budget,
        ) -> Result<ply::search::SearchReport<crate::Move>, ply::search::SearchError> {
            self.0.lock().unwrap().push(position.history.len());
            let mut moves = MoveList::new();
            game.generate_moves(position.state, &mut moves);
            Ok(ply::search::SearchReport::instant(moves[0], Duration::ZERO))
        }
    }

    /// What a [`Recorder`] shares with its test.
    type Shared<T> = Arc<Mutex<T>>;

    /// A server over [`Recorder`]s: the histories seen and the number of engines built.
    fn recording_server() -> (PlayServer, Shared<Vec<usize>>, Shared<usize>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let built = Arc::new(Mutex::new(0));
        let (s, b) = (seen.clone(), built.clone());
        let build: EngineBuilder = Box::new(move |_| {
            *b.lock().unwrap() += 1;
            Ok(Box::new(Recorder(s.clone())))
        });
        (PlayServer::with_engine(Rules::Standard, Duration::from_millis(5), build), seen, built)
    }

    /// The request line for `state`, with `extra` fields.
    fn request(game: &EnglishCheckers, state: &CheckersState, extra: &str) -> String {
        let color = if game.to_move(state) == ply::Player::FIRST { "b" } else { "w" };
        let board = serde_json::to_string(&seed::board_rows(game, state)).unwrap();
        format!(r#"{{"board": {board}, "color": "{color}"{extra}}}"#)
    }

    /// Plays a reply path onto `state`.
    fn play_path(game: &EnglishCheckers, state: &mut CheckersState, reply: &str) {
        let path: Vec<[usize; 2]> =
            serde_json::from_str(reply).unwrap_or_else(|_| panic!("{reply}"));
        let mut legal = MoveList::new();
        game.generate_moves(state, &mut legal);
        let mv = legal
            .iter()
            .copied()
            .find(|&mv| {
                let squares: Vec<[usize; 2]> = game
                    .path(state, mv)
                    .into_iter()
                    .map(|sq| game.coords(sq))
                    .map(|(r, c)| [r, c])
                    .collect();
                squares == path
            })
            .unwrap();
        game.apply(state, mv);
    }

    use std::sync::{Arc, Mutex};

    /// An engine that plays the first legal move and records the deadline it is given.
    struct Deadlines(Shared<Vec<Option<Instant>>>);

    impl Agent<EnglishCheckers> for Deadlines {
        fn name(&self) -> String {
            "deadlines".into()
        }

        fn choose(
            &mut self,
            game: &EnglishCheckers,
            position: Position<'_, CheckersState>,
            budget: &Budget,
        ) -> Result<ply::search::SearchReport<crate::Move>, ply::search::SearchError> {
            self.0.lock().unwrap().push(budget.deadline);
            let mut moves = MoveList::new();
            game.generate_moves(position.state, &mut moves);
            Ok(ply::search::SearchReport::instant(moves[0], Duration::ZERO))
        }
    }

    /// Building an engine (loading its networks) counts against the request's `time_ms`:
    /// the search's deadline runs from the request, not from the end of the set-up.
    #[test]
    fn setting_up_an_engine_counts_against_the_answer_time() {
        let deadlines = Arc::new(Mutex::new(Vec::new()));
        let d = deadlines.clone();
        let build: EngineBuilder = Box::new(move |_| {
            std::thread::sleep(Duration::from_millis(150));
            Ok(Box::new(Deadlines(d.clone())))
        });
        let mut server = PlayServer::with_engine(Rules::Standard, Duration::from_secs(1), build);
        let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
        let asked = Instant::now();
        let reply = server.answer(&request(&game, &game.initial_state(), r#", "time_ms": 100"#));
        assert!(reply.starts_with("[["), "{reply}");
        let deadline = deadlines.lock().unwrap()[0].expect("a deadline");
        assert!(deadline <= asked + Duration::from_millis(100));
    }

    #[test]
    fn the_engine_and_the_game_carry_across_requests() {
        let (mut server, seen, built) = recording_server();
        let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
        let mut state = game.initial_state();
        for _ in 0..3 {
            let reply = server.answer(&request(&game, &state, ""));
            play_path(&game, &mut state, &reply);
            let mut legal = MoveList::new();
            game.generate_moves(&state, &mut legal);
            game.apply(&mut state, legal[legal.len() - 1]);
        }
        // One engine; the game's history grew by two positions a request.
        assert_eq!(*built.lock().unwrap(), 1);
        assert_eq!(*seen.lock().unwrap(), vec![1, 3, 5]);
        // A board that does not follow starts the history afresh, with the same engine.
        server.answer(&request(&game, &game.initial_state(), ""));
        assert_eq!(seen.lock().unwrap().last(), Some(&1));
        assert_eq!(*built.lock().unwrap(), 1);
        // A new game builds a new engine.
        server.answer(&request(&game, &game.initial_state(), r#", "new_game": true"#));
        assert_eq!(*built.lock().unwrap(), 2);
    }

    #[test]
    fn the_moves_so_far_give_the_history_and_must_lead_to_the_board() {
        let (mut server, seen, _) = recording_server();
        let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
        let mut state = game.initial_state();
        let mut paths = Vec::new();
        for _ in 0..4 {
            let mut legal = MoveList::new();
            game.generate_moves(&state, &mut legal);
            let mv = legal[0];
            let path: Vec<[usize; 2]> = game
                .path(&state, mv)
                .into_iter()
                .map(|sq| game.coords(sq))
                .map(|(r, c)| [r, c])
                .collect();
            paths.push(path);
            game.apply(&mut state, mv);
        }
        let moves = serde_json::to_string(&paths).unwrap();
        let reply = server.answer(&request(&game, &state, &format!(r#", "moves": {moves}"#)));
        assert!(!reply.contains("error"), "{reply}");
        assert_eq!(*seen.lock().unwrap(), vec![5]);
        // Three of the four moves do not reach the board.
        let three = serde_json::to_string(&paths[..3]).unwrap();
        let reply = server.answer(&request(&game, &state, &format!(r#", "moves": {three}"#)));
        assert!(reply.contains("do not lead to the board"), "{reply}");
        // An illegal move is named.
        let reply = server.answer(&request(&game, &state, r#", "moves": [[[5,0],[3,0]]]"#));
        assert!(reply.contains("moves[0] [[5,0],[3,0]] is not a legal move"), "{reply}");
        // The moves mode refuses the play mode's fields.
        let reply = answer(&request(&game, &state, r#", "moves": []"#), Rules::Standard, None);
        assert!(reply.contains("moves is only read by the play mode"), "{reply}");
    }

    #[test]
    fn bad_lines_get_an_error_object() {
        for line in [
            "not json",
            "{}",
            r#"{"board": "________", "color": "b"}"#,
            r#"{"board": ["_b__", "___", "____", "w___"], "color": "b"}"#,
            r#"{"board": ["_b__", "____", "____", "w___"], "color": "black"}"#,
            r#"{"board": ["_x__", "____", "____", "w___"], "color": "b"}"#,
            r#"{"board": ["_b__", "____", "____", "w___"], "color": "b", "extra": 1}"#,
        ] {
            let reply = answer(line, Rules::Deepomatic, None);
            let v: serde_json::Value = serde_json::from_str(&reply).unwrap();
            assert!(v.get("error").and_then(|e| e.as_str()).is_some(), "{line}: {reply}");
        }
        let over = r#"{"board": ["____", "____", "____", "w___"], "color": "b"}"#;
        assert_eq!(answer(over, Rules::Deepomatic, None), "[]");
        let reply = answer(over, Rules::Deepomatic, Some(Duration::from_millis(10)));
        assert!(reply.contains("error"), "{reply}");
    }

    /// An input the test feeds chunk by chunk; it ends when the sender is dropped.
    struct Fed {
        chunks: mpsc::Receiver<Vec<u8>>,
        pending: Vec<u8>,
    }

    impl io::Read for Fed {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.pending.is_empty() {
                match self.chunks.recv() {
                    Ok(chunk) => self.pending = chunk,
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.pending.len());
            buf[..n].copy_from_slice(&self.pending[..n]);
            self.pending.drain(..n);
            Ok(n)
        }
    }

    /// The end of the input stops an hour-long search at once: the search answers with its
    /// best move so far, a request still waiting is answered too, and the server returns.
    #[test]
    fn the_end_of_the_input_stops_the_search_and_the_server() {
        let (tx, chunks) = mpsc::channel();
        let input = io::BufReader::new(Fed { chunks, pending: Vec::new() });
        let start = r#"["_b_b_b_b","b_b_b_b_","_b_b_b_b","________","________","w_w_w_w_","_w_w_w_w","w_w_w_w_"]"#;
        let request =
            format!("{{\"board\": {start}, \"color\": \"b\", \"time_ms\": {MAX_TIME_MS}}}\n");
        tx.send(request.clone().into_bytes()).unwrap();
        tx.send(request.replace("\"b\"", "\"w\"").into_bytes()).unwrap();
        let (done, ended) = mpsc::channel();
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let result =
                PlayServer::new(Rules::Standard, Duration::from_secs(3600)).serve(input, &mut out);
            let _ = done.send((result.is_ok(), out));
        });
        std::thread::sleep(Duration::from_millis(300));
        drop(tx);
        // Without the stop, the search would run for an hour.
        let (ok, out) = ended.recv_timeout(Duration::from_secs(20)).expect("the server ended");
        assert!(ok);
        let text = String::from_utf8(out).unwrap();
        let answers: Vec<&str> = text.lines().collect();
        assert_eq!(answers.len(), 2, "{text}");
        let position = format!("{{\"board\": {start}, \"color\": \"b\"}}");
        let moves = answer(&position, Rules::Standard, None);
        let legal: serde_json::Value = serde_json::from_str(&moves).unwrap();
        let first: serde_json::Value = serde_json::from_str(answers[0]).unwrap();
        assert!(legal.as_array().unwrap().contains(&first), "{} not in {moves}", answers[0]);
    }
}
