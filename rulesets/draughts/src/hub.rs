//! The Hub protocol (version 2, the text protocol of the Scan engine and the Hub GUI), so
//! draughts GUIs and match tools can drive any ply [`Agent`].
//!
//! [`HubEngine`] is a line-oriented state machine: [`HubEngine::handle`] takes one input line
//! and writes the answer lines, and runs a search for `go`. [`run`] wires it to a reader and
//! a writer, with a thread that keeps reading while the engine searches, so `stop` and `ping`
//! are answered during a search.
//!
//! Supported commands: `hub` (answers `id`, `param` lines and `wait`), `set-param`, `init`
//! (`ready`), `new-game`, `pos pos=... moves="..."`, `level depth=` / `move-time=` /
//! `[moves=] time= [inc=]` / `infinite`, `go think|ponder|analyze` (answers `info` and
//! `done move=... ponder=...`), `ponder-hit`, `stop`, `ping` (`pong`), `quit`. Unknown
//! commands get `error message="..."` and the engine carries on.
//!
//! Positions are `W` or `B` followed by one letter per square 1..50 (`w`, `b`, `W`, `B`,
//! `e`); moves are `32-28` or, for captures, `from x to x captured x ...` (`28x19x23`).
//!
//! ```
//! use ply::search::baseline::Greedy;
//! use ply_draughts::hub::HubEngine;
//!
//! let mut engine = HubEngine::new(Greedy::new());
//! let mut out = Vec::new();
//! engine.handle("hub", &mut out);
//! assert!(out[0].starts_with("id name=ply"));
//! assert_eq!(out.last().unwrap(), "wait");
//! out.clear();
//! engine.handle("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", &mut out);
//! engine.handle("level depth=1", &mut out);
//! engine.handle("go think", &mut out);
//! assert!(out.last().unwrap().starts_with("done move="));
//! ```

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ply::search::{Agent, Budget, Clock, Position, SearchReport, Value};
use ply::{Game, MoveList};

use crate::bitboard::bit_of;
use crate::error::Error;
use crate::movegen::{Move, Pieces};
use crate::rules::{DraughtsState, InternationalDraughts};

/// What the caller should do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was received.
    Quit,
}

/// The search limit set by `level`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Level {
    /// `level depth=N`.
    Depth(u32),
    /// `level move-time=S`: seconds per move.
    MoveTime(Duration),
    /// `level [moves=M] time=T [inc=I]`: the game clock.
    Clock(Clock),
    /// `level infinite`: search until `stop`.
    Infinite,
}

/// A Hub protocol engine around an agent; see the [module docs](self).
pub struct HubEngine<A> {
    game: InternationalDraughts,
    agent: A,
    state: DraughtsState,
    history: Vec<u64>,
    level: Level,
    stop: Arc<AtomicBool>,
    /// Set while an infinite search runs.
    infinite: Arc<AtomicBool>,
    /// Set by [`run`] when the input has ended.
    input_closed: Arc<AtomicBool>,
    report_info: bool,
}

/// The engine's name in `id`.
pub const NAME: &str = "ply";

impl<A: Agent<InternationalDraughts>> HubEngine<A> {
    /// An engine playing with `agent`, at the start position, one second per move.
    pub fn new(agent: A) -> Self {
        let game = InternationalDraughts::new();
        let state = game.initial_state();
        HubEngine {
            game,
            history: vec![state.hash],
            state,
            agent,
            level: Level::MoveTime(Duration::from_secs(1)),
            stop: Arc::new(AtomicBool::new(false)),
            infinite: Arc::new(AtomicBool::new(false)),
            input_closed: Arc::new(AtomicBool::new(false)),
            report_info: true,
        }
    }

    /// This engine without the `info` line it prints after a search from the agent's report
    /// (for an agent that streams its own `info` lines through a callback).
    pub fn without_final_info(mut self) -> Self {
        self.report_info = false;
        self
    }

    /// The flag that stops a running search when set (cleared after each search).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The current position.
    pub fn state(&self) -> &DraughtsState {
        &self.state
    }

    /// The current search limit.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Handles one line from the GUI, appending the answer lines to `out`. A `go` runs the
    /// search before returning.
    pub fn handle(&mut self, line: &str, out: &mut Vec<String>) -> Flow {
        let (command, args) = match parse_line(line) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                out.push(error_line(&e));
                return Flow::Continue;
            }
        };
        let arg = |name: &str| args.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        match command.as_str() {
            "hub" => {
                out.push(format!(
                    "id name={NAME} version={} author=\"ply authors\"",
                    env!("CARGO_PKG_VERSION")
                ));
                out.push("param name=variant value=normal type=enum values=\"normal\"".into());
                out.push("wait".into());
            }
            "set-param" => match (arg("name"), arg("value")) {
                (Some("variant"), Some("normal")) => {}
                (Some(name), value) => out.push(error_line(&format!(
                    "unknown parameter or value: {name}={}",
                    value.unwrap_or("")
                ))),
                (None, _) => out.push(error_line("set-param needs name=...")),
            },
            "init" => out.push("ready".into()),
            "new-game" => {
                self.agent.new_game();
                self.state = self.game.initial_state();
                self.history = vec![self.state.hash];
            }
            "pos" => {
                if let Err(e) = self.set_position(arg("pos"), arg("moves")) {
                    out.push(error_line(&e));
                }
            }
            "level" => match parse_level(&args) {
                Ok(level) => self.level = level,
                Err(e) => out.push(error_line(&e)),
            },
            "go" => self.go(out),
            "ping" => out.push("pong".into()),
            "stop" | "ponder-hit" => {}
            "quit" => return Flow::Quit,
            other => out.push(error_line(&format!("unknown command {other}"))),
        }
        Flow::Continue
    }

    fn set_position(&mut self, pos: Option<&str>, moves: Option<&str>) -> Result<(), String> {
        let mut state = match pos {
            Some(text) => parse_position(text).map_err(|e| e.to_string())?,
            None => self.game.initial_state(),
        };
        let mut history = vec![state.hash];
        for text in moves.unwrap_or("").split_whitespace() {
            let mv = parse_hub_move(&self.game, &state, text)?;
            self.game.apply(&mut state, mv);
            history.push(state.hash);
        }
        self.state = state;
        self.history = history;
        Ok(())
    }

    fn go(&mut self, out: &mut Vec<String>) {
        let mut moves = MoveList::new();
        self.game.generate_moves(&self.state, &mut moves);
        if moves.is_empty() {
            out.push(error_line("no legal move in this position"));
            self.stop.store(false, Ordering::SeqCst);
            return;
        }
        let budget = match self.level {
            Level::Depth(d) => Budget::depth(d),
            Level::MoveTime(t) => Budget::time(t),
            Level::Clock(c) => Budget::clock(c),
            Level::Infinite => {
                self.infinite.store(true, Ordering::SeqCst);
                if self.input_closed.load(Ordering::SeqCst) {
                    // Nobody is left to send `stop`.
                    Budget::time(Duration::from_secs(1))
                } else {
                    // A day: in practice until `stop`.
                    Budget::time(Duration::from_secs(86_400))
                }
            }
        }
        .with_stop(self.stop.clone());
        let position = Position::with_history(&self.state, &self.history);
        let result = self.agent.choose(&self.game, position, &budget);
        self.infinite.store(false, Ordering::SeqCst);
        self.stop.store(false, Ordering::SeqCst);
        match result {
            Ok(report) => {
                if self.report_info {
                    out.push(info_line(&report));
                }
                let ponder = report.pv.get(1).map(|&m| format!(" ponder={}", format_hub_move(m)));
                out.push(format!(
                    "done move={}{}",
                    format_hub_move(report.best_move),
                    ponder.unwrap_or_default()
                ));
            }
            Err(e) => {
                out.push(error_line(&e.to_string()));
                // Answer anyway so the GUI is not left waiting.
                out.push(format!("done move={}", format_hub_move(moves[0])));
            }
        }
    }
}

/// `error message="..."`.
fn error_line(message: &str) -> String {
    format!("error message=\"{}\"", message.replace('"', "'"))
}

/// The `info` line for a search report: depth, score in men, nodes, time, speed in millions
/// of nodes per second and the PV in Hub move format. Proven results score ±(1000 - plies).
pub fn info_line(report: &SearchReport<Move>) -> String {
    info_fields(report.depth, report.value, report.nodes, report.elapsed, &report.pv)
}

/// The `info` line from its parts (see [`info_line`]).
pub fn info_fields(depth: u32, value: Value, nodes: u64, elapsed: Duration, pv: &[Move]) -> String {
    let score = match value {
        Value::Heuristic(v) => v / 100.0,
        Value::Reward(r) => r * 2.0 - 1.0,
        Value::Win(n) => 1000.0 - f64::from(n),
        Value::Loss(n) => -(1000.0 - f64::from(n)),
        Value::Draw | Value::Unknown => 0.0,
    };
    let secs = elapsed.as_secs_f64();
    let mnps = if secs > 0.0 { nodes as f64 / secs / 1e6 } else { 0.0 };
    let pv: Vec<String> = pv.iter().map(|&m| format_hub_move(m)).collect();
    format!(
        "info depth={depth} score={score:.2} nodes={nodes} time={secs:.3} nps={mnps:.2} pv=\"{}\"",
        pv.join(" ")
    )
}

/// A move in Hub format: `32-28`, or `from x to x captured...` for a capture.
///
/// ```
/// use ply::Notation;
/// use ply_draughts::{hub, InternationalDraughts};
/// let game = InternationalDraughts::new();
/// let s = game.parse_state("W:W28:B23").unwrap();
/// let mv = game.parse_move(&s, "28x19").unwrap();
/// assert_eq!(hub::format_hub_move(mv), "28x19x23");
/// ```
pub fn format_hub_move(mv: Move) -> String {
    format!("{mv:?}")
}

/// Reads a move in Hub format (`32-28`, `28x19x23` with the captured squares in any order)
/// as a legal move of `state`; a bare `from x to` is accepted when it is unambiguous.
///
/// # Errors
/// A message naming the text if it is malformed or matches no legal move (or several).
pub fn parse_hub_move(
    game: &InternationalDraughts,
    state: &DraughtsState,
    text: &str,
) -> Result<Move, String> {
    let bad = || format!("invalid or illegal move {text}");
    let capture = text.contains('x');
    let squares: Vec<u8> = text
        .split(['x', '-'])
        .map(|s| s.parse::<u8>().ok().filter(|n| (1..=50).contains(n)))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    if squares.len() < 2 || (!capture && squares.len() != 2) {
        return Err(bad());
    }
    let captured = squares[2..].iter().fold(0u64, |bb, &s| bb | 1 << bit_of(s));
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let found: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.from() == squares[0] && m.to() == squares[1])
        .filter(|m| m.is_capture() == capture)
        .filter(|m| squares.len() == 2 || m.captured == captured)
        .collect();
    match found.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(bad()),
        _ => Err(format!("ambiguous move {text}: give the captured squares")),
    }
}

/// Reads a Hub position: `W` or `B` (side to move) and one of `w`, `b`, `W`, `B`, `e` per
/// square 1..50.
///
/// # Errors
/// [`Error::HubPosition`] for any other text, or for a man on its crowning row.
///
/// ```
/// use ply_draughts::hub::{format_position, parse_position};
/// let start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
/// assert_eq!(format_position(&parse_position(start)?), start);
/// assert!(parse_position("W").is_err());
/// # Ok::<(), ply_draughts::Error>(())
/// ```
pub fn parse_position(text: &str) -> Result<DraughtsState, Error> {
    let bad = || Error::HubPosition(text.to_string());
    let bytes = text.trim().as_bytes();
    if bytes.len() != 51 {
        return Err(bad());
    }
    let white_to_move = match bytes[0] {
        b'W' | b'w' => true,
        b'B' | b'b' => false,
        _ => return Err(bad()),
    };
    let mut p = Pieces::default();
    for (i, &c) in bytes[1..].iter().enumerate() {
        let square = i as u8 + 1;
        let b = 1u64 << bit_of(square);
        match c {
            b'w' | b'W' => p.white |= b,
            b'b' | b'B' => p.black |= b,
            b'e' | b'.' => {}
            _ => return Err(bad()),
        }
        if c == b'W' || c == b'B' {
            p.kings |= b;
        }
        if (c == b'w' && square <= 5) || (c == b'b' && square >= 46) {
            return Err(bad());
        }
    }
    Ok(DraughtsState::from_parts(p, white_to_move, 0))
}

/// Writes a position in Hub format.
pub fn format_position(state: &DraughtsState) -> String {
    let mut s = String::with_capacity(51);
    s.push(if state.white_to_move() { 'W' } else { 'B' });
    for square in 1..=50 {
        s.push(state.piece_at(square).map_or('e', crate::Piece::letter));
    }
    s
}

/// A command and its `name=value` arguments.
type ParsedLine = (String, Vec<(String, String)>);

/// Splits a line into its command and `name=value` arguments (values may be quoted).
fn parse_line(line: &str) -> Result<Option<ParsedLine>, String> {
    let mut tokens = Vec::new();
    let mut chars = line.trim().chars().peekable();
    while chars.peek().is_some() {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut token = String::new();
        let mut quoted = false;
        while let Some(&c) = chars.peek() {
            if c == '"' {
                quoted = !quoted;
                chars.next();
                continue;
            }
            if c.is_whitespace() && !quoted {
                break;
            }
            token.push(c);
            chars.next();
        }
        if quoted {
            return Err(format!("unterminated quote in: {}", line.trim()));
        }
        if !token.is_empty() {
            tokens.push(token);
        }
    }
    let mut it = tokens.into_iter();
    let Some(command) = it.next() else { return Ok(None) };
    let args = it
        .map(|t| match t.split_once('=') {
            Some((n, v)) => (n.to_string(), v.to_string()),
            None => (t, String::new()),
        })
        .collect();
    Ok(Some((command, args)))
}

fn parse_level(args: &[(String, String)]) -> Result<Level, String> {
    let get = |name: &str| args.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let seconds = |name: &str, v: &str| -> Result<Duration, String> {
        v.parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("bad {name}: {v}"))
    };
    if get("infinite").is_some() {
        return Ok(Level::Infinite);
    }
    if let Some(d) = get("depth") {
        return match d.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(Level::Depth(n)),
            _ => Err(format!("bad depth: {d}")),
        };
    }
    if let Some(t) = get("move-time") {
        return Ok(Level::MoveTime(seconds("move-time", t)?));
    }
    if let Some(t) = get("time") {
        let remaining = seconds("time", t)?;
        let increment = match get("inc") {
            Some(i) => seconds("inc", i)?,
            None => Duration::ZERO,
        };
        let moves_to_go = match get("moves") {
            Some(m) => Some(m.parse::<u32>().map_err(|_| format!("bad moves: {m}"))?),
            None => None,
        };
        return Ok(Level::Clock(Clock { remaining, increment, moves_to_go }));
    }
    Err("level needs depth=, move-time=, time= or infinite".into())
}

/// Runs a Hub session: reads lines from `input` and answers on `output` until `quit` or the
/// end of the input. A reader thread answers `ping` and passes `stop` to a running search.
/// When the input ends, pending commands are still answered (searches keep their limits; an
/// infinite search stops).
///
/// # Errors
/// An I/O error writing the output.
pub fn run<A, R, W>(mut engine: HubEngine<A>, input: R, output: W) -> io::Result<()>
where
    A: Agent<InternationalDraughts>,
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let output = Arc::new(Mutex::new(output));
    let stop = engine.stop_flag();
    let searching = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<String>();
    let reader_out = output.clone();
    let reader_searching = searching.clone();
    let reader_stop = stop.clone();
    let infinite = engine.infinite.clone();
    let input_closed = engine.input_closed.clone();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            let command = line.split_whitespace().next().unwrap_or("");
            match command {
                "stop" => {
                    if reader_searching.load(Ordering::SeqCst) {
                        reader_stop.store(true, Ordering::SeqCst);
                    }
                }
                "ping" => {
                    let mut out = reader_out.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = writeln!(out, "pong").and_then(|_| out.flush());
                }
                _ => {
                    if command == "go" {
                        reader_searching.store(true, Ordering::SeqCst);
                    }
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
        // End of input: the GUI is gone. Searches with a limit finish; an infinite one stops.
        input_closed.store(true, Ordering::SeqCst);
        if infinite.load(Ordering::SeqCst) {
            reader_stop.store(true, Ordering::SeqCst);
        }
    });
    let mut lines = Vec::new();
    for line in rx {
        lines.clear();
        let flow = engine.handle(&line, &mut lines);
        searching.store(false, Ordering::SeqCst);
        let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
        for l in &lines {
            writeln!(out, "{l}")?;
        }
        out.flush()?;
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}
