//! Evaluations apart from the rules: an [`Evaluator`] scores a position for a player, and
//! every search takes one as a parameter.
//!
//! A game keeps a default evaluation in [`Game::evaluate`]; [`GameEval`] is the evaluator that
//! calls it, and it is what every search uses unless given another. Another evaluation of the
//! same game (a learned one, a cheaper one, one under test) is a type that implements
//! [`Evaluator`], or a closure. A tunable one lists its [`Features`] and is a [`LinearEval`]
//! over them, with [`Weights`] read from a file. Searches are generic over the evaluator, so the call at every
//! leaf is monomorphised and inlined like the game's own.
//!
//! ```
//! use ply::eval::{Evaluator, GameEval};
//! use ply::games::ConnectFour;
//! use ply::search::{alphabeta::AlphaBeta, Agent, Budget, Position};
//! use ply::{Game, Player};
//!
//! let game = ConnectFour::standard();
//! let state = game.initial_state();
//! // The game's own evaluation, and a closure that halves it.
//! assert_eq!(GameEval.evaluate(&game, &state, Player::FIRST), game.evaluate(&state, Player::FIRST));
//! let halved = |game: &ConnectFour, s: &<ConnectFour as Game>::State, p: Player| -> i32 {
//!     game.evaluate(s, p) / 2
//! };
//! let mut engine = AlphaBeta::new().with_evaluator(halved);
//! let report = engine.choose(&game, Position::new(&state), &Budget::depth(4)).unwrap();
//! assert!(report.nodes > 0);
//! ```

use crate::game::{Game, Player, Solved, SolverBudget};

mod linear;
pub mod net;
mod pairs;
pub mod planes;
pub mod pv;

pub use linear::{Features, LinearEval, Weights, WeightsError};

/// A heuristic evaluation of `G`'s positions.
///
/// The rules of [`Game::evaluate`] apply: the value is finite, strictly inside
/// `±Score::WIN_RANGE`, larger is better for `player`, and in a two-player zero-sum game
/// `evaluate(s, p) == -evaluate(s, p.opponent())`.
pub trait Evaluator<G: Game>: Clone + Send + Sync + 'static {
    /// The value of the non-terminal `state` for `player`.
    fn evaluate(&self, game: &G, state: &G::State, player: Player) -> G::Score;

    /// The exact value of `state` for the player to move, where it is known: the one endgame
    /// hook alpha-beta asks at every node. The default is the game's own solver
    /// ([`Game::solve_endgame`], with its window `(alpha, beta)` and `budget`); an evaluation
    /// with endgame tables ([`crate::endgame::Probed`]) answers from them where the game's
    /// solver does not. `None` says nothing.
    #[inline]
    fn solve(
        &self,
        game: &G,
        state: &G::State,
        alpha: i32,
        beta: i32,
        budget: &mut SolverBudget<'_>,
    ) -> Option<Solved> {
        game.solve_endgame(state, alpha, beta, budget)
    }

    /// Whether a search should keep this evaluation's values by position key and look them
    /// up before evaluating a position again (alpha-beta's evaluation cache): worth it for an
    /// evaluation that costs more than a memory lookup, such as a network, not for a cheap
    /// sum. The default is `false`.
    #[inline]
    fn worth_caching(&self) -> bool {
        false
    }
}

/// The game's own evaluation, [`Game::evaluate`]: the default of every search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameEval;

impl<G: Game> Evaluator<G> for GameEval {
    #[inline]
    fn evaluate(&self, game: &G, state: &G::State, player: Player) -> G::Score {
        game.evaluate(state, player)
    }
}

impl<G, F> Evaluator<G> for F
where
    G: Game,
    F: Fn(&G, &G::State, Player) -> G::Score + Clone + Send + Sync + 'static,
{
    #[inline]
    fn evaluate(&self, game: &G, state: &G::State, player: Player) -> G::Score {
        self(game, state, player)
    }
}
