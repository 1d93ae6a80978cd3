//! The engine side of the NBoard protocol (version 2): ply's agents as engines for Othello
//! GUIs such as NBoard, for any game with an [`NBoardCodec`].
//!
//! [`NBoardEngine`] holds the protocol state; [`NBoardEngine::handle`] takes one line from the
//! GUI and returns the lines to send back, so a session is easy to test without a process:
//!
//! ```
//! use ply::search::baseline::Greedy;
//! use ply::Notation;
//! use ply_reversi::Reversi;
//! use ply_tools::engines::nboard::{NBoardCodec, NBoardEngine};
//! use ply_tools::error::ToolError;
//!
//! let codec = NBoardCodec {
//!     game_record: |g, s| ply_reversi::nboard::format_ggf(g, s).map_err(ToolError::input),
//!     read_game: |g, t| ply_reversi::ggf::read(g, t).map_err(ToolError::input),
//!     format_move: ply_reversi::nboard::format_move,
//!     parse_move: |g: &Reversi, s, t| g.parse_move(s, t).map_err(ToolError::input),
//! };
//! let game = Reversi::new(8, 2)?;
//! let mut engine = NBoardEngine::new(game, codec, Greedy::with_seed(1), "ply");
//! assert_eq!(engine.handle("nboard 2"), ["set myname ply"]);
//! engine.handle("set depth 4");
//! engine.handle("set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)");
//! assert_eq!(engine.handle("ping 1"), ["pong 1"]);
//! let reply = engine.handle("go");
//! assert!(reply.iter().any(|l| l.starts_with("=== ")));
//! # Ok::<(), ply_reversi::Error>(())
//! ```
//!
//! Commands understood: `nboard <version>` (answered with `set myname`), `set depth <n>`
//! (the search depth of later `go` and `hint`), `set game <GGF>` (the position at the end of
//! the game record), `set contempt` (ignored), `move <move>[/<eval>/<time>]` (and a bare
//! two-letter move, as NBoard 1.1 sends), `hint <n>` (answered with `search <pv> <eval> 0
//! <depth>`), `go` (answered with `=== <move>/<eval>/<time>`; the engine does not play the
//! move: the GUI sends `move`), `ping <n>` (answered with `pong <n>`), `learn` (answered
//! with `learned`) and `quit`. Other lines are ignored, as the protocol asks; malformed input
//! is answered with a `status` line saying what was wrong.
//!
//! [`serve`] runs a whole session on an input and an output, reading on a thread of its own
//! so the engine can think between commands. The end of the input means `quit`, as in the
//! engines of the field: a `go` or `hint` search in progress stops at once and answers with
//! the best move it has found, lines still waiting are answered (their searches stopped
//! before they start), and the session ends. A `quit` line stops a running search the same
//! way.
//!
//! # Pondering
//!
//! With pondering on, [`serve`] uses the time between commands: after a `go` whose search
//! expects a reply (the second move of its principal variation) and the GUI's `move` of the
//! engine's own move, the opponent is to move, and the engine searches the position after the
//! expected reply at the `set depth` depth ([`NBoardEngine::ponder`]). The protocol has no
//! `ponder-hit`: any new line stops the search at once (the GUI is never kept waiting). A
//! search that reached its depth is kept, and if the opponent played the expected move the
//! next `go` (or `hint`) answers from it at once, as the same search would. A stopped search
//! is dropped, and a later idle moment searches again; an agent that keeps its table between
//! searches ([`AlphaBetaOptions::keep_tt`](ply::search::alphabeta::AlphaBetaOptions::keep_tt))
//! keeps the positions it stored, so the search after a stopped ponder still profits.
//! `set game` forgets the expected reply and the kept search.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use ply::search::{Agent, Budget, Position, SearchReport, Value};
use ply::{Game, MoveList};

use super::NBoardCodec;
use crate::engines::lines::{read_line, Line, MAX_LINE};
use crate::engines::EngineError;

/// An engine speaking NBoard: the rules, the current game and the agent that searches it.
pub struct NBoardEngine<G: Game, A> {
    game: G,
    codec: NBoardCodec<G>,
    state: G::State,
    history: Vec<u64>,
    agent: A,
    name: String,
    depth: u32,
    version: u32,
    quit: bool,
    /// The position after the engine's last answered `go` move, and the reply its search
    /// expected there.
    expected: Option<(G::State, G::Move)>,
    /// The last ponder search that reached its depth.
    pondered: Option<Pondered<G>>,
    /// Set by [`serve`] when the input ends or `quit` comes: stops a `go` or `hint` search.
    closed: Arc<AtomicBool>,
}

/// A search that reached its depth while pondering, kept for the `go` it answers.
struct Pondered<G: Game> {
    state: G::State,
    history: Vec<u64>,
    depth: u32,
    report: SearchReport<G::Move>,
}

/// The hashes of the positions of a game from `start` through `moves`, and the last one.
fn replay<G: Game>(game: &G, start: G::State, moves: &[G::Move]) -> (G::State, Vec<u64>) {
    let mut state = start;
    let mut history: Vec<u64> = game.hash(&state).into_iter().collect();
    for &mv in moves {
        game.apply(&mut state, mv);
        history.extend(game.hash(&state));
    }
    (state, history)
}

impl<G: Game, A: Agent<G>> NBoardEngine<G, A> {
    /// An engine called `name` that plays `game` with `agent`, from the game's start, depth 6.
    pub fn new(game: G, codec: NBoardCodec<G>, agent: A, name: &str) -> Self {
        let state = game.initial_state();
        NBoardEngine {
            history: game.hash(&state).into_iter().collect(),
            game,
            codec,
            state,
            agent,
            name: name.to_string(),
            depth: 6,
            version: 0,
            quit: false,
            expected: None,
            pondered: None,
            closed: Arc::default(),
        }
    }

    /// The current position.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The search depth set by `set depth`.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The protocol version the GUI announced (0 before `nboard`).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// True once `quit` was received.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Handles one line from the GUI and returns the lines to send back.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        match command {
            "nboard" => match args.parse() {
                Ok(v) => {
                    self.version = v;
                    vec![format!("set myname {}", self.name)]
                }
                Err(_) => vec![format!("status bad protocol version {args:?}")],
            },
            "set" => self.set(args),
            "move" => self.play(args),
            "ping" => vec![format!("pong {args}")],
            "go" => self.go(),
            "hint" => self.hint(),
            "learn" => vec!["learned".to_string()],
            "quit" => {
                self.quit = true;
                Vec::new()
            }
            // NBoard 1.1 sends a bare move ("F5") instead of "move F5".
            c if c.len() == 2 && args.is_empty() && c.as_bytes()[0].is_ascii_alphabetic() => {
                self.play(c)
            }
            _ => Vec::new(),
        }
    }

    fn set(&mut self, args: &str) -> Vec<String> {
        let (what, value) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
        match what {
            "depth" => match value.trim().parse::<u32>() {
                Ok(d) if d >= 1 => {
                    self.depth = d;
                    Vec::new()
                }
                _ => vec![format!("status bad depth {:?}", value.trim())],
            },
            "game" => match (self.codec.read_game)(&self.game, value) {
                Ok((start, moves)) => {
                    (self.state, self.history) = replay(&self.game, start, &moves);
                    self.expected = None;
                    self.pondered = None;
                    self.agent.new_game();
                    Vec::new()
                }
                Err(e) => vec![format!("status bad game: {e}")],
            },
            _ => Vec::new(),
        }
    }

    fn play(&mut self, args: &str) -> Vec<String> {
        let text = args.split('/').next().unwrap_or("").trim();
        match (self.codec.parse_move)(&self.game, &self.state, text) {
            Ok(mv) => {
                self.agent.observe(&self.game, &self.state, mv);
                self.game.apply(&mut self.state, mv);
                self.history.extend(self.game.hash(&self.state));
                Vec::new()
            }
            Err(e) => vec![format!("status bad move: {e}")],
        }
    }

    /// The NBoard text of a move of the current position.
    fn move_text(&self, mv: G::Move) -> String {
        (self.codec.format_move)(&self.game, &self.state, mv)
    }

    /// Searches the current position (or takes the kept ponder search of it): the report,
    /// and the seconds it took.
    fn search(&mut self) -> Result<(SearchReport<G::Move>, f64), EngineError> {
        let mut moves = MoveList::new();
        self.game.generate_moves(&self.state, &mut moves);
        if moves.is_empty() {
            return Err(EngineError::Protocol("the game is over".into()));
        }
        let start = Instant::now();
        if let Some(p) = self.pondered.take() {
            if p.state == self.state && p.history == self.history && p.depth == self.depth {
                return Ok((p.report, start.elapsed().as_secs_f64()));
            }
        }
        let budget = Budget::depth(self.depth).with_stop(self.closed.clone());
        let position = Position::with_history(&self.state, &self.history);
        let report =
            self.agent.choose(&self.game, position, &budget).map_err(EngineError::protocol)?;
        Ok((report, start.elapsed().as_secs_f64()))
    }

    /// A principal variation in NBoard's form, `F5-D6-C3`, up to its first illegal move.
    fn pv_text(&self, report: &SearchReport<G::Move>) -> String {
        let mut pv = String::new();
        let mut s = self.state.clone();
        for &m in &report.pv {
            let mut legal = MoveList::new();
            self.game.generate_moves(&s, &mut legal);
            if !legal.contains(&m) {
                break;
            }
            if !pv.is_empty() {
                pv.push('-');
            }
            pv.push_str(&(self.codec.format_move)(&self.game, &s, m));
            self.game.apply(&mut s, m);
        }
        if pv.is_empty() {
            pv = self.move_text(report.best_move);
        }
        pv
    }

    fn go(&mut self) -> Vec<String> {
        match self.search() {
            Ok((report, time)) => {
                let mv = report.best_move;
                let mut after = self.state.clone();
                self.game.apply(&mut after, mv);
                self.expected = match report.pv.as_slice() {
                    [first, reply, ..] if *first == mv => Some((after, *reply)),
                    _ => None,
                };
                let eval = eval_text(report.value);
                vec![format!("=== {}/{eval}/{time:.1}", self.move_text(mv))]
            }
            Err(e) => vec![format!("status cannot move: {e}")],
        }
    }

    /// Thinks on the opponent's time: if the GUI has played the engine's last `go` move and
    /// the search expected a reply, searches the position after that reply to the `set
    /// depth` depth, until `stop` is set. A search that ends without `stop` is kept for the
    /// `go` in that position (see [pondering](self#pondering)). Returns true if it searched,
    /// false if there was nothing to ponder or it was pondered already.
    pub fn ponder(&mut self, stop: &Arc<AtomicBool>) -> bool {
        let Some((after_ours, reply)) = &self.expected else { return false };
        if self.state != *after_ours {
            return false;
        }
        let reply = *reply;
        let mut legal = MoveList::new();
        self.game.generate_moves(&self.state, &mut legal);
        if !legal.contains(&reply) {
            return false;
        }
        let mut state = self.state.clone();
        self.game.apply(&mut state, reply);
        let mut history = self.history.clone();
        history.extend(self.game.hash(&state));
        legal.clear();
        self.game.generate_moves(&state, &mut legal);
        let kept = self
            .pondered
            .as_ref()
            .is_some_and(|p| p.state == state && p.history == history && p.depth == self.depth);
        if legal.is_empty() || kept {
            return false;
        }
        let budget = Budget::depth(self.depth).with_stop(stop.clone());
        let position = Position::with_history(&state, &history);
        let result = self.agent.choose(&self.game, position, &budget);
        if let Ok(report) = result {
            if !stop.load(Ordering::SeqCst) {
                self.pondered = Some(Pondered { state, history, depth: self.depth, report });
            }
        }
        true
    }

    fn hint(&mut self) -> Vec<String> {
        let depth = self.depth;
        match self.search() {
            Ok((report, _)) => {
                let (eval, pv) = (eval_text(report.value), self.pv_text(&report));
                vec![
                    "status thinking".to_string(),
                    format!("search {pv} {eval} 0 {depth}"),
                    "status".to_string(),
                ]
            }
            Err(e) => vec![format!("status cannot hint: {e}")],
        }
    }
}

/// A value in NBoard's units (discs of the 64 squares: a win is 64).
fn eval_text(value: Value) -> String {
    match value {
        Value::Heuristic(v) => format!("{:.2}", v / 10.0),
        Value::Win(_) => "64.00".to_string(),
        Value::Loss(_) => "-64.00".to_string(),
        Value::Draw => "0.00".to_string(),
        Value::Reward(r) => format!("{:.2}", (r - 0.5) * 128.0),
        Value::Unknown => "0.00".to_string(),
    }
}

/// Whether [`serve`] thinks on the opponent's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pondering {
    /// Think between commands (see [pondering](self#pondering)).
    On,
    /// Only search for `go` and `hint`.
    Off,
}

/// The next line of `input` ([`read_line`]): `Ok(text)`, or `Err(what it is)` for a line
/// that is not UTF-8 text or is longer than [`MAX_LINE`]; `None` at the end of the input.
fn next_line<R: BufRead>(input: &mut R) -> io::Result<Option<Result<String, &'static str>>> {
    Ok(read_line(input, MAX_LINE)?.map(|line| match line {
        Line::Text(text) => Ok(text),
        Line::NotUtf8 => Err("not UTF-8 text"),
        Line::TooLong(_) => Err("too long"),
    }))
}

/// Reads `input` to its end or `quit`, passing each line on through `tx` and setting `stop`
/// (under `handover`) so a ponder search ends; at the end sets `closed` and `stop`, which
/// stop every search.
fn read_lines<R: BufRead>(
    mut input: R,
    tx: mpsc::Sender<Result<String, &'static str>>,
    stop: Arc<AtomicBool>,
    closed: Arc<AtomicBool>,
    handover: Arc<Mutex<()>>,
) {
    while let Ok(Some(line)) = next_line(&mut input) {
        let quit = line.as_deref().is_ok_and(|l| l.split_whitespace().next() == Some("quit"));
        let _held = handover.lock().unwrap_or_else(|e| e.into_inner());
        if tx.send(line).is_err() || quit {
            break;
        }
        stop.store(true, Ordering::SeqCst);
    }
    // The end of the input (or `quit`) stops every search: pondering, `go` and `hint`.
    let _held = handover.lock().unwrap_or_else(|e| e.into_inner());
    closed.store(true, Ordering::SeqCst);
    stop.store(true, Ordering::SeqCst);
}

/// Runs an NBoard session: reads commands from `input` on a thread of its own and answers
/// on `output`, until `quit` or the end of the input. With [`Pondering::On`] the engine
/// thinks while it waits for the next command ([`NBoardEngine::ponder`]); every new line
/// stops that search at once. A line that is not UTF-8 text or is too long is answered with
/// a `status` line (NBoard has no error answer).
///
/// # Errors
/// An I/O error writing the output.
pub fn serve<G, A, R, W>(
    mut engine: NBoardEngine<G, A>,
    input: R,
    mut output: W,
    pondering: Pondering,
) -> io::Result<()>
where
    G: Game,
    A: Agent<G>,
    R: BufRead + Send + 'static,
    W: Write,
{
    let stop = Arc::new(AtomicBool::new(false));
    // The reader sends a line and sets `stop` under this lock, and the engine clears `stop`
    // and looks for waiting lines under it: a ponder search started when no line was waiting
    // is stopped by the next one, and never by one already handled.
    let handover = Arc::new(Mutex::new(()));
    let (tx, rx) = mpsc::channel::<Result<String, &'static str>>();
    let (reader_stop, reader_handover) = (stop.clone(), handover.clone());
    let closed = engine.closed.clone();
    std::thread::spawn(move || read_lines(input, tx, reader_stop, closed, reader_handover));
    loop {
        let waiting = if pondering == Pondering::On {
            let _held = handover.lock().unwrap_or_else(|e| e.into_inner());
            stop.store(false, Ordering::SeqCst);
            rx.try_recv()
        } else {
            Err(TryRecvError::Empty)
        };
        let line = match waiting {
            Ok(line) => line,
            Err(TryRecvError::Disconnected) => break,
            Err(TryRecvError::Empty) => {
                if pondering == Pondering::On {
                    engine.ponder(&stop);
                }
                match rx.recv() {
                    Ok(line) => line,
                    Err(_) => break,
                }
            }
        };
        let replies = match line {
            Ok(text) => engine.handle(&text),
            Err(what) => vec![format!("status ignored a line that is {what}")],
        };
        for reply in replies {
            writeln!(output, "{reply}")?;
        }
        output.flush()?;
        if engine.quit_requested() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::nboard::reversi_codec;
    use ply::search::SearchError;
    use ply::Notation;
    use ply_reversi::{Reversi, ReversiMove, ReversiState};
    use std::time::Duration;

    /// An engine for 2-player 8x8 Reversi.
    fn othello<A: Agent<Reversi>>(agent: A) -> NBoardEngine<Reversi, A> {
        NBoardEngine::new(Reversi::new(8, 2).unwrap(), reversi_codec(), agent, "ply")
    }

    /// The position of the game record of `set game`.
    fn read_game(game: &Reversi, line: &str) -> ReversiState {
        let (start, moves) = ply_reversi::ggf::read(game, line).unwrap();
        replay(game, start, &moves).0
    }

    /// Random and mutated GUI lines: no panic, and every answer is a line of the protocol.
    #[test]
    fn random_and_mutated_lines_get_answers_of_the_protocol() {
        let samples = [
            "nboard 2",
            "set depth 2",
            "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)",
            "move d3/0.5/1.2",
            "F5",
            "ping 7",
            "go",
            "hint 3",
            "learn",
            "set contempt 0",
        ];
        let read = |line: &str| -> Result<(), EngineError> {
            let mut engine = othello(ply::search::alphabeta::AlphaBeta::new().with_tt_mb(1));
            engine.handle("set depth 2");
            for answer in engine.handle(line) {
                let word = answer.split_whitespace().next().unwrap_or("");
                let known = ["set", "pong", "status", "===", "search", "learned", "nodestats"];
                if !known.contains(&word) {
                    return Err(EngineError::Protocol(format!("answered {answer:?}")));
                }
            }
            // The session goes on.
            match engine.handle("ping 1").as_slice() {
                [pong] if pong == "pong 1" => Ok(()),
                other => Err(EngineError::Protocol(format!("then answered ping with {other:?}"))),
            }
        };
        ply::testing::check_reader(&samples, read, 1_000, 31).unwrap_or_else(|e| panic!("{e}"));
    }

    /// Plays the first legal move and expects the first legal reply. Every search is
    /// counted (true for a ponder search); with `patient`, a ponder search waits for its
    /// stop flag.
    struct First {
        searches: Arc<Mutex<Vec<bool>>>,
        patient: bool,
        /// The engine's end-of-input flag: a search stopped by it alone is no ponder search.
        closed: Arc<AtomicBool>,
    }

    impl First {
        fn new(searches: Arc<Mutex<Vec<bool>>>, patient: bool) -> First {
            First { searches, patient, closed: Arc::default() }
        }

        /// The engine over this agent, sharing its end-of-input flag.
        fn engine(self) -> NBoardEngine<Reversi, First> {
            let closed = self.closed.clone();
            let mut engine = othello(self);
            engine.closed = closed;
            engine
        }
    }

    impl Agent<Reversi> for First {
        fn name(&self) -> String {
            "first".into()
        }
        fn choose(
            &mut self,
            game: &Reversi,
            position: Position<'_, ReversiState>,
            budget: &Budget,
        ) -> Result<SearchReport<ReversiMove>, SearchError> {
            let ponder = budget.stop.as_ref().is_some_and(|s| !Arc::ptr_eq(s, &self.closed));
            self.searches.lock().unwrap().push(ponder);
            if self.patient && ponder {
                while !budget.stop_requested() {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            let mut moves = MoveList::new();
            game.generate_moves(position.state, &mut moves);
            let mv = *moves.first().ok_or(SearchError::NoLegalMoves)?;
            let mut after = *position.state;
            game.apply(&mut after, mv);
            moves.clear();
            game.generate_moves(&after, &mut moves);
            let mut report = SearchReport::instant(mv, Duration::ZERO);
            report.pv = std::iter::once(mv).chain(moves.first().copied()).collect();
            report.value = Value::Heuristic(10.0 * budget.depth.unwrap_or(0) as f64);
            Ok(report)
        }
    }

    const START: &str = "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 \
        ---------------------------O*------*O--------------------------- *];)";

    /// An output the test reads while the session writes it.
    struct SharedOut(Arc<Mutex<Vec<u8>>>);

    impl Write for SharedOut {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A [`serve`] session fed through a pipe.
    struct Session {
        writer: io::PipeWriter,
        output: Arc<Mutex<Vec<u8>>>,
        searches: Arc<Mutex<Vec<bool>>>,
        server: std::thread::JoinHandle<io::Result<()>>,
    }

    impl Session {
        fn start(patient: bool, pondering: Pondering) -> Session {
            let searches = Arc::new(Mutex::new(Vec::new()));
            let agent = First::new(searches.clone(), patient);
            let (reader, writer) = io::pipe().unwrap();
            let output = Arc::new(Mutex::new(Vec::new()));
            let out = SharedOut(output.clone());
            let engine = agent.engine();
            let server = std::thread::spawn(move || {
                serve(engine, io::BufReader::new(reader), out, pondering)
            });
            Session { writer, output, searches, server }
        }

        fn send(&mut self, lines: &str) {
            writeln!(self.writer, "{lines}").unwrap();
            self.writer.flush().unwrap();
        }

        fn lines(&self) -> Vec<String> {
            String::from_utf8_lossy(&self.output.lock().unwrap())
                .lines()
                .map(String::from)
                .collect()
        }

        /// Waits until `ready` holds of the output lines and the searches so far (each
        /// true if it could be stopped, as a ponder search); panics after 10 s.
        fn wait(&self, what: &str, ready: impl Fn(&[String], &[bool]) -> bool) {
            let begun = Instant::now();
            while !ready(&self.lines(), &self.searches.lock().unwrap()) {
                assert!(begun.elapsed() < Duration::from_secs(10), "{what}: {:?}", self.lines());
                std::thread::sleep(Duration::from_millis(2));
            }
        }

        fn searches(&self) -> Vec<bool> {
            self.searches.lock().unwrap().clone()
        }

        fn finish(self) -> Vec<String> {
            drop(self.writer);
            self.server.join().unwrap().unwrap();
            String::from_utf8_lossy(&self.output.lock().unwrap())
                .lines()
                .map(String::from)
                .collect()
        }
    }

    /// The move of the last `=== ` answer.
    fn answered(lines: &[String]) -> String {
        let last = lines.iter().rev().find(|l| l.starts_with("=== ")).expect("an answer");
        last[4..].split('/').next().unwrap().to_string()
    }

    /// `go` from the start, then the GUI plays the engine's move: the opponent is to move.
    fn play_first_move(session: &mut Session) -> String {
        session.send(&format!("nboard 2\nset depth 3\n{START}\ngo"));
        session.wait("the first answer", |l, _| l.iter().any(|l| l.starts_with("=== ")));
        let ours = answered(&session.lines());
        session.send(&format!("move {ours}"));
        ours
    }

    /// The first legal move of `state` in NBoard's text, and the position after it.
    fn first_move(game: &Reversi, state: &ReversiState) -> (String, ReversiState) {
        let mut moves = MoveList::new();
        game.generate_moves(state, &mut moves);
        let mut after = *state;
        game.apply(&mut after, moves[0]);
        (game.format_move(state, moves[0]).to_ascii_uppercase(), after)
    }

    /// The engine's move, the reply its search expects and its move after that reply.
    fn first_line() -> [String; 3] {
        let game = Reversi::new(8, 2).unwrap();
        let start = read_game(&game, START);
        let (ours, s) = first_move(&game, &start);
        let (reply, s) = first_move(&game, &s);
        let (next, _) = first_move(&game, &s);
        [ours, reply, next]
    }

    #[test]
    fn a_finished_ponder_search_answers_go_after_the_expected_reply_at_once() {
        let [ours, reply, next] = first_line();
        let mut session = Session::start(false, Pondering::On);
        assert_eq!(play_first_move(&mut session), ours);
        session.wait("the ponder search", |_, s| s.len() == 2);
        assert_eq!(session.searches(), [false, true], "the second search can be stopped");
        session.send(&format!("move {reply}\nping 1\ngo"));
        session.wait("the second answer", |l, _| {
            l.iter().filter(|l| l.starts_with("===")).count() == 2
        });
        let searches = session.searches.clone();
        let lines = session.finish();
        assert_eq!(answered(&lines), next, "{lines:?}");
        assert!(lines.contains(&"pong 1".to_string()), "{lines:?}");
        // `go` took the pondered search: no third search.
        assert_eq!(*searches.lock().unwrap(), [false, true]);
    }

    #[test]
    fn another_reply_than_the_expected_one_is_searched_afresh() {
        let [_, reply, _] = first_line();
        let mut session = Session::start(false, Pondering::On);
        play_first_move(&mut session);
        session.wait("the ponder search", |_, s| s.len() == 2);
        let game = Reversi::new(8, 2).unwrap();
        let mut moves = MoveList::new();
        let start = read_game(&game, START);
        let (_, after_ours) = first_move(&game, &start);
        game.generate_moves(&after_ours, &mut moves);
        let other = moves
            .iter()
            .map(|&m| game.format_move(&after_ours, m).to_ascii_uppercase())
            .find(|m| *m != reply)
            .expect("a second reply");
        session.send(&format!("move {other}\ngo"));
        session.wait("the second answer", |l, _| {
            l.iter().filter(|l| l.starts_with("===")).count() == 2
        });
        assert_eq!(session.searches(), [false, true, false]);
        session.finish();
    }

    /// A ponder search that would run until stopped ends as soon as a line comes, and the
    /// line is answered; a stopped search is not used for the next `go`.
    #[test]
    fn any_new_line_stops_pondering_at_once() {
        let [_, reply, _] = first_line();
        let mut session = Session::start(true, Pondering::On);
        play_first_move(&mut session);
        session.wait("the ponder search", |_, s| s.len() == 2);
        std::thread::sleep(Duration::from_millis(100));
        let sent = Instant::now();
        session.send("ping 7");
        session.wait("pong", |l, _| l.contains(&"pong 7".to_string()));
        assert!(sent.elapsed() < Duration::from_secs(5), "{:?}", sent.elapsed());
        // Idle again: the ponder search starts over, and the reply stops it.
        session.wait("the ponder search again", |_, s| s.len() == 3);
        session.send(&format!("move {reply}\ngo"));
        session.wait("the second answer", |l, _| {
            l.iter().filter(|l| l.starts_with("===")).count() == 2
        });
        assert_eq!(session.searches(), [false, true, true, false], "a stopped search is dropped");
        session.finish();
    }

    #[test]
    fn the_end_of_the_input_stops_pondering() {
        let mut session = Session::start(true, Pondering::On);
        play_first_move(&mut session);
        session.wait("the ponder search", |_, s| s.len() == 2);
        let closed = Instant::now();
        session.finish();
        assert!(closed.elapsed() < Duration::from_secs(5), "{:?}", closed.elapsed());
    }

    /// A `go` searching to depth 40 (hours) with 1 s to live: the end of the input or `quit`
    /// stops it, it answers, and the session ends.
    fn stop_a_long_go(by_quit: bool) {
        let agent = ply::search::alphabeta::AlphaBeta::new().with_tt_mb(1);
        let engine = othello(agent);
        let (reader, mut writer) = io::pipe().unwrap();
        let output = Arc::new(Mutex::new(Vec::new()));
        let out = SharedOut(output.clone());
        let server = std::thread::spawn(move || {
            serve(engine, io::BufReader::new(reader), out, Pondering::Off)
        });
        writeln!(writer, "nboard 2\nset depth 40\n{START}\ngo").unwrap();
        writer.flush().unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let writer = if by_quit {
            writeln!(writer, "quit").unwrap();
            writer.flush().unwrap();
            Some(writer)
        } else {
            drop(writer);
            None
        };
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(server.join().map(|r| r.is_ok()));
        });
        let ended = rx.recv_timeout(Duration::from_secs(20));
        assert!(matches!(ended, Ok(Ok(true))), "quit {by_quit}: the session went on: {ended:?}");
        drop(writer);
        let text = String::from_utf8_lossy(&output.lock().unwrap()).into_owned();
        assert!(text.lines().any(|l| l.starts_with("=== ")), "quit {by_quit}: {text}");
    }

    #[test]
    fn the_end_of_the_input_stops_a_go_search() {
        stop_a_long_go(false);
    }

    #[test]
    fn quit_stops_a_go_search() {
        stop_a_long_go(true);
    }

    #[test]
    fn without_pondering_nothing_is_searched_between_commands() {
        let mut session = Session::start(true, Pondering::Off);
        play_first_move(&mut session);
        session.send("ping 2");
        session.wait("pong", |l, _| l.contains(&"pong 2".to_string()));
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(session.searches(), [false]);
        session.finish();
    }

    #[test]
    fn set_game_forgets_the_expected_reply() {
        let mut session = Session::start(false, Pondering::On);
        play_first_move(&mut session);
        session.wait("the ponder search", |_, s| s.len() == 2);
        session.send(&format!("{START}\nping 3"));
        session.wait("pong", |l, _| l.contains(&"pong 3".to_string()));
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(session.searches(), [false, true]);
        session.finish();
    }

    #[test]
    fn lines_that_are_not_text_or_too_long_get_a_status_and_the_session_goes_on() {
        let mut input = b"ping 1\n\xff\xfe\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend_from_slice(b"\nping 2\n");
        let mut out = Vec::new();
        let engine = First::new(Arc::default(), false).engine();
        serve(engine, io::Cursor::new(input), &mut out, Pondering::On).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            [
                "pong 1",
                "status ignored a line that is not UTF-8 text",
                "status ignored a line that is too long",
                "pong 2"
            ]
        );
    }

    #[test]
    fn nothing_to_ponder_before_a_go() {
        let mut engine = First::new(Arc::default(), false).engine();
        let stop = Arc::new(AtomicBool::new(false));
        assert!(!engine.ponder(&stop));
        engine.handle("go");
        // The engine's move is not played yet: it is still the engine's turn.
        assert!(!engine.ponder(&stop));
    }
}
