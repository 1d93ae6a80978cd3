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
use std::sync::Arc;

use ply::eval::{Evaluator, Features};
use ply::search::Agent;
use ply::{Game, Notation};

use crate::engines::hub::HubCodec;
use crate::engines::jsonl::JsonlCodec;
use crate::engines::nboard::NBoardCodec;
use crate::spec::{AgentSpec, SpecError};

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
#[derive(Clone, Debug)]
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
}

impl GameInfo {
    /// The terminal's defaults for this game.
    pub fn play_defaults(&self) -> crate::play::Defaults<'_> {
        crate::play::Defaults {
            engine: &self.engine,
            batch_engine: &self.batch_engine,
            names: &self.seat_names,
        }
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

/// Builds a boxed agent for a spec, with one evaluation built in.
type AgentBuilder<G> =
    Arc<dyn Fn(&AgentSpec, u64) -> Result<Box<dyn Agent<G> + Send>, SpecError> + Send + Sync>;

/// What a game adds to the generic agents: evaluations by name (`alphabeta:eval=NAME`) and
/// the codecs of the external-engine protocols it speaks (`hub:`, `nboard:`).
pub struct AgentKit<G: Game> {
    evaluators: Vec<(String, AgentBuilder<G>)>,
    /// The Hub protocol's positions and moves for this game, if engines speak it.
    pub hub: Option<HubCodec<G>>,
    /// The NBoard protocol's positions for this game, if engines speak it.
    pub nboard: Option<NBoardCodec<G>>,
    /// The JSON-lines protocol's boards and moves for this game, if engines speak it.
    pub jsonl: Option<JsonlCodec<G>>,
}

impl<G: Game> Default for AgentKit<G> {
    fn default() -> Self {
        AgentKit { evaluators: Vec::new(), hub: None, nboard: None, jsonl: None }
    }
}

impl<G: Game> Clone for AgentKit<G> {
    fn clone(&self) -> Self {
        AgentKit {
            evaluators: self.evaluators.clone(),
            hub: self.hub,
            nboard: self.nboard,
            jsonl: self.jsonl,
        }
    }
}

impl<G: Game + Sync + 'static> AgentKit<G> {
    /// Adds the evaluation `eval` under `name`: a spec with `eval=NAME` searches with it.
    /// The search is compiled for `E`, so the evaluation is called directly at every leaf.
    pub fn add_evaluator<E: Evaluator<G>>(&mut self, name: &str, eval: E) {
        let build: AgentBuilder<G> =
            Arc::new(move |spec, seed| spec.build_search(eval.clone(), seed));
        self.evaluators.retain(|(n, _)| n != name);
        self.evaluators.push((name.to_string(), build));
    }

    /// The names of the added evaluations, in the order added.
    pub fn evaluator_names(&self) -> Vec<&str> {
        self.evaluators.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// A fresh agent for `spec`, seeded with the spec's `seed=` or else `seed`: a search with
    /// the named evaluation (or the game's own), or an external engine through this game's
    /// protocol codec.
    ///
    /// # Errors
    /// An evaluation name this game does not have, or an engine protocol it does not speak.
    pub fn build(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<G> + Send>, SpecError>
    where
        G: Notation,
    {
        if spec.algorithm.is_external() {
            return spec.build_external(self);
        }
        match &spec.eval {
            None => spec.build_search(ply::eval::GameEval, seed),
            Some(name) => match self.evaluators.iter().find(|(n, _)| n == name) {
                Some((_, build)) => build(spec, seed),
                None => Err(SpecError::UnknownEvaluator {
                    name: name.clone(),
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
type Fitter<G> = Arc<dyn Fn(&G, &crate::tune::FitArgs) -> Result<(), String> + Send + Sync>;

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
    /// Named evaluations and engine codecs.
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
        GameEntry {
            info: GameInfo {
                name: name.to_string(),
                summary: summary.to_string(),
                accepts: Vec::new(),
                options_help: "no options".to_string(),
                seat_names: Vec::new(),
                engine: "alphabeta:time=1s".to_string(),
                batch_engine: "alphabeta:time=50ms".to_string(),
            },
            build: Arc::new(build),
            fit: None,
            kit: AgentKit::default(),
        }
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

    /// Lists the features of the game's linear evaluation, so that `tune fit` can fit their
    /// weights (see [`crate::tune`]).
    pub fn features<F: Features<G>>(mut self, features: F) -> Self {
        self.fit = Some(Arc::new(move |game: &G, args: &crate::tune::FitArgs| {
            crate::tune::fit::run(game, &features, args)
        }));
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
}

impl<G: ToolGame> RegisteredGame for GameEntry<G> {
    fn info(&self) -> &GameInfo {
        &self.info
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
        Ok(run.play(game, &self.kit))
    }

    fn play(&self, options: &GameOptions, args: &crate::play::PlayArgs) -> std::process::ExitCode {
        let game = match self.build(options) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        };
        crate::play::run_program(&game, args, self.info.play_defaults(), &self.kit)
    }

    fn workloads(
        &self,
        options: &GameOptions,
        sizes: &crate::bench::Sizes,
    ) -> Result<Vec<crate::bench::Workload>, RegistryError> {
        Ok(crate::bench::workloads(self.build(options)?, sizes))
    }

    fn check_spec(&self, options: &GameOptions, spec: &AgentSpec) -> Result<(), String> {
        let _game = self.build(options).map_err(|e| e.to_string())?;
        if spec.algorithm.is_external() {
            spec.build_external(&self.kit).map(|_| ()).map_err(|e| e.to_string())
        } else {
            self.kit.build(spec, 0).map(|_| ()).map_err(|e| e.to_string())
        }
    }

    fn tune(
        &self,
        options: &GameOptions,
        command: &crate::tune::TuneCommand,
    ) -> Result<(), String> {
        let game = self.build(options).map_err(|e| e.to_string())?;
        match command {
            crate::tune::TuneCommand::Generate(args) => {
                crate::tune::generate::run(&game, &self.kit, args)
            }
            crate::tune::TuneCommand::Fit(args) => match &self.fit {
                Some(fit) => fit(&game, args),
                None => Err(format!(
                    "{} lists no evaluation features to fit (GameEntry::features)",
                    self.info.name
                )),
            },
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
