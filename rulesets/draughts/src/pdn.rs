//! Game records in PDN 3.0 (Portable Draughts Notation), the format draughts programs
//! exchange: the `write_record` and `read_record` of [`ply::Notation`] for
//! [`InternationalDraughts`].
//!
//! Written: the tags `Event`, `Result` (`2-0` when White, the side that moves first, wins,
//! `0-2` when Black wins, `1-1` for a draw, `*` while the game goes on), `GameType` (20,
//! international draughts), and `SetUp "1"` with `FEN` when the game does not start from the
//! initial position. Then the movetext, `1. 32-28 19-23 2. ...` (`1...` first when Black
//! moves first), wrapped before 80 columns, ending with the result.
//!
//! Read: the first game of the text. Tags may come in any order and unknown ones are
//! ignored; comments (`{...}`, `;` to the end of the line), variations (`(...)`), NAGs
//! (`$1`) and move suffixes (`!`, `?`, `*`) are skipped; moves take `-` or `x`; the result
//! token (or the next game's tags) ends the game. A `GameType` other than international
//! draughts is refused. A text whose first line is a position (ply's plain record,
//! [`ply::record::write_text`]) is read as such.

use ply::record::pdn::{self, GameType, Scoring};
use ply::record::ReadRecordError;
use ply::Notation;

use crate::movegen::Move;
use crate::rules::{DraughtsState, InternationalDraughts};

/// PDN's `GameType` number of international draughts.
pub(crate) const GAME_TYPE: u32 = 20;

/// International draughts' `GameType`: 20, White first, 10x10.
const KIND: GameType = GameType { number: GAME_TYPE, first: 'W', size: 10, standard_size: 10 };

/// The record of `moves` from `start` in PDN.
pub(crate) fn write(game: &InternationalDraughts, start: &DraughtsState, moves: &[Move]) -> String {
    pdn::write_game(game, start, moves, Scoring::TwoPoints, &[("GameType", KIND.value())])
}

/// The start and the moves of the first game in `text`, PDN or ply's plain record.
pub(crate) fn read(
    game: &InternationalDraughts,
    text: &str,
) -> Result<(DraughtsState, Vec<Move>), ReadRecordError> {
    pdn::read_game(
        game,
        text,
        &KIND,
        |_| Ok(()),
        |state, text| game.parse_move(state, text).map_err(|e| e.to_string()),
    )
}
