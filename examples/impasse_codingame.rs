//! An Impasse bot for CodinGame: it speaks the referee's protocol on stdin/stdout and plays
//! with the library's alpha-beta search, answering inside the referee's time limits even on
//! a busy machine.
//!
//! ```text
//! cargo run --release --example impasse_codingame [-- --turn-ms 20 --turn-limit-ms 40 --quiet]
//! ```
//!
//! Each turn it reads the board, the last action and the referee's legal actions, checks its
//! own move list against the referee's (a difference is reported on stderr), searches, and
//! answers an action text from the referee's list. The referee allows 1000 ms for the first
//! answer and 100 ms for the others, timed from the end of its input to the answer line; a
//! late answer loses the game.
//!
//! Time is kept in two parts. The thinking time (`--first-ms`, `--turn-ms`) is how long the
//! search may think, from its start. The answer limit (`--first-limit-ms`, `--turn-limit-ms`)
//! is the latest moment to answer, from the arrival of the turn's first line: it is the
//! search's hard deadline ([`Budget::deadline`](ply::search::Budget::deadline)), and the
//! moment a watchdog thread answers the first move of the search's last completed iteration
//! itself if the searching thread has not answered yet (on a busy machine a thread that has
//! used its share of the processor may wait tens of milliseconds for it). Three threads share
//! the work: a reader that stamps each turn's arrival and is back in `read` before the next
//! one comes, the searching thread, and the watchdog; the reader and the watchdog use next to
//! no processor time, so they run as soon as they wake. What the limit leaves of the referee's
//! covers what the bot cannot see: the input reaching the reader, the answer reaching the
//! referee, and on the first turn the process's start. The transposition table is allocated
//! before the first turn is read, and the per-turn line on stderr is written after the
//! answer. The bot keeps its scheduling priority: raising it takes privileges a CodinGame bot
//! does not have. `rulesets/impasse/tools/referee.py` measures the answer times as the
//! referee does, under load; BENCHMARKS.md has the figures behind the defaults.
//!
//! Malformed or truncated input ends the program with a message on stderr and exit code 1;
//! the end of input between turns ends it normally. The end of the input means quit, as in
//! the engines of the field: a search still running stops and answers at once.

use std::cell::RefCell;
use std::io::{self, Write};
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use ply::eval::GameEval;
use ply::search::alphabeta::{AlphaBeta, InfoSink, IterationInfo};
use ply::search::{Agent, Budget, Position};
use ply_impasse::codingame::{answer, compare_actions, Session};
use ply_impasse::{Impasse, ImpasseState, Move};

const USAGE: &str = "usage: impasse_codingame [--first-ms N] [--turn-ms N] [--first-limit-ms N]
                         [--turn-limit-ms N] [--quiet]
The referee allows 1000 ms for the first answer and 100 ms for each later one, from the end
of its input to the answer line. The thinking time runs from the search's start; the limit
runs from the turn's arrival, and at the limit a watchdog answers the best move found so far
whatever the search is doing.
  --first-ms N         thinking time for the first answer (default 300)
  --turn-ms N          thinking time for later answers (default 20: 80 ms of the 100 are
                       left to a busy machine; a bot that thinks less also asks less of its
                       share of the processor, so it waits less for it)
  --first-limit-ms N   the latest first answer (default 500: 500 ms of the 1000 are left for
                       the process's start and scheduling)
  --turn-limit-ms N    the latest later answer (default 40: 60 ms of the 100 are left for the
                       input to reach the bot and the answer the referee, together up to 33 ms
                       (p99.9) at load 8 on 2 cores, and for stalls of the whole process,
                       which took up to 66 ms at load 4)
  --quiet              no per-turn line on stderr";

/// The bot's time settings and logging.
struct Options {
    first: Duration,
    turn: Duration,
    first_limit: Duration,
    turn_limit: Duration,
    quiet: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        first: Duration::from_millis(300),
        turn: Duration::from_millis(20),
        first_limit: Duration::from_millis(500),
        turn_limit: Duration::from_millis(40),
        quiet: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut ms = |name: &str| -> Result<Duration, String> {
            let v = args.next().ok_or_else(|| format!("{name} needs a value"))?;
            let n: u64 = v.parse().map_err(|_| format!("{name}: {v:?} is not a number"))?;
            if n == 0 || n > 60_000 {
                return Err(format!("{name}: {n} is not between 1 and 60000"));
            }
            Ok(Duration::from_millis(n))
        };
        match a.as_str() {
            "--first-ms" => o.first = ms("--first-ms")?,
            "--turn-ms" => o.turn = ms("--turn-ms")?,
            "--first-limit-ms" => o.first_limit = ms("--first-limit-ms")?,
            "--turn-limit-ms" => o.turn_limit = ms("--turn-limit-ms")?,
            "--quiet" => o.quiet = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(o)
}

/// One turn to play, as the reader thread hands it to the searching thread.
struct Job {
    /// The position, with the bot to move.
    state: ImpasseState,
    /// The turn as the watchdog sees it, shared with the search.
    alarm: Alarm,
}

/// What the watchdog needs to answer a turn on its own. It shares nothing with the searching
/// thread behind a lock: a lock held by that thread while it waits for a processor would
/// hold the watchdog too.
#[derive(Clone)]
struct Alarm {
    /// The turn's number, from 1.
    number: u32,
    /// When the turn's input arrived.
    received: Instant,
    /// The latest moment to answer.
    answer_by: Instant,
    /// The referee's actions.
    actions: Arc<Vec<String>>,
    /// The index in `actions` of the best move of the search's last completed iteration, plus
    /// one (0: none yet).
    best: Arc<AtomicUsize>,
    /// Set by the watchdog once it has answered, to stop the search.
    stop: Arc<AtomicBool>,
}

/// The searching thread's sink of completed iterations: records each one's best move in the
/// alarm of the turn being searched, for the watchdog.
struct Recorder(Rc<RefCell<Option<Alarm>>>);

impl InfoSink<Move> for Recorder {
    fn iteration(&mut self, info: &IterationInfo<'_, Move>) {
        let current = self.0.borrow();
        let (Some(alarm), Some(best)) = (current.as_ref(), info.pv.first()) else { return };
        let text = best.to_string();
        if let Some(i) = alarm.actions.iter().position(|a| *a == text) {
            alarm.best.store(i + 1, Ordering::Release);
        }
    }
}

/// What the reader thread passes on: a turn, the end of the input, or why the input is bad.
type Input = Result<Option<Job>, String>;

/// Stdout, with the number of the last turn answered, so that each turn gets exactly one
/// answer, from whichever thread comes first.
struct Answers(AtomicU32);

/// How an answer went out.
enum Sent {
    /// Written and flushed.
    Written,
    /// The other thread had answered this turn already.
    AlreadyAnswered,
    /// Stdout is closed: the referee has ended the game.
    Closed,
}

impl Answers {
    /// Writes `text` as the answer of turn `number` unless that turn has one already (claimed
    /// without a lock). Nothing is woken: a thread woken here could take the processor from
    /// the answer.
    fn send(&self, number: u32, text: &str) -> Sent {
        if self.0.fetch_max(number, Ordering::AcqRel) >= number {
            return Sent::AlreadyAnswered;
        }
        let mut out = io::stdout().lock();
        match out.write_all(text.as_bytes()).and_then(|_| out.write_all(b"\n")) {
            Ok(()) if out.flush().is_ok() => Sent::Written,
            _ => Sent::Closed,
        }
    }
}

/// Starts the reader thread: it reads stdin one turn at a time and stamps each turn's arrival
/// (the searching thread may be busy or waiting for a processor then), and hands the turn to
/// the searching thread and its alarm to the watchdog. It goes back to reading at once, so
/// that it waits in `read` when the next turn comes.
fn spawn_reader(options: &Options, alarms: Sender<Alarm>) -> Result<Receiver<Input>, String> {
    let (tx, rx) = mpsc::channel();
    let (first, later) = (options.first_limit, options.turn_limit);
    thread::Builder::new()
        .name("reader".into())
        .spawn(move || {
            let mut session = match Session::new(io::stdin().lock()) {
                Ok(s) => s,
                Err(e) => {
                    let _ = tx.send(Err(e.to_string()));
                    return;
                }
            };
            // The stop flag of the last turn handed on: its search may still run.
            let mut searching: Option<Arc<AtomicBool>> = None;
            for number in 1.. {
                let turn = match session.read_turn() {
                    Ok(Some(turn)) => turn,
                    other => {
                        // The end of the input means quit: a search still running stops and
                        // answers at once.
                        if let Some(stop) = &searching {
                            stop.store(true, Ordering::SeqCst);
                        }
                        let _ = tx.send(other.map(|_| None).map_err(|e| e.to_string()));
                        return;
                    }
                };
                let limit = if number == 1 { first } else { later };
                let alarm = Alarm {
                    number,
                    received: turn.received,
                    answer_by: turn.received + limit,
                    actions: Arc::new(turn.actions),
                    best: Arc::new(AtomicUsize::new(0)),
                    stop: Arc::new(AtomicBool::new(false)),
                };
                searching = Some(alarm.stop.clone());
                let job = Job { state: turn.state, alarm };
                if alarms.send(job.alarm.clone()).is_err() || tx.send(Ok(Some(job))).is_err() {
                    return;
                }
            }
        })
        .map_err(|e| format!("cannot start the reader thread: {e}"))?;
    Ok(rx)
}

/// Starts the watchdog thread: for each turn, it sleeps until the turn's answer limit and, if
/// the searching thread has not answered by then, answers the first move of the search's last
/// completed iteration itself (the referee's first action before any) and stops the search.
/// Idle but for that, it gets a processor at once on a busy machine, where the searching
/// thread may wait tens of milliseconds for one.
fn spawn_watchdog(
    answers: Arc<Answers>,
    alarms: Receiver<Alarm>,
    quiet: bool,
) -> Result<(), String> {
    thread::Builder::new()
        .name("watchdog".into())
        .spawn(move || {
            for alarm in alarms {
                let wait = alarm.answer_by.saturating_duration_since(Instant::now());
                if !wait.is_zero() {
                    thread::sleep(wait);
                }
                let best = alarm.best.load(Ordering::Acquire);
                let Some(text) = alarm.actions.get(best.saturating_sub(1)) else { continue };
                match answers.send(alarm.number, text) {
                    Sent::Written => {
                        alarm.stop.store(true, Ordering::Relaxed);
                        if !quiet {
                            eprintln!(
                                "turn {}: the watchdog answered {text} {} ms after the input",
                                alarm.number,
                                alarm.received.elapsed().as_millis()
                            );
                        }
                    }
                    Sent::Closed => return,
                    Sent::AlreadyAnswered => {}
                }
            }
        })
        .map(|_| ())
        .map_err(|e| format!("cannot start the watchdog thread: {e}"))
}

fn main() -> ExitCode {
    ply_tools::cli::end_quietly_on_closed_stdout();
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("impasse_codingame: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let game = Impasse::new();
    let current = Rc::new(RefCell::new(None));
    let mut engine = AlphaBeta::new().with_tt_mb(32).with_info_sink(Recorder(current.clone()));
    // The table is allocated now, not on the first turn's clock.
    Agent::<Impasse>::new_game(&mut engine);
    let answers = Arc::new(Answers(AtomicU32::new(0)));
    let (alarms, alarmed) = mpsc::channel();
    let started = spawn_watchdog(answers.clone(), alarmed, options.quiet)
        .and_then(|()| spawn_reader(&options, alarms));
    match started {
        Ok(input) => play(&game, &mut engine, &current, &options, &answers, &input),
        Err(e) => {
            eprintln!("impasse_codingame: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Plays the turns that come from `input` until it ends. The per-turn line goes to stderr
/// after the answer, never before it.
fn play(
    game: &Impasse,
    engine: &mut AlphaBeta<GameEval, Recorder>,
    current: &RefCell<Option<Alarm>>,
    options: &Options,
    answers: &Answers,
    input: &Receiver<Input>,
) -> ExitCode {
    loop {
        let Job { state, alarm } = match input.recv() {
            Ok(Ok(Some(job))) => job,
            Ok(Ok(None)) | Err(_) => return ExitCode::SUCCESS,
            Ok(Err(e)) => {
                eprintln!("impasse_codingame: {e}");
                return ExitCode::FAILURE;
            }
        };
        let n = alarm.number;
        let think = if n == 1 { options.first } else { options.turn };
        let mut chosen = None;
        let mut line = String::new();
        if alarm.actions.len() > 1 {
            if let Err(mismatch) = compare_actions(game, &state, &alarm.actions) {
                eprintln!("impasse_codingame: turn {n}: {mismatch}");
            }
            let budget =
                Budget::time(think).with_deadline(alarm.answer_by).with_stop(alarm.stop.clone());
            *current.borrow_mut() = Some(alarm.clone());
            let searched = engine.choose(game, Position::new(&state), &budget);
            *current.borrow_mut() = None;
            match searched {
                Ok(report) => {
                    chosen = Some(report.best_move);
                    line = format!(
                        "{} depth {} value {} nodes {} in {} ms, ",
                        report.best_move,
                        report.depth,
                        report.value,
                        report.nodes,
                        report.elapsed.as_millis()
                    );
                }
                Err(e) => eprintln!("impasse_codingame: turn {n}: search: {e}"),
            }
        }
        let Some(text) = answer(chosen, &alarm.actions) else {
            eprintln!("impasse_codingame: turn {n}: the referee listed no action");
            return ExitCode::FAILURE;
        };
        let sent = answers.send(n, &text);
        if !options.quiet {
            let after = alarm.received.elapsed().as_millis();
            match sent {
                Sent::Written => {
                    eprintln!("turn {n}: {line}answered {text} {after} ms after the input")
                }
                _ => eprintln!("turn {n}: {line}ended {after} ms after the input"),
            }
        }
        if let Sent::Closed = sent {
            // The referee closed the pipe: the game is over.
            return ExitCode::SUCCESS;
        }
    }
}
