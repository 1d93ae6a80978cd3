//! Othello in the NBoard protocol's forms: the GGF game record of a position and the text of
//! a move, for the NBoard codec of ply's tools (`ply_tools::engines::nboard`, whose client
//! drives Othello engines such as Edax and whose server serves ply's agents to NBoard GUIs).
//! Game records are read with [`crate::ggf::read`], moves with [`Notation::parse_move`] (which
//! takes `F5` and `PA`).
//!
//! ```
//! use ply::{Game, Notation};
//! use ply_reversi::nboard::{format_ggf, format_move};
//! use ply_reversi::Reversi;
//!
//! let game = Reversi::new(8, 2)?;
//! let start = game.initial_state();
//! let f5 = game.parse_move(&start, "F5")?;
//! assert_eq!(format_move(&game, &start, f5), "F5");
//! assert!(format_ggf(&game, &start).unwrap().starts_with("(;GM[Othello]PC[ply]TY[8]BO[8 "));
//! assert!(format_ggf(&Reversi::new(6, 2)?, &Reversi::new(6, 2)?.initial_state()).is_err());
//! # Ok::<(), ply_reversi::Error>(())
//! ```

use ply::{Game, Notation};

use crate::{Reversi, ReversiMove, ReversiState};

/// The position as a GGF game record with no moves, the form NBoard engines take in
/// `set game`: `(;GM[Othello]PC[ply]TY[8]BO[8 <64 cells> <side>];)`, cells row by row from a1
/// with `*` for player 1 (black), `O` for player 2, `-` for empty ([`crate::ggf`]).
///
/// # Errors
/// If the game is not 2-player 8x8 Othello, which is all the protocol plays.
pub fn format_ggf(game: &Reversi, state: &ReversiState) -> Result<String, String> {
    if game.num_players() != 2 || state.size() != 8 {
        return Err("NBoard game records describe 2-player 8x8 Othello only".to_string());
    }
    Ok(format!("(;GM[Othello]PC[ply]TY[8]BO[{}];)", crate::ggf::board(state)))
}

/// The NBoard text of a move of `state`: its square in upper case (`F5`), `PA` for a pass.
pub fn format_move(game: &Reversi, state: &ReversiState, mv: ReversiMove) -> String {
    match mv {
        ReversiMove::Pass => "PA".to_string(),
        m => game.format_move(state, m).to_ascii_uppercase(),
    }
}
