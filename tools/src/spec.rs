//! Agent specs: the text form of a player, `name[:key=value,...]`, such as `alphabeta:depth=8`,
//! `mcts:time=100ms,threads=2` or `random:seed=3`, turned into a boxed [`Agent`] and the
//! [`Budget`] it gets for every move.
//!
//! Accepted agents and options are listed in [`ACCEPTED`]; `seed=N` is accepted by every agent
//! and pins its seed (otherwise the caller's seed is used). Durations are a decimal number with
//! a unit: `250us`, `100ms`, `2s`, `1.5s`, `1m`. External engines take a command line in `cmd=`,
//! which must come last and takes the rest of the spec verbatim (commas included). A DamExchange
//! engine (`dxp:`) is reached at `addr=HOST:PORT`; its `cmd=` only starts it.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use ply::search::alphabeta::AlphaBetaOptions;
use ply::search::Budget;

/// What every agent accepts, for `--help` texts and error messages.
pub const ACCEPTED: &str = "  alphabeta[:depth=N,time=T,nodes=N,tt=MB,threads=N,plain=BOOL,endgame=BOOL,
            lmr=BOOL,null=BOOL,iid=BOOL,ext=BOOL,threat=BOOL,probcut=M,reuse=BOOL]
                                                        two-player alpha-beta (plain=true: no enhancements;
                                                        endgame=true: exact margins, fastest-first ordering;
                                                        lmr, null, iid, ext, threat: late-move reductions,
                                                        null-move pruning, internal iterative deepening,
                                                        extensions, threat extensions at the horizon;
                                                        probcut=M: ProbCut with margin M in evaluation
                                                        units, 0 for off;
                                                        reuse=true: table entries kept between moves)
  mcts[:iters=N,time=T,nodes=N,c=X,threads=N,cutoff=N|none,solver=BOOL,reuse=BOOL]
  paranoid[:depth=N,time=T,nodes=N,tt=MB,threads=N]     N-player alpha-beta, paranoid opponents
  maxn[:depth=N,time=T,nodes=N,tt=MB,threads=N]         N-player max^n
  brs[:depth=N,time=T,nodes=N,tt=MB,threads=N]          N-player best-reply search
  greedy                                                best one-ply evaluation
  random                                                uniformly random legal moves
  hub:[time=T,depth=N,]cmd=COMMAND                      external engine speaking the Hub protocol
  nboard:[time=T,depth=N,]cmd=COMMAND                   external engine speaking the NBoard protocol
  jsonl:[time=T,]cmd=COMMAND                            external engine speaking english_checkers play's JSON lines
  dxp:addr=HOST:PORT[,time=T,cmd=COMMAND]               DamExchange engine listening on HOST:PORT (cmd: a
                                                        command that starts it first; T sets the game's time)
  searches take eval=NAME: an evaluation the game registers (default: the one its
  programs play with, e.g. net for checkers and draughts, learned for Othello);
  every agent also takes book=FILE (play from this opening book while the game is in it)
  and book=off (no book; searches use the game's own book, if it has one, by default);
  alphabeta takes egdb=on|off|DIR: the game's endgame tables
  (default on: the tables in $PLY_EGDB or ~/.cache/ply/egdb, when they are there);
  every agent also takes seed=N; T is a duration such as 100ms, 2s or 1.5s;
  a search with no depth, time, nodes or iters limit gets time=1s";

/// The largest transposition table a spec may ask for, in MiB (16 GiB).
pub const MAX_TT_MB: usize = 16_384;

/// A switch of [`AlphaBetaOptions`]: the field it sets.
pub type Switch = fn(&mut AlphaBetaOptions) -> &mut bool;

/// The keys of alpha-beta's selective switches ([`AgentSpec::selective`]) and the options
/// they set.
pub const SELECTIVE: [(&str, Switch); 5] = [
    ("lmr", |o| &mut o.lmr),
    ("null", |o| &mut o.null_move),
    ("iid", |o| &mut o.iid),
    ("ext", |o| &mut o.extensions),
    ("threat", |o| &mut o.threats),
];

/// The most search threads a spec may ask for.
pub const MAX_THREADS: usize = 256;

/// The time per move of a search spec that sets no limit.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// The opening book of an [`AgentSpec`] (`book=FILE` or `book=off`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookChoice {
    /// No book, not even the game's own.
    Off,
    /// The book in this file (see [`ply::book`] for the format).
    File(String),
}

/// The endgame tables of an [`AgentSpec`] (`egdb=on`, `egdb=off` or `egdb=DIR`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EgdbChoice {
    /// The tables in the default directory ([`ply::endgame::default_dir`]), if any.
    On,
    /// No tables.
    Off,
    /// The tables in this directory.
    Dir(String),
}

/// The algorithm an [`AgentSpec`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Two-player alpha-beta.
    AlphaBeta,
    /// Monte Carlo tree search.
    Mcts,
    /// N-player alpha-beta, paranoid opponent model.
    Paranoid,
    /// N-player max^n.
    MaxN,
    /// N-player best-reply search.
    Brs,
    /// Best one-ply evaluation.
    Greedy,
    /// Uniformly random moves.
    Random,
    /// An external program speaking the Hub protocol.
    Hub,
    /// An external program speaking the NBoard protocol.
    NBoard,
    /// An external program speaking JSON lines (`english_checkers play`'s protocol).
    Jsonl,
    /// An external program speaking DamExchange on a TCP port.
    Dxp,
}

impl Algorithm {
    /// Every algorithm, in the order of [`ACCEPTED`].
    pub const ALL: [Algorithm; 11] = [
        Algorithm::AlphaBeta,
        Algorithm::Mcts,
        Algorithm::Paranoid,
        Algorithm::MaxN,
        Algorithm::Brs,
        Algorithm::Greedy,
        Algorithm::Random,
        Algorithm::Hub,
        Algorithm::NBoard,
        Algorithm::Jsonl,
        Algorithm::Dxp,
    ];

    /// The name used in specs.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcts => "mcts",
            Algorithm::Paranoid => "paranoid",
            Algorithm::MaxN => "maxn",
            Algorithm::Brs => "brs",
            Algorithm::Greedy => "greedy",
            Algorithm::Random => "random",
            Algorithm::Hub => "hub",
            Algorithm::NBoard => "nboard",
            Algorithm::Jsonl => "jsonl",
            Algorithm::Dxp => "dxp",
        }
    }

    /// The option keys this algorithm accepts.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Algorithm::AlphaBeta => &[
                "depth", "time", "nodes", "tt", "threads", "plain", "endgame", "lmr", "null",
                "iid", "ext", "threat", "probcut", "reuse", "eval", "book", "egdb", "seed",
            ],
            Algorithm::Mcts => &[
                "iters", "time", "nodes", "c", "threads", "cutoff", "solver", "reuse", "eval",
                "book", "seed",
            ],
            Algorithm::Paranoid | Algorithm::MaxN | Algorithm::Brs => {
                &["depth", "time", "nodes", "tt", "threads", "eval", "book", "seed"]
            }
            Algorithm::Greedy => &["eval", "book", "seed"],
            Algorithm::Random => &["book", "seed"],
            Algorithm::Hub | Algorithm::NBoard => &["time", "depth", "book", "seed", "cmd"],
            Algorithm::Jsonl => &["time", "book", "seed", "cmd"],
            // DamExchange sets a game's time, not a depth.
            Algorithm::Dxp => &["time", "addr", "book", "seed", "cmd"],
        }
    }

    /// True for alpha-beta, which asks the game's endgame tables at every node unless its
    /// spec says `egdb=off`.
    pub fn uses_endgame_tables(self) -> bool {
        self == Algorithm::AlphaBeta
    }

    /// True for the searches, which play from the game's own opening book unless their spec
    /// says `book=off` (the baselines and external engines use a book only when given one).
    pub fn uses_default_book(self) -> bool {
        matches!(
            self,
            Algorithm::AlphaBeta
                | Algorithm::Mcts
                | Algorithm::Paranoid
                | Algorithm::MaxN
                | Algorithm::Brs
        )
    }

    /// True for the programs that run outside this process.
    pub fn is_external(self) -> bool {
        matches!(self, Algorithm::Hub | Algorithm::NBoard | Algorithm::Jsonl | Algorithm::Dxp)
    }
}

/// A bad agent spec.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// `egdb=...` that cannot be honoured.
    #[error("egdb: {reason}")]
    Egdb {
        /// What is wrong.
        reason: String,
    },
    /// `book=FILE` names a file that cannot be read as a book of this game.
    #[error("book {path}: {reason}")]
    Book {
        /// The file as given.
        path: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// `eval=NAME` names no evaluation of this game.
    #[error("unknown evaluation {name:?}; this game has: {known}")]
    UnknownEvaluator {
        /// The name given.
        name: String,
        /// The game's evaluations, comma-separated.
        known: String,
    },
    /// An external engine on a game whose registration has no codec for its protocol.
    #[error("{agent} engines cannot play this game: it has no {agent} protocol codec")]
    UnsupportedEngine {
        /// The protocol.
        agent: &'static str,
    },
    /// An external engine given where a search was expected.
    #[error("{agent} is an external engine, not a search")]
    External {
        /// The protocol.
        agent: &'static str,
    },
    /// The name before `:` is not an agent.
    #[error("unknown agent {0:?}; accepted agents:\n{list}", list = ACCEPTED)]
    UnknownAgent(String),
    /// An option this agent does not take.
    #[error("{agent}: unknown option {key:?}; {agent} accepts {accepted}")]
    UnknownOption {
        /// The agent's name.
        agent: &'static str,
        /// The key as written.
        key: String,
        /// The keys it accepts, comma-separated.
        accepted: String,
    },
    /// An option without `=`.
    #[error("{agent}: option {text:?} is not key=value")]
    NotKeyValue {
        /// The agent's name.
        agent: &'static str,
        /// The text as written.
        text: String,
    },
    /// A value that does not parse.
    #[error("{agent}: bad value {value:?} for {key}: expected {expected}")]
    BadValue {
        /// The agent's name.
        agent: &'static str,
        /// The option.
        key: &'static str,
        /// The value as written.
        value: String,
        /// What would have been accepted.
        expected: &'static str,
    },
    /// The same option twice.
    #[error("{agent}: option {key} given twice")]
    Duplicate {
        /// The agent's name.
        agent: &'static str,
        /// The option.
        key: &'static str,
    },
    /// An option the agent cannot do without.
    #[error("{agent}: missing {key}=...; {agent} accepts {accepted}")]
    Missing {
        /// The agent's name.
        agent: &'static str,
        /// The option.
        key: &'static str,
        /// The keys it accepts, comma-separated.
        accepted: String,
    },
}

/// A parsed agent spec. `Display` writes the canonical form (options in a fixed order), which
/// parses back to an equal spec.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Search depth limit (plies).
    pub depth: Option<u32>,
    /// Time per move.
    pub time: Option<Duration>,
    /// Node limit per move.
    pub nodes: Option<u64>,
    /// MCTS iterations per move.
    pub iters: Option<u64>,
    /// Transposition table size in MiB.
    pub tt_mb: Option<usize>,
    /// Alpha-beta without enhancements (plain fixed-depth minimax).
    pub plain: Option<bool>,
    /// Alpha-beta's exact endgame mode ([`AlphaBetaOptions::endgame`]).
    pub endgame: Option<bool>,
    /// Alpha-beta's selective switches, in the order of [`SELECTIVE`]: late-move reductions,
    /// null-move pruning, internal iterative deepening, extensions, threat extensions
    /// (`None`: the default).
    pub selective: [Option<bool>; 5],
    /// Alpha-beta's ProbCut margin ([`AlphaBetaOptions::probcut`]; 0 is off).
    pub probcut: Option<f64>,
    /// MCTS exploration constant.
    pub c: Option<f64>,
    /// Search threads: root-parallel trees for MCTS, Lazy SMP for the alpha-beta family.
    pub threads: Option<usize>,
    /// MCTS rollout cut-off: `Some(Some(k))` evaluates after `k` plies, `Some(None)` turns it
    /// off, `None` keeps the library default.
    pub cutoff: Option<Option<u32>>,
    /// MCTS-Solver on or off.
    pub solver: Option<bool>,
    /// Keep the search's work between moves: the MCTS tree, alpha-beta's table entries.
    pub reuse: Option<bool>,
    /// A fixed seed (otherwise the caller's).
    pub seed: Option<u64>,
    /// The evaluation, by the name the game registered it under (`None`: the game's own).
    pub eval: Option<String>,
    /// The opening book: a file, off, or `None` for the game's own (searches only).
    pub book: Option<BookChoice>,
    /// The endgame tables (alpha-beta): `None` is [`EgdbChoice::On`].
    pub egdb: Option<EgdbChoice>,
    /// The address (`HOST:PORT`) of a DamExchange engine.
    pub addr: Option<String>,
    /// The command line of an external engine.
    pub cmd: Option<String>,
}

impl AgentSpec {
    /// A spec for `algorithm` with every option at its default.
    pub fn new(algorithm: Algorithm) -> AgentSpec {
        AgentSpec {
            algorithm,
            depth: None,
            time: None,
            nodes: None,
            iters: None,
            tt_mb: None,
            plain: None,
            endgame: None,
            selective: [None; 5],
            probcut: None,
            c: None,
            threads: None,
            cutoff: None,
            solver: None,
            reuse: None,
            seed: None,
            eval: None,
            book: None,
            egdb: None,
            addr: None,
            cmd: None,
        }
    }

    /// The budget for every move: the limits the spec sets, or [`DEFAULT_TIME`] for a search
    /// that sets none (depth 1 for greedy and random, which do not search).
    pub fn budget(&self) -> Budget {
        let mut budget = Budget {
            depth: self.depth,
            time: self.time,
            nodes: self.nodes,
            iterations: self.iters,
            ..Budget::default()
        };
        if budget.is_unlimited() {
            match self.algorithm {
                Algorithm::Greedy | Algorithm::Random => budget.depth = Some(1),
                _ => budget.time = Some(DEFAULT_TIME),
            }
        }
        budget
    }

    /// The seed the agent will use: the spec's own, or `seed`.
    pub fn effective_seed(&self, seed: u64) -> u64 {
        self.seed.unwrap_or(seed)
    }
}

/// Reads a duration such as `100ms`, `2s`, `1.5s`, `250us`, `1m`.
///
/// # Errors
/// A message naming what is accepted.
pub fn parse_duration(text: &str) -> Result<Duration, &'static str> {
    const EXPECTED: &str = "a duration such as 100ms, 2s or 1.5s (units ns, us, ms, s, m)";
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).ok_or(EXPECTED)?;
    let (number, unit) = t.split_at(split);
    let scale = match unit {
        "ns" => 1e-9,
        "us" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        "m" => 60.0,
        _ => return Err(EXPECTED),
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(EXPECTED);
    }
    let value: f64 = number.parse().map_err(|_| EXPECTED)?;
    let secs = value * scale;
    if !secs.is_finite() || secs > 1e9 {
        return Err(EXPECTED);
    }
    // Whole units are converted exactly; only fractional input goes through floating point.
    if let Ok(whole) = number.parse::<u64>() {
        let nanos_per_unit: u64 = match unit {
            "ns" => 1,
            "us" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            _ => 60_000_000_000,
        };
        return Ok(Duration::from_nanos(whole * nanos_per_unit));
    }
    Ok(Duration::from_nanos((secs * 1e9).round() as u64))
}

/// Writes a duration in the largest unit that keeps it exact: `2s`, `1500ms`, `250us`.
pub fn format_duration(d: Duration) -> String {
    let nanos = d.as_nanos();
    if nanos == 0 {
        "0ms".to_string()
    } else if nanos % 1_000_000_000 == 0 {
        format!("{}s", nanos / 1_000_000_000)
    } else if nanos % 1_000_000 == 0 {
        format!("{}ms", nanos / 1_000_000)
    } else if nanos % 1_000 == 0 {
        format!("{}us", nanos / 1_000)
    } else {
        format!("{nanos}ns")
    }
}

fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        let text = text.trim();
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (text, None),
        };
        let algorithm = Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| SpecError::UnknownAgent(name.to_string()))?;
        let agent = algorithm.name();
        let accepted = || algorithm.keys().join(", ");
        let mut spec = AgentSpec::new(algorithm);
        let mut rest = rest.unwrap_or("");
        while !rest.trim().is_empty() {
            let (item, tail) = if rest.trim_start().starts_with("cmd=") {
                (rest.trim_start(), "")
            } else {
                rest.split_once(',').unwrap_or((rest, ""))
            };
            rest = tail;
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue { agent, text: item.to_string() })?;
            let (key, value) = (key.trim(), value.trim());
            let Some(&key) = algorithm.keys().iter().find(|&&k| k == key) else {
                return Err(SpecError::UnknownOption {
                    agent,
                    key: key.to_string(),
                    accepted: accepted(),
                });
            };
            let bad = |expected: &'static str| SpecError::BadValue {
                agent,
                key,
                value: value.to_string(),
                expected,
            };
            let duplicate = SpecError::Duplicate { agent, key };
            fn set<T>(slot: &mut Option<T>, v: T, dup: SpecError) -> Result<(), SpecError> {
                if slot.is_some() {
                    return Err(dup);
                }
                *slot = Some(v);
                Ok(())
            }
            match key {
                "depth" => {
                    let v = value
                        .parse::<u32>()
                        .ok()
                        .filter(|&d| d > 0)
                        .ok_or_else(|| bad("a positive whole number of plies"))?;
                    set(&mut spec.depth, v, duplicate)?
                }
                "time" => {
                    let v = parse_duration(value)
                        .ok()
                        .filter(|d| !d.is_zero())
                        .ok_or_else(|| bad("a duration such as 100ms, 2s or 1.5s"))?;
                    set(&mut spec.time, v, duplicate)?
                }
                "nodes" => {
                    let v = value
                        .parse::<u64>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| bad("a positive whole number"))?;
                    set(&mut spec.nodes, v, duplicate)?
                }
                "iters" => {
                    let v = value
                        .parse::<u64>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| bad("a positive whole number"))?;
                    set(&mut spec.iters, v, duplicate)?
                }
                "tt" => {
                    let v = value
                        .parse::<usize>()
                        .ok()
                        .filter(|mb| (1..=MAX_TT_MB).contains(mb))
                        .ok_or_else(|| {
                        bad("a table size in MiB from 1 to 16384, such as 64")
                    })?;
                    set(&mut spec.tt_mb, v, duplicate)?
                }
                "plain" => {
                    let v = parse_bool(value).ok_or_else(|| bad("true or false"))?;
                    set(&mut spec.plain, v, duplicate)?
                }
                "endgame" => {
                    let v = parse_bool(value).ok_or_else(|| bad("true or false"))?;
                    set(&mut spec.endgame, v, duplicate)?
                }
                key if SELECTIVE.iter().any(|(k, _)| *k == key) => {
                    let i = SELECTIVE.iter().position(|(k, _)| *k == key).unwrap_or(0);
                    let v = parse_bool(value).ok_or_else(|| bad("true or false"))?;
                    set(&mut spec.selective[i], v, duplicate)?
                }
                "probcut" => {
                    let v = value
                        .parse::<f64>()
                        .ok()
                        .filter(|m| m.is_finite() && (0.0..=1e6).contains(m))
                        .ok_or_else(|| bad("a margin from 0 (off) to 1000000, such as 50"))?;
                    set(&mut spec.probcut, v, duplicate)?
                }
                "c" => {
                    let v = value
                        .parse::<f64>()
                        .ok()
                        .filter(|c| c.is_finite() && *c >= 0.0)
                        .ok_or_else(|| bad("a non-negative number such as 1.4"))?;
                    set(&mut spec.c, v, duplicate)?
                }
                "threads" => {
                    let v = value
                        .parse::<usize>()
                        .ok()
                        .filter(|n| (1..=MAX_THREADS).contains(n))
                        .ok_or_else(|| bad("a number of threads from 1 to 256"))?;
                    set(&mut spec.threads, v, duplicate)?
                }
                "cutoff" => {
                    let v = if value == "none" {
                        None
                    } else {
                        Some(value.parse().map_err(|_| bad("a number of plies or none"))?)
                    };
                    set(&mut spec.cutoff, v, duplicate)?
                }
                "solver" => {
                    let v = parse_bool(value).ok_or_else(|| bad("true or false"))?;
                    set(&mut spec.solver, v, duplicate)?
                }
                "reuse" => {
                    let v = parse_bool(value).ok_or_else(|| bad("true or false"))?;
                    set(&mut spec.reuse, v, duplicate)?
                }
                "seed" => {
                    let v = value.parse().map_err(|_| bad("a whole number"))?;
                    set(&mut spec.seed, v, duplicate)?
                }
                "eval" => {
                    let ok = !value.is_empty()
                        && value.chars().all(|c| c.is_ascii_alphanumeric() || "-_".contains(c));
                    if !ok {
                        return Err(bad("an evaluation name (letters, digits, - and _)"));
                    }
                    set(&mut spec.eval, value.to_string(), duplicate)?
                }
                "book" => {
                    let v = match value {
                        "" => return Err(bad("a book file or off")),
                        "off" => BookChoice::Off,
                        file => BookChoice::File(file.to_string()),
                    };
                    set(&mut spec.book, v, duplicate)?
                }
                "egdb" => {
                    let v = match value {
                        "" => return Err(bad("on, off or a directory")),
                        "on" => EgdbChoice::On,
                        "off" => EgdbChoice::Off,
                        dir => EgdbChoice::Dir(dir.to_string()),
                    };
                    set(&mut spec.egdb, v, duplicate)?
                }
                "addr" => {
                    let ok = value.rsplit_once(':').is_some_and(|(host, port)| {
                        !host.is_empty()
                            && !host.contains(char::is_whitespace)
                            && port.parse::<u16>().is_ok_and(|p| p > 0)
                    });
                    if !ok {
                        return Err(bad("HOST:PORT, such as 127.0.0.1:27531"));
                    }
                    set(&mut spec.addr, value.to_string(), duplicate)?
                }
                "cmd" => {
                    if value.is_empty() {
                        return Err(bad("a command line"));
                    }
                    set(&mut spec.cmd, value.to_string(), duplicate)?
                }
                _ => unreachable!("every accepted key is handled"),
            }
        }
        if algorithm == Algorithm::Dxp {
            if spec.addr.is_none() {
                let mut accepted = accepted();
                if spec.cmd.is_some() {
                    accepted += " (cmd= takes the rest of the spec, commas included: put it last)";
                }
                return Err(SpecError::Missing { agent, key: "addr", accepted });
            }
        } else if algorithm.is_external() && spec.cmd.is_none() {
            return Err(SpecError::Missing { agent, key: "cmd", accepted: accepted() });
        }
        Ok(spec)
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut options: Vec<String> = Vec::new();
        if let Some(v) = self.depth {
            options.push(format!("depth={v}"));
        }
        if let Some(v) = self.iters {
            options.push(format!("iters={v}"));
        }
        if let Some(v) = self.time {
            options.push(format!("time={}", format_duration(v)));
        }
        if let Some(v) = self.nodes {
            options.push(format!("nodes={v}"));
        }
        if let Some(v) = self.tt_mb {
            options.push(format!("tt={v}"));
        }
        if let Some(v) = self.plain {
            options.push(format!("plain={v}"));
        }
        if let Some(v) = self.endgame {
            options.push(format!("endgame={v}"));
        }
        for ((key, _), value) in SELECTIVE.iter().zip(self.selective) {
            if let Some(v) = value {
                options.push(format!("{key}={v}"));
            }
        }
        if let Some(v) = self.probcut {
            options.push(format!("probcut={v}"));
        }
        if let Some(v) = self.c {
            options.push(format!("c={v}"));
        }
        if let Some(v) = self.threads {
            options.push(format!("threads={v}"));
        }
        match self.cutoff {
            Some(Some(v)) => options.push(format!("cutoff={v}")),
            Some(None) => options.push("cutoff=none".to_string()),
            None => {}
        }
        if let Some(v) = self.solver {
            options.push(format!("solver={v}"));
        }
        if let Some(v) = self.reuse {
            options.push(format!("reuse={v}"));
        }
        if let Some(v) = &self.eval {
            options.push(format!("eval={v}"));
        }
        match &self.book {
            Some(BookChoice::Off) => options.push("book=off".to_string()),
            Some(BookChoice::File(f)) => options.push(format!("book={f}")),
            None => {}
        }
        match &self.egdb {
            Some(EgdbChoice::On) => options.push("egdb=on".to_string()),
            Some(EgdbChoice::Off) => options.push("egdb=off".to_string()),
            Some(EgdbChoice::Dir(d)) => options.push(format!("egdb={d}")),
            None => {}
        }
        if let Some(v) = &self.addr {
            options.push(format!("addr={v}"));
        }
        if let Some(v) = self.seed {
            options.push(format!("seed={v}"));
        }
        if let Some(v) = &self.cmd {
            options.push(format!("cmd={v}"));
        }
        f.write_str(self.algorithm.name())?;
        if !options.is_empty() {
            write!(f, ":{}", options.join(","))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> AgentSpec {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// Random and mutated specs: an error or a spec, never a panic; every spec read writes
    /// back to text that reads as the same spec.
    #[test]
    fn random_and_mutated_specs_parse_or_fail_cleanly() {
        let specs: Vec<AgentSpec> = [
            "alphabeta:depth=8",
            "alphabeta:time=100ms,probcut=50,lmr=true,tt=64,threads=2,eval=net,seed=3",
            "mcts:iters=20000,c=1.4,solver=true,reuse=true",
            "paranoid:depth=3,time=2s",
            "greedy:eval=material",
            "random:seed=9,book=off",
            "hub:time=1s,cmd=scan hub",
            "jsonl:time=100ms,cmd=python3 cake_play.py",
            "dxp:addr=127.0.0.1:27531,time=1s,cmd=./run-scan dxp",
        ]
        .iter()
        .map(|t| spec(t))
        .collect();
        let parse = |t: &str| t.parse::<AgentSpec>();
        ply::testing::check_parser(&specs, |s| s.to_string(), parse, 5_000, 22)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn parses_the_documented_examples() {
        let s = spec("alphabeta:depth=8");
        assert_eq!((s.algorithm, s.depth), (Algorithm::AlphaBeta, Some(8)));
        assert_eq!(spec("alphabeta:time=100ms").time, Some(Duration::from_millis(100)));
        let s = spec("alphabeta:nodes=100000,tt=64");
        assert_eq!((s.nodes, s.tt_mb), (Some(100_000), Some(64)));
        let s = spec("mcts:iters=20000,c=1.4");
        assert_eq!((s.iters, s.c), (Some(20_000), Some(1.4)));
        let s = spec("mcts:time=100ms,threads=2,cutoff=20,solver=false,reuse=true");
        assert_eq!(s.threads, Some(2));
        assert_eq!(s.cutoff, Some(Some(20)));
        assert_eq!((s.solver, s.reuse), (Some(false), Some(true)));
        assert_eq!(spec("paranoid:depth=4").algorithm, Algorithm::Paranoid);
        assert_eq!(spec("alphabeta:time=1s,threads=2").threads, Some(2));
        let s = spec("alphabeta:lmr=false,null=true,iid=true,ext=false,threat=true");
        assert_eq!(s.selective, [Some(false), Some(true), Some(true), Some(false), Some(true)]);
        assert_eq!(s.to_string(), "alphabeta:lmr=false,null=true,iid=true,ext=false,threat=true");
        let s = spec("alphabeta:time=100ms,probcut=60");
        assert_eq!(
            (s.probcut, s.to_string().as_str()),
            (Some(60.0), "alphabeta:time=100ms,probcut=60")
        );
        for bad in ["alphabeta:probcut=-1", "alphabeta:probcut=x", "alphabeta:probcut=inf"] {
            let e = bad.parse::<AgentSpec>();
            assert!(matches!(e, Err(SpecError::BadValue { key: "probcut", .. })), "{bad}: {e:?}");
        }
        assert!("mcts:probcut=50".parse::<AgentSpec>().is_err());
        assert_eq!(spec("paranoid:threads=3").to_string(), "paranoid:threads=3");
        assert_eq!(spec("maxn:depth=3").algorithm, Algorithm::MaxN);
        assert_eq!(spec("brs:depth=4").algorithm, Algorithm::Brs);
        assert_eq!(spec("greedy"), AgentSpec::new(Algorithm::Greedy));
        assert_eq!(spec("random:seed=9").seed, Some(9));
        assert_eq!(spec("mcts:cutoff=none").cutoff, Some(None));
        assert_eq!(spec("alphabeta:book=off").book, Some(BookChoice::Off));
        let s = spec("alphabeta:time=100ms,book=books/my.txt");
        assert_eq!(s.book, Some(BookChoice::File("books/my.txt".into())));
        assert_eq!(s.to_string(), "alphabeta:time=100ms,book=books/my.txt");
        assert_eq!(spec("random:book=off,seed=2").to_string(), "random:book=off,seed=2");
        assert!(matches!(
            "alphabeta:book=".parse::<AgentSpec>(),
            Err(SpecError::BadValue { key: "book", .. })
        ));
        assert!(matches!(
            "alphabeta:book=off,book=x".parse::<AgentSpec>(),
            Err(SpecError::Duplicate { key: "book", .. })
        ));
        assert_eq!(spec("alphabeta:egdb=off").egdb, Some(EgdbChoice::Off));
        let s = spec("alphabeta:depth=4,egdb=/data/tables");
        assert_eq!(s.egdb, Some(EgdbChoice::Dir("/data/tables".into())));
        assert_eq!(s.to_string(), "alphabeta:depth=4,egdb=/data/tables");
        assert!(matches!(
            "alphabeta:egdb=".parse::<AgentSpec>(),
            Err(SpecError::BadValue { key: "egdb", .. })
        ));
        assert!(matches!(
            "mcts:egdb=on".parse::<AgentSpec>(),
            Err(SpecError::UnknownOption { .. })
        ));
    }

    #[test]
    fn seed_is_accepted_by_every_agent() {
        for a in Algorithm::ALL {
            let text = if a == Algorithm::Dxp {
                "dxp:seed=5,addr=localhost:27531".to_string()
            } else if a.is_external() {
                format!("{}:seed=5,cmd=engine", a.name())
            } else {
                format!("{}:seed=5", a.name())
            };
            assert_eq!(spec(&text).seed, Some(5), "{text}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("100ms"), Ok(Duration::from_millis(100)));
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("250us"), Ok(Duration::from_micros(250)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        for bad in ["", "100", "ms", "10h", "-1s", "1.2.3s", "1e3ms"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(format_duration(Duration::from_millis(1500)), "1500ms");
        assert_eq!(format_duration(Duration::from_secs(2)), "2s");
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "alphabeta",
            "alphabeta:depth=8,time=100ms,nodes=5,tt=64,plain=true,seed=1",
            "alphabeta:depth=8,endgame=true",
            "mcts:iters=20000,time=1500ms,c=1.4,threads=2,cutoff=20,solver=false,reuse=true",
            "mcts:cutoff=none",
            "brs:depth=4,tt=16",
            "random:seed=18446744073709551615",
            "hub:time=1s,cmd=scan hub --level 3,x",
            "dxp:time=100ms,addr=127.0.0.1:27532",
            "dxp:time=1s,addr=[::1]:27531,seed=2,cmd=./run-scan dxp",
        ] {
            let s = spec(text);
            assert_eq!(s.to_string(), text);
            assert_eq!(spec(&s.to_string()), s);
        }
        // Non-canonical input comes back in canonical order with canonical durations.
        assert_eq!(
            spec("mcts:c=2, time=1.5s ,iters=3").to_string(),
            "mcts:iters=3,time=1500ms,c=2"
        );
    }

    #[test]
    fn cmd_takes_the_rest_of_the_spec() {
        let s = spec("nboard:depth=3,cmd=./engine --opt a=1,b=2");
        assert_eq!(s.cmd.as_deref(), Some("./engine --opt a=1,b=2"));
        assert_eq!(s.depth, Some(3));
    }

    #[test]
    fn errors_say_what_is_accepted() {
        let e = "alphabta:depth=3".parse::<AgentSpec>().unwrap_err();
        assert_eq!(e, SpecError::UnknownAgent("alphabta".into()));
        let msg = e.to_string();
        assert!(msg.contains("\"alphabta\"") && msg.contains("mcts[:iters=N"), "{msg}");

        let e = "mcts:depth=3".parse::<AgentSpec>().unwrap_err();
        assert!(matches!(&e, SpecError::UnknownOption { key, .. } if key == "depth"));
        assert!(e.to_string().contains("iters, time"), "{e}");

        let e = "greedy:depth=2".parse::<AgentSpec>().unwrap_err();
        assert!(e.to_string().contains("greedy accepts eval, book, seed"), "{e}");

        let e = "alphabeta:time=fast".parse::<AgentSpec>().unwrap_err();
        assert!(matches!(e, SpecError::BadValue { key: "time", .. }));
        assert!(e.to_string().contains("\"fast\""), "{e}");

        for (text, key) in [
            ("alphabeta:depth=0", "depth"),
            ("alphabeta:depth=-1", "depth"),
            ("mcts:c=-1", "c"),
            ("mcts:c=nan", "c"),
            ("mcts:threads=0", "threads"),
            ("mcts:solver=maybe", "solver"),
            ("mcts:iters=1e4", "iters"),
            ("random:seed=x", "seed"),
            ("alphabeta:tt=0", "tt"),
            ("alphabeta:tt=100000", "tt"),
            ("alphabeta:tt=18446744073709551615", "tt"),
            ("mcts:threads=100000", "threads"),
            ("mcts:threads=0", "threads"),
        ] {
            let e = text.parse::<AgentSpec>().unwrap_err();
            assert!(matches!(e, SpecError::BadValue { key: k, .. } if k == key), "{text}: {e}");
        }
        assert_eq!(
            "alphabeta:depth=3,depth=4".parse::<AgentSpec>(),
            Err(SpecError::Duplicate { agent: "alphabeta", key: "depth" })
        );
        assert!(matches!(
            "alphabeta:depth".parse::<AgentSpec>(),
            Err(SpecError::NotKeyValue { .. })
        ));
        assert!(matches!("hub:time=1s".parse::<AgentSpec>(), Err(SpecError::Missing { .. })));
        // DamExchange: an address is needed, a command is not; no depth.
        let s = spec("dxp:addr=127.0.0.1:27531,time=1s,cmd=scan dxp");
        assert_eq!(
            (s.addr.as_deref(), s.cmd.as_deref(), s.time),
            (Some("127.0.0.1:27531"), Some("scan dxp"), Some(Duration::from_secs(1)))
        );
        assert_eq!(spec("dxp:addr=localhost:27531").budget().time, Some(DEFAULT_TIME));
        assert!(matches!(
            "dxp:time=1s,cmd=scan dxp".parse::<AgentSpec>(),
            Err(SpecError::Missing { key: "addr", .. })
        ));
        let e = "dxp:cmd=scan dxp,addr=h:1".parse::<AgentSpec>().unwrap_err();
        assert!(e.to_string().contains("put it last"), "{e}");
        for bad in ["localhost", ":27531", "localhost:0", "localhost:65536", "a b:1", "h:x"] {
            let e = format!("dxp:addr={bad}").parse::<AgentSpec>();
            assert!(matches!(e, Err(SpecError::BadValue { key: "addr", .. })), "{bad}: {e:?}");
        }
        assert!(matches!(
            "dxp:addr=h:1,depth=3".parse::<AgentSpec>(),
            Err(SpecError::UnknownOption { .. })
        ));
        assert!(matches!(
            "hub:addr=h:1,cmd=x".parse::<AgentSpec>(),
            Err(SpecError::UnknownOption { .. })
        ));
    }

    #[test]
    fn budgets() {
        let b = spec("alphabeta:depth=8").budget();
        assert_eq!((b.depth, b.time), (Some(8), None));
        let b = spec("mcts:iters=100,time=50ms").budget();
        assert_eq!((b.iterations, b.time), (Some(100), Some(Duration::from_millis(50))));
        assert_eq!(spec("mcts").budget().time, Some(DEFAULT_TIME));
        assert_eq!(spec("random").budget().depth, Some(1));
        assert!(!spec("greedy").budget().is_unlimited());
    }
}
