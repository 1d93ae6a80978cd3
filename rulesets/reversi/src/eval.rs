//! Heuristic evaluations for any player count.
//!
//! [`Evaluation::Standard`] scores each player `q` by features of the position,
//!
//! ```text
//! F(q) = 40 corners + 12 edge-stable discs + 4 mobility - 15 X-squares - 6 C-squares
//!        + 8 (q moves last) + late * discs
//! ```
//!
//! where corners are q's discs on the four corners; edge-stable discs are q's discs in
//! unbroken runs along an edge from a corner q holds (they can never be flipped); mobility is
//! q's number of placements; X-squares (diagonal neighbours) and C-squares (edge neighbours)
//! count q's discs next to a corner that is still empty (they tend to give that corner
//! away); "moves last" is parity: the player who makes the last placement if nobody passes;
//! and `late` grows from 0 on a half-filled board to 8 on a full one, so the disc count
//! decides only near the end. A player's value is `(n - 1) F(p)` minus the sum of `F(q)` over
//! the other players, which for two players is `F(p) - F(opponent)` (zero-sum).
//!
//! [`Evaluation::Discs`] is the same formula with `F(q)` = q's disc count: the baseline the
//! standard evaluation is measured against.
//!
//! [`Evaluation`] is an [`Evaluator<Reversi>`]: [`ply::Game::evaluate`] calls the one the game
//! was built with ([`Reversi::with_evaluation`]), and a search can take either, or any other
//! evaluator, in its place:
//!
//! ```
//! use ply::search::{alphabeta::AlphaBeta, Agent, Budget, Position};
//! use ply::Game;
//! use ply_reversi::{Evaluation, Reversi};
//!
//! let game = Reversi::new(8, 2)?;
//! let mut discs_only = AlphaBeta::new().with_tt_mb(1).with_evaluator(Evaluation::Discs);
//! let report = discs_only.choose(&game, Position::new(&game.initial_state()), &Budget::depth(3));
//! assert!(report.unwrap().nodes > 0);
//! # Ok::<(), ply_reversi::Error>(())
//! ```

use ply::eval::Evaluator;
use ply::Player;

use crate::board::{bit_test, bits_count, ReversiState};
use crate::Reversi;

/// The heuristic behind [`ply::Game::evaluate`] for [`Reversi`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Evaluation {
    /// Corners, edge stability, mobility, corner-adjacent squares, parity and (late) discs.
    #[default]
    Standard,
    /// Disc count only (the baseline).
    Discs,
}

impl std::str::FromStr for Evaluation {
    type Err = String;

    fn from_str(s: &str) -> Result<Evaluation, String> {
        match s {
            "standard" => Ok(Evaluation::Standard),
            "discs" => Ok(Evaluation::Discs),
            other => Err(format!("unknown evaluation {other:?}: expected standard or discs")),
        }
    }
}

/// Per-player feature scores of `state` under the standard formula.
pub(crate) fn feature_scores(game: &Reversi, state: &ReversiState) -> [i32; 4] {
    let n = game.size();
    let players = game.players();
    let cells = (n * n) as i32;
    let empties = state.empties() as i32;
    let owner = |sq: usize| (0..players).find(|&p| bit_test(&state.discs[p], sq));
    let mut f = [0i32; 4];
    let filled = cells - empties;
    let late = ((filled * 2 - cells).max(0) * 8) / cells;
    for (q, fq) in f.iter_mut().enumerate().take(players) {
        *fq += 4 * game.mobility(state, Player::new(q)) as i32;
        *fq += late * bits_count(&state.discs[q]) as i32;
    }
    let sq = |r: isize, c: isize| (r * n as isize + c) as usize;
    let last = n as isize - 1;
    let corners = [(0, 0, 1, 1), (0, last, 1, -1), (last, 0, -1, 1), (last, last, -1, -1)];
    for &(r, c, dr, dc) in &corners {
        let at = |k: isize, l: isize| sq(r + k * dr, c + l * dc);
        match owner(sq(r, c)) {
            Some(q) => {
                f[q] += 40;
                // Unbroken runs along the row and the column from this corner.
                for (a, b) in [(0, 1), (1, 0)] {
                    let mut k = 1;
                    while k < n as isize && owner(at(a * k, b * k)) == Some(q) {
                        f[q] += 12;
                        k += 1;
                    }
                }
            }
            None => {
                if let Some(q) = owner(at(1, 1)) {
                    f[q] -= 15;
                }
                for s in [at(0, 1), at(1, 0)] {
                    if let Some(q) = owner(s) {
                        f[q] -= 6;
                    }
                }
            }
        }
    }
    if empties > 0 {
        let last_mover = (state.to_move as usize + empties as usize - 1) % players;
        f[last_mover] += 8;
    }
    f
}

impl Evaluator<Reversi> for Evaluation {
    #[inline]
    fn evaluate(&self, game: &Reversi, state: &ReversiState, player: Player) -> i32 {
        evaluate(*self, game, state, player)
    }
}

/// `player`'s value of `state` under `evaluation`: `(n - 1) F(player)` minus the other
/// players' `F(q)`.
pub(crate) fn evaluate(
    evaluation: Evaluation,
    game: &Reversi,
    state: &ReversiState,
    player: Player,
) -> i32 {
    let players = game.players();
    let f: [i32; 4] = match evaluation {
        Evaluation::Standard => feature_scores(game, state),
        Evaluation::Discs => {
            let mut f = [0; 4];
            for (q, fq) in f.iter_mut().enumerate().take(players) {
                *fq = bits_count(&state.discs[q]) as i32;
            }
            f
        }
    };
    let p = player.index();
    let others: i32 = (0..players).filter(|&q| q != p).map(|q| f[q]).sum();
    (players as i32 - 1) * f[p] - others
}
