//! Game records in PDN 3.0 (Portable Draughts Notation), the format draughts programs
//! exchange: the `write_record` and `read_record` of [`ply::Notation`] for
//! [`EnglishCheckers`].
//!
//! Written: the tags `Event`, `Result` (`1-0` when Black, the side that moves first, wins,
//! `0-1` when White wins, `1/2-1/2`, `*` while the game goes on), `GameType` (21, English
//! draughts; with the board's size, `21,B,10,10,N1,0`, on boards other than 8x8),
//! `Variant "deepomatic"` under the Deepomatic rules (standard English draughts ends a move
//! when a man is crowned; these rules let it capture on), and `SetUp "1"` with `FEN` when the
//! game does not start from the initial position. Then the movetext, `1. 11-15 23-19 2. ...`
//! (`1...` first when White moves first), wrapped before 80 columns, ending with the result.
//!
//! Read: the first game of the text. Tags may come in any order and unknown ones are
//! ignored; comments (`{...}`, `;` to the end of the line), variations (`(...)`), NAGs
//! (`$1`) and move suffixes (`!`, `?`, `*`) are skipped; moves take `-` or `x`; the result
//! token (or the next game's tags) ends the game. A `GameType` other than English draughts,
//! a board size or rule set other than the game's is refused. A text whose first line is a
//! position (ply's plain record, [`ply::record::write_text`]) is read as such, with
//! the same checks.

use ply::record::pdn::{self, GameType, PdnTag, Scoring};
use ply::record::ReadRecordError;
use ply::Notation;

use crate::moves::Move;
use crate::notation::fits;
use crate::rules::{CheckersState, EnglishCheckers, Rules};

/// PDN's `GameType` number of English draughts (checkers).
pub(crate) const GAME_TYPE: u32 = 21;

/// The `GameType` of `game`: 21, with the board's size when it is not 8x8.
fn game_type(game: &EnglishCheckers) -> GameType {
    GameType { number: GAME_TYPE, first: 'B', size: game.size(), standard_size: 8 }
}

/// The record of `moves` from `start` in PDN.
pub(crate) fn write(game: &EnglishCheckers, start: &CheckersState, moves: &[Move]) -> String {
    let mut tags = vec![("GameType", game_type(game).value())];
    if game.rules() != Rules::Standard {
        tags.push(("Variant", game.rules().to_string()));
    }
    pdn::write_game(game, start, moves, Scoring::OnePoint, &tags)
}

/// The start and the moves of the first game in `text`, PDN or ply's plain record; a
/// capture written short that several jump orders fit is read as any of them when they
/// all give the same position.
pub(crate) fn read(
    game: &EnglishCheckers,
    text: &str,
) -> Result<(CheckersState, Vec<Move>), ReadRecordError> {
    let check = |pdn: &pdn::PdnGame| check_rules(game, pdn.tag("Variant"));
    pdn::read_game(game, text, &game_type(game), check, |state, text| {
        game.parse_move(state, text)
            .or_else(|e| same_result(game, state, text).ok_or(e))
            .map_err(|e| e.to_string())
    })
}

/// Refuses a record whose rules (the `Variant` tag, standard English draughts without one)
/// are not the game's.
fn check_rules(game: &EnglishCheckers, tag: Option<&PdnTag>) -> Result<(), ReadRecordError> {
    let (rules, line) = match tag {
        Some(tag) => {
            let rules = tag.value.parse::<Rules>().map_err(|_| {
                ReadRecordError::new(
                    tag.line,
                    format!("unknown Variant {:?}: expected deepomatic or standard", tag.value),
                )
            })?;
            (rules, tag.line)
        }
        None => (Rules::Standard, 0),
    };
    if rules == game.rules() {
        return Ok(());
    }
    let file = match tag {
        Some(_) => format!("the file's rules are {rules} (Variant tag)"),
        None => "the file is a game of standard English draughts (no Variant tag)".to_string(),
    };
    Err(ReadRecordError::new(
        line,
        format!(
            "{file}, this game plays the {} rules: load it in a game with the {rules} rules",
            game.rules()
        ),
    ))
}

/// The first of the legal captures that a short form such as `5x32` names when they all
/// take the same pieces from the same start to the same end (they differ only in the order
/// of the jumps, and give the same position), as other programs write them.
fn same_result(game: &EnglishCheckers, state: &CheckersState, text: &str) -> Option<Move> {
    let crate::notation::MoveText::Numbers { squares, .. } = text.parse().ok()? else {
        return None;
    };
    let want: Vec<usize> = squares.iter().map(|&n| n.wrapping_sub(1)).collect();
    let fitting: Vec<Move> = game
        .moves_with_paths(state)
        .into_iter()
        .filter(|(_, path)| fits(&want, path))
        .map(|(m, _)| m)
        .collect();
    let first = *fitting.first()?;
    let same = |m: &Move| {
        m.from == first.from
            && m.to == first.to
            && m.captured == first.captured
            && m.crowns == first.crowns
    };
    fitting.iter().all(same).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::Game;

    #[test]
    fn game_type_names_the_board_size_off_8x8() {
        let eight = EnglishCheckers::new(8, Rules::Standard).unwrap();
        assert_eq!(game_type(&eight).value(), "21");
        let ten = EnglishCheckers::new(10, Rules::Standard).unwrap();
        assert_eq!(game_type(&ten).value(), "21,B,10,10,N1,0");
        let tag = PdnTag { name: "GameType".into(), value: "21".into(), line: 3 };
        let err = game_type(&ten).check(Some(&tag)).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.to_string().contains("8x8"), "{err}");
    }

    #[test]
    fn same_result_reads_only_moves_that_fit() {
        let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
        let start = game.initial_state();
        let nine = game.parse_move(&start, "9-14").unwrap();
        assert_eq!(same_result(&game, &start, "9-14"), Some(nine));
        assert_eq!(same_result(&game, &start, "9-18"), None);
        assert_eq!(same_result(&game, &start, "hello"), None);
    }
}
