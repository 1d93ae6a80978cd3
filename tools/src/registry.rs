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
use std::path::Path;
use std::sync::Arc;

use ply::book::Book;
use ply::eval::net::{NetEval, NetInputs, Network};
use ply::eval::{Evaluator, Features, LinearEval, Weights};
use ply::pack::PackState;
use ply::Game;

use crate::error::{ToolError, ToolResult};
use crate::spec::AgentSpec;
use crate::tune::data::StateCodec;

use crate::agents::NetOpener;
pub use crate::agents::{AgentKit, BookLoader, EndgameOpener, ToolGame};
pub use crate::options::{
    bad, parse_dims, parse_key_value, parse_number, GameInfo, GameOptions, RegistryError,
};

/// Builds a game's rules object from its options.
type Builder<G> = Arc<dyn Fn(&GameOptions) -> Result<G, RegistryError> + Send + Sync>;

/// `tune fit` for one game, over one of the feature sets its entry lists.
type Fitter<G> =
    Arc<dyn Fn(&G, StateCodec<G>, &crate::tune::FitArgs) -> ToolResult<()> + Send + Sync>;

/// `tune train` for one game, over its network inputs.
type Trainer<G> =
    Arc<dyn Fn(&G, StateCodec<G>, &crate::tune::TrainArgs) -> ToolResult<()> + Send + Sync>;

/// `egdb` for one game, over its endgame index.
type EgdbRunner<G> = Arc<
    dyn Fn(&G, &crate::egdb::EgdbArgs, &mut dyn std::io::Write) -> ToolResult<()> + Send + Sync,
>;

/// The game's own opening book for a game built from some options, if it has one there.
type OpeningBook<G> = Arc<dyn Fn(&G) -> Option<Book<G>> + Send + Sync>;

/// Score units per unit of log-odds of the networks that `net=FILE` reads: those of the
/// bundled networks and of `tune train`'s default `--search-scale`.
const NET_SCALE: f64 = 100.0;

/// The name of the feature set [`GameEntry::features`] lists: that of the game's learned
/// evaluation, which `tune fit` fits unless `--features` names another.
pub const LEARNED_FEATURES: &str = "learned";

/// The policy-value network a game ships for the rules built, as a file's bytes.
type ShippedNet<G> = Arc<dyn Fn(&G) -> Option<&'static [u8]> + Send + Sync>;

/// What `solve` does to a game before proving (turns on its cheap bounds).
type ForSolving<G> = Arc<dyn Fn(G) -> Result<G, RegistryError> + Send + Sync>;

/// Builds the reader of network files for a game, over its inputs for its rules.
type NetsFor<G> = Arc<dyn Fn(&G) -> NetOpener<G> + Send + Sync>;

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
    /// `tune fit` over each feature set the game lists, by name (`tune fit --features`).
    fit: Vec<(String, Fitter<G>)>,
    /// How `tune` stores the game's states: packed where the game can, else as text.
    codec: StateCodec<G>,
    /// `tune train` over the game's network inputs, if it lists them.
    trainer: Option<Trainer<G>>,
    /// Reads network files over the inputs of the game built (agent spec `net=FILE`).
    nets: Option<NetsFor<G>>,
    /// The `egdb` command over the game's endgame index, if it has one.
    egdb: Option<EgdbRunner<G>>,
    /// The game's own opening book, by the rules built.
    opening_book: Option<OpeningBook<G>>,
    /// The policy-value network the game ships for the rules built, if any.
    learned: Option<ShippedNet<G>>,
    /// How `solve` prepares the game built, if it needs to.
    for_solving: Option<ForSolving<G>>,
    /// Named evaluations, engine codecs and books, for the game built with the default
    /// options ([`GameEntry::kit_for`] gives the kit of other options).
    pub kit: AgentKit<G>,
}

impl<G: Game> Clone for GameEntry<G> {
    fn clone(&self) -> Self {
        GameEntry {
            info: self.info.clone(),
            build: self.build.clone(),
            fit: self.fit.clone(),
            codec: self.codec,
            trainer: self.trainer.clone(),
            nets: self.nets.clone(),
            egdb: self.egdb.clone(),
            opening_book: self.opening_book.clone(),
            learned: self.learned.clone(),
            for_solving: self.for_solving.clone(),
            kit: self.kit.clone(),
        }
    }
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
                endgame_tables: false,
            },
            build,
            fit: Vec::new(),
            codec: StateCodec::text(),
            trainer: None,
            nets: None,
            egdb: None,
            opening_book: None,
            learned: None,
            for_solving: None,
            kit: AgentKit::default(),
        };
        entry.kit.loader = Some(entry.loader(&GameOptions::default()));
        entry.kit = entry.default_kit();
        entry
    }

    /// Reads book files for the game built from `options`.
    fn loader(&self, options: &GameOptions) -> BookLoader<G> {
        let (build, options) = (self.build.clone(), options.clone());
        let name = self.info.name.clone();
        Arc::new(move |text| {
            let game = build(&options)?;
            let book = Book::parse(&game, text).map_err(ToolError::input)?;
            match book.header_value("game") {
                Some(other) if other != name => {
                    Err(ToolError::Input(format!("a book of {other}, not of {name}")))
                }
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
        kit.nets = self.nets.as_ref().map(|nets| nets(game));
        kit = kit.with_learned(game, self.learned.as_ref().and_then(|net| net(game)));
        // The books and tables differ with the rules: this game's are opened afresh.
        kit.forget_opened();
        kit
    }

    /// The entry's kit with the learned searches of the game built from the default options.
    fn default_kit(&self) -> AgentKit<G> {
        match (self.build)(&GameOptions::default()) {
            Ok(game) => {
                let shipped = self.learned.as_ref().and_then(|net| net(&game));
                self.kit.clone().with_learned(&game, shipped)
            }
            Err(_) => self.kit.clone(),
        }
    }

    /// The policy-value network the game ships (a file `tune zero` wrote, usually embedded
    /// with `include_bytes!`), for the rules built: what `puct:` and `gumbel:` search with
    /// when their spec names no `net=FILE`.
    pub fn learned_network(
        mut self,
        net: impl Fn(&G) -> Option<&'static [u8]> + Send + Sync + 'static,
    ) -> Self {
        self.learned = Some(Arc::new(net));
        self.kit = self.default_kit();
        self
    }

    /// What `solve` does to the game built before proving: turn on the cheap bounds or exact
    /// answers its [`Game::solve_endgame`](ply::Game::solve_endgame) gives only on request
    /// (Kalah's store bound and seed tables); an error when they cannot be had (damaged
    /// tables).
    pub fn for_solving(
        mut self,
        prepare: impl Fn(G) -> Result<G, RegistryError> + Send + Sync + 'static,
    ) -> Self {
        self.for_solving = Some(Arc::new(prepare));
        self
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
        self.info.endgame_tables = true;
        self.kit.endgame =
            Some(Arc::new(|dir: &Path| crate::agents::tables::lazy_solver::<G>(dir)));
        self.egdb = Some(Arc::new(
            |game: &G, args: &crate::egdb::EgdbArgs, out: &mut dyn std::io::Write| {
                crate::egdb::run(game, args, out)
            },
        ));
        self
    }

    /// Lists the features of the game's linear evaluation (the feature set `learned`), so
    /// that `tune fit` can fit their weights (see [`crate::tune`]) and alpha-beta specs can
    /// search with a weights file over them (`weights=FILE`).
    pub fn features<F: Features<G>>(self, features: F) -> Self {
        self.features_named(LEARNED_FEATURES, features)
    }

    /// Lists another feature set, `name`, beside [`GameEntry::features`]: `tune fit
    /// --features NAME` fits it, and `weights=FILE` finds it by the feature names in the file.
    pub fn features_named<F: Features<G>>(mut self, name: &str, features: F) -> Self {
        let for_search = features.clone();
        self.fit.retain(|(n, _)| n != name);
        self.fit.push((
            name.to_string(),
            Arc::new(move |game: &G, codec, args: &crate::tune::FitArgs| {
                crate::tune::fit::run(game, codec, &features, args)
            }),
        ));
        self.kit.weights.retain(|(n, _)| n != name);
        self.kit.weights.push((
            name.to_string(),
            Arc::new(move |weights: &Weights| {
                let eval = LinearEval::new::<G>(for_search.clone(), weights)?;
                Ok(AgentKit::evaluator_builder(eval))
            }),
        ));
        self
    }

    /// Gives `tune train` the game's network inputs ([`NetInputs`]), built for the rules of
    /// the command line by `inputs`, and lets alpha-beta specs search with a network file
    /// over them (`net=FILE`, in units of 100 per unit of log-odds, as `tune train` labels
    /// scores by default).
    pub fn net_inputs<I: NetInputs<G>>(
        mut self,
        inputs: impl Fn(&G) -> I + Send + Sync + 'static,
    ) -> Self {
        let inputs = Arc::new(inputs);
        let for_training = inputs.clone();
        self.trainer = Some(Arc::new(move |game: &G, codec, args: &crate::tune::TrainArgs| {
            crate::tune::train::run(game, codec, &for_training(game), args)
        }));
        let nets: NetsFor<G> = Arc::new(move |game: &G| {
            let inputs = inputs(game);
            Arc::new(move |bytes: &[u8]| {
                let net = Network::from_bytes(bytes)?;
                let eval = NetEval::new(inputs.clone(), &net, NET_SCALE)?;
                Ok(AgentKit::evaluator_builder(eval))
            })
        });
        self.kit.nets = (self.build)(&GameOptions::default()).ok().map(|game| nets(&game));
        self.nets = Some(nets);
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

    /// Lets engines speaking `C`'s protocol play this game through `codec`: `hub:cmd=...`
    /// with a [`HubCodec`](crate::engines::hub::HubCodec), `dxp:addr=...` with a
    /// [`DxpCodec`](crate::engines::dxp::DxpCodec), and so on for every one of
    /// [`crate::engines::PROTOCOLS`].
    pub fn engine<C: crate::engines::EngineCodec<G>>(mut self, codec: C) -> Self {
        self.kit.add_engine(codec);
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

    /// A copy of this entry (entries share their tables and books).
    fn clone_entry(&self) -> Box<dyn RegisteredGame>;

    /// The game built from `options`, with its agent kit, behind the type-erased interface
    /// of [`crate::dynamic`]: what the web board, the Python package and any tool that
    /// needs no concrete type work on.
    ///
    /// # Errors
    /// An option the game does not take, or a value it refuses.
    fn load(&self, options: &GameOptions) -> ToolResult<Arc<dyn crate::dynamic::DynGame>>;

    /// Runs `perft` (see [`crate::perft`]).
    ///
    /// # Errors
    /// Bad options or position, or failed output (as a message).
    fn perft(&self, options: &GameOptions, args: &crate::perft::PerftArgs) -> ToolResult<()>;

    /// Runs `solve` (see [`crate::solve`]) on the game built from the options in `args`.
    ///
    /// # Errors
    /// Bad options, position or moves, a game of more than two players, or the time limit.
    fn solve(&self, args: &crate::solve::SolveArgs) -> ToolResult<()>;

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
    fn check_spec(&self, options: &GameOptions, spec: &AgentSpec) -> ToolResult<()>;

    /// Runs a `tune` command (see [`crate::tune`]).
    ///
    /// # Errors
    /// Bad options, a game without features for `fit`, or the command's own failure.
    fn tune(&self, options: &GameOptions, command: &crate::tune::TuneCommand) -> ToolResult<()>;

    /// Runs a `book` command (see [`crate::book`]).
    ///
    /// # Errors
    /// Bad options or arguments, or the command's own failure.
    fn book(&self, options: &GameOptions, command: &crate::book::BookCommand) -> ToolResult<()>;

    /// Runs an `egdb` command (see [`crate::egdb`]), writing its report to `out`.
    ///
    /// # Errors
    /// Bad options, a game without an endgame index, or the command's own failure.
    fn egdb(
        &self,
        options: &GameOptions,
        args: &crate::egdb::EgdbArgs,
        out: &mut dyn std::io::Write,
    ) -> ToolResult<()>;
}

impl<G: ToolGame> RegisteredGame for GameEntry<G> {
    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn clone_entry(&self) -> Box<dyn RegisteredGame> {
        Box::new(self.clone())
    }

    fn load(&self, options: &GameOptions) -> ToolResult<Arc<dyn crate::dynamic::DynGame>> {
        let game = self.build(options)?;
        // The kit of these options: the book and tables of the rules asked, as on the command
        // line.
        let kit = self.kit_for(&game, options);
        let solving = match &self.for_solving {
            Some(prepare) => Some(prepare(self.build(options)?)?),
            None => None,
        };
        crate::dynamic::erase(game, solving, kit, self.info.clone(), options)
    }

    fn perft(&self, options: &GameOptions, args: &crate::perft::PerftArgs) -> ToolResult<()> {
        let game = self.build(options)?;
        crate::perft::run(&game, args)
    }

    fn solve(&self, args: &crate::solve::SolveArgs) -> ToolResult<()> {
        let game = self.build(&args.options)?;
        let game = match &self.for_solving {
            Some(prepare) => prepare(game)?,
            None => game,
        };
        crate::solve::run(&game, args)
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
        crate::play::run_program(game, args, self.info.play_defaults(), &kit)
    }

    fn workloads(
        &self,
        options: &GameOptions,
        sizes: &crate::bench::Sizes,
    ) -> Result<Vec<crate::bench::Workload>, RegistryError> {
        Ok(crate::bench::workloads(self.build(options)?, sizes))
    }

    fn check_spec(&self, options: &GameOptions, spec: &AgentSpec) -> ToolResult<()> {
        let game = self.build(options)?;
        let kit = self.kit_for(&game, options);
        kit.book_for(spec)?;
        match spec.algorithm.is_external() {
            true => spec.build_external(&kit).map(|_| ())?,
            false => kit.build(spec, 0).map(|_| ())?,
        }
        Ok(())
    }

    fn tune(&self, options: &GameOptions, command: &crate::tune::TuneCommand) -> ToolResult<()> {
        let game = self.build(options)?;
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
                None => Err(ToolError::Input(format!(
                    "{} lists no network inputs to train",
                    self.info.name
                ))),
            },
            crate::tune::TuneCommand::Zero(args) => {
                let kit = self.kit_for(&game, options);
                let learned = kit.learned.as_ref().ok_or_else(|| {
                    ToolError::internal("the kit of a registered game has its learned searches")
                })?;
                crate::tune::zero::run(&game, name.trim(), learned, args)
            }
            crate::tune::TuneCommand::Fit(args) => {
                let wanted = args.features.as_deref().unwrap_or(LEARNED_FEATURES);
                match self.fit.iter().find(|(n, _)| n == wanted) {
                    Some((_, fit)) => fit(&game, self.codec, args),
                    None if self.fit.is_empty() => Err(ToolError::Input(format!(
                        "{} lists no evaluation features to fit (GameEntry::features)",
                        self.info.name
                    ))),
                    None => Err(ToolError::Input(format!(
                        "{} has no feature set {wanted:?}; it lists {}",
                        self.info.name,
                        self.fit.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
                    ))),
                }
            }
        }
    }

    fn book(&self, options: &GameOptions, command: &crate::book::BookCommand) -> ToolResult<()> {
        let game = self.build(options)?;
        let kit = self.kit_for(&game, options);
        crate::book::run(&game, &kit, &self.info, options, command)
    }

    fn egdb(
        &self,
        options: &GameOptions,
        args: &crate::egdb::EgdbArgs,
        out: &mut dyn std::io::Write,
    ) -> ToolResult<()> {
        let game = self.build(options)?;
        match &self.egdb {
            Some(run) => run(&game, args, out),
            None => Err(ToolError::Input(format!(
                "{} has no endgame index (GameEntry::endgame): no endgame tables",
                self.info.name
            ))),
        }
    }
}

/// The games a program offers, by name. See the [module docs](self).
#[derive(Default)]
pub struct Registry {
    games: Vec<Box<dyn RegisteredGame>>,
}

impl Clone for Registry {
    fn clone(&self) -> Self {
        Registry { games: self.games.iter().map(|g| g.clone_entry()).collect() }
    }
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

    /// Every game, in the order added, for a program that keeps them (the web board).
    pub fn into_games(self) -> Vec<Box<dyn RegisteredGame>> {
        self.games
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
        self.help_where(|_| true)
    }

    /// [`Registry::help`] for the games `keep` lets through (a tool that only some games
    /// have, such as `egdb`).
    pub fn help_where(&self, keep: impl Fn(&GameInfo) -> bool) -> String {
        let mut out = String::from("Games:\n");
        for g in self.games().filter(|g| keep(g.info())) {
            let i = g.info();
            let _ =
                writeln!(out, "  {:<24} {}\n  {:<24}   {}", i.name, i.summary, "", i.options_help);
        }
        out
    }
}
