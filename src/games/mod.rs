//! Small games that come with the library: the tutorial games of the README and the test
//! beds of the search library.
//!
//! - [`TicTacToe`]: 3x3, two players; small enough to solve completely.
//! - [`ConnectFour`]: the tutorial game of the README's "Implement your own game" guide, with
//!   the board size and the line length as runtime options.
//! - [`ThreeHeaps`]: a three-player take-away game, the test bed for multiplayer search.

mod connect_four;
mod three_heaps;
mod tictactoe;

pub use connect_four::{ConnectFour, ConnectFourError, ConnectFourState};
pub use three_heaps::{ThreeHeaps, ThreeHeapsError, ThreeHeapsState};
pub use tictactoe::{TicTacToe, TicTacToeState};

/// Mixes a 64-bit value into a well-spread hash (SplitMix64's finaliser). Handy for games whose
/// whole state fits in a `u64` and so needs no Zobrist table.
#[inline]
pub fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
