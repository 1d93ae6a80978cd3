//! What a web client may ask for: narrower than the command line. A client's engine spec
//! may not start a program (`cmd=`), reach an address (`addr=`) or name a file (`book=FILE`,
//! `net=`, `weights=`, `egdb=DIR`) unless the person who started the server allowed exactly
//! that command, address or file (`serve --engine SPEC` or `--allow-spec SPEC`); its
//! `threads=` and `tt=` are capped; and only so many requests build or run engines at once.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::gate::Refused;
use crate::spec::{AgentSpec, BookChoice, EgdbChoice};

/// A refusal of the policy: `403` and why.
fn refused(message: String) -> Refused {
    Refused { status: 403, message }
}

/// The most requests that build or run engines at once; more get `503`.
pub const MAX_ENGINE_REQUESTS: usize = 8;

/// The largest transposition table a client may ask for without an allowance, in MiB.
pub const DEFAULT_MAX_TT_MB: usize = 256;

/// What a web client may ask of the engines.
#[derive(Debug)]
pub struct SpecPolicy {
    /// Specs the person allowed: a client's spec may name what one of these names.
    allowed: Vec<AgentSpec>,
    /// The most search threads a client's spec may ask for.
    max_threads: usize,
    /// The largest table a client's spec may ask for, in MiB.
    max_tt_mb: usize,
    /// Requests building or running engines now.
    engine_requests: AtomicUsize,
}

impl Default for SpecPolicy {
    /// Nothing allowed beyond ply's own searches; threads up to the machine's cores, tables
    /// up to [`DEFAULT_MAX_TT_MB`].
    fn default() -> SpecPolicy {
        SpecPolicy::new(Vec::new(), None, None)
    }
}

impl SpecPolicy {
    /// A policy allowing what `allowed` names, capping threads at `max_threads` (default:
    /// the machine's cores) and tables at `max_tt_mb` (default [`DEFAULT_MAX_TT_MB`]).
    pub fn new(
        allowed: Vec<AgentSpec>,
        max_threads: Option<usize>,
        max_tt_mb: Option<usize>,
    ) -> SpecPolicy {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        SpecPolicy {
            allowed,
            max_threads: max_threads.unwrap_or(cores),
            max_tt_mb: max_tt_mb.unwrap_or(DEFAULT_MAX_TT_MB),
            engine_requests: AtomicUsize::new(0),
        }
    }

    /// Checks a spec a client sent; `also` are specs the server itself offers (the game's
    /// own engine), allowed like the person's.
    ///
    /// # Errors
    /// [`Refused`] (403): why the spec is refused, naming the option and how to allow it.
    pub fn check(&self, spec: &AgentSpec, also: &[&AgentSpec]) -> Result<(), Refused> {
        let allowed = || self.allowed.iter().chain(also.iter().copied());
        if allowed().any(|a| a == spec) {
            return Ok(());
        }
        let names = privileged(spec);
        if !names.is_empty() && !allowed().any(|a| privileged(a) == names) {
            let what: Vec<String> = names.iter().map(|(k, v)| format!("{k}={v}")).collect();
            return Err(refused(format!(
                "the web board takes no command, address or file from the page ({}) unless \
                 the server was started allowing it (serve --engine SPEC or --allow-spec SPEC)",
                what.join(", ")
            )));
        }
        if let Some(threads) = spec.threads.filter(|&t| t > self.max_threads) {
            return Err(refused(format!(
                "threads={threads}: the web board allows at most {} (serve --max-threads)",
                self.max_threads
            )));
        }
        if let Some(tt) = spec.tt_mb.filter(|&t| t > self.max_tt_mb) {
            return Err(refused(format!(
                "tt={tt}: the web board allows tables of at most {} MiB (serve --max-tt)",
                self.max_tt_mb
            )));
        }
        Ok(())
    }

    /// A permit to build or run engines, or `None` when [`MAX_ENGINE_REQUESTS`] requests hold
    /// one already.
    pub fn engine_permit(&self) -> Option<EnginePermit<'_>> {
        let taken = self.engine_requests.fetch_add(1, Ordering::AcqRel);
        let permit = EnginePermit(&self.engine_requests);
        (taken < MAX_ENGINE_REQUESTS).then_some(permit)
    }
}

/// A request's right to build or run engines; given back when dropped.
pub struct EnginePermit<'a>(&'a AtomicUsize);

impl Drop for EnginePermit<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What a spec names beyond ply's own searches: an external protocol, its command or
/// address, and the files it reads; empty for a spec that names none.
fn privileged(spec: &AgentSpec) -> Vec<(&'static str, String)> {
    let mut names = Vec::new();
    if spec.algorithm.is_external() {
        names.push(("engine", spec.algorithm.name().to_string()));
    }
    if let Some(cmd) = &spec.cmd {
        names.push(("cmd", cmd.clone()));
    }
    if let Some(addr) = &spec.addr {
        names.push(("addr", addr.clone()));
    }
    if let Some(BookChoice::File(path)) = &spec.book {
        names.push(("book", path.clone()));
    }
    if let Some(net) = &spec.net {
        names.push(("net", net.clone()));
    }
    if let Some(weights) = &spec.weights {
        names.push(("weights", weights.clone()));
    }
    if let Some(EgdbChoice::Dir(dir)) = &spec.egdb {
        names.push(("egdb", dir.clone()));
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> AgentSpec {
        text.parse().unwrap()
    }

    #[test]
    fn commands_addresses_and_files_need_an_allowance() {
        let policy = SpecPolicy::new(
            vec![spec("hub:time=1s,cmd=./scan hub"), spec("alphabeta:book=my.book")],
            Some(2),
            Some(64),
        );
        for ok in [
            "alphabeta:depth=4",
            "alphabeta:book=off,egdb=off",
            "mcts:iters=100,threads=2",
            "hub:time=1s,cmd=./scan hub",
            "hub:time=100ms,cmd=./scan hub",
            "alphabeta:depth=6,book=my.book",
        ] {
            assert_eq!(policy.check(&spec(ok), &[]), Ok(()), "{ok}");
        }
        for (bad, says) in [
            ("jsonl:time=1s,cmd=touch /tmp/pwned", "cmd=touch /tmp/pwned"),
            ("hub:time=1s,cmd=./scan hub --evil", "cmd=./scan hub --evil"),
            ("jsonl:time=1s,cmd=./scan hub", "engine=jsonl"),
            ("dxp:addr=10.0.0.1:27531", "addr=10.0.0.1:27531"),
            ("alphabeta:book=/dev/zero", "book=/dev/zero"),
            ("alphabeta:net=/dev/zero", "net=/dev/zero"),
            ("alphabeta:weights=w.txt", "weights=w.txt"),
            ("alphabeta:egdb=/tmp", "egdb=/tmp"),
            ("alphabeta:threads=3", "threads=3"),
            ("alphabeta:tt=65", "tt=65"),
        ] {
            let e = policy.check(&spec(bad), &[]).unwrap_err();
            assert_eq!(e.status, 403);
            assert!(e.message.contains(says), "{bad}: {}", e.message);
        }
        // The server's own specs are allowed as they are.
        let own = spec("alphabeta:threads=16,tt=1024");
        assert_eq!(policy.check(&own, &[&own]), Ok(()));
    }

    #[test]
    fn engine_requests_are_bounded() {
        let policy = SpecPolicy::default();
        let held: Vec<_> = (0..MAX_ENGINE_REQUESTS).map(|_| policy.engine_permit()).collect();
        assert!(held.iter().all(Option::is_some));
        assert!(policy.engine_permit().is_none());
        drop(held);
        assert!(policy.engine_permit().is_some());
    }
}
