//! Agent specs: the text form of a player, `name[:key=value,...]`, such as `alphabeta:depth=8`,
//! `mcts:time=100ms,threads=2` or `random:seed=3`, turned into a boxed
//! [`Agent`](ply::search::Agent) and the [`Budget`] it gets for every move.
//!
//! Everything about the options comes from one table, [`KEYS`] (name, value type, placeholder,
//! what a value must be, help and default): the fields of [`AgentSpec`], the parser, the
//! canonical text form and the help text [`accepted`] are all generated from it. Each
//! algorithm lists the keys it takes ([`Algorithm::keys`]); external engines are the open set
//! of protocols in [`protocols::PROTOCOLS`].
//!
//! `seed=N` is accepted by every agent and pins its seed (otherwise the caller's seed is
//! used). Durations are a decimal number with a unit: `250us`, `100ms`, `2s`, `1.5s`, `1m`.
//! External engines take a command line in `cmd=`, which must come last and takes the rest of
//! the spec verbatim (commas included). A DamExchange engine (`dxp:`) is reached at
//! `addr=HOST:PORT`; its `cmd=` only starts it.
//!
//! ```
//! use ply_tools::spec::{AgentSpec, Algorithm};
//!
//! let spec: AgentSpec = "alphabeta:depth=8,lmr=true".parse()?;
//! assert_eq!((spec.algorithm, spec.depth, spec.lmr), (Algorithm::AlphaBeta, Some(8), Some(true)));
//! assert_eq!(spec.to_string(), "alphabeta:depth=8,lmr=true");
//! assert!("mcts:depth=8".parse::<AgentSpec>().is_err()); // MCTS counts iterations
//! # Ok::<(), ply_tools::spec::SpecError>(())
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;
use std::time::Duration;

use ply::search::{Budget, TimeControl};

pub mod protocols;

pub use protocols::{Protocol, PROTOCOLS};

mod values;

pub use values::{format_duration, parse_duration, parse_plies};

/// The largest transposition table a spec may ask for, in MiB (16 GiB).
pub const MAX_TT_MB: usize = 16_384;

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

/// One option of the key table: how it is written and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The key as written in a spec.
    pub name: &'static str,
    /// The value's placeholder in help texts (`N`, `T`, `BOOL`).
    pub placeholder: &'static str,
    /// What a value must be, for error messages.
    pub expected: &'static str,
    /// What the option does.
    pub help: &'static str,
    /// What an agent does without it.
    pub default: &'static str,
}

/// Declares the key table once and generates from it the fields of [`AgentSpec`], the
/// reading of one `key=value` item, the canonical text, and [`KEYS`].
macro_rules! key_table {
    ($(
        $(#[$doc:meta])*
        $field:ident: $ty:ty = $key:literal $placeholder:literal,
            read $read:path, write $write:path,
            expected $expected:literal, help $help:literal, default $default:literal;
    )*) => {
        /// A parsed agent spec. `Display` writes the canonical form (options in the order of
        /// [`KEYS`]), which parses back to an equal spec. Every option is `None` unless the
        /// spec sets it; an algorithm takes only the keys of [`Algorithm::keys`].
        #[derive(Clone, Debug, PartialEq)]
        pub struct AgentSpec {
            /// The algorithm.
            pub algorithm: Algorithm,
            $( $(#[$doc])* pub $field: Option<$ty>, )*
        }

        impl AgentSpec {
            /// A spec for `algorithm` with every option at its default.
            pub fn new(algorithm: Algorithm) -> AgentSpec {
                AgentSpec { algorithm, $( $field: None, )* }
            }

            /// Sets the option `key` from the text `value`.
            fn set(&mut self, key: &'static str, value: &str) -> Result<(), SpecError> {
                let agent = self.algorithm.name();
                match key {
                    $( $key => {
                        let read: fn(&str) -> Option<$ty> = $read;
                        let v = read(value).ok_or_else(|| SpecError::BadValue {
                            agent,
                            key,
                            value: value.to_string(),
                            expected: $expected,
                        })?;
                        if self.$field.replace(v).is_some() {
                            return Err(SpecError::Duplicate { agent, key });
                        }
                    } )*
                    _ => return Err(self.unknown(key)),
                }
                Ok(())
            }

            /// Unsets the option `key`.
            fn clear(&mut self, key: &str) {
                match key {
                    $( $key => self.$field = None, )*
                    _ => {}
                }
            }

            /// True if the spec sets the option `key`.
            fn has(&self, key: &str) -> bool {
                match key {
                    $( $key => self.$field.is_some(), )*
                    _ => false,
                }
            }

            /// The options the spec sets, as `key=value`, in the order of [`KEYS`].
            fn written_options(&self) -> Vec<String> {
                let mut options = Vec::new();
                $( if let Some(v) = &self.$field {
                    let write: fn(&$ty) -> String = $write;
                    options.push(format!("{}={}", $key, write(v)));
                } )*
                options
            }
        }

        /// Every option an agent spec can set, in canonical order.
        pub const KEYS: &[Key] = &[ $( Key {
            name: $key,
            placeholder: $placeholder,
            expected: $expected,
            help: $help,
            default: $default,
        }, )* ];
    };
}

key_table! {
    /// Search depth limit (plies).
    depth: u32 = "depth" "N", read values::plies, write values::display,
        expected "a whole number of plies from 1 to 200",
        help "depth limit in plies", default "none";
    /// MCTS iterations per move.
    iters: u64 = "iters" "N", read values::count, write values::display,
        expected "a positive whole number",
        help "MCTS iterations per move", default "none";
    /// Time per move.
    time: Duration = "time" "T", read values::time, write values::write_time,
        expected "a duration such as 100ms, 2s or 1.5s (for a game clock: clock=2m+1s)",
        help "time per move, such as 100ms, 2s or 1.5s",
        default "1s for a search that sets no depth, time, nodes, iters or clock";
    /// The game clock (in the arena; elsewhere each move is allotted as from a full clock).
    clock: TimeControl = "clock" "TC", read values::clock, write values::write_clock,
        expected "a game clock: base[+increment] or moves/base[+increment], such as 2m+1s or 40/5m",
        help "the game clock in arena games: 2m+1s (2 minutes, 1 s added a move), 40/5m (5 minutes every 40 moves)",
        default "none (time per move)";
    /// Node limit per move.
    nodes: u64 = "nodes" "N", read values::count, write values::display,
        expected "a positive whole number",
        help "node limit per move", default "none";
    /// Transposition table size in MiB.
    tt_mb: usize = "tt" "MB", read values::table_mb, write values::display,
        expected "a table size in MiB from 1 to 16384, such as 64",
        help "transposition table size in MiB", default "16";
    /// Alpha-beta without enhancements (plain fixed-depth minimax).
    plain: bool = "plain" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "alpha-beta with no enhancements at all", default "false";
    /// Alpha-beta's exact endgame mode ([`AlphaBetaOptions::endgame`](ply::search::alphabeta::AlphaBetaOptions::endgame)).
    endgame: bool = "endgame" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "exact margins and fastest-first ordering, for solving endgames", default "false";
    /// Late-move reductions.
    lmr: bool = "lmr" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "late-move reductions", default "false";
    /// Late-move reductions growing with depth and move number ([`AlphaBetaOptions::lmr_log`](ply::search::alphabeta::AlphaBetaOptions::lmr_log); 0 is the fixed rule).
    lmr_log: f64 = "lmrlog" "D", read values::margin, write values::display,
        expected "a divisor from 0 (the fixed rule) to 1000000, such as 2",
        help "with lmr, reductions of ln(depth) ln(move) / D plies", default "0 (fixed)";
    /// Late-move reductions of moves into loud positions too ([`AlphaBetaOptions::lmr_loud`](ply::search::alphabeta::AlphaBetaOptions::lmr_loud)).
    lmr_loud: bool = "lmrloud" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "with lmr, reduce moves the opponent answers with a capture too", default "false";
    /// Moves searched in full before late-move reductions outside the principal variation ([`AlphaBetaOptions::lmr_first`](ply::search::alphabeta::AlphaBetaOptions::lmr_first)).
    lmr_first: usize = "lmrfirst" "N", read values::small, write values::display,
        expected "a number of moves from 1 to 256",
        help "with lmr, moves searched in full before reductions outside the principal variation",
        default "3";
    /// Null-move pruning.
    null: bool = "null" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "null-move pruning, where the game allows passing", default "false";
    /// Internal iterative deepening.
    iid: bool = "iid" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "internal iterative deepening", default "false";
    /// Extensions after only replies and the moves the game names.
    ext: bool = "ext" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "extensions after only replies and the moves the game names", default "false";
    /// Threat extensions at the horizon.
    threat: bool = "threat" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "threat extensions at the horizon", default "false";
    /// Alpha-beta's ProbCut margin ([`AlphaBetaOptions::probcut`](ply::search::alphabeta::AlphaBetaOptions::probcut); 0 is off).
    probcut: f64 = "probcut" "M", read values::margin, write values::display,
        expected "a margin from 0 (off) to 1000000, such as 50",
        help "ProbCut with margin M in evaluation units", default "0 (off)";
    /// ProbCut in proportion to the depth ([`AlphaBetaOptions::probcut_ratio`](ply::search::alphabeta::AlphaBetaOptions::probcut_ratio); 0 is the fixed form).
    probcut_ratio: f64 = "pcratio" "R", read values::fraction, write values::display,
        expected "a fraction from 0 (the fixed form) up to 1, such as 0.4",
        help "with probcut, its shallow search at R times the depth, margin M at 10 plies",
        default "0 (3 plies shallower)";
    /// Alpha-beta's futility margin per ply ([`AlphaBetaOptions::futility`](ply::search::alphabeta::AlphaBetaOptions::futility); 0 is off).
    futility: f64 = "futility" "M", read values::margin, write values::display,
        expected "a margin from 0 (off) to 1000000, such as 100",
        help "futility pruning 1-2 plies from the horizon, margin M a ply", default "0 (off)";
    /// Alpha-beta's clock use by the best move's stability ([`AlphaBetaOptions::adaptive_time`](ply::search::alphabeta::AlphaBetaOptions::adaptive_time)).
    adapt: bool = "adapt" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "under a clock, less time while the best move stays, more when it changes",
        default "true";
    /// Exploration constant: UCT's for MCTS, PUCT's for the learned searches.
    c: f64 = "c" "X", read values::non_negative, write values::display,
        expected "a non-negative number such as 1.4",
        help "exploration constant (MCTS: UCT's; puct: the prior's weight)",
        default "1.414 for MCTS, 1.25 for puct";
    /// Root moves Gumbel search samples and halves.
    m: usize = "m" "N", read values::small, write values::display,
        expected "a number of moves from 1 to 256",
        help "root moves Gumbel search samples, then halves", default "16";
    /// Leaves a learned search's thread evaluates in one network pass.
    batch: usize = "batch" "N", read values::small, write values::display,
        expected "a number of leaves from 1 to 256",
        help "leaves each thread of a learned search evaluates in one network pass",
        default "1";
    /// Search threads: root-parallel trees for MCTS, Lazy SMP for the alpha-beta family.
    threads: usize = "threads" "N", read values::threads, write values::display,
        expected "a number of threads from 1 to 256",
        help "search threads (Lazy SMP for the alpha-beta family, root-parallel MCTS trees)",
        default "1";
    /// MCTS rollout cut-off: `Some(Some(k))` evaluates after `k` plies, `Some(None)` turns it
    /// off, `None` keeps the library default.
    cutoff: Option<u32> = "cutoff" "N|none", read values::plies_or_none,
        write values::write_plies_or_none,
        expected "a number of plies or none",
        help "MCTS rollouts stop after N plies and evaluate", default "the library's";
    /// MCTS-Solver on or off.
    solver: bool = "solver" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "MCTS-Solver (mcts, puct, gumbel): proven values back up exactly", default "true";
    /// Keep the search's work between moves: the MCTS tree, alpha-beta's table entries.
    reuse: bool = "reuse" "BOOL", read values::boolean, write values::display,
        expected "true or false",
        help "keep the search's work between moves (the MCTS tree, alpha-beta's table)",
        default "true for MCTS, false for alpha-beta";
    /// The evaluation, by the name the game registered it under (`None`: the game's own).
    eval: String = "eval" "NAME", read values::name, write values::display,
        expected "an evaluation name (letters, digits, - and _)",
        help "an evaluation the game registers",
        default "the one the game's programs play with, e.g. net for checkers";
    /// A network file: for alpha-beta one written by `tune train` (over the game's network
    /// inputs, instead of a named evaluation); for puct and gumbel a policy-value network
    /// written by `tune zero`.
    net: String = "net" "FILE", read values::text, write values::display,
        expected "a network file written by tune train or tune zero",
        help "alphabeta: tune train's network, instead of eval=; puct, gumbel: tune zero's \
              policy-value network",
        default "puct, gumbel: the game's shipped network";
    /// A weights file (written by `tune fit`) that alpha-beta searches with, over the one of
    /// the game's feature sets whose names it lists, instead of a named evaluation.
    weights: String = "weights" "FILE", read values::text, write values::display,
        expected "a weights file written by tune fit",
        help "search with these weights over the game's features, instead of eval=",
        default "none";
    /// The opening book: a file, off, or `None` for the game's own (searches only).
    book: BookChoice = "book" "FILE|off", read values::book, write values::write_book,
        expected "a book file or off",
        help "play from this opening book while the game is in it; off: no book",
        default "a search uses the game's own book, if it has one";
    /// The endgame tables (alpha-beta): `None` is [`EgdbChoice::On`].
    egdb: EgdbChoice = "egdb" "on|off|DIR", read values::egdb, write values::write_egdb,
        expected "on, off or a directory",
        help "the game's endgame tables", default "on: those in $PLY_EGDB or ~/.cache/ply/egdb, if there";
    /// The address (`HOST:PORT`) of a DamExchange engine.
    addr: String = "addr" "HOST:PORT", read values::address, write values::display,
        expected "HOST:PORT, such as 127.0.0.1:27531",
        help "where the engine listens", default "none";
    /// A fixed seed (otherwise the caller's).
    seed: u64 = "seed" "N", read values::whole, write values::display,
        expected "a whole number",
        help "a fixed seed", default "the caller's";
    /// The command line of an external engine.
    cmd: String = "cmd" "COMMAND", read values::text, write values::display,
        expected "a command line",
        help "the command that starts the engine; it takes the rest of the spec, commas included",
        default "none";
}

/// The keys every search of the alpha-beta family takes besides its own.
const SEARCH_KEYS: [&str; 9] =
    ["depth", "time", "clock", "nodes", "tt", "threads", "eval", "book", "seed"];

/// The algorithm an [`AgentSpec`] names: one of ply's searches and baselines, or an external
/// engine through one of the [`PROTOCOLS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Two-player alpha-beta.
    AlphaBeta,
    /// Monte Carlo tree search.
    Mcts,
    /// PUCT with a policy-value network (AlphaZero).
    Puct,
    /// Gumbel search with a policy-value network.
    Gumbel,
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
    /// An external program speaking this protocol.
    Engine(&'static Protocol),
}

impl Algorithm {
    /// ply's own algorithms, in the order of [`accepted`].
    pub const OWN: [Algorithm; 9] = [
        Algorithm::AlphaBeta,
        Algorithm::Mcts,
        Algorithm::Puct,
        Algorithm::Gumbel,
        Algorithm::Paranoid,
        Algorithm::MaxN,
        Algorithm::Brs,
        Algorithm::Greedy,
        Algorithm::Random,
    ];

    /// Every algorithm: ply's own, then an external engine for each protocol.
    pub fn all() -> impl Iterator<Item = Algorithm> {
        Algorithm::OWN.into_iter().chain(PROTOCOLS.into_iter().map(Algorithm::Engine))
    }

    /// The algorithm written `name` (any case).
    pub fn named(name: &str) -> Option<Algorithm> {
        Algorithm::all().find(|a| a.name().eq_ignore_ascii_case(name))
    }

    /// The name used in specs.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcts => "mcts",
            Algorithm::Puct => "puct",
            Algorithm::Gumbel => "gumbel",
            Algorithm::Paranoid => "paranoid",
            Algorithm::MaxN => "maxn",
            Algorithm::Brs => "brs",
            Algorithm::Greedy => "greedy",
            Algorithm::Random => "random",
            Algorithm::Engine(p) => p.name,
        }
    }

    /// One line on what the algorithm is, for help texts.
    pub fn summary(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "two-player alpha-beta",
            Algorithm::Mcts => "Monte Carlo tree search",
            Algorithm::Puct => "PUCT with a policy-value network (AlphaZero)",
            Algorithm::Gumbel => "Gumbel search with a policy-value network (sequential halving)",
            Algorithm::Paranoid => "N-player alpha-beta, paranoid opponents",
            Algorithm::MaxN => "N-player max^n",
            Algorithm::Brs => "N-player best-reply search",
            Algorithm::Greedy => "best one-ply evaluation",
            Algorithm::Random => "uniformly random legal moves",
            Algorithm::Engine(p) => p.summary,
        }
    }

    /// The option keys this algorithm accepts, in the order of [`KEYS`].
    pub fn keys(self) -> Vec<&'static str> {
        KEYS.iter().map(|k| k.name).filter(|k| self.accepts(k)).collect()
    }

    /// True if the algorithm takes the option `key`.
    pub fn accepts(self, key: &str) -> bool {
        let alpha_beta_family = matches!(
            self,
            Algorithm::AlphaBeta | Algorithm::Paranoid | Algorithm::MaxN | Algorithm::Brs
        );
        self.own_keys().contains(&key) || (alpha_beta_family && SEARCH_KEYS.contains(&key))
    }

    /// The keys the algorithm takes besides [`SEARCH_KEYS`] (which the alpha-beta family
    /// shares).
    fn own_keys(self) -> &'static [&'static str] {
        match self {
            Algorithm::AlphaBeta => &[
                "plain", "endgame", "lmr", "lmrlog", "lmrloud", "lmrfirst", "null", "iid", "ext",
                "threat", "probcut", "pcratio", "futility", "reuse", "adapt", "egdb", "net",
                "weights",
            ],
            Algorithm::Mcts => &[
                "iters", "time", "clock", "nodes", "c", "threads", "cutoff", "solver", "reuse",
                "eval", "book", "seed",
            ],
            Algorithm::Puct => &[
                "iters", "time", "clock", "nodes", "c", "batch", "threads", "reuse", "solver",
                "net", "book", "seed",
            ],
            Algorithm::Gumbel => &[
                "iters", "time", "clock", "nodes", "m", "batch", "threads", "reuse", "solver",
                "net", "book", "seed",
            ],
            Algorithm::Paranoid | Algorithm::MaxN | Algorithm::Brs => &[],
            Algorithm::Greedy => &["eval", "book", "seed"],
            Algorithm::Random => &["book", "seed"],
            Algorithm::Engine(p) => p.keys,
        }
    }

    /// The option a spec of this algorithm cannot do without: an external engine's `cmd` (or
    /// a DamExchange engine's `addr`).
    pub fn required(self) -> Option<&'static str> {
        match self {
            Algorithm::Engine(p) => Some(p.required),
            _ => None,
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
                | Algorithm::Puct
                | Algorithm::Gumbel
                | Algorithm::Paranoid
                | Algorithm::MaxN
                | Algorithm::Brs
        )
    }

    /// True for the programs that run outside this process.
    pub fn is_external(self) -> bool {
        matches!(self, Algorithm::Engine(_))
    }

    /// The spec's syntax for help texts: `alphabeta[:depth=N,...]`, `hub:[time=T,...,]cmd=COMMAND`.
    fn synopsis(self) -> String {
        let item = |name: &str| {
            let key = KEYS.iter().find(|k| k.name == name).map_or("", |k| k.placeholder);
            format!("{name}={key}")
        };
        let required = self.required();
        let optional: Vec<String> =
            self.keys().into_iter().filter(|k| Some(*k) != required).map(item).collect();
        let name = self.name();
        match required {
            None if optional.is_empty() => name.to_string(),
            None => format!("{name}[:{}]", optional.join(",")),
            // `cmd=` takes the rest of the spec, so it is written last.
            Some("cmd") => format!("{name}:[{},]{}", optional.join(","), item("cmd")),
            Some(key) => format!("{name}:{}[,{}]", item(key), optional.join(",")),
        }
    }
}

/// What every agent accepts, generated from [`KEYS`] and the algorithms, for `--help` texts
/// and error messages.
pub fn accepted() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| accepted_by(|_| true))
}

/// What the algorithms `keep` lets through accept (a program's `--help` leaves out the
/// protocols its game speaks none of), with the options those algorithms take.
pub fn accepted_by(keep: impl Fn(&Algorithm) -> bool) -> String {
    let algorithms: Vec<Algorithm> = Algorithm::all().filter(|a| keep(a)).collect();
    let mut text = String::new();
    for algorithm in &algorithms {
        let synopsis = wrap(&format!("  {}", algorithm.synopsis()), 6);
        let summary = wrap_after(&format!("      {}", algorithm.summary()), ' ', 6);
        text += &format!("{synopsis}\n{summary}\n");
    }
    text += "options (an agent takes those its line lists):\n";
    for key in KEYS.iter().filter(|k| algorithms.iter().any(|a| a.accepts(k.name))) {
        let left = format!("{}={}", key.name, key.placeholder);
        let mut line = format!("  {left:<17} {}", key.help);
        if key.default != "none" {
            line += &format!("; default: {}", key.default);
        }
        text += &wrap_after(&line, ' ', 20);
        text.push('\n');
    }
    text.pop();
    text
}

/// Breaks a line after commas so that no line passes 96 columns, indenting the rest.
fn wrap(line: &str, indent: usize) -> String {
    wrap_after(line, ',', indent)
}

/// Breaks `line` after `mark` so that no line passes 96 columns, indenting the rest.
fn wrap_after(line: &str, mark: char, indent: usize) -> String {
    let mut out = String::new();
    let mut width = 0;
    for (i, piece) in line.split_inclusive(mark).enumerate() {
        if i > 0 && width + piece.len() > 96 {
            out.truncate(out.trim_end().len());
            out += &format!("\n{:indent$}", "");
            width = indent;
        }
        out += piece;
        width += piece.len();
    }
    out
}

impl AgentSpec {
    /// This spec for a game of `players` players: two-player alpha-beta becomes paranoid
    /// search (with the same options) where there are not two, so that a game's default
    /// engine plays every player count.
    ///
    /// ```
    /// use ply_tools::spec::AgentSpec;
    ///
    /// let spec: AgentSpec = "alphabeta:time=1s".parse()?;
    /// assert_eq!(spec.clone().for_players(2).to_string(), "alphabeta:time=1s");
    /// assert_eq!(spec.for_players(3).to_string(), "paranoid:time=1s");
    /// # Ok::<(), ply_tools::spec::SpecError>(())
    /// ```
    pub fn for_players(mut self, players: usize) -> AgentSpec {
        if players != 2 && self.algorithm == Algorithm::AlphaBeta {
            self.algorithm = Algorithm::Paranoid;
            // Options of two-player alpha-beta alone.
            for key in Algorithm::AlphaBeta.keys() {
                if !Algorithm::Paranoid.accepts(key) {
                    self.clear(key);
                }
            }
        }
        self
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
    /// A file a spec names (`book=`, `net=`, `weights=`) that cannot be read: missing, not
    /// a regular file, or too large.
    #[error("{key}: {source}")]
    Unreadable {
        /// The spec key.
        key: &'static str,
        /// Why the file cannot be read.
        source: ply::files::FileError,
    },
    /// `book=FILE` names a file that cannot be read as a book of this game.
    #[error("book {path}: {reason}")]
    Book {
        /// The file as given.
        path: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// `net=FILE` or `weights=FILE` names a file that cannot be searched with as a network
    /// or weights of this game.
    #[error("{key} {path}: {reason}")]
    EvaluationFile {
        /// The spec key: `net` or `weights`.
        key: &'static str,
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
    /// A learned search (puct, gumbel) without a network it can use.
    #[error("{agent}: {reason}")]
    Network {
        /// The agent's name.
        agent: &'static str,
        /// Why there is none.
        reason: String,
    },
    /// An external engine given where a search was expected.
    #[error("{agent} is an external engine, not a search")]
    External {
        /// The protocol.
        agent: &'static str,
    },
    /// The name before `:` is not an agent.
    #[error("unknown agent {0:?}; accepted agents:\n{list}", list = accepted())]
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
    /// Both a time per move and a game clock.
    #[error("{agent}: time= (per move) and clock= (the game clock) cannot both be set")]
    TimeAndClock {
        /// The agent's name.
        agent: &'static str,
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

impl AgentSpec {
    /// The budget for every move: the limits the spec sets, or [`DEFAULT_TIME`] for a search
    /// that sets none (depth 1 for greedy and random, which do not search). A game clock
    /// (`clock=`) goes in as a full clock; the arena replaces it with the clock as it stands
    /// before each move ([`AgentSpec::clock`], [`ply::arena::Seat::with_clock`]).
    pub fn budget(&self) -> Budget {
        let mut budget = Budget {
            depth: self.depth,
            time: self.time,
            nodes: self.nodes,
            iterations: self.iters,
            clock: self.clock.map(|c| c.start()),
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

    /// The error for a key the spec's algorithm does not take.
    fn unknown(&self, key: &str) -> SpecError {
        SpecError::UnknownOption {
            agent: self.algorithm.name(),
            key: key.to_string(),
            accepted: self.algorithm.keys().join(", "),
        }
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
        let algorithm =
            Algorithm::named(name).ok_or_else(|| SpecError::UnknownAgent(name.to_string()))?;
        let agent = algorithm.name();
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
            let Some(key) = KEYS.iter().map(|k| k.name).find(|&k| k == key && algorithm.accepts(k))
            else {
                return Err(spec.unknown(key));
            };
            spec.set(key, value)?;
        }
        if let Some(key) = algorithm.required() {
            if !spec.has(key) {
                let mut accepted = algorithm.keys().join(", ");
                if key != "cmd" && spec.cmd.is_some() {
                    accepted += " (cmd= takes the rest of the spec, commas included: put it last)";
                }
                return Err(SpecError::Missing { agent, key, accepted });
            }
        }
        if spec.time.is_some() && spec.clock.is_some() {
            return Err(SpecError::TimeAndClock { agent });
        }
        Ok(spec)
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.algorithm.name())?;
        let options = self.written_options();
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
        assert_eq!(
            [s.lmr, s.null, s.iid, s.ext, s.threat],
            [Some(false), Some(true), Some(true), Some(false), Some(true)]
        );
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
        let s =
            spec("alphabeta:lmr=true,lmrlog=1.25,lmrloud=true,lmrfirst=1,probcut=50,pcratio=0.4");
        assert_eq!((s.lmr_log, s.lmr_loud, s.probcut_ratio), (Some(1.25), Some(true), Some(0.4)));
        assert_eq!(s.lmr_first, Some(1));
        assert_eq!(
            s.to_string(),
            "alphabeta:lmr=true,lmrlog=1.25,lmrloud=true,lmrfirst=1,probcut=50,pcratio=0.4"
        );
        for (bad, key) in [
            ("alphabeta:pcratio=1", "pcratio"),
            ("alphabeta:pcratio=-0.1", "pcratio"),
            ("alphabeta:lmrlog=-1", "lmrlog"),
            ("alphabeta:lmrloud=maybe", "lmrloud"),
            ("alphabeta:lmrfirst=0", "lmrfirst"),
        ] {
            let e = bad.parse::<AgentSpec>();
            assert!(
                matches!(e, Err(SpecError::BadValue { key: k, .. }) if k == key),
                "{bad}: {e:?}"
            );
        }
        let s = spec("alphabeta:clock=60s+100ms,adapt=true");
        assert_eq!(
            (s.adapt, s.to_string().as_str()),
            (Some(true), "alphabeta:clock=60s+100ms,adapt=true")
        );
        assert!("mcts:adapt=true".parse::<AgentSpec>().is_err());
        let s = spec("alphabeta:futility=80");
        assert_eq!((s.futility, s.to_string().as_str()), (Some(80.0), "alphabeta:futility=80"));
        assert!("alphabeta:futility=-5".parse::<AgentSpec>().is_err());
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
        for a in Algorithm::all() {
            let text = match a.required() {
                Some("addr") => format!("{}:seed=5,addr=localhost:27531", a.name()),
                Some(key) => format!("{}:seed=5,{key}=engine", a.name()),
                None => format!("{}:seed=5", a.name()),
            };
            assert_eq!(spec(&text).seed, Some(5), "{text}");
        }
    }

    /// The algorithms name only keys of the table, every key is taken by some algorithm, and
    /// the help text shows every algorithm and key within 100 columns.
    #[test]
    fn the_key_table_and_the_algorithms_agree() {
        for a in Algorithm::all() {
            for key in a.own_keys().iter().chain(a.required().iter()) {
                assert!(KEYS.iter().any(|k| k.name == *key), "{}: {key}", a.name());
            }
            assert!(accepted().contains(&format!("  {}", a.name())), "{}", a.name());
        }
        for key in KEYS {
            assert!(Algorithm::all().any(|a| a.accepts(key.name)), "{}", key.name);
            assert!(accepted().contains(&format!("  {}={}", key.name, key.placeholder)));
        }
        for line in accepted().lines() {
            assert!(line.len() <= 100, "{line}");
        }
        assert_eq!(Algorithm::named("MCTS"), Some(Algorithm::Mcts));
        assert_eq!(Algorithm::named("hub").map(|a| a.required()), Some(Some("cmd")));
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
    fn game_clocks() {
        let secs = Duration::from_secs;
        let control = |base, increment, moves| Some(TimeControl { base, increment, moves });
        for (text, expected, written) in [
            ("alphabeta:clock=2m+1s", control(secs(120), secs(1), None), "alphabeta:clock=120s+1s"),
            (
                "mcts:clock=40/5m",
                control(secs(300), Duration::ZERO, Some(40)),
                "mcts:clock=40/300s",
            ),
            (
                "hub:clock=40/90m+500ms,cmd=scan hub",
                control(secs(5400), Duration::from_millis(500), Some(40)),
                "hub:clock=40/5400s+500ms,cmd=scan hub",
            ),
            (
                "jsonl:clock=1.5s,cmd=x",
                control(Duration::from_millis(1500), Duration::ZERO, None),
                "jsonl:clock=1500ms,cmd=x",
            ),
        ] {
            let s = spec(text);
            assert_eq!(s.clock, expected, "{text}");
            assert_eq!(s.to_string(), written);
            assert_eq!(spec(written).clock, expected, "{written}");
            let budget = s.budget();
            assert_eq!((budget.time, budget.clock), (None, expected.map(|c| c.start())), "{text}");
        }
        for bad in ["2m+", "0s", "0/2m", "x/2m", "40/", "2m+1", "1001/2m", "+1s"] {
            let e = format!("alphabeta:clock={bad}").parse::<AgentSpec>().unwrap_err();
            assert!(matches!(e, SpecError::BadValue { key: "clock", .. }), "{bad}: {e}");
        }
        let e = "alphabeta:time=1s,clock=2m+1s".parse::<AgentSpec>().unwrap_err();
        assert_eq!(e, SpecError::TimeAndClock { agent: "alphabeta" });
        let e = "alphabeta:time=2m+1s".parse::<AgentSpec>().unwrap_err();
        assert!(e.to_string().contains("clock=2m+1s"), "{e}");
        assert!(matches!(
            "greedy:clock=2m".parse::<AgentSpec>(),
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
