//! A specialised perft: children are built straight from the bitboards (no move list, no
//! `Move` values, no hash), and the last ply is counted without being played.
//!
//! It counts the same tree as [`ply::perft()`] (the tests check this on every board size), so
//! the difference between the two is the cost of the generic [`ply::Game`] path.

use ply::PerftMode;

use crate::bitboard::{Bits, Geometry};
use crate::movegen::{self, Side};
use crate::rules::{with_geo, CheckersState, EnglishCheckers, Rules};

/// The number of leaves `depth` plies below `state`, by bulk counting.
///
/// On 8x8 the bitboards are `u32`s. When the draw-by-quiet-moves rule could end a line inside
/// the tree, this falls back to the generic [`ply::perft()`] so the count stays exact.
///
/// ```
/// use ply::Game;
/// use ply_checkers::{EnglishCheckers, Rules, perft::perft_fast};
///
/// let game = EnglishCheckers::new(8, Rules::Standard)?;
/// assert_eq!(perft_fast(&game, &game.initial_state(), 6), 36_768);
/// # Ok::<(), ply_checkers::Error>(())
/// ```
pub fn perft_fast(game: &EnglishCheckers, state: &CheckersState, depth: u32) -> u64 {
    if game.draws.quiet_plies.is_some_and(|n| u32::from(state.quiet_plies) + depth >= u32::from(n))
    {
        return ply::perft(game, state, depth, PerftMode::Bulk);
    }
    if depth == 0 {
        return 1;
    }
    let standard = game.rules == Rules::Standard;
    with_geo!(game, g, perft_rec(g, standard, state.side(), depth))
}

fn perft_rec<B: Bits>(g: &Geometry<B>, standard: bool, side: Side<B>, depth: u32) -> u64 {
    if depth == 1 {
        return movegen::count(g, standard, &side);
    }
    let mut total = 0;
    let mut capturers = side.capturers(g);
    if !capturers.is_empty() {
        while !capturers.is_empty() {
            let from = capturers.pop();
            let from_bit = B::bit(from);
            let was_king = side.kings.has(from);
            movegen::piece_captures(
                g,
                standard,
                &side,
                from,
                &mut |to, captured: B, crowned, _| {
                    let to_bit = B::bit(u32::from(to));
                    let mut kings = side.kings & !captured & !from_bit;
                    if was_king || crowned {
                        kings |= to_bit;
                    }
                    let child = Side {
                        own: side.opp & !captured,
                        opp: (side.own & !from_bit) | to_bit,
                        kings,
                        color: side.color ^ 1,
                    };
                    total += perft_rec(g, standard, child, depth - 1);
                },
            );
        }
        return total;
    }
    let empty = side.empty(g);
    let crown_row = g.crown_row[side.color];
    let (dirs, len) = side.directions();
    for &d in &dirs[..len] {
        let mut targets = g.step(d, side.movers(d)) & empty;
        let back = crate::bitboard::REVERSE[d];
        while !targets.is_empty() {
            let to = targets.pop();
            let to_bit = B::bit(to);
            let from_bit = g.step(back, to_bit);
            let mut kings = side.kings;
            if !(kings & from_bit).is_empty() {
                kings = (kings & !from_bit) | to_bit;
            } else if crown_row.has(to) {
                kings |= to_bit;
            }
            let child = Side {
                own: side.opp,
                opp: (side.own & !from_bit) | to_bit,
                kings,
                color: side.color ^ 1,
            };
            total += perft_rec(g, standard, child, depth - 1);
        }
    }
    total
}

/// Perft through the generic [`ply::Game`] path with every leaf move played
/// ([`PerftMode::MakeAll`]), for comparison with [`perft_fast`].
pub fn perft_make_all(game: &EnglishCheckers, state: &CheckersState, depth: u32) -> u64 {
    ply::perft(game, state, depth, PerftMode::MakeAll)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::Game;

    #[test]
    fn fast_perft_agrees_with_generic_perft() {
        for size in [4, 6, 8, 10] {
            for rules in [Rules::Standard, Rules::Deepomatic] {
                let game = EnglishCheckers::new(size, rules).unwrap();
                let s = game.initial_state();
                for depth in 0..=5 {
                    assert_eq!(
                        perft_fast(&game, &s, depth),
                        ply::perft(&game, &s, depth, PerftMode::MakeAll),
                        "{size}x{size} {rules} depth {depth}"
                    );
                }
            }
        }
    }
}
