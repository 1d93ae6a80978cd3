//! Fixed-size binary forms of game states, for training data at volume.
//!
//! A game that implements [`PackState`] has its positions stored in a few bytes each by
//! `tune generate` (13 for checkers on 8x8, 22 for international draughts) instead of as
//! text. The packed form holds what an evaluation sees: the pieces and the player to move.
//! Counters that only the draw rules read (plies without a capture, say) may be left out,
//! so [`PackState::unpack`] gives them their starting values.
//!
//! ```
//! use ply::games::TicTacToe;
//! use ply::pack::PackState;
//! use ply::Game;
//!
//! let game = TicTacToe;
//! let state = game.initial_state();
//! let mut bytes = vec![0; game.packed_len()];
//! game.pack(&state, &mut bytes);
//! assert_eq!(game.unpack(&bytes), Some(state));
//! assert_eq!(game.unpack(&[9; 3]), None);
//! ```

use crate::Game;

/// A game whose states have a fixed-size binary form.
pub trait PackState: Game {
    /// The bytes of one packed state under these rules.
    fn packed_len(&self) -> usize;

    /// Writes `state` into `out`, which is [`PackState::packed_len`] bytes long.
    fn pack(&self, state: &Self::State, out: &mut [u8]);

    /// The state that `bytes` hold, or `None` where they hold none (a wrong length, pieces
    /// that overlap, a value out of range): never a panic, whatever the bytes.
    fn unpack(&self, bytes: &[u8]) -> Option<Self::State>;
}

/// The low `bytes.len()` bytes of `bits`, little-endian, into `bytes`.
pub fn put_bits(bits: u128, bytes: &mut [u8]) {
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = (bits >> (8 * i)) as u8;
    }
}

/// The little-endian number in `bytes` (at most 16 of them).
pub fn get_bits(bytes: &[u8]) -> u128 {
    bytes.iter().rev().fold(0u128, |acc, &b| (acc << 8) | u128::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip() {
        let mut bytes = [0u8; 7];
        put_bits(0x0003_ffff_ffff_ffff, &mut bytes);
        assert_eq!(get_bits(&bytes), 0x0003_ffff_ffff_ffff);
        put_bits(u128::MAX, &mut bytes);
        assert_eq!(get_bits(&bytes), (1u128 << 56) - 1);
    }
}
