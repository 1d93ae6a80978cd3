//! Evaluations, apart from the rules: each is a type that implements
//! [`ply::eval::Evaluator<Breakthrough>`], written against the public API of this crate only
//! ([`BreakthroughState::pawns`], [`Breakthrough::row_mask`], [`Breakthrough::attacks`]), as
//! an evaluation of your own would be.
//!
//! Both evaluations score each side on its own, then return the difference, so that
//! `evaluate(s, p) == -evaluate(s, p.opponent())` holds by construction.
//!
//! `ply`'s searches call an evaluator at their leaves: by default [`ply::eval::GameEval`],
//! which calls [`ply::Game::evaluate`], which for [`Breakthrough`] is [`Standard::DEFAULT`].
//! Another evaluator plays the same rules differently. A closure is one too:
//!
//! ```
//! use ply::eval::Evaluator;
//! use ply::{Game, Player};
//! use ply_breakthrough::{Breakthrough, BreakthroughState};
//!
//! // Rows between each side's most advanced pawn and its home row, the leader scoring.
//! let lead = |game: &Breakthrough, state: &BreakthroughState, player: Player| -> i32 {
//!     let front = |p: Player| {
//!         let rows = (0..game.rows()).filter(|&r| state.pawns(p) & game.row_mask(r) != 0);
//!         let ahead = rows.map(|r| if p == Player::FIRST { r } else { game.rows() - 1 - r });
//!         ahead.max().unwrap_or(0) as i32
//!     };
//!     front(player) - front(player.opponent())
//! };
//! let game = Breakthrough::standard();
//! assert_eq!(lead.evaluate(&game, &game.initial_state(), Player::FIRST), 0);
//! ```

use ply::eval::Evaluator;
use ply::Player;

use crate::rules::{Breakthrough, BreakthroughState};

/// Pawns only: 100 per pawn more than the opponent. A baseline to measure [`Standard`]
/// against.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_breakthrough::{Breakthrough, Material};
///
/// let game = Breakthrough::standard();
/// assert_eq!(Material.evaluate(&game, &game.initial_state(), Player::FIRST), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Material;

impl Evaluator<Breakthrough> for Material {
    fn evaluate(&self, _game: &Breakthrough, state: &BreakthroughState, player: Player) -> i32 {
        let count = |p: Player| state.pawns(p).count_ones() as i32;
        100 * (count(player) - count(player.opponent()))
    }
}

/// The default evaluation, [`ply::Game::evaluate`] for [`Breakthrough`]: material,
/// advancement, home-row guards and hanging pawns, in hundredths of a pawn.
///
/// Each side scores, per pawn, `pawn`; plus `advance` times the square of the rows it has
/// advanced from its home row (a pawn near the far row is a threat worth more than a pawn);
/// plus `home` if it still stands on the home row, where it guards the squares an enemy
/// pawn must cross; minus `hanging` if it belongs to the player who has just moved and an
/// enemy pawn attacks it with no pawn of its own side defending it (it can be taken for
/// free next move).
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Notation, Player};
/// use ply_breakthrough::{Breakthrough, Standard};
///
/// let game = Breakthrough::standard();
/// let start = game.initial_state();
/// assert_eq!(Standard::DEFAULT.evaluate(&game, &start, Player::FIRST), 0);
/// // White's d6 stands five rows up, and c5 defends it: good for White, as bad for Black.
/// let state = game.parse_state("......../..B.B.../...W..../..W...../......../......../......../........ b")?;
/// let white = Standard::DEFAULT.evaluate(&game, &state, Player::FIRST);
/// assert!(white > 0);
/// assert_eq!(Standard::DEFAULT.evaluate(&game, &state, Player::SECOND), -white);
/// # Ok::<(), ply_breakthrough::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standard {
    /// Per pawn.
    pub pawn: i32,
    /// Per pawn, times the square of the rows it has advanced.
    pub advance: i32,
    /// Per pawn still on its home row.
    pub home: i32,
    /// Per hanging pawn of the player who has just moved (subtracted).
    pub hanging: i32,
}

impl Standard {
    /// The default weights, chosen by engine matches (see the crate README).
    pub const DEFAULT: Standard = Standard { pawn: 100, advance: 4, home: 25, hanging: 50 };

    /// The score of `player`'s pawns alone.
    fn side(&self, game: &Breakthrough, state: &BreakthroughState, player: Player) -> i32 {
        let (pawns, enemy) = (state.pawns(player), state.pawns(player.opponent()));
        let count = |bits: u64| bits.count_ones() as i32;
        let rows = game.rows();
        let mut progress = 0;
        for row in 0..rows {
            let ahead = if player == Player::FIRST { row } else { rows - 1 - row };
            progress += count(pawns & game.row_mask(row)) * (ahead * ahead) as i32;
        }
        let home_row = game.row_mask(if player == Player::FIRST { 0 } else { rows - 1 });
        // The player to move can still step a hanging pawn away or defend it.
        let exposed = if state.side_to_move() == player { 0 } else { pawns };
        let hanging =
            exposed & game.attacks(player.opponent(), enemy) & !game.attacks(player, pawns);
        self.pawn * count(pawns) + self.advance * progress + self.home * count(pawns & home_row)
            - self.hanging * count(hanging)
    }
}

impl Default for Standard {
    /// [`Standard::DEFAULT`].
    fn default() -> Self {
        Standard::DEFAULT
    }
}

impl Evaluator<Breakthrough> for Standard {
    fn evaluate(&self, game: &Breakthrough, state: &BreakthroughState, player: Player) -> i32 {
        self.side(game, state, player) - self.side(game, state, player.opponent())
    }
}
