//! The engine side of the Hub protocol (version 2, the text protocol of the Scan engine and
//! the Hub GUI), so draughts GUIs and match tools can drive any ply [`Agent`] on any game
//! with a [`HubCodec`].
//!
//! [`HubEngine`] is a line-oriented state machine: [`HubEngine::handle`] takes one input line
//! and writes the answer lines, and runs a search for `go`. [`serve`] wires it to a reader
//! and a writer, with a thread that keeps reading while the engine searches, so `stop`,
//! `ponder-hit` and `ping` are answered during a search.
//!
//! # Pondering
//!
//! `go ponder` (under [`serve`]) searches the position the GUI set, normally the one after the
//! opponent's expected reply (the `ponder=` move of the engine's last `done`), while the
//! opponent thinks. The search has no time limit (a `level depth=N` still limits its depth),
//! and `done` is held back until the GUI decides, even when the search ends on its own (depth
//! reached, position solved):
//!
//! - `ponder-hit` (the opponent played the expected move): the same search goes on, now under
//!   the level, with its time counted from the `ponder-hit`: `move-time=T` stops it `T` after
//!   the `ponder-hit`, a clock stops it after the clock's allotment for the move
//!   ([`Clock::allotment`]; the allotment is the hard limit here, as the search has already
//!   used the opponent's time), a depth level lets it reach its depth and `infinite` waits for
//!   `stop`. A search that ended on its own answers at once. Nothing is searched twice: the
//!   tree, table and iteration reached while pondering are the ones the answer comes from.
//! - `stop` (the opponent played something else): `done` at once, with the best move found.
//!   The GUI then sends the real position and `go think`. An agent that keeps its table
//!   between searches ([`AlphaBetaOptions::keep_tt`](ply::search::alphabeta::AlphaBetaOptions::keep_tt))
//!   still profits from the positions the ponder search stored.
//! - The end of the input ends a ponder search at once (no one is left to send `ponder-hit`),
//!   as it ends every search: see [`serve`].
//!
//! `ponder-hit` with no ponder search pending, and `stop` with no search pending, are ignored.
//! [`HubEngine::handle`] alone (without [`serve`]) has nobody to wait for, so it runs `go
//! ponder` as `go think`.
//!
//! Supported commands: `hub` (answers `id`, `param` lines and `wait`), `set-param`, `init`
//! (`ready`), `new-game`, `pos pos=... moves="..."`, `level depth=` / `move-time=` /
//! `[moves=] time= [inc=]` / `infinite`, `go think|ponder|analyze` (answers `info` and
//! `done move=... ponder=...`), `ponder-hit`, `stop`, `ping` (`pong`), `quit`. Unknown
//! commands get `error message="..."` and the engine carries on.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

#[cfg(doc)]
use ply::search::Clock;
use ply::search::{Agent, Budget, Position, SearchReport, Value};
use ply::{Game, MoveList};

use super::protocol::{arg, error_line, parse_level, parse_line, Flow, HubCodec, Level};
use crate::engines::lines::{read_line, Line, MAX_LINE};
use crate::engines::EngineError;

/// A Hub protocol engine around an agent; see the [module docs](self).
pub struct HubEngine<G: Game, A> {
    game: G,
    codec: HubCodec<G>,
    agent: A,
    state: G::State,
    history: Vec<u64>,
    level: Level,
    stop: Arc<AtomicBool>,
    /// Set while an infinite search runs.
    infinite: Arc<AtomicBool>,
    /// The `go` commands [`serve`]'s reader has passed on and what it heard about them since.
    session: Arc<Session>,
    report_info: bool,
}

/// What the reader of [`serve`] knows about one `go` it passed on and that is not answered yet.
#[derive(Clone, Copy, Debug, Default)]
struct Ticket {
    /// It is `go ponder`.
    ponder: bool,
    /// A `stop` (or the end of the input, for a ponder search) ended it.
    stopped: bool,
    /// When `ponder-hit` came for it.
    hit: Option<Instant>,
}

/// The state the reader of [`serve`] and the searching engine share.
#[derive(Debug, Default)]
struct SessionState {
    /// The pending `go` commands, earliest (the one searching or about to) first.
    tickets: VecDeque<Ticket>,
    /// The input has ended.
    input_closed: bool,
    /// A ponder search is running (its timer waits for `ponder-hit` while this holds).
    pondering: bool,
}

/// [`SessionState`] behind a lock, with a condition variable signalled on every change.
#[derive(Debug, Default)]
struct Session {
    state: Mutex<SessionState>,
    changed: Condvar,
}

impl Session {
    fn lock(&self) -> MutexGuard<'_, SessionState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, SessionState>) -> MutexGuard<'a, SessionState> {
        self.changed.wait(guard).unwrap_or_else(|e| e.into_inner())
    }

    /// The `go` being answered: `None` outside [`serve`].
    fn current(&self) -> Option<Ticket> {
        self.lock().tickets.front().copied()
    }

    fn set_pondering(&self, pondering: bool) {
        self.lock().pondering = pondering;
        self.changed.notify_all();
    }

    /// The timer of a ponder search: once `ponder-hit` has come, sets `stop` when `limit`
    /// has passed since it (never without a limit). Returns when the search ends or the limit
    /// has passed.
    fn stop_after_hit(&self, limit: Option<Duration>, stop: &AtomicBool) {
        let mut state = self.lock();
        while state.pondering {
            let deadline = match state.tickets.front() {
                None => return,
                Some(t) if t.stopped => return,
                Some(t) => t.hit.zip(limit).and_then(|(hit, limit)| hit.checked_add(limit)),
            };
            match deadline {
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        stop.store(true, Ordering::SeqCst);
                        return;
                    }
                    let waited = self.changed.wait_timeout(state, deadline - now);
                    state = waited.unwrap_or_else(|e| e.into_inner()).0;
                }
                None => state = self.wait(state),
            }
        }
    }

    /// Holds back the answer of a ponder search until `ponder-hit`, `stop` or the end of the
    /// input.
    fn wait_for_decision(&self) {
        let mut state = self.lock();
        while let Some(t) = state.tickets.front() {
            if t.stopped || t.hit.is_some() || state.input_closed {
                return;
            }
            state = self.wait(state);
        }
    }
}

/// True for a `go ponder` line.
/// A line's command, and whether it asks to ponder, read by the protocol's one parser
/// ([`parse_line`]), so that the reader thread and the main loop agree on every line (a
/// quoted `"go"` is a `go` to both).
fn command_of(line: &str) -> (String, bool) {
    match parse_line(line) {
        Ok(Some((command, args))) => {
            let ponder = args.iter().any(|(name, _)| name == "ponder");
            (command, ponder)
        }
        _ => (String::new(), false),
    }
}

/// The engine's name in `id`.
pub const NAME: &str = "ply";

impl<G: Game, A: Agent<G>> HubEngine<G, A> {
    /// An engine playing `game` with `agent`, at the start position, one second per move.
    pub fn new(game: G, codec: HubCodec<G>, agent: A) -> Self {
        let state = game.initial_state();
        HubEngine {
            history: game.hash(&state).into_iter().collect(),
            game,
            codec,
            state,
            agent,
            level: Level::MoveTime(Duration::from_secs(1)),
            stop: Arc::new(AtomicBool::new(false)),
            infinite: Arc::new(AtomicBool::new(false)),
            session: Arc::new(Session::default()),
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
    pub(crate) fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The current position.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The current search limit.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Handles one line from the GUI, appending the answer lines to `out`. A `go` runs the
    /// search before returning (`go ponder` as `go think`: only [`serve`] can pass on the
    /// `ponder-hit` a ponder search waits for).
    pub fn handle(&mut self, line: &str, out: &mut Vec<String>) -> Flow {
        let (command, args) = match parse_line(line) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                out.push(error_line(&e.to_string()));
                return Flow::Continue;
            }
        };
        let arg = |name: &str| arg(&args, name);
        match command.as_str() {
            "hub" => {
                out.push(format!(
                    "id name={NAME} version={} author=\"ply authors\"",
                    env!("CARGO_PKG_VERSION")
                ));
                let variant = self.codec.variant;
                out.push(format!(
                    "param name=variant value={variant} type=enum values=\"{variant}\""
                ));
                out.push("wait".into());
            }
            "set-param" => match (arg("name"), arg("value")) {
                (Some("variant"), Some(v)) if v == self.codec.variant => {}
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
                self.history = self.game.hash(&self.state).into_iter().collect();
            }
            "pos" => {
                if let Err(e) = self.set_position(arg("pos"), arg("moves")) {
                    out.push(error_line(&e.to_string()));
                }
            }
            "level" => match parse_level(&args) {
                Ok(level) => self.level = level,
                Err(e) => out.push(error_line(&e.to_string())),
            },
            "go" => self.go(out),
            "ping" => out.push("pong".into()),
            "stop" | "ponder-hit" => {}
            "quit" => return Flow::Quit,
            other => out.push(error_line(&format!("unknown command {other}"))),
        }
        Flow::Continue
    }

    fn set_position(&mut self, pos: Option<&str>, moves: Option<&str>) -> Result<(), EngineError> {
        let mut state = match pos {
            Some(text) => (self.codec.parse_position)(&self.game, text)?,
            None => self.game.initial_state(),
        };
        let mut history: Vec<u64> = self.game.hash(&state).into_iter().collect();
        for text in moves.unwrap_or("").split_whitespace() {
            let mv = (self.codec.parse_move)(&self.game, &state, text)?;
            self.game.apply(&mut state, mv);
            history.extend(self.game.hash(&state));
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
        let ponder = self.session.current().is_some_and(|t| t.ponder);
        if self.level == Level::Infinite {
            self.infinite.store(true, Ordering::SeqCst);
        }
        let budget = if ponder {
            self.level.ponder_budget()
        } else if self.level == Level::Infinite && self.session.lock().input_closed {
            // Nobody is left to send `stop`.
            Budget::time(Duration::from_secs(1))
        } else {
            self.level.budget()
        }
        .with_stop(self.stop.clone());
        let position = Position::with_history(&self.state, &self.history);
        let result = if ponder {
            let (session, stop, limit) =
                (&*self.session, &*self.stop, self.level.time_after_ponder_hit());
            session.set_pondering(true);
            let result = std::thread::scope(|scope| {
                scope.spawn(|| session.stop_after_hit(limit, stop));
                let result = self.agent.choose(&self.game, position, &budget);
                session.set_pondering(false);
                result
            });
            session.wait_for_decision();
            result
        } else {
            self.agent.choose(&self.game, position, &budget)
        };
        self.infinite.store(false, Ordering::SeqCst);
        self.stop.store(false, Ordering::SeqCst);
        match result {
            Ok(report) => {
                let text = |m| (self.codec.format_move)(&self.game, m);
                if self.report_info {
                    out.push(info_line(&self.game, self.codec, &report));
                }
                let ponder = report.pv.get(1).map(|&m| format!(" ponder={}", text(m)));
                out.push(format!(
                    "done move={}{}",
                    text(report.best_move),
                    ponder.unwrap_or_default()
                ));
            }
            Err(e) => {
                out.push(error_line(&e.to_string()));
                // Answer anyway so the GUI is not left waiting.
                out.push(format!("done move={}", (self.codec.format_move)(&self.game, moves[0])));
            }
        }
    }
}

/// The `info` line for a search report: depth, score in men, nodes, time, speed in millions
/// of nodes per second and the PV in Hub move format. Proven results score ±(1000 - plies).
pub(crate) fn info_line<G: Game>(
    game: &G,
    codec: HubCodec<G>,
    report: &SearchReport<G::Move>,
) -> String {
    info_fields(game, codec, report.depth, report.value, report.nodes, report.elapsed, &report.pv)
}

/// The `info` line from its parts (see `info_line`).
pub fn info_fields<G: Game>(
    game: &G,
    codec: HubCodec<G>,
    depth: u32,
    value: Value,
    nodes: u64,
    elapsed: Duration,
    pv: &[G::Move],
) -> String {
    let score = match value {
        Value::Heuristic(v) => v / 100.0,
        Value::Reward(r) => r * 2.0 - 1.0,
        Value::Win(n) => 1000.0 - f64::from(n),
        Value::Loss(n) => -(1000.0 - f64::from(n)),
        Value::Draw | Value::Unknown => 0.0,
    };
    let secs = elapsed.as_secs_f64();
    let mnps = if secs > 0.0 { nodes as f64 / secs / 1e6 } else { 0.0 };
    let pv: Vec<String> = pv.iter().map(|&m| (codec.format_move)(game, m)).collect();
    format!(
        "info depth={depth} score={score:.2} nodes={nodes} time={secs:.3} nps={mnps:.2} pv=\"{}\"",
        pv.join(" ")
    )
}

/// Runs a Hub engine session: reads lines from `input` and answers on `output` until `quit` or the
/// end of the input. A reader thread answers `ping`, passes `stop` to a running search and
/// `ponder-hit` to a ponder search (see [pondering](self#pondering)). The end of the input
/// means `quit`, as in the engines of the field: the running search stops at once and
/// answers with the best move it has found, commands still waiting are answered (their
/// searches stopped before they start), and the session ends. `quit` itself stops the
/// running search the same way.
///
/// # Errors
/// An I/O error writing the output.
pub fn serve<G, A, R, W>(mut engine: HubEngine<G, A>, input: R, output: W) -> io::Result<()>
where
    G: Game,
    A: Agent<G>,
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let output = Arc::new(Mutex::new(output));
    let stop = engine.stop_flag();
    // A `stop` applies to the earliest pending `go` not yet stopped, even if the main loop
    // has not started that search, and a `ponder-hit` to the earliest pending `go ponder`
    // neither stopped nor hit. The tickets and the stop flag change together under the
    // session's lock, so a `stop` is never lost and never outlives its search.
    let session = engine.session.clone();
    let (tx, rx) = mpsc::channel::<String>();
    let reader_out = output.clone();
    let reader_session = session.clone();
    let reader_stop = stop.clone();
    // Commands other than `go` handed to the main loop and not answered yet: a `ping` behind
    // one waits its turn, so `pong` never overtakes an earlier answer; otherwise (even
    // during a search) it is answered at once.
    let unanswered = Arc::new(AtomicUsize::new(0));
    let reader_unanswered = unanswered.clone();
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let line = match read_line(&mut input, MAX_LINE) {
                Ok(Some(Line::Text(text))) => text,
                Ok(Some(bad)) => {
                    // Not a command: answer an error and read on.
                    let what = if bad == Line::NotUtf8 { "not UTF-8 text" } else { "too long" };
                    let mut out = reader_out.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = writeln!(out, "{}", error_line(&format!("a line that is {what}")))
                        .and_then(|_| out.flush());
                    continue;
                }
                Ok(None) | Err(_) => break,
            };
            let (command, ponder) = command_of(&line);
            match command.as_str() {
                "stop" => {
                    let mut state = reader_session.lock();
                    if let Some(i) = state.tickets.iter().position(|t| !t.stopped) {
                        state.tickets[i].stopped = true;
                        if i == 0 {
                            reader_stop.store(true, Ordering::SeqCst);
                        }
                    }
                    reader_session.changed.notify_all();
                }
                "ponder-hit" => {
                    let mut state = reader_session.lock();
                    let pondering = |t: &Ticket| t.ponder && !t.stopped && t.hit.is_none();
                    if let Some(t) = state.tickets.iter_mut().find(|t| pondering(t)) {
                        t.hit = Some(Instant::now());
                    }
                    reader_session.changed.notify_all();
                }
                "ping" if reader_unanswered.load(Ordering::SeqCst) == 0 => {
                    let mut out = reader_out.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = writeln!(out, "pong").and_then(|_| out.flush());
                }
                "quit" => {
                    // Answered in turn by the main loop; what it stops is stopped below.
                    let _ = tx.send(line);
                    break;
                }
                _ => {
                    if command == "go" {
                        let ticket = Ticket { ponder, ..Ticket::default() };
                        reader_session.lock().tickets.push_back(ticket);
                    } else {
                        reader_unanswered.fetch_add(1, Ordering::SeqCst);
                    }
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
        // End of input (or `quit`): the GUI is gone. Every search stops, the one running and
        // the ones still waiting, as `stop` would stop them.
        let mut state = reader_session.lock();
        state.input_closed = true;
        for t in state.tickets.iter_mut() {
            t.stopped = true;
        }
        reader_stop.store(true, Ordering::SeqCst);
        reader_session.changed.notify_all();
    });
    let mut lines = Vec::new();
    for line in rx {
        lines.clear();
        let flow = engine.handle(&line, &mut lines);
        let is_go = command_of(&line).0 == "go";
        if is_go {
            let mut state = session.lock();
            state.tickets.pop_front();
            // The next pending search may have been stopped already.
            let stopped = state.tickets.front().is_some_and(|t| t.stopped);
            stop.store(stopped, Ordering::SeqCst);
        }
        let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
        for l in &lines {
            writeln!(out, "{l}")?;
        }
        out.flush()?;
        if !is_go {
            unanswered.fetch_sub(1, Ordering::SeqCst);
        }
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::{ConnectFour, TicTacToe};
    use ply::search::alphabeta::AlphaBeta;
    use ply::search::baseline::Greedy;
    use ply::Notation;
    use std::time::Instant;

    /// A game in the Hub protocol with its own notation for positions and moves.
    fn codec<G: Notation>() -> HubCodec<G> {
        HubCodec {
            variant: "normal",
            position: |g, s| g.format_state(s),
            parse_position: |g, t| g.parse_state(t).map_err(crate::error::ToolError::input),
            format_move: |g, m| g.format_move(&g.initial_state(), m),
            parse_move: |g, s, t| g.parse_move(s, t).map_err(crate::error::ToolError::input),
        }
    }

    /// An output the test can read while the engine writes to it.
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A [`serve`] session fed through a pipe, so the test decides when each line arrives,
    /// with its output readable as it is written.
    struct Piped {
        writer: io::PipeWriter,
        output: Arc<Mutex<Vec<u8>>>,
        server: std::thread::JoinHandle<io::Result<()>>,
    }

    impl Piped {
        fn start<G: Game + Send + 'static, A: Agent<G> + Send + 'static>(
            engine: HubEngine<G, A>,
        ) -> Piped {
            let (reader, writer) = io::pipe().unwrap();
            let output = Arc::new(Mutex::new(Vec::new()));
            let out = Shared(output.clone());
            let server = std::thread::spawn(move || serve(engine, io::BufReader::new(reader), out));
            Piped { writer, output, server }
        }

        fn send(&mut self, lines: &str) {
            writeln!(self.writer, "{lines}").unwrap();
            self.writer.flush().unwrap();
        }

        fn text(&self) -> String {
            String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
        }

        /// How many `done` lines have been written.
        fn dones(&self) -> usize {
            self.text().matches("done move=").count()
        }

        /// Waits until the output has `count` lines starting with `start`; false if `limit`
        /// passes first.
        fn wait_for(&self, start: &str, count: usize, limit: Duration) -> bool {
            let begun = Instant::now();
            while begun.elapsed() < limit {
                if self.text().lines().filter(|l| l.starts_with(start)).count() >= count {
                    return true;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            false
        }

        /// Waits up to `limit` for the session to end with the input still open (after
        /// `quit`), or closed when `close` is true; the whole output, or `None` if the session
        /// is still running.
        fn end_within(self, close: bool, limit: Duration) -> Option<String> {
            let Piped { writer, output, server } = self;
            let writer = if close {
                drop(writer);
                None
            } else {
                Some(writer)
            };
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                let _ = tx.send(server.join().map(|r| r.is_ok()));
            });
            let ended = matches!(rx.recv_timeout(limit), Ok(Ok(true)));
            drop(writer);
            let text = String::from_utf8_lossy(&output.lock().unwrap()).into_owned();
            ended.then_some(text)
        }

        /// Closes the input and returns the whole output once the session has ended.
        fn finish(self) -> String {
            drop(self.writer);
            self.server.join().unwrap().unwrap();
            String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
        }
    }

    fn connect_four() -> HubEngine<ConnectFour, AlphaBeta> {
        HubEngine::new(ConnectFour::standard(), codec(), AlphaBeta::new().with_tt_mb(1))
    }

    /// Tic-tac-toe is solved at depth 9 in a moment, so the ponder search ends long before
    /// the GUI decides: `done` must still wait for `ponder-hit`, and answer at once then.
    #[test]
    fn ponder_holds_done_back_until_ponder_hit_even_when_the_search_has_ended() {
        let mut hub = Piped::start(HubEngine::new(TicTacToe, codec(), AlphaBeta::new()));
        hub.send("level depth=9\ngo ponder");
        std::thread::sleep(Duration::from_millis(300));
        hub.send("ping");
        assert!(hub.wait_for("pong", 1, Duration::from_secs(10)), "{}", hub.text());
        assert_eq!(hub.dones(), 0, "done before ponder-hit: {}", hub.text());
        hub.send("ponder-hit");
        assert!(hub.wait_for("done move=", 1, Duration::from_secs(10)), "{}", hub.text());
        let text = hub.finish();
        let pong = text.find("pong").unwrap();
        let done = text.find("done move=").unwrap();
        assert!(pong < done, "{text}");
        assert!(text.contains("info depth=9"), "{text}");
    }

    /// A ponder search outlives its level's move time (a `go think` would have answered), and
    /// after `ponder-hit` it answers within the level's time counted from the hit.
    #[test]
    fn after_ponder_hit_the_search_ends_within_the_level_counted_from_the_hit() {
        for level in ["level move-time=0.25", "level moves=20 time=5"] {
            let mut hub = Piped::start(connect_four());
            hub.send(&format!("{level}\ngo ponder"));
            std::thread::sleep(Duration::from_millis(800));
            assert_eq!(hub.dones(), 0, "{level}: done before ponder-hit: {}", hub.text());
            let hit = Instant::now();
            hub.send("ponder-hit");
            assert!(hub.wait_for("done move=", 1, Duration::from_secs(20)), "{}", hub.text());
            let after = hit.elapsed();
            // 250 ms either way (the clock's allotment is 5 s / 20); generous bounds only.
            assert!(
                after >= Duration::from_millis(100),
                "{level}: answered {after:?} after the hit"
            );
            assert!(after < Duration::from_secs(5), "{level}: answered {after:?} after the hit");
            let text = hub.finish();
            assert_eq!(text.matches("done move=").count(), 1, "{level}: {text}");
        }
    }

    #[test]
    fn stop_ends_a_ponder_search_at_once() {
        let mut hub = Piped::start(connect_four());
        hub.send("level move-time=60\ngo ponder");
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(hub.dones(), 0, "{}", hub.text());
        hub.send("stop");
        assert!(hub.wait_for("done move=", 1, Duration::from_secs(10)), "{}", hub.text());
        // The session goes on: the next search is an ordinary one.
        hub.send("level depth=2\ngo think");
        assert!(hub.wait_for("done move=", 2, Duration::from_secs(10)), "{}", hub.text());
        hub.finish();
    }

    /// The end of the input ends a ponder search (nobody can send `ponder-hit` any more), and
    /// a `go ponder` still queued behind it answers at once too.
    #[test]
    fn the_end_of_the_input_ends_ponder_searches() {
        let mut hub = Piped::start(connect_four());
        hub.send("level move-time=60\ngo ponder\ngo ponder");
        std::thread::sleep(Duration::from_millis(200));
        let closed = Instant::now();
        let text = hub.finish();
        assert!(closed.elapsed() < Duration::from_secs(10), "{:?}", closed.elapsed());
        assert_eq!(text.matches("done move=").count(), 2, "{text}");
    }

    /// The end of the input means `quit`: a search with an hour to go stops at once and
    /// answers, a `go` still waiting answers at once too, and the session ends.
    #[test]
    fn the_end_of_the_input_stops_every_search() {
        let mut hub = Piped::start(connect_four());
        hub.send("level move-time=3600\ngo think\ngo think");
        std::thread::sleep(Duration::from_millis(200));
        let text = hub.end_within(true, Duration::from_secs(20));
        let text = text.expect("the session ended with its input");
        assert_eq!(text.matches("done move=").count(), 2, "{text}");
    }

    /// `quit` stops a running search and ends the session with the input still open.
    #[test]
    fn quit_stops_a_running_search() {
        let mut hub = Piped::start(connect_four());
        hub.send("level move-time=3600\ngo think");
        std::thread::sleep(Duration::from_millis(200));
        hub.send("quit");
        let text = hub.end_within(false, Duration::from_secs(20));
        let text = text.expect("the session ended after quit");
        assert_eq!(text.matches("done move=").count(), 1, "{text}");
    }

    /// Random and mutated GUI lines: no panic, every answer is a line of the protocol, and
    /// the session goes on.
    #[test]
    fn random_and_mutated_lines_get_answers_of_the_protocol() {
        let samples = [
            "hub",
            "init",
            "set-param name=variant value=normal",
            "level depth=2",
            "level move-time=0.01",
            "pos pos=\"xxxxxxxxx.xx..x......o..o..oooo\" moves=\"d1\"",
            "new-game",
            "go think",
            "go ponder",
            "ping",
            "stop",
            "ponder-hit",
        ];
        let read = |line: &str| -> Result<(), EngineError> {
            let mut engine = HubEngine::new(TicTacToe, codec(), AlphaBeta::new().with_tt_mb(1));
            let mut out = Vec::new();
            engine.handle("level depth=2", &mut out);
            out.clear();
            engine.handle(line, &mut out);
            let known = ["id", "param", "wait", "ready", "info", "done", "pong", "error"];
            for answer in &out {
                let word = answer.split_whitespace().next().unwrap_or("");
                if !known.contains(&word) {
                    return Err(EngineError::Protocol(format!("answered {answer:?}")));
                }
            }
            out.clear();
            engine.handle("ping", &mut out);
            if out != ["pong"] {
                return Err(EngineError::Protocol(format!("then answered ping with {out:?}")));
            }
            Ok(())
        };
        ply::testing::check_reader(&samples, read, 3_000, 32).unwrap_or_else(|e| panic!("{e}"));
    }

    /// `pong` comes after the answers to every command before its `ping`.
    #[test]
    fn pong_never_overtakes_an_earlier_answer() {
        let mut hub = Piped::start(connect_four());
        hub.send(&"bogus\nping\n".repeat(200));
        assert!(hub.wait_for("pong", 200, Duration::from_secs(20)), "{}", hub.text());
        let text = hub.finish();
        let answers: Vec<&str> =
            text.lines().filter(|l| *l == "pong" || l.starts_with("error")).collect();
        for pair in answers.chunks(2) {
            assert!(pair[0].starts_with("error") && pair[1] == "pong", "{pair:?} in\n{text}");
        }
    }

    /// A quoted `"go"` is a `go` to the reader as to the main loop, so `stop` ends it.
    #[test]
    fn stop_ends_a_search_begun_by_a_quoted_go() {
        let mut hub = Piped::start(connect_four());
        hub.send("level move-time=3600\n\"go\" think");
        std::thread::sleep(Duration::from_millis(200));
        hub.send("stop");
        assert!(hub.wait_for("done move=", 1, Duration::from_secs(20)), "{}", hub.text());
        let text = hub.finish();
        assert!(!text.contains("error"), "{text}");
    }

    /// `ponder-hit` and `stop` with nothing to act on are ignored: they do not fail, and they
    /// do not carry over to a later search.
    #[test]
    fn ponder_hit_and_stop_without_a_search_are_ignored() {
        let mut hub = Piped::start(HubEngine::new(TicTacToe, codec(), AlphaBeta::new()));
        hub.send("ponder-hit\nstop\nponder-hit now\nlevel depth=2\ngo think\nping");
        assert!(hub.wait_for("pong", 1, Duration::from_secs(10)), "{}", hub.text());
        assert!(hub.wait_for("done move=", 1, Duration::from_secs(10)), "{}", hub.text());
        hub.send("go ponder");
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(hub.dones(), 1, "an old ponder-hit or stop ended the new ponder search");
        hub.send("ponder-hit");
        assert!(hub.wait_for("done move=", 2, Duration::from_secs(10)), "{}", hub.text());
        let text = hub.finish();
        assert!(!text.contains("error"), "{text}");
    }

    #[test]
    fn without_serve_go_ponder_is_go_think() {
        let mut engine = HubEngine::new(TicTacToe, codec(), AlphaBeta::new());
        let mut out = Vec::new();
        engine.handle("level depth=3", &mut out);
        engine.handle("go ponder", &mut out);
        engine.handle("ponder-hit", &mut out);
        assert!(out.iter().any(|l| l.starts_with("done move=")), "{out:?}");
    }

    #[test]
    fn lines_that_are_not_text_get_an_error_and_the_session_goes_on() {
        let mut script = b"hub\n\xff\xfe\n".to_vec();
        script.extend_from_slice(b"init\nquit\n");
        let out = Arc::new(Mutex::new(Vec::<u8>::new()));
        let engine = HubEngine::new(TicTacToe, codec(), Greedy::new());
        serve(engine, io::Cursor::new(script), Shared(out.clone())).unwrap();
        let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        assert!(text.contains("error message=\"a line that is not UTF-8 text\""), "{text}");
        assert!(text.contains("ready"), "{text}");
    }

    #[test]
    fn huge_levels_are_no_panic() {
        for level in ["level move-time=1e300", "level move-time=1e19", "level time=1 inc=7e18"] {
            let mut engine = HubEngine::new(TicTacToe, codec(), Greedy::new());
            let mut out = Vec::new();
            engine.handle(level, &mut out);
            engine.handle("go think", &mut out);
            assert!(out.iter().any(|l| l.starts_with("done move=")), "{level}: {out:?}");
        }
    }

    /// `stop` sent while an infinite search runs ends it, with the input still open (the
    /// reader must not miss it because the main loop was busy with an earlier line).
    #[test]
    fn stop_ends_an_infinite_search_while_the_input_is_open() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let output = Arc::new(Mutex::new(Vec::<u8>::new()));
        let game = ConnectFour::standard();
        let engine = HubEngine::new(game, codec(), AlphaBeta::new().with_tt_mb(1));
        let out = Shared(output.clone());
        let server = std::thread::spawn(move || serve(engine, io::BufReader::new(reader), out));
        for _ in 0..20 {
            writeln!(writer, "level infinite\ngo analyze\nstop").unwrap();
        }
        writer.flush().unwrap();
        let done = |o: &Arc<Mutex<Vec<u8>>>| {
            String::from_utf8_lossy(&o.lock().unwrap()).matches("done move=").count()
        };
        // Every one of the twenty searches is stopped while the pipe stays open; a missed
        // `stop` would leave a search running for a day and this loop would time out.
        let started = std::time::Instant::now();
        while done(&output) < 20 && started.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(done(&output), 20);
        drop(writer);
        server.join().unwrap().unwrap();
    }
}
