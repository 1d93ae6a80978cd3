//! The engine side of the Hub protocol (version 2, the text protocol of the Scan engine and
//! the Hub GUI), so draughts GUIs and match tools can drive any ply [`Agent`] on any game
//! with a [`HubCodec`].
//!
//! [`HubEngine`] is a line-oriented state machine: [`HubEngine::handle`] takes one input line
//! and writes the answer lines, and runs a search for `go`. [`serve`] wires it to a reader
//! and a writer, with a thread that keeps reading while the engine searches, so `stop` and
//! `ping` are answered during a search.
//!
//! Supported commands: `hub` (answers `id`, `param` lines and `wait`), `set-param`, `init`
//! (`ready`), `new-game`, `pos pos=... moves="..."`, `level depth=` / `move-time=` /
//! `[moves=] time= [inc=]` / `infinite`, `go think|ponder|analyze` (answers `info` and
//! `done move=... ponder=...`), `ponder-hit`, `stop`, `ping` (`pong`), `quit`. Unknown
//! commands get `error message="..."` and the engine carries on.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ply::search::{Agent, Budget, Position, SearchReport, Value};
use ply::{Game, MoveList};

use super::protocol::{arg, error_line, parse_level, parse_line, Flow, HubCodec, Level};
use crate::engines::lines::{read_line, Line, MAX_LINE};

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
    /// Set by [`run`] when the input has ended.
    input_closed: Arc<AtomicBool>,
    report_info: bool,
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
    pub fn state(&self) -> &G::State {
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
        let budget = match self.level {
            Level::Infinite => {
                self.infinite.store(true, Ordering::SeqCst);
                if self.input_closed.load(Ordering::SeqCst) {
                    // Nobody is left to send `stop`.
                    Budget::time(Duration::from_secs(1))
                } else {
                    Level::Infinite.budget()
                }
            }
            level => level.budget(),
        }
        .with_stop(self.stop.clone());
        let position = Position::with_history(&self.state, &self.history);
        let result = self.agent.choose(&self.game, position, &budget);
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
pub fn info_line<G: Game>(game: &G, codec: HubCodec<G>, report: &SearchReport<G::Move>) -> String {
    info_fields(game, codec, report.depth, report.value, report.nodes, report.elapsed, &report.pv)
}

/// The `info` line from its parts (see [`info_line`]).
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
/// end of the input. A reader thread answers `ping` and passes `stop` to a running search.
/// When the input ends, pending commands are still answered (searches keep their limits; an
/// infinite search stops).
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
    // `go` lines passed on and not yet answered, and how many of the earliest of them a `stop`
    // has ended. A `stop` applies to the earliest pending `go` not yet stopped, even if the
    // main loop has not started that search; the counts and the stop flag change together
    // under this lock, so a `stop` is never lost and never outlives its search.
    let pending = Arc::new(Mutex::new((0usize, 0usize)));
    let (tx, rx) = mpsc::channel::<String>();
    let reader_out = output.clone();
    let reader_pending = pending.clone();
    let reader_stop = stop.clone();
    let infinite = engine.infinite.clone();
    let input_closed = engine.input_closed.clone();
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
            let command = line.split_whitespace().next().unwrap_or("");
            match command {
                "stop" => {
                    let mut counts = reader_pending.lock().unwrap_or_else(|e| e.into_inner());
                    let (gos, stops) = &mut *counts;
                    if *gos > *stops {
                        *stops += 1;
                        reader_stop.store(true, Ordering::SeqCst);
                    }
                }
                "ping" => {
                    let mut out = reader_out.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = writeln!(out, "pong").and_then(|_| out.flush());
                }
                _ => {
                    if command == "go" {
                        reader_pending.lock().unwrap_or_else(|e| e.into_inner()).0 += 1;
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
        if line.split_whitespace().next() == Some("go") {
            let mut counts = pending.lock().unwrap_or_else(|e| e.into_inner());
            let (gos, stops) = &mut *counts;
            *gos = gos.saturating_sub(1);
            *stops = stops.saturating_sub(1);
            // The next pending search may have been stopped already.
            stop.store(*stops > 0, Ordering::SeqCst);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::{ConnectFour, TicTacToe};
    use ply::search::alphabeta::AlphaBeta;
    use ply::search::baseline::Greedy;
    use ply::Notation;

    /// A game in the Hub protocol with its own notation for positions and moves.
    fn codec<G: Notation>() -> HubCodec<G> {
        HubCodec {
            variant: "normal",
            position: |g, s| g.format_state(s),
            parse_position: |g, t| g.parse_state(t).map_err(|e| e.to_string()),
            format_move: |g, m| g.format_move(&g.initial_state(), m),
            parse_move: |g, s, t| g.parse_move(s, t).map_err(|e| e.to_string()),
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
