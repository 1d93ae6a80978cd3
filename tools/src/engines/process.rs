//! A line-based connection to an external engine: a child process started through the
//! shell, read by a thread so that every read can time out instead of hanging the arena.

use std::io::{self, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use ply::search::Budget;

use super::lines::{read_line, Line, MAX_LINE};
use crate::engines::EngineError;

/// Lines from an engine waiting to be read, at most.
const QUEUE: usize = 1024;

/// Lines to and from an engine.
pub trait Transport: Send {
    /// Sends one line (a newline is added).
    ///
    /// # Errors
    /// If the engine cannot be written to.
    fn send(&mut self, line: &str) -> io::Result<()>;

    /// The next line from the engine, waiting at most `timeout`.
    ///
    /// # Errors
    /// At end of output (the engine quit or crashed) or after the timeout.
    fn recv(&mut self, timeout: Duration) -> io::Result<String>;

    /// The next line from the engine, waiting at most until `deadline`: a whole exchange
    /// (a handshake, a move) is bounded in time even when the engine keeps talking.
    ///
    /// # Errors
    /// As [`Transport::recv`]; `TimedOut` once the deadline has passed.
    fn recv_until(&mut self, deadline: Instant) -> io::Result<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "no answer in time"));
        }
        self.recv(left)
    }
}

/// How long a search with no time limit (a depth budget) may go without a line from the
/// engine before it counts as hung: engines report each iteration, so only a dead one is this
/// quiet.
pub const SILENCE: Duration = Duration::from_secs(60);

/// The latest moment to wait for an engine's next line during a search begun at `start`: for
/// a timed search, well past the budget (five times it and 5 s), so only a hung engine times
/// out; under a deadline alone (a game clock's), 5 s past it (the engine has lost on time
/// by then); with no time limit (a depth budget), [`SILENCE`] after `now`, and never past ten
/// minutes from the start.
pub fn answer_deadline(budget: &Budget, start: Instant, now: Instant) -> Instant {
    match (budget.time, budget.deadline) {
        (Some(t), _) => start + t.saturating_mul(5).saturating_add(Duration::from_secs(5)),
        (None, Some(deadline)) => deadline + Duration::from_secs(5),
        (None, None) => (start + Duration::from_secs(600)).min(now + SILENCE),
    }
}

/// The engine's next line during a search begun at `start` under `budget`, waiting at most
/// until [`answer_deadline`].
///
/// # Errors
/// The transport's error, with how long the engine was silent when it timed out.
pub fn recv_answer(
    t: &mut dyn Transport,
    budget: &Budget,
    start: Instant,
) -> Result<String, EngineError> {
    let now = Instant::now();
    t.recv_until(answer_deadline(budget, start, now)).map_err(|e| {
        if e.kind() == io::ErrorKind::TimedOut {
            EngineError::Protocol(format!(
                "no answer: silent for {:.0} s, {:.0} s into the search",
                now.elapsed().as_secs_f64(),
                start.elapsed().as_secs_f64()
            ))
        } else {
            EngineError::from(e)
        }
    })
}

/// The characters that make a command line the shell's to read.
const SHELL_SYNTAX: &[char] = &[
    '|', '&', ';', '<', '>', '(', ')', '$', '`', '\\', '"', '\'', '*', '?', '[', ']', '{', '}',
    '~', '#', '=', '!', '\n',
];

/// The process `command` starts: its words run directly when it has none of the shell's
/// syntax and names a program (a path, or a name found on `PATH`), so that a program that is
/// not there is the operating system's error at once; else `sh -c command` (a shell builtin,
/// pipes, quotes, variables).
pub(crate) fn command_of(command: &str) -> Command {
    let words: Vec<&str> = command.split_whitespace().collect();
    let program_named = |program: &str| {
        program.contains('/')
            || std::env::var_os("PATH")
                .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()))
    };
    match words.split_first() {
        Some((program, args)) if !command.contains(SHELL_SYNTAX) && program_named(program) => {
            let mut direct = Command::new(program);
            direct.args(args);
            direct
        }
        _ => {
            let mut shell = Command::new("sh");
            shell.arg("-c").arg(command);
            shell
        }
    }
}

/// An engine running as a child process (`sh -c <command>`, stderr discarded), in a process
/// group of its own: whatever the command starts (a script's engine, a wrapper's child) is
/// killed with it when the connection ends, so a hung engine does not outlive its game.
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<io::Result<String>>,
}

impl EngineProcess {
    /// Starts `command`: as a program and its arguments when it is plain words, so that a
    /// program that is not there is the operating system's error at once, else through the
    /// shell (`sh -c`: pipes, quotes, variables).
    ///
    /// # Errors
    /// If the program (or the shell) cannot be started.
    pub fn start(command: &str) -> io::Result<EngineProcess> {
        let mut shell = command_of(command);
        shell.stdin(Stdio::piped()).stdout(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut shell, 0);
        let mut child = shell.stderr(Stdio::null()).spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        // A bounded queue: an engine that prints without end fills it and then waits on its
        // pipe, so memory stays bounded.
        let (tx, lines) = mpsc::sync_channel(QUEUE);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let line = match read_line(&mut reader, MAX_LINE) {
                    Ok(Some(Line::Text(text))) => Ok(text),
                    Ok(Some(Line::NotUtf8)) => {
                        Err(io::Error::new(io::ErrorKind::InvalidData, "a line that is not UTF-8"))
                    }
                    Ok(Some(Line::TooLong(_))) => Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("a line longer than {MAX_LINE} bytes"),
                    )),
                    Ok(None) => break,
                    Err(e) => Err(e),
                };
                let end = line.is_err();
                if tx.send(line).is_err() || end {
                    break;
                }
            }
        });
        Ok(EngineProcess { command: command.to_string(), child, stdin, lines })
    }
}

impl Transport for EngineProcess {
    fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    fn recv(&mut self, timeout: Duration) -> io::Result<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("`{}` did not answer within {:.1}s", self.command, timeout.as_secs_f64()),
            )),
            Err(RecvTimeoutError::Disconnected) => Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("`{}` closed its output", self.command),
            )),
        }
    }
}

/// Kills `child` and every process left in its process group (a shell's children too),
/// for children started in a group of their own ([`EngineProcess::start`] does so).
pub(crate) fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        let group = format!("-{}", child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // The shell may have ended and left its engine running: the group goes either way.
        kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

/// A connection that answers through a function, for testing protocol clients against an
/// engine's line handler in the same process.
#[cfg(test)]
pub struct Loopback<F> {
    /// Takes a line, returns the engine's answer lines.
    pub handler: F,
    /// Answers not read yet.
    pub pending: std::collections::VecDeque<String>,
}

#[cfg(test)]
impl<F: FnMut(&str) -> Vec<String> + Send> Transport for Loopback<F> {
    fn send(&mut self, line: &str) -> io::Result<()> {
        let answers = (self.handler)(line);
        self.pending.extend(answers);
        Ok(())
    }

    fn recv(&mut self, _timeout: Duration) -> io::Result<String> {
        self.pending.pop_front().ok_or_else(|| io::Error::new(io::ErrorKind::TimedOut, "no answer"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_depth_search_times_out_after_a_minute_of_silence_a_timed_one_past_its_budget() {
        let start = Instant::now();
        let later = start + Duration::from_secs(30);
        assert_eq!(answer_deadline(&Budget::depth(20), start, start), start + SILENCE);
        assert_eq!(answer_deadline(&Budget::depth(20), start, later), later + SILENCE);
        let late = start + Duration::from_secs(590);
        assert_eq!(
            answer_deadline(&Budget::depth(20), start, late),
            start + Duration::from_secs(600)
        );
        let timed = Budget::time(Duration::from_secs(1));
        assert_eq!(answer_deadline(&timed, start, later), start + Duration::from_secs(10));
        let clocked = Budget { deadline: Some(start + SILENCE * 3), ..Budget::depth(20) };
        assert_eq!(
            answer_deadline(&clocked, start, later),
            start + SILENCE * 3 + Duration::from_secs(5)
        );
        // A silent engine past its deadline: the error says so.
        let mut p = EngineProcess::start("sleep 5").unwrap();
        if let Some(past) = start.checked_sub(Duration::from_secs(20)) {
            let e = recv_answer(&mut p, &Budget::time(Duration::from_millis(1)), past).unwrap_err();
            assert!(e.to_string().contains("silent for"), "{e}");
        }
    }

    #[test]
    fn a_process_answers_and_times_out() {
        let mut p = EngineProcess::start("read line; echo \"got $line\"; sleep 5").unwrap();
        p.send("hello").unwrap();
        assert_eq!(p.recv(Duration::from_secs(5)).unwrap(), "got hello");
        let e = p.recv(Duration::from_millis(50)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        let mut gone = EngineProcess::start("true").unwrap();
        let e = gone.recv(Duration::from_secs(5)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
    }

    /// A command whose engine is a grandchild of the arena (the shell runs it as a second
    /// process, as a wrapper script does) leaves nothing running when the connection ends.
    #[cfg(unix)]
    #[test]
    fn the_engine_behind_a_wrapper_dies_with_its_connection() {
        // `sleep` is the hung engine, under a second shell; a time no other process sleeps.
        let marker = format!("sleep 300.{}", std::process::id());
        let command = format!("sh -c 'echo ready; {marker}' ; true");
        let mut p = EngineProcess::start(&command).unwrap();
        assert_eq!(p.recv(Duration::from_secs(5)).unwrap(), "ready");
        let running =
            || Command::new("pgrep").args(["-f", &marker]).output().map(|o| o.status.success());
        if running().is_err() {
            return; // no pgrep here to look with
        }
        assert!(running().unwrap(), "the engine runs");
        drop(p);
        let begun = Instant::now();
        while running().unwrap() {
            assert!(begun.elapsed() < Duration::from_secs(5), "the engine outlived its game");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
