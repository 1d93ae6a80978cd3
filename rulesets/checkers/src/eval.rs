//! The static evaluation the engine searches with: [`Classic`], a weighted sum of material
//! and positional terms ([`Weights`]). [`ply::Game::evaluate`] of [`EnglishCheckers`] calls the
//! game's [`Classic`] (set with [`EnglishCheckers::with_weights`]); any other
//! [`Evaluator<EnglishCheckers>`] can take its place in a search:
//!
//! ```
//! use ply::search::{alphabeta::AlphaBeta, Agent, Budget, Position};
//! use ply::Game;
//! use ply_checkers::eval::{Classic, Weights};
//! use ply_checkers::{EnglishCheckers, Rules};
//!
//! let game = EnglishCheckers::new(8, Rules::Deepomatic)?;
//! let mut engine = AlphaBeta::new().with_tt_mb(1).with_evaluator(Classic::new(Weights::material_only()));
//! let report = engine.choose(&game, Position::new(&game.initial_state()), &Budget::depth(4)).unwrap();
//! assert!(report.nodes > 0);
//! # Ok::<(), ply_checkers::Error>(())
//! ```

use ply::eval::Evaluator;
use ply::Player;

use crate::bitboard::{Bits, Geometry};
use crate::rules::{with_geo, CheckersState, EnglishCheckers};

/// Evaluation weights, in hundredths of a man. The defaults were chosen by engine-vs-engine
/// matches between weight sets (results in the crate README; the arena compares evaluations
/// registered by name, `alphabeta:eval=material`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// Per row a man has advanced from its own back row.
    pub advance: i32,
    /// Per man still on its own back row (guarding the crowning squares).
    pub back_row: i32,
    /// Per piece on a centre square (two rows and columns from every edge).
    pub centre: i32,
    /// Per quiet move available (the mover's minus the opponent's).
    pub mobility: i32,
    /// Bonus for the side ahead in material as pieces come off: the material difference
    /// times `trade`, divided by the number of pieces left plus 2.
    pub trade: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights { man: 100, king: 160, advance: 0, back_row: 20, centre: 4, mobility: 3, trade: 8 }
    }
}

impl Weights {
    /// Material only: men and kings, nothing positional.
    pub fn material_only() -> Weights {
        Weights { man: 100, king: 150, advance: 0, back_row: 0, centre: 0, mobility: 0, trade: 0 }
    }
}

/// The classic evaluation: material, back row, centre, mobility and a bonus for trading when
/// ahead, weighted by [`Weights`], from the point of view of the player asked (zero-sum).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Classic {
    /// The weights of the terms.
    pub weights: Weights,
}

impl Classic {
    /// The evaluation with these weights.
    pub fn new(weights: Weights) -> Classic {
        Classic { weights }
    }
}

impl Evaluator<EnglishCheckers> for Classic {
    #[inline]
    fn evaluate(&self, game: &EnglishCheckers, state: &CheckersState, player: Player) -> i32 {
        let v = with_geo!(game, g, evaluate(g, &self.weights, state));
        if player.index() == 0 {
            v
        } else {
            -v
        }
    }
}

/// The value of `s` for Black (positive is good for Black).
pub(crate) fn evaluate<B: Bits>(g: &Geometry<B>, w: &Weights, s: &CheckersState) -> i32 {
    let kings = B::from_u128(s.kings);
    let own = [B::from_u128(s.pieces[0]), B::from_u128(s.pieces[1])];
    let mut material = [0i32; 2];
    let mut positional = [0i32; 2];
    let last = g.size - 1;
    for c in 0..2 {
        let men = own[c] & !kings;
        let k = own[c] & kings;
        material[c] = w.man * men.count() as i32 + w.king * k.count() as i32;
        let mut p = 0;
        if w.advance != 0 {
            for r in 1..last {
                let rows_advanced = if c == 0 { r } else { last - r };
                p += (rows_advanced as i32) * (men & g.rows[r]).count() as i32;
            }
            p *= w.advance;
        }
        p += w.back_row * (men & g.crown_row[c ^ 1]).count() as i32;
        p += w.centre * (own[c] & g.centre).count() as i32;
        positional[c] = p;
    }
    let mut v = material[0] - material[1] + positional[0] - positional[1];
    if w.mobility != 0 {
        let side =
            |c: usize| crate::movegen::Side { own: own[c], opp: own[c ^ 1], kings, color: c };
        v += w.mobility * (side(0).quiet_count(g) as i32 - side(1).quiet_count(g) as i32);
    }
    if w.trade != 0 {
        let pieces = (own[0] | own[1]).count() as i32;
        v += (material[0] - material[1]) * w.trade / (pieces + 2);
    }
    v
}
