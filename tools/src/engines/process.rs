//! A line-based connection to an external engine: a child process started through the
//! shell, read by a thread so that every read can time out instead of hanging the arena.

use std::io::{self, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::lines::{read_line, Line, MAX_LINE};

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

/// An engine running as a child process (`sh -c <command>`, stderr discarded).
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<io::Result<String>>,
}

impl EngineProcess {
    /// Starts `command` through the shell.
    ///
    /// # Errors
    /// If the shell cannot be started.
    pub fn start(command: &str) -> io::Result<EngineProcess> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
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

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
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
}
