//! The game registry: the games a program offers by name, each with the options it accepts,
//! a function that builds the rules object from them, and its agent kit (named evaluations,
//! external-engine codecs).
//!
//! A registry is a value, not a list compiled into the tools: a program (or a user's crate)
//! makes one, adds its games, and hands it to the tools' entry points ([`crate::cli`]). Adding
//! a game touches no tool.
//!
//! ```
//! use ply::games::TicTacToe;
//! use ply_tools::registry::{GameEntry, Registry};
//!
//! let mut registry = Registry::new();
//! registry.add(GameEntry::new("tictactoe", "tic-tac-toe on 3x3", |_| Ok(TicTacToe)));
//! assert_eq!(registry.names(), vec!["tictactoe"]);
//! assert!(registry.get("chess").is_err());
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ply::book::{Book, BookAgent};
use ply::eval::net::NetInputs;
use ply::eval::{Evaluator, Features};
use ply::games::mix64;
use ply::pack::PackState;
use ply::search::Agent;
use ply::{Game, Notation, Solved};

use crate::egdb::{Solver, WithSolver};
use crate::engines::dxp::DxpCodec;
use crate::engines::hub::HubCodec;
use crate::engines::jsonl::JsonlCodec;
use crate::engines::nboard::NBoardCodec;
use crate::spec::{AgentSpec, BookChoice, EgdbChoice, SpecError};
use crate::tune::data::StateCodec;

/// Game options from the command line. Each game accepts some of them (see [`GameInfo::accepts`]); giving
/// one it does not accept is an error rather than silently ignored.
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    /// Rule set, where the game has several (see the list of games).
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// Board size: N for an N x N board, or COLSxROWS (connect-four).
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// Number of players, where the game allows several.
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// A variant flag KEY=VALUE, repeatable (connect-four: connect=K).
    #[arg(long = "variant", value_name = "KEY=VALUE", value_parser = parse_key_value)]
    pub variants: Vec<(String, String)>,
}

/// Reads `key=value`.
///
/// # Errors
/// If there is no `=` or the key is empty.
pub fn parse_key_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("expected KEY=VALUE, got {text:?}")),
    }
}

impl GameOptions {
    /// The value of variant flag `key`, if given.
    pub fn variant(&self, key: &str) -> Option<&str> {
        self.variants.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The options as command-line flags (`--size 7x6 --variant connect=4`), for records.
    pub fn to_args(&self) -> String {
        let mut parts = Vec::new();
        if let Some(r) = &self.rules {
            parts.push(format!("--rules {r}"));
        }
        if let Some(s) = &self.size {
            parts.push(format!("--size {s}"));
        }
        if let Some(p) = self.players {
            parts.push(format!("--players {p}"));
        }
        for (k, v) in &self.variants {
            parts.push(format!("--variant {k}={v}"));
        }
        parts.join(" ")
    }
}

/// What the tools need of a game: its rules, text forms, and the bounds that let games run on
/// several threads. Every `Game + Notation` whose states and moves are `Send + Sync` has it.
pub trait ToolGame: Game + Notation + Send + Sync + 'static {}

impl<T: Game + Notation + Send + Sync + 'static> ToolGame for T {}

/// A registered game's name and options, for help texts and errors.
#[derive(Clone, Debug, Default)]
pub struct GameInfo {
    /// The name on the command line.
    pub name: String,
    /// One line about it.
    pub summary: String,
    /// The options it accepts, as flag names: `rules`, `size`, `players`, or `variant:KEY`.
    pub accepts: Vec<String>,
    /// The accepted values and defaults, for help texts.
    pub options_help: String,
    /// A name per seat for the terminal (`Black`, `White`); empty for "player N".
    pub seat_names: Vec<String>,
    /// The engine spec of the terminal when a human plays.
    pub engine: String,
    /// The engine spec of the terminal when engines play each other (short: the mode of
    /// scripts and smoke tests).
    pub batch_engine: String,
    /// Engine specs for one value of `--rules` each, in place of `engine` and `batch_engine`
    /// (a rule set whose search measured better with other options): rules, engine, batch
    /// engine.
    pub rules_engines: Vec<(String, String, String)>,
}

impl GameInfo {
    /// The engine specs for a game built with `options`: those registered for its `--rules`
    /// (compared in any case), else `engine` and `batch_engine`.
    ///
    /// ```
    /// use ply_tools::registry::{GameInfo, GameOptions};
    ///
    /// let info = GameInfo {
    ///     engine: "alphabeta:time=1s".into(),
    ///     batch_engine: "alphabeta:time=50ms".into(),
    ///     rules_engines: vec![("fast".into(), "alphabeta:time=1s,lmr=true".into(), "alphabeta:depth=2".into())],
    ///     ..GameInfo::default()
    /// };
    /// let fast = GameOptions { rules: Some("FAST".into()), ..GameOptions::default() };
    /// assert_eq!(info.engines_for(&fast), ("alphabeta:time=1s,lmr=true", "alphabeta:depth=2"));
    /// assert_eq!(info.engines_for(&GameOptions::default()).0, "alphabeta:time=1s");
    /// ```
    pub fn engines_for(&self, options: &GameOptions) -> (&str, &str) {
        let rules = options.rules.as_deref().map(str::trim);
        match self
            .rules_engines
            .iter()
            .find(|(r, _, _)| rules.is_some_and(|o| o.eq_ignore_ascii_case(r)))
        {
            Some((_, engine, batch)) => (engine, batch),
            None => (&self.engine, &self.batch_engine),
        }
    }

    /// The terminal's defaults for this game built with `options`.
    pub fn play_defaults(&self, options: &GameOptions) -> crate::play::Defaults<'_> {
        let (engine, batch_engine) = self.engines_for(options);
        crate::play::Defaults { engine, batch_engine, names: &self.seat_names }
    }
}

impl GameInfo {
    /// Checks that every option in `options` is one this game accepts.
    ///
    /// # Errors
    /// [`RegistryError::UnsupportedOption`] naming the first option it does not take.
    pub fn check(&self, options: &GameOptions) -> Result<(), RegistryError> {
        let mut given: Vec<String> = Vec::new();
        if options.rules.is_some() {
            given.push("rules".into());
        }
        if options.size.is_some() {
            given.push("size".into());
        }
        if options.players.is_some() {
            given.push("players".into());
        }
        given.extend(options.variants.iter().map(|(k, _)| format!("variant:{k}")));
        match given.into_iter().find(|g| !self.accepts.contains(g)) {
            Some(option) => Err(RegistryError::UnsupportedOption {
                game: self.name.clone(),
                option: match option.strip_prefix("variant:") {
                    Some(k) => format!("--variant {k}=..."),
                    None => format!("--{option}"),
                },
                help: self.options_help.clone(),
            }),
            None => Ok(()),
        }
    }
}

/// Builds a boxed agent for a spec, with one evaluation built in (and the endgame tables'
/// solver, if the agent uses them).
type AgentBuilder<G> = Arc<
    dyn Fn(&AgentSpec, u64, Option<Solver<G>>) -> Result<Box<dyn Agent<G> + Send>, SpecError>
        + Send
        + Sync,
>;

/// Opens a game's endgame tables in a directory, as a solver that reads them on first use
/// ([`crate::egdb::lazy_solver`]).
pub type EndgameOpener<G> = Arc<dyn Fn(&Path) -> Solver<G> + Send + Sync>;

/// The solvers a kit has opened, by directory, so that every agent shares one copy of the
/// tables.
type SolverCache<G> = Arc<Mutex<Vec<(PathBuf, Solver<G>)>>>;

/// Reads the text of a book file as a book of the kit's game.
pub type BookLoader<G> = Arc<dyn Fn(&str) -> Result<Book<G>, String> + Send + Sync>;

/// The books a kit has read, by file name, so that a tournament reads each file once.
type BookCache<G> = Arc<Mutex<Vec<(String, Arc<Book<G>>)>>>;

/// Seed salt of the book's choices, apart from the search's own seed.
const BOOK_SALT: u64 = 0x626f_6f6b;

/// What a game adds to the generic agents: evaluations by name (`alphabeta:eval=NAME`), the
/// codecs of the external-engine protocols it speaks (`hub:`, `nboard:`) and its opening
/// books (its own, which searches use by default, and `book=FILE`).
pub struct AgentKit<G: Game> {
    evaluators: Vec<(String, AgentBuilder<G>)>,
    /// The evaluation a spec without `eval=` (or with `eval=default`) searches with: one of
    /// `evaluators` by name, or `None` for the game's own ([`Game::evaluate`]).
    default_eval: Option<String>,
    /// The Hub protocol's positions and moves for this game, if engines speak it.
    pub hub: Option<HubCodec<G>>,
    /// The NBoard protocol's positions for this game, if engines speak it.
    pub nboard: Option<NBoardCodec<G>>,
    /// The JSON-lines protocol's boards and moves for this game, if engines speak it.
    pub jsonl: Option<JsonlCodec<G>>,
    /// DamExchange's positions and moves for this game, if engines speak it.
    pub dxp: Option<DxpCodec<G>>,
    /// The game's own opening book: searches play from it unless their spec says
    /// `book=off` or names another (`book=FILE`).
    pub book: Option<Arc<Book<G>>>,
    /// Reads `book=FILE` files for this game (without one, `book=FILE` is refused).
    pub loader: Option<BookLoader<G>>,
    cache: BookCache<G>,
    /// Opens the game's endgame tables, if it has an index ([`GameEntry::endgame`]): the
    /// searches use them unless their spec says `egdb=off`.
    pub endgame: Option<EndgameOpener<G>>,
    solvers: SolverCache<G>,
}

impl<G: Game> Default for AgentKit<G> {
    fn default() -> Self {
        AgentKit {
            evaluators: Vec::new(),
            default_eval: None,
            hub: None,
            nboard: None,
            jsonl: None,
            dxp: None,
            book: None,
            loader: None,
            cache: Arc::default(),
            endgame: None,
            solvers: Arc::default(),
        }
    }
}

impl<G: Game> Clone for AgentKit<G> {
    fn clone(&self) -> Self {
        AgentKit {
            evaluators: self.evaluators.clone(),
            default_eval: self.default_eval.clone(),
            hub: self.hub,
            nboard: self.nboard,
            jsonl: self.jsonl,
            dxp: self.dxp,
            book: self.book.clone(),
            loader: self.loader.clone(),
            cache: self.cache.clone(),
            endgame: self.endgame.clone(),
            solvers: self.solvers.clone(),
        }
    }
}

impl<G: Game> AgentKit<G> {
    /// The opening book an agent built from `spec` plays from: the file of `book=FILE`
    /// (read once, then remembered), none for `book=off`, else the kit's own book for a
    /// search ([`crate::spec::Algorithm::uses_default_book`]).
    ///
    /// # Errors
    /// [`SpecError::Book`] for a file that cannot be read or is not a book of this game.
    pub fn book_for(&self, spec: &AgentSpec) -> Result<Option<Arc<Book<G>>>, SpecError> {
        match &spec.book {
            Some(BookChoice::Off) => Ok(None),
            None if spec.algorithm.uses_default_book() => Ok(self.book.clone()),
            None => Ok(None),
            Some(BookChoice::File(path)) => {
                let fail = |reason: String| SpecError::Book { path: path.clone(), reason };
                let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
                if let Some((_, book)) = cache.iter().find(|(p, _)| p == path) {
                    return Ok(Some(book.clone()));
                }
                let loader = self
                    .loader
                    .as_ref()
                    .ok_or_else(|| fail("this program cannot read books of this game".into()))?;
                let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
                let book = Arc::new(loader(&text).map_err(fail)?);
                cache.push((path.clone(), book.clone()));
                Ok(Some(book))
            }
        }
    }
}

impl<G: Game> AgentKit<G> {
    /// The endgame tables' solver an agent built from `spec` searches with: none for
    /// `egdb=off`, for an agent that does not search with alpha-beta, or for a game without
    /// tables; the tables of `egdb=DIR`; else those of the default directory
    /// ([`ply::endgame::default_dir`]), when it holds them. Every agent of a kit shares one
    /// copy of each directory's tables, read slice by slice as the search reaches them.
    ///
    /// # Errors
    /// [`SpecError::Egdb`] for `egdb=DIR` with a directory that does not exist, or `egdb=...`
    /// for a game without an endgame index.
    pub fn solver_for(&self, spec: &AgentSpec) -> Result<Option<Solver<G>>, SpecError> {
        let fail = |reason: String| SpecError::Egdb { reason };
        let dir = match &spec.egdb {
            Some(EgdbChoice::Off) => return Ok(None),
            Some(EgdbChoice::Dir(d)) => {
                let dir = PathBuf::from(d);
                if !dir.is_dir() {
                    return Err(fail(format!("{d} is not a directory")));
                }
                Some(dir)
            }
            Some(EgdbChoice::On) | None => ply::endgame::default_dir(),
        };
        let Some(open) = &self.endgame else {
            return match spec.egdb {
                None => Ok(None),
                Some(_) => Err(fail("this game has no endgame tables".into())),
            };
        };
        if !spec.algorithm.uses_endgame_tables() {
            return Ok(None);
        }
        let Some(dir) = dir else { return Ok(None) };
        let mut solvers = self.solvers.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, s)) = solvers.iter().find(|(d, _)| *d == dir) {
            return Ok(Some(s.clone()));
        }
        let solver = open(&dir);
        solvers.push((dir, solver.clone()));
        Ok(Some(solver))
    }

    /// The endgame tables' verdict on `state` (the default directory's tables), for a
    /// terminal to show: `None` when the game has no tables there or the position is not in
    /// them.
    pub fn tables_verdict(&self, game: &G, state: &G::State) -> Option<Solved> {
        self.default_tables()?.solve(game, state)
    }

    /// What the default directory's endgame tables hold, for a program's first lines.
    pub fn tables_description(&self, game: &G) -> Option<String> {
        self.default_tables()?.describe(game)
    }

    fn default_tables(&self) -> Option<Solver<G>> {
        let spec = AgentSpec::new(crate::spec::Algorithm::AlphaBeta);
        self.solver_for(&spec).ok().flatten()
    }
}

impl<G: Game + Sync + 'static> AgentKit<G> {
    /// Adds the evaluation `eval` under `name`: a spec with `eval=NAME` searches with it.
    /// The search is compiled for `E`, so the evaluation is called directly at every leaf.
    pub fn add_evaluator<E: Evaluator<G>>(&mut self, name: &str, eval: E) {
        let build: AgentBuilder<G> = Arc::new(move |spec, seed, solver| {
            spec.build_search(WithSolver::new(eval.clone(), solver), seed)
        });
        self.evaluators.retain(|(n, _)| n != name);
        self.evaluators.push((name.to_string(), build));
    }

    /// Adds the evaluation `eval` under `name` and makes it the default: what a spec without
    /// `eval=` (or with `eval=default`) searches with, so that the arena, Python and every
    /// program measure and play the engine the game ships.
    pub fn add_default_evaluator<E: Evaluator<G>>(&mut self, name: &str, eval: E) {
        self.add_evaluator(name, eval);
        self.default_eval = Some(name.to_string());
    }

    /// The names of the added evaluations, in the order added.
    pub fn evaluator_names(&self) -> Vec<&str> {
        self.evaluators.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// The name of the evaluation a spec without `eval=` searches with, `None` for the game's
    /// own ([`Game::evaluate`]).
    pub fn default_evaluator(&self) -> Option<&str> {
        self.default_eval.as_deref()
    }

    /// A fresh agent for `spec`, seeded with the spec's `seed=` or else `seed`: a search with
    /// the named evaluation (or the kit's default), or an external engine through this game's
    /// protocol codec.
    ///
    /// # Errors
    /// An evaluation name this game does not have, or an engine protocol it does not speak.
    ///
    /// The agent plays from its opening book ([`AgentKit::book_for`]) while the game is in
    /// it, choosing among near-best book moves with a seed derived from `seed`.
    pub fn build(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<G> + Send>, SpecError>
    where
        G: Notation,
    {
        let book = self.book_for(spec)?;
        let agent = self.build_without_book(spec, seed)?;
        Ok(match book {
            Some(book) => {
                let seed = mix64(spec.effective_seed(seed) ^ BOOK_SALT);
                Box::new(BookAgent::new(agent, book).with_seed(seed))
            }
            None => agent,
        })
    }

    /// [`AgentKit::build`] without the opening book: the search or engine alone.
    ///
    /// # Errors
    /// As [`AgentKit::build`].
    pub fn build_without_book(
        &self,
        spec: &AgentSpec,
        seed: u64,
    ) -> Result<Box<dyn Agent<G> + Send>, SpecError>
    where
        G: Notation,
    {
        if spec.algorithm.is_external() {
            return spec.build_external(self);
        }
        let solver = self.solver_for(spec)?;
        let name = match spec.eval.as_deref() {
            None | Some("default") => self.default_eval.as_deref(),
            Some(name) => Some(name),
        };
        match name {
            None => spec.build_search(WithSolver::new(ply::eval::GameEval, solver), seed),
            Some(name) => match self.evaluators.iter().find(|(n, _)| n == name) {
                Some((_, build)) => build(spec, seed, solver),
                None => Err(SpecError::UnknownEvaluator {
                    name: name.to_string(),
                    known: std::iter::once("default")
                        .chain(self.evaluator_names())
                        .collect::<Vec<_>>()
                        .join(", "),
                }),
            },
        }
    }
}

/// Builds a game's rules object from its options.
type Builder<G> = Arc<dyn Fn(&GameOptions) -> Result<G, RegistryError> + Send + Sync>;

/// `tune fit` for one game, over the features its entry lists.
type Fitter<G> =
    Arc<dyn Fn(&G, StateCodec<G>, &crate::tune::FitArgs) -> Result<(), String> + Send + Sync>;

/// `tune train` for one game, over its network inputs.
type Trainer<G> =
    Arc<dyn Fn(&G, StateCodec<G>, &crate::tune::TrainArgs) -> Result<(), String> + Send + Sync>;

/// `egdb` for one game, over its endgame index.
type EgdbRunner<G> = Arc<
    dyn Fn(&G, &crate::egdb::EgdbArgs, &mut dyn std::io::Write) -> Result<(), String> + Send + Sync,
>;

/// The game's own opening book for a game built from some options, if it has one there.
type OpeningBook<G> = Arc<dyn Fn(&G) -> Option<Book<G>> + Send + Sync>;

/// One game of a [`Registry`]: its name, options, builder and agent kit.
///
/// ```
/// use ply::games::ConnectFour;
/// use ply_tools::registry::{bad, parse_dims, GameEntry};
///
/// let entry = GameEntry::new("connect-four", "Connect Four", |options| {
///     let size = options.size.as_deref().unwrap_or("7x6");
///     let (cols, rows) = parse_dims("connect-four", size)?;
///     ConnectFour::new(cols, rows, 4).map_err(|e| bad("connect-four", "--size", size, e))
/// })
/// .accepts(&["size"], "--size COLSxROWS (default 7x6)");
/// assert_eq!(entry.info().accepts, vec!["size".to_string()]);
/// ```
pub struct GameEntry<G: Game> {
    info: GameInfo,
    build: Builder<G>,
    /// `tune fit` over the game's features, if it lists them.
    fit: Option<Fitter<G>>,
    /// How `tune` stores the game's states: packed where the game can, else as text.
    codec: StateCodec<G>,
    /// `tune train` over the game's network inputs, if it lists them.
    trainer: Option<Trainer<G>>,
    /// The `egdb` command over the game's endgame index, if it has one.
    egdb: Option<EgdbRunner<G>>,
    /// The game's own opening book, by the rules built.
    opening_book: Option<OpeningBook<G>>,
    /// Named evaluations, engine codecs and books, for the game built with the default
    /// options ([`GameEntry::kit_for`] gives the kit of other options).
    pub kit: AgentKit<G>,
}

impl<G: ToolGame> GameEntry<G> {
    /// A game called `name` (the command-line name: lower case, `-` between words), built by
    /// `build` from the options. It accepts no option until [`GameEntry::accepts`] says so.
    pub fn new(
        name: &str,
        summary: &str,
        build: impl Fn(&GameOptions) -> Result<G, RegistryError> + Send + Sync + 'static,
    ) -> Self {
        let build: Builder<G> = Arc::new(build);
        let mut entry = GameEntry {
            info: GameInfo {
                name: name.to_string(),
                summary: summary.to_string(),
                accepts: Vec::new(),
                options_help: "no options".to_string(),
                seat_names: Vec::new(),
                engine: "alphabeta:time=1s".to_string(),
                batch_engine: "alphabeta:time=50ms".to_string(),
                rules_engines: Vec::new(),
            },
            build,
            fit: None,
            codec: StateCodec::text(),
            trainer: None,
            egdb: None,
            opening_book: None,
            kit: AgentKit::default(),
        };
        entry.kit.loader = Some(entry.loader(&GameOptions::default()));
        entry
    }

    /// Reads book files for the game built from `options`.
    fn loader(&self, options: &GameOptions) -> BookLoader<G> {
        let (build, options) = (self.build.clone(), options.clone());
        let name = self.info.name.clone();
        Arc::new(move |text| {
            let game = build(&options).map_err(|e| e.to_string())?;
            let book = Book::parse(&game, text).map_err(|e| e.to_string())?;
            match book.header_value("game") {
                Some(other) if other != name => Err(format!("a book of {other}, not of {name}")),
                _ => Ok(book),
            }
        })
    }

    /// The game's own opening book: `book` gives it for the game built from the options
    /// (or `None` where it has none, such as other rules or board sizes). Searches play from
    /// it unless their spec says `book=off`.
    pub fn opening_book(
        mut self,
        book: impl Fn(&G) -> Option<Book<G>> + Send + Sync + 'static,
    ) -> Self {
        self.opening_book = Some(Arc::new(book));
        self.kit.book = match (self.build)(&GameOptions::default()) {
            Ok(game) => self.opening_book.as_ref().and_then(|b| b(&game)).map(Arc::new),
            Err(_) => None,
        };
        self
    }

    /// The agent kit for `game`, built from `options`: the entry's evaluations and codecs,
    /// the game's own book for these rules, and `book=FILE` read for them.
    pub fn kit_for(&self, game: &G, options: &GameOptions) -> AgentKit<G> {
        let mut kit = self.kit.clone();
        kit.book = self.opening_book.as_ref().and_then(|b| b(game)).map(Arc::new);
        kit.loader = Some(self.loader(options));
        kit.cache = Arc::default();
        // The tables differ with the rules: this game's are opened afresh.
        kit.solvers = Arc::default();
        kit
    }

    /// The options the builder reads (`rules`, `size`, `players`, `variant:KEY`) and a line
    /// of help about their values and defaults.
    pub fn accepts(mut self, options: &[&str], help: &str) -> Self {
        self.info.accepts = options.iter().map(|o| o.to_string()).collect();
        self.info.options_help = help.to_string();
        self
    }

    /// Names for the seats in the terminal (`["Black", "White"]`).
    pub fn seat_names(mut self, names: &[&str]) -> Self {
        self.info.seat_names = names.iter().map(|n| n.to_string()).collect();
        self
    }

    /// The terminal's engine when a human plays, and when engines play each other
    /// (defaults: `alphabeta:time=1s` and `alphabeta:time=50ms`).
    pub fn engines(mut self, engine: &str, batch_engine: &str) -> Self {
        self.info.engine = engine.to_string();
        self.info.batch_engine = batch_engine.to_string();
        self
    }

    /// Engine specs for games built with `--rules RULES`, in place of those of
    /// [`GameEntry::engines`] (see [`GameInfo::engines_for`]).
    pub fn rules_engines(mut self, rules: &str, engine: &str, batch_engine: &str) -> Self {
        self.info.rules_engines.push((
            rules.to_string(),
            engine.to_string(),
            batch_engine.to_string(),
        ));
        self
    }

    /// Adds an evaluation that agent specs can name with `eval=NAME`.
    pub fn evaluator<E: Evaluator<G>>(mut self, name: &str, eval: E) -> Self {
        self.kit.add_evaluator(name, eval);
        self
    }

    /// Adds the evaluation the game's programs play with: agent specs can name it with
    /// `eval=NAME`, and a spec without `eval=` searches with it (without one, with the
    /// game's own [`Game::evaluate`]).
    pub fn default_evaluator<E: Evaluator<G>>(mut self, name: &str, eval: E) -> Self {
        self.kit.add_default_evaluator(name, eval);
        self
    }

    /// Gives the game's endgame tables to its searches: with an index
    /// ([`ply::endgame::EndgameIndex`]) the `egdb` command builds them, and the searches use
    /// the tables they find (agent spec `egdb=on|off|DIR`).
    pub fn endgame(mut self) -> Self
    where
        G: ply::endgame::EndgameIndex,
    {
        self.kit.endgame = Some(Arc::new(|dir: &Path| crate::egdb::lazy_solver::<G>(dir)));
        self.egdb = Some(Arc::new(
            |game: &G, args: &crate::egdb::EgdbArgs, out: &mut dyn std::io::Write| {
                crate::egdb::run(game, args, out)
            },
        ));
        self
    }

    /// Lists the features of the game's linear evaluation, so that `tune fit` can fit their
    /// weights (see [`crate::tune`]).
    pub fn features<F: Features<G>>(mut self, features: F) -> Self {
        self.fit = Some(Arc::new(move |game: &G, codec, args: &crate::tune::FitArgs| {
            crate::tune::fit::run(game, codec, &features, args)
        }));
        self
    }

    /// Gives `tune train` the game's network inputs ([`NetInputs`]), built for the rules of
    /// the command line by `inputs`.
    pub fn net_inputs<I: NetInputs<G>>(
        mut self,
        inputs: impl Fn(&G) -> I + Send + Sync + 'static,
    ) -> Self {
        self.trainer = Some(Arc::new(move |game: &G, codec, args: &crate::tune::TrainArgs| {
            crate::tune::train::run(game, codec, &inputs(game), args)
        }));
        self
    }

    /// Stores the game's states packed ([`PackState`]) in training data, a few bytes each,
    /// instead of as text.
    pub fn packed(mut self) -> Self
    where
        G: PackState,
    {
        self.codec = StateCodec::packed();
        self
    }

    /// Lets `hub:cmd=...` engines play this game through `codec`.
    pub fn hub(mut self, codec: HubCodec<G>) -> Self {
        self.kit.hub = Some(codec);
        self
    }

    /// Lets `nboard:cmd=...` engines play this game through `codec`.
    pub fn nboard(mut self, codec: NBoardCodec<G>) -> Self {
        self.kit.nboard = Some(codec);
        self
    }

    /// Lets `jsonl:cmd=...` engines play this game through `codec`.
    pub fn jsonl(mut self, codec: JsonlCodec<G>) -> Self {
        self.kit.jsonl = Some(codec);
        self
    }

    /// Lets `dxp:addr=HOST:PORT` engines (DamExchange) play this game through `codec`.
    pub fn dxp(mut self, codec: DxpCodec<G>) -> Self {
        self.kit.dxp = Some(codec);
        self
    }

    /// The name, options and help of this game.
    pub fn info(&self) -> &GameInfo {
        &self.info
    }

    /// The rules object for `options`, after checking that the game accepts them.
    ///
    /// # Errors
    /// An option the game does not take, or a value its builder refuses.
    pub fn build(&self, options: &GameOptions) -> Result<G, RegistryError> {
        self.info.check(options)?;
        (self.build)(options)
    }
}

/// A game of any type behind one interface: what a [`Registry`] holds. Each method runs one
/// tool on the game built from `options`; it is implemented once, generically, for every
/// [`GameEntry`], so a new game needs no code here and a new tool is one method.
pub trait RegisteredGame: Send + Sync {
    /// The name, options and help.
    fn info(&self) -> &GameInfo;

    /// The game built from `options`, with its agent kit, behind the type-erased interface
    /// of [`crate::dynamic`] (the Python package loads every game this way).
    ///
    /// # Errors
    /// An option the game does not take, or a value it refuses.
    fn load(
        &self,
        options: &GameOptions,
    ) -> Result<std::sync::Arc<dyn crate::dynamic::DynGame>, RegistryError>;

    /// Runs `perft` (see [`crate::perft`]).
    ///
    /// # Errors
    /// Bad options or position, or failed output (as a message).
    fn perft(&self, options: &GameOptions, args: &crate::perft::PerftArgs) -> Result<(), String>;

    /// Plays one tournament of the arena (see [`crate::arena`]).
    ///
    /// # Errors
    /// Bad options; the tournament's own failure is the inner result.
    fn tournament(
        &self,
        options: &GameOptions,
        run: crate::arena::tournament::Run<'_>,
    ) -> Result<
        Result<crate::arena::tournament::RunSummary, crate::arena::tournament::RunError>,
        RegistryError,
    >;

    /// Plays a game in the terminal (see [`crate::play`]); returns the program's exit code.
    fn play(&self, options: &GameOptions, args: &crate::play::PlayArgs) -> std::process::ExitCode;

    /// The benchmark workloads of the game built from `options` (see [`crate::bench`]).
    ///
    /// # Errors
    /// Bad options.
    fn workloads(
        &self,
        options: &GameOptions,
        sizes: &crate::bench::Sizes,
    ) -> Result<Vec<crate::bench::Workload>, RegistryError>;

    /// Checks that `spec` can be built for this game (evaluation names, engine protocols).
    ///
    /// # Errors
    /// What [`AgentKit::build`] would refuse, for the game built from `options`.
    fn check_spec(&self, options: &GameOptions, spec: &AgentSpec) -> Result<(), String>;

    /// Runs a `tune` command (see [`crate::tune`]).
    ///
    /// # Errors
    /// Bad options, a game without features for `fit`, or the command's own failure.
    fn tune(&self, options: &GameOptions, command: &crate::tune::TuneCommand)
        -> Result<(), String>;

    /// Runs a `book` command (see [`crate::book`]).
    ///
    /// # Errors
    /// Bad options or arguments, or the command's own failure.
    fn book(&self, options: &GameOptions, command: &crate::book::BookCommand)
        -> Result<(), String>;

    /// Runs an `egdb` command (see [`crate::egdb`]), writing its report to `out`.
    ///
    /// # Errors
    /// Bad options, a game without an endgame index, or the command's own failure.
    fn egdb(
        &self,
        options: &GameOptions,
        args: &crate::egdb::EgdbArgs,
        out: &mut dyn std::io::Write,
    ) -> Result<(), String>;
}

impl<G: ToolGame> RegisteredGame for GameEntry<G> {
    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn load(
        &self,
        options: &GameOptions,
    ) -> Result<std::sync::Arc<dyn crate::dynamic::DynGame>, RegistryError> {
        crate::dynamic::erase(self, options)
    }

    fn perft(&self, options: &GameOptions, args: &crate::perft::PerftArgs) -> Result<(), String> {
        let game = self.build(options).map_err(|e| e.to_string())?;
        crate::perft::run(&game, args)
    }

    fn tournament(
        &self,
        options: &GameOptions,
        run: crate::arena::tournament::Run<'_>,
    ) -> Result<
        Result<crate::arena::tournament::RunSummary, crate::arena::tournament::RunError>,
        RegistryError,
    > {
        let game = self.build(options)?;
        let kit = self.kit_for(&game, options);
        Ok(run.play(game, &kit))
    }

    fn play(&self, options: &GameOptions, args: &crate::play::PlayArgs) -> std::process::ExitCode {
        let game = match self.build(options) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        };
        let kit = self.kit_for(&game, options);
        crate::play::run_program(&game, args, self.info.play_defaults(options), &kit)
    }

    fn workloads(
        &self,
        options: &GameOptions,
        sizes: &crate::bench::Sizes,
    ) -> Result<Vec<crate::bench::Workload>, RegistryError> {
        Ok(crate::bench::workloads(self.build(options)?, sizes))
    }

    fn check_spec(&self, options: &GameOptions, spec: &AgentSpec) -> Result<(), String> {
        let game = self.build(options).map_err(|e| e.to_string())?;
        let kit = self.kit_for(&game, options);
        kit.book_for(spec).map_err(|e| e.to_string())?;
        if spec.algorithm.is_external() {
            spec.build_external(&kit).map(|_| ()).map_err(|e| e.to_string())
        } else {
            kit.build(spec, 0).map(|_| ()).map_err(|e| e.to_string())
        }
    }

    fn tune(
        &self,
        options: &GameOptions,
        command: &crate::tune::TuneCommand,
    ) -> Result<(), String> {
        let game = self.build(options).map_err(|e| e.to_string())?;
        let name = format!("{} {}", self.info.name, options.to_args());
        match command {
            crate::tune::TuneCommand::Generate(args) => {
                let kit = self.kit_for(&game, options);
                crate::tune::generate::run(&game, name.trim(), &kit, self.codec, args)
            }
            crate::tune::TuneCommand::Merge(args) => {
                let (games, positions) = crate::tune::data::merge(&args.data, &args.out)?;
                eprintln!("{}: {games} games, {positions} positions", args.out.display());
                Ok(())
            }
            crate::tune::TuneCommand::Train(args) => match &self.trainer {
                Some(train) => train(&game, self.codec, args),
                None => Err(format!("{} lists no network inputs to train", self.info.name)),
            },
            crate::tune::TuneCommand::Fit(args) => match &self.fit {
                Some(fit) => fit(&game, self.codec, args),
                None => Err(format!(
                    "{} lists no evaluation features to fit (GameEntry::features)",
                    self.info.name
                )),
            },
        }
    }

    fn book(
        &self,
        options: &GameOptions,
        command: &crate::book::BookCommand,
    ) -> Result<(), String> {
        let game = self.build(options).map_err(|e| e.to_string())?;
        let kit = self.kit_for(&game, options);
        crate::book::run(&game, &kit, &self.info, options, command)
    }

    fn egdb(
        &self,
        options: &GameOptions,
        args: &crate::egdb::EgdbArgs,
        out: &mut dyn std::io::Write,
    ) -> Result<(), String> {
        let game = self.build(options).map_err(|e| e.to_string())?;
        match &self.egdb {
            Some(run) => run(&game, args, out),
            None => Err(format!(
                "{} has no endgame index (GameEntry::endgame): no endgame tables",
                self.info.name
            )),
        }
    }
}

/// The games a program offers, by name. See the [module docs](self).
#[derive(Default)]
pub struct Registry {
    games: Vec<Box<dyn RegisteredGame>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds `entry`; a game of the same name is replaced.
    pub fn add<G: ToolGame>(&mut self, entry: GameEntry<G>) -> &mut Self {
        self.games.retain(|g| g.info().name != entry.info.name);
        self.games.push(Box::new(entry));
        self
    }

    /// The names of the games, in the order added.
    pub fn names(&self) -> Vec<&str> {
        self.games.iter().map(|g| g.info().name.as_str()).collect()
    }

    /// Every game, in the order added.
    pub fn games(&self) -> impl Iterator<Item = &dyn RegisteredGame> {
        self.games.iter().map(|g| g.as_ref())
    }

    /// The game called `name`.
    ///
    /// # Errors
    /// [`RegistryError::UnknownGame`] listing the known names.
    pub fn get(&self, name: &str) -> Result<&dyn RegisteredGame, RegistryError> {
        self.games.iter().find(|g| g.info().name == name).map(|g| g.as_ref()).ok_or_else(|| {
            RegistryError::UnknownGame { name: name.to_string(), known: self.names().join(", ") }
        })
    }

    /// The list of games and their options, for `--help`.
    pub fn help(&self) -> String {
        let mut out = String::from("Games:\n");
        for g in self.games() {
            let i = g.info();
            let _ =
                writeln!(out, "  {:<24} {}\n  {:<24}   {}", i.name, i.summary, "", i.options_help);
        }
        out
    }
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// No game by that name.
    #[error("unknown game {name:?}; known games: {known}")]
    UnknownGame {
        /// The name given.
        name: String,
        /// The registered names.
        known: String,
    },
    /// An option the game does not take.
    #[error("{game} does not take {option}; it accepts: {help}")]
    UnsupportedOption {
        /// The game.
        game: String,
        /// The option, as a flag.
        option: String,
        /// What it accepts.
        help: String,
    },
    /// An option value the game cannot use.
    #[error("{game}: bad {option} {value:?}: {reason}")]
    BadOption {
        /// The game.
        game: String,
        /// The option, as a flag.
        option: &'static str,
        /// The value given.
        value: String,
        /// Why.
        reason: String,
    },
}

/// A [`RegistryError::BadOption`] for `game`.
pub fn bad(game: &str, option: &'static str, value: &str, reason: impl ToString) -> RegistryError {
    RegistryError::BadOption {
        game: game.to_string(),
        option,
        value: value.to_string(),
        reason: reason.to_string(),
    }
}

/// A whole number option, or `default` when not given.
pub fn parse_number(
    game: &str,
    option: &'static str,
    text: Option<&str>,
    default: usize,
) -> Result<usize, RegistryError> {
    match text {
        None => Ok(default),
        Some(t) => t.trim().parse().map_err(|_| bad(game, option, t, "expected a whole number")),
    }
}

/// `COLSxROWS`.
pub fn parse_dims(game: &str, text: &str) -> Result<(usize, usize), RegistryError> {
    let parsed = text
        .split_once(['x', 'X'])
        .and_then(|(c, r)| Some((c.trim().parse().ok()?, r.trim().parse().ok()?)));
    parsed.ok_or_else(|| bad(game, "--size", text, "expected COLSxROWS such as 7x6"))
}
