//! Every game of the registry behind one interface, for the Python API
//! (`ply_games.load`, `ply_games.search`, `ply_games.perft`).
//!
//! Games have different Rust types, so [`load`] erases them: it builds the game from the
//! registry entry of [`ply_examples`] (so names, options and their errors are the command
//! line's) and returns it as a [`DynGame`] trait object, implemented once, generically, for
//! every `G: Game + Notation`. A [`State`] holds a `G::State` behind `dyn Any`, with the key
//! of the game that made it: giving a state to another game (or to the same game with other
//! options) is an [`Error::Value`], never a mix-up of board sizes. Per-call dynamic dispatch
//! and a downcast cost nothing next to a Python call.
//!
//! States are immutable values: [`DynGame::apply`] returns a new state and leaves its
//! argument as it was. Moves are the game's notation ([`ply::Notation`]); a move may also be
//! named by its index in [`DynGame::legal_moves`], which is exact even where two moves print
//! alike (Impasse crowns).
//!
//! ```
//! use ply_games::games::{self, GameOptions};
//!
//! let options = GameOptions { size: Some("4x4".into()), ..GameOptions::default() };
//! let game = games::load("connect-four", &options)?;
//! let mut state = game.initial_state();
//! while !game.is_terminal(&state)? {
//!     state = game.apply_index(&state, 0)?;
//! }
//! assert_eq!(game.returns(&state)?.iter().sum::<f64>(), 1.0);
//! let again = game.parse_state(&game.format_state(&state)?)?;
//! assert!(game.equal(&state, &again)?);
//! # Ok::<(), ply_games::Error>(())
//! ```

use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ply::search::{Agent, Position, SearchError, Value};
use ply::{MoveList, Outcome, PerftMode, Player};
use ply_tools::registry::{AgentKit, GameEntry, GameInfo, ToolGame};
use ply_tools::spec::{format_duration, AgentSpec};

pub use ply_tools::registry::GameOptions;

use crate::checkers::parse_seconds;
use crate::{Error, Result};

/// What [`DynGame::current_player`] gives for a finished game (OpenSpiel's
/// `PlayerId.TERMINAL`).
pub const TERMINAL: i64 = -4;

/// The package's one default search time: the time per move of a search that sets no limit
/// (no depth, time, nodes or iterations), and of the checkers `play` given neither a time nor
/// a depth (the JSON mode's `--time-ms 1000`).
pub const DEFAULT_SEARCH_TIME: Duration = Duration::from_millis(1000);

/// A position of some game: a `G::State` behind `dyn Any`, and the key of the game that
/// made it. Cheap to clone (the state is shared, and never changed).
#[derive(Clone)]
pub struct State {
    game_key: Arc<str>,
    value: Arc<dyn Any + Send + Sync>,
}

impl State {
    /// The key of the game this state belongs to (name and options).
    pub fn game_key(&self) -> &str {
        &self.game_key
    }
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State").field("game", &self.game_key).finish_non_exhaustive()
    }
}

/// What a search found, with moves in notation.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play, in notation.
    pub best_move: String,
    /// Its index in [`DynGame::legal_moves`].
    pub index: usize,
    /// Its value for the player to move.
    pub value: Value,
    /// The principal variation in notation, `best_move` first.
    pub pv: Vec<String>,
    /// The depth of the last completed iteration (alpha-beta) or of the tree (MCTS).
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// MCTS iterations (0 for other searches).
    pub iterations: u64,
    /// Wall-clock time spent.
    pub elapsed: Duration,
    /// The agent spec that searched, in canonical form (`alphabeta:time=100ms`).
    pub agent: String,
}

/// A game of any type: the operations of the Python API. Implemented for every
/// `ply::Game + ply::Notation` by [`load`]; every method that takes a [`State`] checks that it belongs
/// to this game.
pub trait DynGame: Send + Sync {
    /// The registry name (`english-checkers`).
    fn name(&self) -> &str;
    /// The options it was built with.
    fn options(&self) -> &GameOptions;
    /// The registry's description: summary, accepted options and their help, seat names.
    fn info(&self) -> &GameInfo;
    /// The name and options that identify this game; states carry it.
    fn key(&self) -> &str;
    /// How many players take part.
    fn num_players(&self) -> usize;
    /// The size of the move-key space ([`ply::Game::move_key_space`]; 0 if the game has none).
    fn move_key_space(&self) -> u32;
    /// The start position.
    fn initial_state(&self) -> State;
    /// The legal moves of `state` in notation, in generation order (empty when terminal).
    ///
    /// # Errors
    /// A state of another game.
    fn legal_moves(&self, state: &State) -> Result<Vec<String>>;
    /// The [`ply::Game::move_key`] of each legal move, in the order of [`DynGame::legal_moves`].
    ///
    /// # Errors
    /// A state of another game.
    fn legal_move_keys(&self, state: &State) -> Result<Vec<u32>>;
    /// The state after the move written `text`; `state` is left as it was.
    ///
    /// # Errors
    /// A state of another game; text that is not a legal move (the notation's message).
    fn apply(&self, state: &State, text: &str) -> Result<State>;
    /// The state after legal move number `index` of [`DynGame::legal_moves`].
    ///
    /// # Errors
    /// A state of another game; an index out of range.
    fn apply_index(&self, state: &State, index: usize) -> Result<State>;
    /// True when the game is over (no legal move).
    ///
    /// # Errors
    /// A state of another game.
    fn is_terminal(&self, state: &State) -> Result<bool>;
    /// Each player's reward ([`Outcome::reward`]: 1 for a sole win, 0 for a sole loss, 0.5
    /// each for a two-player draw; they sum to half the number of players), or zeros while
    /// the game goes on.
    ///
    /// # Errors
    /// A state of another game.
    fn returns(&self, state: &State) -> Result<Vec<f64>>;
    /// The outcome, `None` while the game goes on.
    ///
    /// # Errors
    /// A state of another game.
    fn outcome(&self, state: &State) -> Result<Option<Outcome>>;
    /// The seat to move, or [`TERMINAL`] when the game is over.
    ///
    /// # Errors
    /// A state of another game.
    fn current_player(&self, state: &State) -> Result<i64>;
    /// The game's heuristic evaluation of `state` for `player` ([`ply::Game::evaluate`]).
    ///
    /// # Errors
    /// A state of another game; a player out of range.
    fn evaluate(&self, state: &State, player: usize) -> Result<f64>;
    /// The position's text ([`ply::Notation::format_state`]).
    ///
    /// # Errors
    /// A state of another game.
    fn format_state(&self, state: &State) -> Result<String>;
    /// Reads a position ([`ply::Notation::parse_state`]).
    ///
    /// # Errors
    /// Text that is not a position of this game (the notation's message).
    fn parse_state(&self, text: &str) -> Result<State>;
    /// A multi-line picture of the position ([`ply::Notation::render`], plain text).
    ///
    /// # Errors
    /// A state of another game.
    fn render(&self, state: &State) -> Result<String>;
    /// True if the two states are the same position of this game.
    ///
    /// # Errors
    /// A state of another game.
    fn equal(&self, a: &State, b: &State) -> Result<bool>;
    /// The agent of `spec` (built by the game's [`AgentKit`], so `eval=NAME` works) chooses
    /// a move within the spec's budget; `seed` seeds it unless the spec sets `seed=`.
    ///
    /// # Errors
    /// A state of another game; an evaluation or engine the game does not have; a terminal
    /// state or an algorithm that cannot play this game ([`Error::Value`]); an external
    /// engine that fails ([`Error::Runtime`]).
    fn search(&self, state: &State, spec: &AgentSpec, seed: u64) -> Result<SearchResult> {
        self.search_until(state, spec, seed, &Arc::default())
    }
    /// [`DynGame::search`] that ends early, with the best move so far, once `stop` is set
    /// (Python's Ctrl-C sets it).
    ///
    /// # Errors
    /// As [`DynGame::search`].
    fn search_until(
        &self,
        state: &State,
        spec: &AgentSpec,
        seed: u64,
        stop: &Arc<AtomicBool>,
    ) -> Result<SearchResult>;
    /// The number of leaves `depth` plies below `state` ([`ply::perft`], bulk counting).
    ///
    /// # Errors
    /// A state of another game.
    fn perft(&self, state: &State, depth: u32) -> Result<u64>;
    /// Perft split by first move ([`ply::divide`]): each legal move in notation with its
    /// count.
    ///
    /// # Errors
    /// A state of another game; a depth of 0.
    fn divide(&self, state: &State, depth: u32) -> Result<Vec<(String, u64)>>;
}

impl std::fmt::Debug for dyn DynGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynGame").field("key", &self.key()).finish_non_exhaustive()
    }
}

/// A game built from a registry entry, with its agent kit.
struct Erased<G: ToolGame> {
    game: G,
    kit: AgentKit<G>,
    info: GameInfo,
    options: GameOptions,
    key: Arc<str>,
}

impl<G: ToolGame> Erased<G> {
    fn state<'a>(&self, state: &'a State) -> Result<&'a G::State> {
        if *state.game_key != *self.key {
            return Err(Error::Value(format!(
                "the state belongs to another game ({}), not to {}",
                state.game_key, self.key
            )));
        }
        state.value.downcast_ref::<G::State>().ok_or_else(|| {
            Error::Runtime(format!("internal error: a state of {} has the wrong type", self.key))
        })
    }

    fn wrap(&self, state: G::State) -> State {
        State { game_key: self.key.clone(), value: Arc::new(state) }
    }

    fn moves(&self, state: &G::State) -> MoveList<G::Move> {
        let mut moves = MoveList::new();
        self.game.generate_moves(state, &mut moves);
        moves
    }

    fn after(&self, state: &G::State, mv: G::Move) -> State {
        let mut next = state.clone();
        self.game.apply(&mut next, mv);
        self.wrap(next)
    }
}

impl<G: ToolGame> DynGame for Erased<G> {
    fn name(&self) -> &str {
        &self.info.name
    }

    fn options(&self) -> &GameOptions {
        &self.options
    }

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn key(&self) -> &str {
        &self.key
    }

    fn num_players(&self) -> usize {
        self.game.num_players()
    }

    fn move_key_space(&self) -> u32 {
        self.game.move_key_space()
    }

    fn initial_state(&self) -> State {
        self.wrap(self.game.initial_state())
    }

    fn legal_moves(&self, state: &State) -> Result<Vec<String>> {
        let s = self.state(state)?;
        Ok(self.moves(s).iter().map(|&mv| self.game.format_move(s, mv)).collect())
    }

    fn legal_move_keys(&self, state: &State) -> Result<Vec<u32>> {
        let s = self.state(state)?;
        Ok(self.moves(s).iter().map(|&mv| self.game.move_key(s, mv)).collect())
    }

    fn apply(&self, state: &State, text: &str) -> Result<State> {
        let s = self.state(state)?;
        let mv = self.game.parse_move(s, text).map_err(Error::value)?;
        // The notation promises a legal move; applying anything else could panic.
        if !self.moves(s).contains(&mv) {
            return Err(Error::Value(format!("{text:?} is not a legal move here")));
        }
        Ok(self.after(s, mv))
    }

    fn apply_index(&self, state: &State, index: usize) -> Result<State> {
        let s = self.state(state)?;
        let moves = self.moves(s);
        match moves.get(index) {
            Some(&mv) => Ok(self.after(s, mv)),
            None => Err(Error::Value(format!(
                "move index {index} out of range: the position has {} legal moves",
                moves.len()
            ))),
        }
    }

    fn is_terminal(&self, state: &State) -> Result<bool> {
        Ok(self.game.outcome(self.state(state)?).is_some())
    }

    fn returns(&self, state: &State) -> Result<Vec<f64>> {
        let n = self.game.num_players();
        Ok(match self.game.outcome(self.state(state)?) {
            None => vec![0.0; n],
            Some(o) => (0..n).map(|p| o.reward(Player::new(p), n)).collect(),
        })
    }

    fn outcome(&self, state: &State) -> Result<Option<Outcome>> {
        Ok(self.game.outcome(self.state(state)?))
    }

    fn current_player(&self, state: &State) -> Result<i64> {
        let s = self.state(state)?;
        Ok(match self.game.outcome(s) {
            Some(_) => TERMINAL,
            None => self.game.to_move(s).index() as i64,
        })
    }

    fn evaluate(&self, state: &State, player: usize) -> Result<f64> {
        let s = self.state(state)?;
        let n = self.game.num_players();
        if player >= n {
            return Err(Error::Value(format!("player {player} out of range: {n} players")));
        }
        Ok(ply::Score::to_f64(self.game.evaluate(s, Player::new(player))))
    }

    fn format_state(&self, state: &State) -> Result<String> {
        Ok(self.game.format_state(self.state(state)?))
    }

    fn parse_state(&self, text: &str) -> Result<State> {
        self.game.parse_state(text).map(|s| self.wrap(s)).map_err(Error::value)
    }

    fn render(&self, state: &State) -> Result<String> {
        Ok(self.game.render(self.state(state)?, None, false))
    }

    fn equal(&self, a: &State, b: &State) -> Result<bool> {
        Ok(self.state(a)? == self.state(b)?)
    }

    fn search_until(
        &self,
        state: &State,
        spec: &AgentSpec,
        seed: u64,
        stop: &Arc<AtomicBool>,
    ) -> Result<SearchResult> {
        let s = self.state(state)?;
        let mut agent = self.kit.build(spec, seed).map_err(Error::value)?;
        let budget = spec.budget().with_stop(stop.clone());
        let report = agent.choose(&self.game, Position::new(s), &budget).map_err(|e| match e {
            SearchError::Engine { .. } => Error::Runtime(e.to_string()),
            _ => Error::value(e),
        })?;
        let legal = self.moves(s);
        let index = legal.iter().position(|&m| m == report.best_move).ok_or_else(|| {
            Error::Runtime(format!("{} chose a move that is not legal here", spec.algorithm.name()))
        })?;
        // The principal variation, formatted move by move while its moves stay legal.
        let mut pv = Vec::new();
        let mut at = s.clone();
        for &mv in &report.pv {
            if !self.moves(&at).contains(&mv) {
                break;
            }
            pv.push(self.game.format_move(&at, mv));
            self.game.apply(&mut at, mv);
        }
        Ok(SearchResult {
            best_move: self.game.format_move(s, report.best_move),
            index,
            value: report.value,
            pv,
            depth: report.depth,
            seldepth: report.seldepth,
            nodes: report.nodes,
            iterations: report.iterations,
            elapsed: report.elapsed,
            agent: spec.to_string(),
        })
    }

    fn perft(&self, state: &State, depth: u32) -> Result<u64> {
        Ok(ply::perft(&self.game, self.state(state)?, depth, PerftMode::Bulk))
    }

    fn divide(&self, state: &State, depth: u32) -> Result<Vec<(String, u64)>> {
        let s = self.state(state)?;
        if depth == 0 {
            return Err(Error::Value("divide needs a depth of at least 1".into()));
        }
        Ok(ply::divide(&self.game, s, depth, PerftMode::Bulk)
            .into_iter()
            .map(|(mv, n)| (self.game.format_move(s, mv), n))
            .collect())
    }
}

fn erase<G: ToolGame>(entry: GameEntry<G>, options: &GameOptions) -> Result<Arc<dyn DynGame>> {
    let game = entry.build(options).map_err(Error::value)?;
    let info = entry.info().clone();
    let args = options.to_args();
    let key: Arc<str> = if args.is_empty() {
        info.name.as_str().into()
    } else {
        format!("{} {args}", info.name).into()
    };
    // The kit of these options: the book and tables of the rules asked, as on the command line.
    let kit = entry.kit_for(&game, options);
    Ok(Arc::new(Erased { game, kit, info, options: options.clone(), key }))
}

/// The names of the games [`load`] knows, in the registry's order.
pub fn names() -> Vec<String> {
    ply_examples::registry().names().into_iter().map(String::from).collect()
}

/// The game called `name` with `options`, as the command line builds it (`--rules`, `--size`,
/// `--players`, `--variant KEY=VALUE`).
///
/// # Errors
/// [`Error::Value`] with the registry's message for an unknown game, an option the game does
/// not take, or a value it refuses.
pub fn load(name: &str, options: &GameOptions) -> Result<Arc<dyn DynGame>> {
    use ply_examples as ex;
    // One arm per game of `ply_examples::registry()`; a test checks that none is missing.
    match name {
        "english-checkers" => erase(ex::english_checkers(), options),
        "international-draughts" => erase(ex::international_draughts(), options),
        "impasse" => erase(ex::impasse(), options),
        "reversi" => erase(ex::reversi(), options),
        "breakthrough" => erase(ex::breakthrough(), options),
        "kalah" => erase(ex::kalah(), options),
        "tictactoe" => erase(ex::tictactoe(), options),
        "connect-four" => erase(ex::connect_four(), options),
        "three-heaps" => erase(ex::three_heaps(), options),
        _ => match ply_examples::registry().get(name) {
            Err(e) => Err(Error::value(e)),
            Ok(_) => Err(Error::Value(format!("{name} has no Python binding yet"))),
        },
    }
}

/// The agent spec for `algorithm` (a name such as `alphabeta`, or a whole spec such as
/// `mcts:iters=500`) with the extra `options` (`("depth", "4")`; see
/// [`ply_tools::spec::ACCEPTED`]) and `time` in seconds. A search that ends up with no limit
/// (no depth, time, nodes or iterations) gets [`DEFAULT_SEARCH_TIME`].
///
/// ```
/// let spec = ply_games::games::agent_spec("alphabeta", &[("depth".into(), "4".into())], None)?;
/// assert_eq!(spec.to_string(), "alphabeta:depth=4");
/// let spec = ply_games::games::agent_spec("mcts:c=2", &[], Some(0.25))?;
/// assert_eq!(spec.to_string(), "mcts:time=250ms,c=2");
/// assert_eq!(ply_games::games::agent_spec("alphabeta", &[], None)?.to_string(),
///            "alphabeta:time=1s");
/// # Ok::<(), ply_games::Error>(())
/// ```
///
/// # Errors
/// [`Error::Value`] with the spec parser's message for an unknown agent, option or value;
/// a time that is not a positive number of seconds.
pub fn agent_spec(
    algorithm: &str,
    options: &[(String, String)],
    time: Option<f64>,
) -> Result<AgentSpec> {
    let algorithm = algorithm.trim();
    let (name, rest) = algorithm.split_once(':').unwrap_or((algorithm, ""));
    // `cmd=` takes the rest of a spec, so it goes last.
    let (rest, mut cmd) = match rest.find("cmd=") {
        Some(i) => (&rest[..i], Some(rest[i..].to_string())),
        None => (rest, None),
    };
    let mut items: Vec<String> =
        rest.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
    for (key, value) in options {
        if key == "cmd" && cmd.is_none() {
            cmd = Some(format!("cmd={value}"));
        } else {
            items.push(format!("{key}={value}"));
        }
    }
    if let Some(t) = time {
        items.push(format!("time={}", format_duration(parse_seconds(t)?)));
    }
    items.extend(cmd);
    let text =
        if items.is_empty() { name.to_string() } else { format!("{name}:{}", items.join(",")) };
    let mut spec: AgentSpec = text.parse().map_err(Error::value)?;
    let unlimited =
        spec.depth.is_none() && spec.time.is_none() && spec.nodes.is_none() && spec.iters.is_none();
    if unlimited && spec.algorithm.keys().contains(&"time") {
        spec.time = Some(DEFAULT_SEARCH_TIME);
    }
    Ok(spec)
}

/// A seed for agents that are given none: the clock's nanoseconds.
pub fn clock_seed() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(pairs: &[(&str, &str)]) -> GameOptions {
        let mut o = GameOptions::default();
        for &(k, v) in pairs {
            match k {
                "rules" => o.rules = Some(v.into()),
                "size" => o.size = Some(v.into()),
                "players" => o.players = Some(v.parse().unwrap()),
                _ => o.variants.push((k.into(), v.into())),
            }
        }
        o
    }

    #[test]
    fn every_registered_game_loads() {
        let names = names();
        assert_eq!(names.len(), 9);
        for name in &names {
            let game =
                load(name, &GameOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(game.name(), name);
            let s = game.initial_state();
            assert!(!game.legal_moves(&s).unwrap().is_empty(), "{name}");
        }
    }

    #[test]
    fn random_games_end_with_sensible_returns() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            ("english-checkers", &[]),
            ("english-checkers", &[("rules", "standard"), ("size", "6")]),
            ("international-draughts", &[]),
            ("impasse", &[]),
            ("reversi", &[]),
            ("reversi", &[("size", "6"), ("players", "3")]),
            ("breakthrough", &[("size", "5x5")]),
            ("kalah", &[]),
            ("kalah", &[("pits", "4"), ("seeds", "3"), ("capture", "standard")]),
            ("tictactoe", &[]),
            ("connect-four", &[("size", "5x4"), ("connect", "3")]),
            ("three-heaps", &[("heaps", "2,3,4")]),
        ];
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
        for &(name, o) in cases {
            let game = load(name, &opts(o)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut state = game.initial_state();
            let mut plies = 0;
            while !game.is_terminal(&state).unwrap() {
                let moves = game.legal_moves(&state).unwrap();
                assert_eq!(moves.len(), game.legal_move_keys(&state).unwrap().len());
                assert!(game.current_player(&state).unwrap() >= 0);
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let i = (rng % moves.len() as u64) as usize;
                let by_index = game.apply_index(&state, i).unwrap();
                {
                    let by_text = game.apply(&state, &moves[i]).unwrap();
                    // Two moves may print alike (Impasse); the text names the first.
                    let first = moves.iter().position(|m| *m == moves[i]).unwrap();
                    assert!(game
                        .equal(&by_text, &game.apply_index(&state, first).unwrap())
                        .unwrap());
                }
                let text = game.format_state(&by_index).unwrap();
                let back = game.parse_state(&text).unwrap();
                assert_eq!(game.format_state(&back).unwrap(), text, "{name}");
                state = by_index;
                plies += 1;
                assert!(plies < 5000, "{name} does not end");
            }
            assert_eq!(game.current_player(&state).unwrap(), TERMINAL);
            let returns = game.returns(&state).unwrap();
            let n = game.num_players() as f64;
            assert!((returns.iter().sum::<f64>() - n / 2.0).abs() < 1e-9, "{name}: {returns:?}");
            assert!(returns.iter().all(|r| (0.0..=1.0).contains(r)));
        }
    }

    #[test]
    fn states_stay_with_their_game() {
        let eight = load("english-checkers", &GameOptions::default()).unwrap();
        let ten = load("english-checkers", &opts(&[("size", "10")])).unwrap();
        let again = load("english-checkers", &GameOptions::default()).unwrap();
        let s = eight.initial_state();
        let e = ten.legal_moves(&s).unwrap_err();
        assert!(e.to_string().contains("another game"), "{e}");
        assert_eq!(again.legal_moves(&s).unwrap().len(), 7);
        let ttt = load("tictactoe", &GameOptions::default()).unwrap();
        assert!(ttt.perft(&s, 1).is_err());
    }

    #[test]
    fn errors_are_the_registrys_and_the_notations() {
        let e = load("chess", &GameOptions::default()).unwrap_err();
        assert!(e.to_string().starts_with("unknown game \"chess\"; known games: english-checkers"));
        let e = load("english-checkers", &opts(&[("rules", "turkish")])).unwrap_err();
        assert!(e.to_string().contains("--rules") && e.to_string().contains("turkish"), "{e}");
        let e = load("tictactoe", &opts(&[("size", "4")])).unwrap_err();
        assert!(e.to_string().contains("does not take --size"), "{e}");
        let game = load("english-checkers", &GameOptions::default()).unwrap();
        let s = game.initial_state();
        assert!(matches!(game.apply(&s, "11-16x"), Err(Error::Value(_))));
        assert!(matches!(game.apply(&s, "22-18"), Err(Error::Value(_))));
        assert!(matches!(game.apply_index(&s, 7), Err(Error::Value(_))));
        assert!(matches!(game.parse_state("X:W1"), Err(Error::Value(_))));
        assert!(matches!(game.evaluate(&s, 2), Err(Error::Value(_))));
        assert!(matches!(game.divide(&s, 0), Err(Error::Value(_))));
    }

    /// Searches use the opening book of the rules asked: the Deepomatic rules have one, the
    /// standard rules none, so there the engine searches.
    #[test]
    fn searches_use_the_book_of_the_rules_asked() {
        let spec = agent_spec("alphabeta", &[("depth".into(), "3".into())], None).unwrap();
        for (rules, from_book) in [("deepomatic", true), ("standard", false)] {
            let checkers = load("english-checkers", &opts(&[("rules", rules)])).unwrap();
            let r = checkers.search(&checkers.initial_state(), &spec, 1).unwrap();
            assert_eq!(r.nodes == 0, from_book, "{rules}: depth {}, nodes {}", r.depth, r.nodes);
        }
    }

    #[test]
    fn search_builds_every_kind_of_agent() {
        let checkers = load("english-checkers", &GameOptions::default()).unwrap();
        let s = checkers.initial_state();
        let legal = checkers.legal_moves(&s).unwrap();
        for (algorithm, options, time) in [
            ("alphabeta", vec![("depth", "3")], None),
            ("alphabeta", vec![], Some(0.02)),
            ("alphabeta:plain=true", vec![("depth", "2")], None),
            ("mcts", vec![("iters", "200"), ("seed", "1")], None),
            ("greedy", vec![], None),
            ("random", vec![("seed", "3")], None),
        ] {
            let options: Vec<_> =
                options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let spec = agent_spec(algorithm, &options, time).unwrap();
            let r = checkers.search(&s, &spec, 7).unwrap();
            assert_eq!(legal[r.index], r.best_move, "{algorithm}");
            assert_eq!(r.pv.first(), Some(&r.best_move), "{algorithm}");
        }
        let draughts = load("international-draughts", &GameOptions::default()).unwrap();
        let spec =
            agent_spec("alphabeta", &[("eval".into(), "material".into())], Some(0.02)).unwrap();
        draughts.search(&draughts.initial_state(), &spec, 0).unwrap();
        let spec = agent_spec("alphabeta", &[("eval".into(), "discs".into())], None).unwrap();
        let e = draughts.search(&draughts.initial_state(), &spec, 0).unwrap_err();
        assert!(e.to_string().contains("classic, material"), "{e}");
        let heaps = load("three-heaps", &GameOptions::default()).unwrap();
        let spec = agent_spec("paranoid", &[("depth".into(), "2".into())], None).unwrap();
        heaps.search(&heaps.initial_state(), &spec, 0).unwrap();
        let spec = agent_spec("alphabeta", &[("depth".into(), "2".into())], None).unwrap();
        let e = heaps.search(&heaps.initial_state(), &spec, 0).unwrap_err();
        assert!(matches!(e, Error::Value(_)), "{e}");
    }

    #[test]
    fn agent_specs_from_parts() {
        let spec = |a: &str, o: &[(&str, &str)], t| {
            let o: Vec<_> = o.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            agent_spec(a, &o, t).map(|s| s.to_string())
        };
        assert_eq!(spec("greedy", &[], None).unwrap(), "greedy");
        assert_eq!(spec("random", &[("seed", "2")], None).unwrap(), "random:seed=2");
        assert_eq!(spec("mcts", &[("iters", "50")], None).unwrap(), "mcts:iters=50");
        assert_eq!(
            spec("hub:cmd=scan hub", &[("depth", "3")], Some(1.0)).unwrap(),
            "hub:depth=3,time=1s,cmd=scan hub"
        );
        assert_eq!(
            spec("nboard", &[("cmd", "edax -x"), ("depth", "2")], None).unwrap(),
            "nboard:depth=2,cmd=edax -x"
        );
        let e = spec("alphabta", &[], None).unwrap_err();
        assert!(e.to_string().starts_with("unknown agent \"alphabta\""), "{e}");
        let e = spec("greedy", &[], Some(1.0)).unwrap_err();
        assert!(e.to_string().contains("greedy: unknown option \"time\""), "{e}");
        let e = spec("alphabeta:time=1s", &[], Some(1.0)).unwrap_err();
        assert!(e.to_string().contains("given twice"), "{e}");
        assert!(spec("alphabeta", &[], Some(-1.0)).is_err());
        assert!(spec("alphabeta", &[("depth", "0")], None).is_err());
    }

    #[test]
    fn perft_and_divide() {
        let game = load("english-checkers", &opts(&[("rules", "standard")])).unwrap();
        let s = game.initial_state();
        assert_eq!(game.perft(&s, 4).unwrap(), 1469);
        let d = game.divide(&s, 3).unwrap();
        assert_eq!(d.len(), 7);
        assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 302);
    }
}
