//! Evaluations apart from the rules: [`Weighted`], a store difference plus a share of the
//! seeds still on each side.

use ply::eval::Evaluator;
use ply::Player;

use crate::rules::{Kalah, KalahState};

/// `store` times the store difference plus `side` times the difference of the seeds in the
/// two sides' houses, from the player's side. Antisymmetric: the opponent's value is the
/// negation.
///
/// [`Weighted::STORES`] (the store difference alone, in seeds) is what
/// [`ply::Game::evaluate`] gives.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Notation, Player};
/// use ply_kalah::{Kalah, Weighted};
///
/// let game = Kalah::standard();
/// let s = game.parse_state("1,0,0,1,2,5/20/1,0,0,0,1,1/16 s")?;
/// assert_eq!(Weighted::STORES.evaluate(&game, &s, Player::FIRST), 4);
/// let houses = Weighted { store: 4, side: 1 };
/// assert_eq!(houses.evaluate(&game, &s, Player::FIRST), 4 * 4 + (9 - 3));
/// assert_eq!(houses.evaluate(&game, &s, Player::SECOND), -22);
/// # Ok::<(), ply_kalah::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weighted {
    /// The weight of a seed in a store.
    pub store: i32,
    /// The weight of a seed in the player's own houses (and minus it in the opponent's).
    pub side: i32,
}

impl Weighted {
    /// The store difference alone, in seeds: the margin already banked.
    pub const STORES: Weighted = Weighted { store: 1, side: 0 };
}

impl Evaluator<Kalah> for Weighted {
    #[inline]
    fn evaluate(&self, _game: &Kalah, state: &KalahState, player: Player) -> i32 {
        let them = player.opponent();
        let stores = i32::from(state.store(player)) - i32::from(state.store(them));
        let sides = state.side_seeds(player) as i32 - state.side_seeds(them) as i32;
        self.store * stores + self.side * sides
    }
}
