//! Small games that come with the library: the tutorial games of the guide (`docs/`) and the test
//! beds of the search library.
//!
//! - [`TicTacToe`]: 3x3, two players; small enough to solve completely.
//! - [`ConnectFour`]: the tutorial game of `docs/implementing-a-game.md`, with
//!   the board size and the line length as runtime options.
//! - [`ThreeHeaps`]: a three-player take-away game, the test bed for multiplayer search.
//! - [`CoinRow`]: a two-player game whose turn order is a rule ([`TurnOrder`]): alternating,
//!   an extra turn after an even coin, or the irregular Thue-Morse sequence; the test bed for
//!   searches, books and tables that must follow the player to move.
//!
//! The evaluations of tic-tac-toe and Connect Four are also [`Evaluator`](crate::eval::Evaluator)
//! types, [`OpenLines`] and [`OpenWindows`], which their [`Game::evaluate`](crate::Game::evaluate)
//! calls.

mod coin_row;
mod connect_four;
mod three_heaps;
mod tictactoe;

pub use coin_row::{CoinRow, CoinRowError, CoinRowState, TurnOrder, MAX_COINS};
pub use connect_four::{ConnectFour, ConnectFourError, ConnectFourState, OpenWindows};
pub use three_heaps::{ThreeHeaps, ThreeHeapsError, ThreeHeapsState};
pub use tictactoe::{OpenLines, TicTacToe, TicTacToeState};
