//! Every game behind one type-erased interface, [`DynGame`], the way every OpenSpiel consumer
//! sees `State`: a registry entry of any type loads as an `Arc<dyn DynGame>`
//! ([`crate::registry::RegisteredGame::load`]), whose states are opaque [`State`] values and
//! whose moves are the game's notation; a [`DynSession`] is a game in play of any game
//! ([`DynGame::session`]). The web board, the Python package and any other front end that must
//! not know game types drive games through them; [`view`] holds what they answer.
//!
//! A [`State`] holds a `G::State` behind `dyn Any`, with the key of the game that made it:
//! giving a state to another game (or to the same game with other options) is a
//! [`ToolError::Input`], never a mix-up of board sizes. Per-call dynamic dispatch and a
//! downcast cost nothing next to a call from another language.
//!
//! States are immutable values: [`DynGame::apply`] returns a new state and leaves its
//! argument as it was. Moves are the game's notation ([`ply::Notation`]); a move may also be
//! named by its index in [`DynGame::legal_moves`], which is exact even where two moves print
//! alike (Impasse crowns).
//!
//! ```
//! use ply_tools::registry::{GameEntry, GameOptions, Registry};
//!
//! let mut registry = Registry::new();
//! registry.add(GameEntry::new("tictactoe", "noughts and crosses", |_| Ok(ply::games::TicTacToe)));
//! let game = registry.get("tictactoe")?.load(&GameOptions::default())?;
//! let mut state = game.initial_state();
//! while !game.is_terminal(&state)? {
//!     state = game.apply_index(&state, 0)?;
//! }
//! assert_eq!(game.returns(&state)?.iter().sum::<f64>(), 1.0);
//! let again = game.parse_state(&game.format_state(&state)?)?;
//! assert!(game.equal(&state, &again)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use ply::search::{Agent, Position, Value};
use ply::{MoveList, Outcome, PerftMode, Player};

use crate::agents::{AgentKit, ToolGame};
use crate::error::{ToolError, ToolResult as Result};
use crate::options::{GameInfo, GameOptions};
use crate::play::{Seat, Session, SessionConfig};
use crate::spec::AgentSpec;

mod session;
pub mod view;

pub(crate) use session::lock;
pub use session::{DynSession, Monitor};

/// What [`DynGame::current_player`] gives for a finished game (OpenSpiel's
/// `PlayerId.TERMINAL`).
pub const TERMINAL: i64 = -4;

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
/// registered game ([`crate::registry::RegisteredGame::load`]); every method that takes a [`State`] checks that it belongs
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
    /// A title for a page: the summary, and the options when there are some (`English
    /// checkers (--rules standard)`).
    fn title(&self) -> String {
        let args = self.options().to_args();
        match args.trim().is_empty() {
            true => self.info().summary.clone(),
            false => format!("{} ({})", self.info().summary, args.trim()),
        }
    }
    /// The seats' names: the registry's where they fit the player count (Black and White),
    /// else `player 1`, `player 2`, ...
    fn seat_names(&self) -> Vec<String> {
        let names = &self.info().seat_names;
        match names.len() == self.num_players() {
            true => names.clone(),
            false => (1..=self.num_players()).map(|i| format!("player {i}")).collect(),
        }
    }
    /// The engine the game's programs play a person with (for its options).
    fn default_engine(&self) -> &AgentSpec;
    /// A game in play from the start position, with `seats` (a person, or an engine built
    /// from its spec) and engines seeded from `seed`; `assistant` answers hints for a seat
    /// where no engine has sat (the game's own engine by default).
    ///
    /// # Errors
    /// A wrong number of seats, or an engine spec that does not build for this game.
    fn session(
        &self,
        seats: Vec<Seat>,
        seed: u64,
        assistant: Option<&AgentSpec>,
    ) -> Result<Box<dyn DynSession>>;
    /// The position as a grid of cells ([`ply::Notation::diagram`]), where the game draws one.
    ///
    /// # Errors
    /// A state of another game.
    fn diagram(&self, state: &State) -> Result<Option<view::DiagramView>>;
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
    /// state or an algorithm that cannot play this game ([`ToolError::Input`]); an external
    /// engine that fails ([`ToolError::Internal`]).
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
    /// The number of leaves `depth` plies below `state` ([`ply::perft()`], bulk counting).
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
    /// `state`'s exact value under perfect play and the moves that keep it
    /// ([`crate::solve`]), within `limits`; it ends early with an error once `stop` is set.
    ///
    /// # Errors
    /// A state of another game, a game of more than two players, the time limit or `stop`
    /// first.
    fn solve(
        &self,
        state: &State,
        limits: &crate::solve::SolveLimits,
        stop: &Arc<AtomicBool>,
    ) -> Result<crate::solve::SolveReport>;
}

impl std::fmt::Debug for dyn DynGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynGame").field("key", &self.key()).finish_non_exhaustive()
    }
}

/// A game built from a registry entry, with its agent kit.
struct Erased<G: ToolGame> {
    game: Arc<G>,
    /// The game as `solve` proves it (its cheap bounds turned on), if that differs.
    solving: Option<Arc<G>>,
    kit: AgentKit<G>,
    info: GameInfo,
    options: GameOptions,
    key: Arc<str>,
    engine: AgentSpec,
}

impl<G: ToolGame> Erased<G> {
    fn state<'a>(&self, state: &'a State) -> Result<&'a G::State> {
        if *state.game_key != *self.key {
            return Err(ToolError::Input(format!(
                "the state belongs to another game ({}), not to {}",
                state.game_key, self.key
            )));
        }
        state.value.downcast_ref::<G::State>().ok_or_else(|| {
            ToolError::Internal(format!(
                "internal error: a state of {} has the wrong type",
                self.key
            ))
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

    fn default_engine(&self) -> &AgentSpec {
        &self.engine
    }

    fn session(
        &self,
        seats: Vec<Seat>,
        seed: u64,
        assistant: Option<&AgentSpec>,
    ) -> Result<Box<dyn DynSession>> {
        let config = SessionConfig {
            seats,
            seed,
            names: self.seat_names(),
            assistant: assistant.unwrap_or(&self.engine).clone(),
        };
        let start = self.game.initial_state();
        let session = Session::new(self.game.clone(), start, &config, &self.kit)?;
        Ok(Box::new(session::SessionOf::new(session)))
    }

    fn diagram(&self, state: &State) -> Result<Option<view::DiagramView>> {
        Ok(self.game.diagram(self.state(state)?).as_ref().map(view::DiagramView::from))
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
        let mv = self.game.parse_move(s, text).map_err(ToolError::input)?;
        // The notation promises a legal move; applying anything else could panic.
        if !self.moves(s).contains(&mv) {
            return Err(ToolError::Input(format!("{text:?} is not a legal move here")));
        }
        Ok(self.after(s, mv))
    }

    fn apply_index(&self, state: &State, index: usize) -> Result<State> {
        let s = self.state(state)?;
        let moves = self.moves(s);
        match moves.get(index) {
            Some(&mv) => Ok(self.after(s, mv)),
            None => Err(ToolError::Input(format!(
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
            return Err(ToolError::Input(format!("player {player} out of range: {n} players")));
        }
        Ok(ply::Score::to_f64(self.game.evaluate(s, Player::new(player))))
    }

    fn format_state(&self, state: &State) -> Result<String> {
        Ok(self.game.format_state(self.state(state)?))
    }

    fn parse_state(&self, text: &str) -> Result<State> {
        self.game.parse_state(text).map(|s| self.wrap(s)).map_err(ToolError::input)
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
        let mut agent = self.kit.build(spec, seed)?;
        let budget = spec.budget().with_stop(stop.clone());
        let report = agent
            .choose(&*self.game, Position::new(s), &budget)
            .map_err(|e| ToolError::search(spec, e))?;
        let legal = self.moves(s);
        let index = legal.iter().position(|&m| m == report.best_move).ok_or_else(|| {
            ToolError::Internal(format!(
                "{} chose a move that is not legal here",
                spec.algorithm.name()
            ))
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
        Ok(ply::perft(&*self.game, self.state(state)?, depth, PerftMode::Bulk))
    }

    fn solve(
        &self,
        state: &State,
        limits: &crate::solve::SolveLimits,
        stop: &Arc<AtomicBool>,
    ) -> Result<crate::solve::SolveReport> {
        let state = self.state(state)?;
        let game = self.solving.as_deref().unwrap_or(&*self.game);
        let stop = || stop.load(std::sync::atomic::Ordering::Relaxed);
        crate::solve::solve_position(game, state, limits, &stop, &mut |_| {})
    }

    fn divide(&self, state: &State, depth: u32) -> Result<Vec<(String, u64)>> {
        let s = self.state(state)?;
        if depth == 0 {
            return Err(ToolError::Input("divide needs a depth of at least 1".into()));
        }
        Ok(ply::divide(&*self.game, s, depth, PerftMode::Bulk)
            .into_iter()
            .map(|(mv, n)| (self.game.format_move(s, mv), n))
            .collect())
    }
}

/// `game`, built with `options` and described by `info`, with its agent kit, type-erased;
/// its sessions' engine is the one `info` gives for these options, and `solving` (if given)
/// the same game as [`DynGame::solve`] proves it.
///
/// # Errors
/// An engine spec in `info` that does not parse.
pub fn erase<G: ToolGame>(
    game: G,
    solving: Option<G>,
    kit: AgentKit<G>,
    info: GameInfo,
    options: &GameOptions,
) -> Result<Arc<dyn DynGame>> {
    let args = options.to_args();
    let key: Arc<str> = if args.is_empty() {
        info.name.as_str().into()
    } else {
        format!("{} {args}", info.name).into()
    };
    let engine = info.engine.parse::<AgentSpec>().map_err(|e| {
        ToolError::Internal(format!("{}: the registered engine does not parse: {e}", info.name))
    })?;
    let engine = engine.for_players(game.num_players());
    let (game, solving) = (Arc::new(game), solving.map(Arc::new));
    Ok(Arc::new(Erased { game, solving, kit, info, options: options.clone(), key, engine }))
}
