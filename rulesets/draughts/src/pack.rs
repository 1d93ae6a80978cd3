//! Draughts positions in 22 bytes ([`PackState`]), for training data.
//!
//! White's pieces, Black's pieces and the kings as bit sets over squares 1..=50 (bit
//! `square - 1`), 7 little-endian bytes each, then the side to move (0 Black, 1 White).
//! The draw counters are not kept.
//!
//! ```
//! use ply::pack::PackState;
//! use ply::Game;
//! use ply_draughts::InternationalDraughts;
//!
//! let game = InternationalDraughts::new();
//! let start = game.initial_state();
//! let mut bytes = vec![0; game.packed_len()];
//! game.pack(&start, &mut bytes);
//! assert_eq!(game.unpack(&bytes), Some(start));
//! assert_eq!(game.unpack(&bytes[1..]), None);
//! ```

use ply::pack::{get_bits, put_bits, PackState};

use crate::rules::{DraughtsState, InternationalDraughts, Piece};

const SET: usize = 7;

impl PackState for InternationalDraughts {
    fn packed_len(&self) -> usize {
        3 * SET + 1
    }

    fn pack(&self, state: &DraughtsState, out: &mut [u8]) {
        let (mut white, mut black, mut kings) = (0u128, 0u128, 0u128);
        for square in 1..=50u8 {
            let bit = 1u128 << (square - 1);
            match state.piece_at(square) {
                Some(p) if p.is_white() => white |= bit,
                Some(_) => black |= bit,
                None => {}
            }
            if state.piece_at(square).is_some_and(Piece::is_king) {
                kings |= bit;
            }
        }
        put_bits(white, &mut out[..SET]);
        put_bits(black, &mut out[SET..2 * SET]);
        put_bits(kings, &mut out[2 * SET..3 * SET]);
        out[3 * SET] = u8::from(state.white_to_move);
    }

    fn unpack(&self, bytes: &[u8]) -> Option<DraughtsState> {
        if bytes.len() != 3 * SET + 1 || bytes[3 * SET] > 1 {
            return None;
        }
        let [white, black, kings] = [0, 1, 2].map(|i| get_bits(&bytes[i * SET..(i + 1) * SET]));
        let board = (1u128 << 50) - 1;
        // Men never stand on their crowning row: 1-5 for White, 46-50 for Black.
        let (white_row, black_row) = (0b11111u128, 0b11111u128 << 45);
        let men = (white | black) & !kings;
        if (white | black) & !board != 0
            || white & black != 0
            || kings & !(white | black) != 0
            || men & white & white_row != 0
            || men & black & black_row != 0
        {
            return None;
        }
        let pieces: Vec<(u8, Piece)> = (1..=50u8)
            .filter_map(|square| {
                let bit = 1u128 << (square - 1);
                let king = kings & bit != 0;
                let piece = match (white & bit != 0, black & bit != 0, king) {
                    (true, _, false) => Piece::WhiteMan,
                    (true, _, true) => Piece::WhiteKing,
                    (_, true, false) => Piece::BlackMan,
                    (_, true, true) => Piece::BlackKing,
                    _ => return None,
                };
                Some((square, piece))
            })
            .collect();
        Some(DraughtsState::from_pieces(&pieces, bytes[3 * SET] == 1))
    }
}
