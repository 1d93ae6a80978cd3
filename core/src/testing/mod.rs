//! The conformance kit: checks that a [`crate::Game`] implementation keeps the trait's
//! contract on seeded random games (with failure messages in the game's [`crate::Notation`]
//! when it has one), and that the searches agree with brute-force references written
//! independently of them: two-player alpha-beta with plain negamax, and the multiplayer
//! search's paranoid, max^n and best-reply models with brute-force searches of each model
//! ([`agreement`]).
//!
//! Enabled by the `testing` feature; a ruleset turns it on from its `[dev-dependencies]`.

pub mod agreement;
mod conformance;
mod fuzz;
mod packing;

pub use conformance::*;
pub use fuzz::{any_text, check_parser, check_reader, check_text_formats, mutations, Mutation};
pub use packing::check_packing;

/// A check of the kit that failed: what went wrong, with the (shrunk) input that shows it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CheckFailure(pub String);

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, MoveList};

/// Plays `games` seeded random games from the initial state, each until it ends or has
/// `max_plies` plies, and calls `visit` at every position on the way (the last included);
/// returns how many positions it visited. The same seed plays the same games.
///
/// ```
/// use ply::games::TicTacToe;
/// use ply::testing::visit_random_games;
/// use ply::Game;
///
/// let game = TicTacToe;
/// let mut finished = 0;
/// let seen = visit_random_games(&game, 20, 100, 7, |state| {
///     finished += usize::from(game.outcome(state).is_some());
/// });
/// assert_eq!(finished, 20);
/// assert!((20 * 6..=20 * 10).contains(&seen));
/// ```
pub fn visit_random_games<G: Game>(
    game: &G,
    games: usize,
    max_plies: usize,
    seed: u64,
    mut visit: impl FnMut(&G::State),
) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = MoveList::new();
    let mut seen = 0;
    for _ in 0..games {
        let mut state = game.initial_state();
        for ply in 0..=max_plies {
            visit(&state);
            seen += 1;
            if ply == max_plies || game.outcome(&state).is_some() {
                break;
            }
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            game.apply(&mut state, moves[rng.gen_range(0..moves.len())]);
        }
    }
    seen
}

/// Checks that `eval` is zero-sum on a two-player game: at every position of `games` seeded
/// random games (up to `max_plies` plies, terminal positions skipped), the value for the
/// first player is minus the value for the second, and its magnitude stays below `bound`.
/// Returns the number of positions checked.
///
/// ```
/// use ply::games::ConnectFour;
/// use ply::testing::check_zero_sum_evaluation;
///
/// let eval = ply::eval::GameEval;
/// let checked = check_zero_sum_evaluation(&ConnectFour::standard(), &eval, 5, 20, 1, 1_000_000);
/// assert!(checked.unwrap() > 20);
/// ```
///
/// # Errors
/// The first position where it is not, in the state's `Debug` form.
pub fn check_zero_sum_evaluation<G, E>(
    game: &G,
    eval: &E,
    games: usize,
    max_plies: usize,
    seed: u64,
    bound: i64,
) -> Result<usize, CheckFailure>
where
    G: Game,
    E: crate::eval::Evaluator<G>,
{
    use num_traits::ToPrimitive;
    let mut checked = 0;
    let mut failure = None;
    visit_random_games(game, games, max_plies, seed, |state| {
        if failure.is_some() || game.outcome(state).is_some() {
            return;
        }
        let first = eval.evaluate(game, state, crate::Player::FIRST);
        let second = eval.evaluate(game, state, crate::Player::SECOND);
        let magnitude = first.to_f64().map_or(f64::INFINITY, f64::abs);
        if first != -second || magnitude >= bound as f64 {
            failure = Some(CheckFailure(format!(
                "{first:?} for the first player, {second:?} for the second (bound {bound}) at \
                 {state:?}"
            )));
        }
        checked += 1;
    });
    failure.map_or(Ok(checked), Err)
}

/// Checks that exact solving keeps apart states whose values differ though their positions
/// are the same (a draw rule's counter nearer its limit): `cases` are solved with one shared
/// table, first in the order given and then in reverse, and each must get its value. A game
/// whose [`Game::value_hash`] leaves out something that decides the value fails it.
///
/// ```
/// use ply::games::TicTacToe;
/// use ply::solve::Exact;
/// use ply::testing::check_value_hash;
/// use ply::Game;
///
/// let game = TicTacToe;
/// check_value_hash(&game, &[(game.initial_state(), Exact::Draw)]).unwrap();
/// assert!(check_value_hash(&game, &[(game.initial_state(), Exact::Win(Some(5)))]).is_err());
/// ```
///
/// # Errors
/// The first state solved to another value, with both values.
pub fn check_value_hash<G: Game>(
    game: &G,
    cases: &[(G::State, crate::solve::Exact)],
) -> Result<(), CheckFailure> {
    use crate::solve::{SolveOptions, Solver};
    let options = SolveOptions { table_mib: 1, ..SolveOptions::default() };
    for reverse in [false, true] {
        let mut solver =
            Solver::new(game, options.clone()).map_err(|e| CheckFailure(e.to_string()))?;
        let order: Vec<&(G::State, crate::solve::Exact)> = match reverse {
            false => cases.iter().collect(),
            true => cases.iter().rev().collect(),
        };
        for (state, expected) in order {
            let value = solver
                .value(state, &|| false, &mut |_| {})
                .map_err(|e| CheckFailure(e.to_string()))?;
            if value != *expected {
                return Err(CheckFailure(format!(
                    "{state:?} solved to {value}, expected {expected} (cases solved {})",
                    if reverse { "in reverse" } else { "in order" }
                )));
            }
        }
    }
    Ok(())
}
