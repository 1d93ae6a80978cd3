//! Checkers positions in a few bytes ([`PackState`]), for training data.
//!
//! Black's pieces, White's pieces and the kings as bit sets over the dark squares, each in
//! `ceil(squares / 8)` little-endian bytes, then the colour to move (0 Black, 1 White):
//! 13 bytes on 8x8. The plies without a capture or man move are not kept.
//!
//! ```
//! use ply::pack::PackState;
//! use ply::Game;
//! use ply_checkers::{EnglishCheckers, Rules};
//!
//! let game = EnglishCheckers::new(8, Rules::Standard)?;
//! let start = game.initial_state();
//! let mut bytes = vec![0; game.packed_len()];
//! game.pack(&start, &mut bytes);
//! // Black's men on squares 1-12, White's on 21-32, Black to move.
//! assert_eq!(bytes, [0xff, 0x0f, 0, 0, 0, 0, 0xf0, 0xff, 0, 0, 0, 0, 0]);
//! assert_eq!(game.unpack(&bytes), Some(start));
//! # Ok::<(), ply_checkers::Error>(())
//! ```

use ply::pack::{get_bits, put_bits, PackState};

use crate::rules::{CheckersState, Color, EnglishCheckers, Piece};

impl EnglishCheckers {
    /// Bytes of one bit set over the dark squares.
    fn set_bytes(&self) -> usize {
        self.squares().div_ceil(8)
    }
}

impl PackState for EnglishCheckers {
    fn packed_len(&self) -> usize {
        3 * self.set_bytes() + 1
    }

    fn pack(&self, state: &CheckersState, out: &mut [u8]) {
        let n = self.set_bytes();
        put_bits(state.pieces[0], &mut out[..n]);
        put_bits(state.pieces[1], &mut out[n..2 * n]);
        put_bits(state.kings, &mut out[2 * n..3 * n]);
        out[3 * n] = state.side;
    }

    fn unpack(&self, bytes: &[u8]) -> Option<CheckersState> {
        let n = self.set_bytes();
        if bytes.len() != 3 * n + 1 {
            return None;
        }
        let [black, white, kings] = [0, 1, 2].map(|i| get_bits(&bytes[i * n..(i + 1) * n]));
        let board = u128::MAX >> (128 - self.squares());
        let to_move = match bytes[3 * n] {
            0 => Color::Black,
            1 => Color::White,
            _ => return None,
        };
        if (black | white) & !board != 0 || black & white != 0 || kings & !(black | white) != 0 {
            return None;
        }
        let pieces: Vec<(usize, Piece)> = (0..self.squares())
            .filter(|&sq| (black | white) >> sq & 1 == 1)
            .map(|sq| {
                let color = if black >> sq & 1 == 1 { Color::Black } else { Color::White };
                (sq, Piece { color, king: kings >> sq & 1 == 1 })
            })
            .collect();
        self.position(to_move, &pieces).ok()
    }
}
