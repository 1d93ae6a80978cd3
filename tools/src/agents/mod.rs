//! The agent factory: [`AgentKit`], what a game adds to the generic agents (evaluations by
//! name, external-engine codecs, opening books, endgame tables), and the one place where an
//! [`AgentSpec`] becomes a boxed [`Agent`] ([`AgentKit::build`]: a search compiled for the
//! evaluation the spec names, or an external engine's protocol client).
//!
//! ```
//! use ply::games::TicTacToe;
//! use ply::search::Position;
//! use ply::Game;
//! use ply_tools::agents::AgentKit;
//!
//! let kit = AgentKit::<TicTacToe>::default();
//! let spec = "alphabeta:depth=4".parse()?;
//! let mut agent = kit.build(&spec, 1)?;
//! let report = agent.choose(&TicTacToe, Position::new(&TicTacToe.initial_state()), &spec.budget())?;
//! assert_eq!(report.depth, 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ply::book::{Book, BookAgent};
use ply::eval::net::NetError;
use ply::eval::{Evaluator, Weights, WeightsError};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::baseline::{Greedy, RandomAgent};
use ply::search::mcts::Mcts;
use ply::search::multiplayer::{MultiplayerSearch, OpponentModel};
use ply::search::Agent;
use ply::zobrist::mix64;
use ply::{Game, Notation, Solved};

pub(crate) mod learned;
pub mod tables;

use crate::engines::{Connection, EngineCodec};
use crate::spec::{AgentSpec, Algorithm, BookChoice, EgdbChoice, SpecError};
pub use tables::{Solver, WithSolver};

/// What the tools need of a game: its rules, text forms, and the bounds that let games run on
/// several threads. Every `Game + Notation` whose states and moves are `Send + Sync` has it.
pub trait ToolGame: Game + Notation + Send + Sync + 'static {}

impl<T: Game + Notation + Send + Sync + 'static> ToolGame for T {}

/// Builds a boxed agent for a spec, with one evaluation built in (and the endgame tables'
/// solver, if the agent uses them).
pub(crate) type AgentBuilder<G> = Arc<
    dyn Fn(&AgentSpec, u64, Option<Solver<G>>) -> Result<Box<dyn Agent<G> + Send>, SpecError>
        + Send
        + Sync,
>;

/// Reads a network file's bytes (`tune train`'s) as a network over a game's inputs: the
/// builder of searches with it, or why the bytes are not such a network.
pub(crate) type NetOpener<G> =
    Arc<dyn Fn(&[u8]) -> Result<AgentBuilder<G>, NetError> + Send + Sync>;

/// Reads a weights file (`tune fit`'s) as weights of one of a game's feature sets: the
/// builder of searches with them, or why they do not match that set.
pub(crate) type WeightsOpener<G> =
    Arc<dyn Fn(&Weights) -> Result<AgentBuilder<G>, WeightsError> + Send + Sync>;

/// What a kit has opened, by key (a file's name, a directory), shared by the kit's clones so
/// that a tournament reads each file once. The lock is held only to look and to insert: a
/// file is read outside it, so a slow read keeps no other agent waiting (two threads that
/// open the same key at once may both read it; the first to finish is kept).
pub(crate) struct Opened<K, V> {
    entries: Arc<Mutex<Vec<(K, V)>>>,
}

impl<K, V> Default for Opened<K, V> {
    fn default() -> Self {
        Opened { entries: Arc::default() }
    }
}

impl<K, V> Clone for Opened<K, V> {
    fn clone(&self) -> Self {
        Opened { entries: self.entries.clone() }
    }
}

impl<K: PartialEq, V: Clone> Opened<K, V> {
    /// The value kept for `key`, or the one `open` gives (kept for next time).
    ///
    /// # Errors
    /// What `open` returns; nothing is kept then.
    pub(crate) fn get_or_open<E>(
        &self,
        key: K,
        open: impl FnOnce() -> Result<V, E>,
    ) -> Result<V, E> {
        let lock = || self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, v)) = lock().iter().find(|(k, _)| *k == key) {
            return Ok(v.clone());
        }
        let value = open()?;
        let mut entries = lock();
        if let Some((_, v)) = entries.iter().find(|(k, _)| *k == key) {
            return Ok(v.clone());
        }
        entries.push((key, value.clone()));
        Ok(value)
    }
}

/// Builds the client of an external engine through a game's codec for one protocol.
type ClientBuilder<G> = Arc<dyn Fn(Connection<'_>) -> Box<dyn Agent<G> + Send> + Send + Sync>;

/// Opens a game's endgame tables in a directory, as a solver that reads them on first use
/// ([`tables::lazy_solver`]).
pub type EndgameOpener<G> = Arc<dyn Fn(&Path) -> Solver<G> + Send + Sync>;

/// Reads the text of a book file as a book of the kit's game.
pub type BookLoader<G> = Arc<dyn Fn(&str) -> crate::error::ToolResult<Book<G>> + Send + Sync>;

/// Seed salt of the book's choices, apart from the search's own seed.
const BOOK_SALT: u64 = 0x626f_6f6b;

/// What a game adds to the generic agents: evaluations by name (`alphabeta:eval=NAME`), the
/// codecs of the external-engine protocols it speaks (`hub:`, `nboard:`, any of
/// [`crate::engines::PROTOCOLS`]) and its opening books (its own, which searches use by
/// default, and `book=FILE`).
pub struct AgentKit<G: Game> {
    evaluators: Vec<(String, AgentBuilder<G>)>,
    /// The evaluation a spec without `eval=` (or with `eval=default`) searches with: one of
    /// `evaluators` by name, or `None` for the game's own ([`Game::evaluate`]).
    default_eval: Option<String>,
    /// The protocols engines play this game in, by agent name, with their clients.
    engines: Vec<(&'static str, ClientBuilder<G>)>,
    /// The game's own opening book: searches play from it unless their spec says
    /// `book=off` or names another (`book=FILE`).
    pub book: Option<Arc<Book<G>>>,
    /// Reads `book=FILE` files for this game (without one, `book=FILE` is refused).
    pub loader: Option<BookLoader<G>>,
    books: Opened<String, Arc<Book<G>>>,
    /// Opens the game's endgame tables, if it has an index ([`crate::registry::GameEntry::endgame`]): the
    /// searches use them unless their spec says `egdb=off`.
    pub endgame: Option<EndgameOpener<G>>,
    /// The endgame tables opened, by directory, so that every agent shares one copy.
    solvers: Opened<PathBuf, Solver<G>>,
    /// Reads `net=FILE` files as networks of this game (without one, `net=` is refused).
    pub(crate) nets: Option<NetOpener<G>>,
    /// Reads `weights=FILE` files, one reader per feature set the game lists, by its name.
    pub(crate) weights: Vec<(String, WeightsOpener<G>)>,
    /// The network and weights files read, by spec key and file name.
    files: Opened<(&'static str, String), AgentBuilder<G>>,
    /// The learned searches' observation, moves and networks (`None`: the kit was made
    /// without the game, so `puct:` and `gumbel:` are refused).
    pub(crate) learned: Option<learned::Learned<G>>,
}

impl<G: Game> Default for AgentKit<G> {
    fn default() -> Self {
        AgentKit {
            evaluators: Vec::new(),
            default_eval: None,
            engines: Vec::new(),
            book: None,
            loader: None,
            books: Opened::default(),
            endgame: None,
            solvers: Opened::default(),
            nets: None,
            weights: Vec::new(),
            files: Opened::default(),
            learned: None,
        }
    }
}

impl<G: Game> Clone for AgentKit<G> {
    fn clone(&self) -> Self {
        AgentKit {
            evaluators: self.evaluators.clone(),
            default_eval: self.default_eval.clone(),
            engines: self.engines.clone(),
            book: self.book.clone(),
            loader: self.loader.clone(),
            books: self.books.clone(),
            endgame: self.endgame.clone(),
            solvers: self.solvers.clone(),
            nets: self.nets.clone(),
            weights: self.weights.clone(),
            files: self.files.clone(),
            learned: self.learned.clone(),
        }
    }
}

impl<G: Game> AgentKit<G> {
    /// Forgets the book files and endgame tables this kit has opened (its clones share them
    /// until then), so that a kit for other rules opens its own.
    pub fn forget_opened(&mut self) {
        self.books = Opened::default();
        self.solvers = Opened::default();
        self.files = Opened::default();
    }

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
                let loader = self
                    .loader
                    .as_ref()
                    .ok_or_else(|| fail("this program cannot read books of this game".into()))?;
                let open = || {
                    let bytes = read_named("book", path, crate::files::MAX_TEXT)?;
                    let text = String::from_utf8(bytes)
                        .map_err(|_| fail("the file is not UTF-8 text".into()))?;
                    Ok(Arc::new(loader(&text).map_err(|e| fail(e.to_string()))?))
                };
                self.books.get_or_open(path.clone(), open).map(Some)
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
        let solver = self.solvers.get_or_open(dir.clone(), || Ok::<_, SpecError>(open(&dir)))?;
        Ok(Some(solver))
    }

    /// The endgame tables' verdict on `state` (the default directory's tables), for a
    /// terminal to show: `None` when the game has no tables there or the position is not in
    /// them.
    pub fn tables_verdict(&self, game: &G, state: &G::State) -> Option<Solved> {
        self.default_tables()?.solve(game, state)
    }

    /// What the endgame tables that agents of `specs` search with hold, for a program's
    /// first lines: one line per directory, none when no agent uses tables (`egdb=off`, a
    /// game without them, no engine at all).
    pub fn tables_description(&self, game: &G, specs: &[AgentSpec]) -> Option<String> {
        let mut lines: Vec<String> = Vec::new();
        for spec in specs {
            if let Ok(Some(solver)) = self.solver_for(spec) {
                if let Some(line) = solver.describe(game).filter(|l| !lines.contains(l)) {
                    lines.push(line);
                }
            }
        }
        (!lines.is_empty()).then(|| lines.join("\n"))
    }

    fn default_tables(&self) -> Option<Solver<G>> {
        let spec = AgentSpec::new(Algorithm::AlphaBeta);
        self.solver_for(&spec).ok().flatten()
    }
}

impl<G: ToolGame> AgentKit<G> {
    /// This kit with the learned searches (`puct:`, `gumbel:`) for `game`: over the inputs
    /// and moves derived from its diagram and move keys, with `shipped` (a network file's
    /// bytes, as `tune zero` writes them) as the network a spec without `net=` uses.
    pub fn with_learned(mut self, game: &G, shipped: Option<&'static [u8]>) -> Self {
        self.learned = Some(learned::Learned::new(game, shipped));
        self
    }
}

impl<G: Game + Sync + 'static> AgentKit<G> {
    /// Adds the evaluation `eval` under `name`: a spec with `eval=NAME` searches with it.
    /// The search is compiled for `E`, so the evaluation is called directly at every leaf.
    pub fn add_evaluator<E: Evaluator<G>>(&mut self, name: &str, eval: E) {
        self.evaluators.retain(|(n, _)| n != name);
        self.evaluators.push((name.to_string(), Self::evaluator_builder(eval)));
    }

    /// The builder of searches with `eval` (and the endgame tables' solver, if any).
    pub(crate) fn evaluator_builder<E: Evaluator<G>>(eval: E) -> AgentBuilder<G> {
        Arc::new(move |spec, seed, solver| {
            spec.build_search(WithSolver::new(eval.clone(), solver), seed)
        })
    }

    /// Adds the evaluation `eval` under `name` and makes it the default: what a spec without
    /// `eval=` (or with `eval=default`) searches with, so that the arena, Python and every
    /// program measure and play the engine the game ships.
    pub fn add_default_evaluator<E: Evaluator<G>>(&mut self, name: &str, eval: E) {
        self.add_evaluator(name, eval);
        self.default_eval = Some(name.to_string());
    }

    /// Lets engines speaking `C`'s protocol play this game through `codec` (replacing an
    /// earlier codec of the same protocol).
    pub fn add_engine<C: EngineCodec<G>>(&mut self, codec: C) {
        let name = C::PROTOCOL.name;
        self.engines.retain(|(n, _)| *n != name);
        self.engines.push((name, Arc::new(move |to| codec.client(to))));
    }

    /// True if engines speaking the protocol `name` can play this game.
    pub fn speaks(&self, name: &str) -> bool {
        self.engines.iter().any(|(n, _)| *n == name)
    }

    /// Makes the added evaluation `name` the default, what a spec without `eval=` searches
    /// with (a program's `--eval` option).
    ///
    /// # Errors
    /// [`SpecError::UnknownEvaluator`] if no evaluation was added under `name`.
    pub fn set_default_evaluator(&mut self, name: &str) -> Result<(), SpecError> {
        if !self.evaluators.iter().any(|(n, _)| n == name) {
            return Err(SpecError::UnknownEvaluator {
                name: name.to_string(),
                known: self.evaluator_names().join(", "),
            });
        }
        self.default_eval = Some(name.to_string());
        Ok(())
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
        if matches!(spec.algorithm, Algorithm::Puct | Algorithm::Gumbel) {
            let agent = spec.algorithm.name();
            return match &self.learned {
                Some(learned) => learned.build(spec, seed),
                None => Err(SpecError::Network {
                    agent,
                    reason: "this program builds no learned searches".into(),
                }),
            };
        }
        let solver = self.solver_for(spec)?;
        if let Some(path) = spec.net.as_deref() {
            let build = self.file_builder("net", path, spec, |p| self.open_net(p))?;
            return build(spec, seed, solver);
        }
        if let Some(path) = spec.weights.as_deref() {
            let build = self.file_builder("weights", path, spec, |p| self.open_weights(p))?;
            return build(spec, seed, solver);
        }
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

impl<G: Game + Sync + 'static> AgentKit<G> {
    /// The builder of searches with the evaluation file in `path` of spec key `key` (`net` or
    /// `weights`), which `open` reads; read once per kit.
    fn file_builder(
        &self,
        key: &'static str,
        path: &str,
        spec: &AgentSpec,
        open: impl FnOnce(&str) -> Result<AgentBuilder<G>, SpecError>,
    ) -> Result<AgentBuilder<G>, SpecError> {
        if spec.eval.is_some() || (spec.net.is_some() && spec.weights.is_some()) {
            let reason = "a spec takes one of eval=, net= and weights=".into();
            return Err(SpecError::EvaluationFile { key, path: path.to_string(), reason });
        }
        self.files.get_or_open((key, path.to_string()), || open(path))
    }

    /// Reads `net=FILE`: a network over the game's inputs.
    fn open_net(&self, path: &str) -> Result<AgentBuilder<G>, SpecError> {
        let fail =
            |reason: String| SpecError::EvaluationFile { key: "net", path: path.into(), reason };
        let opener =
            self.nets.as_ref().ok_or_else(|| fail("this game has no network inputs".into()))?;
        let bytes = read_named("net", path, crate::files::MAX_BINARY)?;
        opener(&bytes).map_err(|e| fail(e.to_string()))
    }

    /// Reads `weights=FILE`: weights of the first of the game's feature sets they match.
    fn open_weights(&self, path: &str) -> Result<AgentBuilder<G>, SpecError> {
        let fail = |reason: String| SpecError::EvaluationFile {
            key: "weights",
            path: path.into(),
            reason,
        };
        if self.weights.is_empty() {
            return Err(fail("this game lists no evaluation features".into()));
        }
        let bytes = read_named("weights", path, crate::files::MAX_TEXT)?;
        let text =
            String::from_utf8(bytes).map_err(|_| fail("the file is not UTF-8 text".into()))?;
        let weights = Weights::parse(&text).map_err(|e| fail(e.to_string()))?;
        let mut reasons = Vec::new();
        for (name, opener) in &self.weights {
            match opener(&weights) {
                Ok(build) => return Ok(build),
                Err(reason) => reasons.push(format!("not the {name} features: {reason}")),
            }
        }
        Err(fail(reasons.join("; ")))
    }
}

/// Reads the file that the spec key `key` names, through the bounded reader.
///
/// # Errors
/// [`SpecError::Unreadable`]: the file cannot be read, is not a regular file, or is larger
/// than `max`.
fn read_named(key: &'static str, path: &str, max: u64) -> Result<Vec<u8>, SpecError> {
    ply::files::read_limited(Path::new(path), max)
        .map_err(|source| SpecError::Unreadable { key, source })
}

impl AgentSpec {
    /// The alpha-beta options this spec sets: the library's defaults (or `plain=true`'s,
    /// or `endgame=true`'s) with each key the spec gives (`lmr`, `probcut`, `lmrlog`...)
    /// applied. The table size and threads go to the agent, not here.
    ///
    /// ```
    /// use ply_tools::spec::AgentSpec;
    ///
    /// let spec: AgentSpec = "alphabeta:lmr=true,lmrfirst=1".parse().unwrap();
    /// let options = spec.alphabeta_options();
    /// assert!(options.lmr && options.lmr_first == 1);
    /// ```
    pub fn alphabeta_options(&self) -> AlphaBetaOptions {
        let mut options = if self.plain == Some(true) {
            AlphaBetaOptions::plain()
        } else if self.endgame == Some(true) {
            AlphaBetaOptions::endgame()
        } else {
            AlphaBetaOptions::default()
        };
        let switches = [
            (self.lmr, &mut options.lmr),
            (self.null, &mut options.null_move),
            (self.iid, &mut options.iid),
            (self.ext, &mut options.extensions),
            (self.threat, &mut options.threats),
            (self.adapt, &mut options.adaptive_time),
        ];
        for (value, switch) in switches {
            if let Some(v) = value {
                *switch = v;
            }
        }
        if let Some(r) = self.reuse {
            options.keep_tt = r;
        }
        if let Some(m) = self.probcut {
            options.probcut = m;
        }
        if let Some(m) = self.futility {
            options.futility = m;
        }
        if let Some(d) = self.lmr_log {
            options.lmr_log = d;
        }
        if let Some(b) = self.lmr_loud {
            options.lmr_loud = b;
        }
        if let Some(n) = self.lmr_first {
            options.lmr_first = n;
        }
        if let Some(r) = self.probcut_ratio {
            options.probcut_ratio = r;
        }
        options
    }

    /// A fresh search agent for this spec with the evaluation `eval`, seeded with the spec's
    /// `seed=` or else `seed`. Games usually build agents through their
    /// [`AgentKit`], which finds the evaluation a spec names.
    ///
    /// # Errors
    /// [`SpecError::External`] for an external engine (the kit builds those).
    pub fn build_search<G, E>(
        &self,
        eval: E,
        seed: u64,
    ) -> Result<Box<dyn Agent<G> + Send>, SpecError>
    where
        G: Game + Sync + 'static,
        E: Evaluator<G>,
    {
        let seed = self.effective_seed(seed);
        Ok(match self.algorithm {
            Algorithm::AlphaBeta => {
                let options = self.alphabeta_options();
                let mut a = AlphaBeta::with_options(options);
                if let Some(mb) = self.tt_mb {
                    a = a.with_tt_mb(mb);
                }
                if let Some(t) = self.threads {
                    a = a.with_threads(t);
                }
                Box::new(a.with_evaluator(eval))
            }
            Algorithm::Mcts => {
                let mut m = Mcts::new().with_seed(seed);
                if let Some(c) = self.c {
                    m = m.with_exploration(c);
                }
                if let Some(t) = self.threads {
                    m = m.with_threads(t);
                }
                if let Some(cutoff) = self.cutoff {
                    m = m.with_rollout_cutoff(cutoff);
                }
                if let Some(s) = self.solver {
                    m = m.with_solver(s);
                }
                if let Some(r) = self.reuse {
                    m = m.with_tree_reuse(r);
                }
                Box::new(m.with_evaluator(eval))
            }
            Algorithm::Paranoid | Algorithm::MaxN | Algorithm::Brs => {
                let model = match self.algorithm {
                    Algorithm::Paranoid => OpponentModel::Paranoid,
                    Algorithm::MaxN => OpponentModel::MaxN,
                    _ => OpponentModel::BestReply,
                };
                let mut s = MultiplayerSearch::new(model);
                if let Some(mb) = self.tt_mb {
                    s = s.with_tt_mb(mb);
                }
                if let Some(t) = self.threads {
                    s = s.with_threads(t);
                }
                Box::new(s.with_evaluator(eval))
            }
            Algorithm::Greedy => Box::new(Greedy::with_seed(seed).with_evaluator(eval)),
            Algorithm::Random => Box::new(RandomAgent::new(seed)),
            Algorithm::Engine(p) => return Err(SpecError::External { agent: p.name }),
            Algorithm::Puct | Algorithm::Gumbel => {
                let reason = "a learned search is built by the game's kit, with its network";
                return Err(SpecError::Network {
                    agent: self.algorithm.name(),
                    reason: reason.into(),
                });
            }
        })
    }

    /// The protocol client of an external engine, through the codec the game's kit has for
    /// the protocol. The program is started (a DamExchange engine connected to) on the first
    /// move.
    ///
    /// # Errors
    /// [`SpecError::UnsupportedEngine`] if the game has no codec for the protocol.
    pub fn build_external<G: Game + Notation + 'static>(
        &self,
        kit: &AgentKit<G>,
    ) -> Result<Box<dyn Agent<G> + Send>, SpecError> {
        let Algorithm::Engine(protocol) = self.algorithm else {
            return Err(SpecError::External { agent: self.algorithm.name() });
        };
        let (_, client) = kit
            .engines
            .iter()
            .find(|(n, _)| *n == protocol.name)
            .ok_or(SpecError::UnsupportedEngine { agent: protocol.name })?;
        Ok(client(Connection { cmd: self.cmd.as_deref(), addr: self.addr.as_deref() }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::TicTacToe;
    use ply::search::{Position, Value};
    use ply::{MoveList, Player};

    fn spec(text: &str) -> AgentSpec {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn built_agents_play_legal_moves() {
        let game = TicTacToe;
        let state = game.initial_state();
        let mut legal = MoveList::new();
        game.generate_moves(&state, &mut legal);
        let mut kit = AgentKit::<TicTacToe>::default();
        kit.add_evaluator("zero", |_: &TicTacToe, _: &_, _: Player| 0i32);
        for text in [
            "alphabeta:depth=2",
            "alphabeta:depth=2,eval=zero",
            "alphabeta:depth=4,threads=2",
            "mcts:iters=50",
            "maxn:depth=2,eval=zero",
            "greedy:eval=zero",
            "random:seed=4",
        ] {
            let s = spec(text);
            let mut agent = kit.build(&s, 1).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(agent.name().contains("threads=2"), text.contains("threads=2"), "{text}");
            let report = agent.choose(&game, Position::new(&state), &s.budget()).unwrap();
            assert!(legal.contains(&report.best_move), "{text}");
        }
        let e = kit.build(&spec("alphabeta:eval=learned"), 1).err().unwrap();
        assert_eq!(e.to_string(), "unknown evaluation \"learned\"; this game has: default, zero");
        let e = kit.build(&spec("hub:cmd=x"), 1).err().unwrap();
        assert_eq!(e, SpecError::UnsupportedEngine { agent: "hub" });
        let e = kit.build(&spec("dxp:addr=localhost:27531"), 1).err().unwrap();
        assert_eq!(e, SpecError::UnsupportedEngine { agent: "dxp" });
    }

    #[test]
    fn a_spec_without_eval_searches_with_the_kits_default_evaluation() {
        let game = TicTacToe;
        let state = game.initial_state();
        let value = |kit: &AgentKit<TicTacToe>, text: &str| {
            let s = spec(text);
            let mut agent = kit.build(&s, 1).unwrap();
            agent.choose(&game, Position::new(&state), &s.budget()).unwrap().value
        };
        let mut kit = AgentKit::<TicTacToe>::default();
        kit.add_evaluator("seven", |_: &TicTacToe, _: &_, _: Player| 7i32);
        // Without a default, the game's own evaluation (+4 for the centre at depth 2).
        assert_eq!(value(&kit, "alphabeta:depth=2"), Value::Heuristic(4.0));
        assert_eq!(value(&kit, "alphabeta:depth=2,eval=seven"), Value::Heuristic(7.0));
        kit.add_default_evaluator("five", |_: &TicTacToe, _: &_, _: Player| 5i32);
        assert_eq!(kit.default_evaluator(), Some("five"));
        for text in ["alphabeta:depth=2", "alphabeta:depth=2,eval=default"] {
            assert_eq!(value(&kit, text), Value::Heuristic(5.0), "{text}");
        }
        assert_eq!(value(&kit, "alphabeta:depth=2,eval=seven"), Value::Heuristic(7.0));
        kit.set_default_evaluator("seven").unwrap();
        assert_eq!(value(&kit, "alphabeta:depth=2"), Value::Heuristic(7.0));
        let e = kit.set_default_evaluator("eight").unwrap_err();
        assert_eq!(e.to_string(), "unknown evaluation \"eight\"; this game has: seven, five");
        assert_eq!(kit.default_evaluator(), Some("seven"));
    }
}
