//! The Deepomatic challenge's API (`ply_games.checkers`): boards as lists of row strings,
//! moves as lists of visited `(row, col)` squares, with the rules of
//! [`ply_checkers::seed`] and the error messages of its JSON-lines mode
//! (`ply_tools::engines::jsonl`).
//!
//! A board is N strings of N characters (any even N from 4 to 16), row 0 (Black's side)
//! first: `_` empty, `b`/`B` a black man/king, `w`/`W` a white man/king. The colour to move
//! is `"b"` or `"w"`. The rules are `"deepomatic"` (the challenge's, the default) or
//! `"standard"` (a man that is crowned ends its move).
//!
//! ```
//! use ply_games::checkers;
//!
//! let board = ["________", "__b_____", "_w_w____", "________", "_w______", "_____b__",
//!              "____w___", "___w____"];
//! let mut moves = checkers::allowed_moves(&board, "b", "deepomatic")?;
//! moves.sort();
//! assert_eq!(moves, vec![vec![(1, 2), (3, 0), (5, 2)], vec![(1, 2), (3, 4)]]);
//! let chosen = checkers::play(&board, "b", "deepomatic", None, Some(4))?;
//! assert!(moves.contains(&chosen));
//!
//! let e = checkers::allowed_moves(&["_b__", "___", "____", "w___"], "b", "deepomatic");
//! assert_eq!(e.unwrap_err().to_string(), "row 1 has 3 squares, expected 4");
//! # Ok::<(), ply_games::Error>(())
//! ```

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use ply::search::Budget;
use ply_checkers::seed::{self, Path};
use ply_checkers::Rules;

use crate::{Error, Result};

/// The engine's time per move when `play` is given neither a time nor a depth: the package's
/// one default, [`crate::games::DEFAULT_SEARCH_TIME`].
pub const DEFAULT_TIME: Duration = crate::games::DEFAULT_SEARCH_TIME;

/// Reads a rule-set name, `deepomatic` or `standard` (any case).
///
/// # Errors
/// [`Error::Input`] with the ruleset's message for any other name.
pub fn parse_rules(rules: &str) -> Result<Rules> {
    rules.parse().map_err(Error::input)
}

/// Reads the colour argument as the JSON mode does: one character (`b`, `w`, or their
/// capitals; the board reader refuses any other character with its own message).
///
/// # Errors
/// [`Error::Input`] for a string that is not one character, with the JSON mode's message.
pub fn parse_color(color: &str) -> Result<char> {
    let mut chars = color.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(Error::Input(format!("unknown colour {color:?}: expected \"b\" or \"w\""))),
    }
}

/// A time limit in seconds as a [`Duration`].
///
/// # Errors
/// [`Error::Input`] unless `seconds` is a finite number above zero.
pub fn parse_seconds(seconds: f64) -> Result<Duration> {
    match Duration::try_from_secs_f64(seconds) {
        Ok(d) if !d.is_zero() => Ok(d),
        _ => {
            Err(Error::Input(format!("bad time {seconds}: expected a positive number of seconds")))
        }
    }
}

/// A depth limit in plies.
///
/// # Errors
/// [`Error::Input`] unless `depth` is from 1 to `u32::MAX`.
pub fn parse_depth(depth: i64) -> Result<u32> {
    u32::try_from(depth).ok().filter(|&d| d > 0).ok_or_else(|| {
        Error::Input(format!("bad depth {depth}: expected a positive number of plies"))
    })
}

/// Every legal move of `color` on `board` under `rules`, as the visited squares
/// ([`seed::allowed_moves_with`]).
///
/// # Errors
/// [`Error::Input`] with the JSON mode's message for an unknown rule set or colour, a board
/// of an unsupported size, rows of the wrong length, an unknown character, or a man on its
/// crowning row.
pub fn allowed_moves<S: AsRef<str>>(board: &[S], color: &str, rules: &str) -> Result<Vec<Path>> {
    let rules = parse_rules(rules)?;
    let color = parse_color(color)?;
    seed::allowed_moves_with(rules, board, color).map_err(Error::input)
}

/// The board after `color` plays `mv` (one of [`allowed_moves`]) under `rules`
/// ([`seed::apply_move_with`]).
///
/// # Errors
/// As [`allowed_moves`], plus the seed's message for a move that is not legal.
pub fn apply_move<S: AsRef<str>>(
    board: &[S],
    color: &str,
    mv: &[(usize, usize)],
    rules: &str,
) -> Result<Vec<String>> {
    let rules = parse_rules(rules)?;
    let color = parse_color(color)?;
    seed::apply_move_with(rules, board, color, mv).map_err(Error::input)
}

/// The engine's move for `color` on `board` under `rules`: alpha-beta for at most `time`
/// seconds and `depth` plies. With neither it searches for [`DEFAULT_TIME`]; with a time
/// only it is exactly [`seed::play_with`], the JSON mode's `play`.
///
/// # Errors
/// As [`allowed_moves`], plus a bad time or depth, and (with the JSON mode's message) a
/// position where `color` has no legal move.
pub fn play<S: AsRef<str>>(
    board: &[S],
    color: &str,
    rules: &str,
    time: Option<f64>,
    depth: Option<i64>,
) -> Result<Path> {
    play_until(board, color, rules, time, depth, &Arc::default())
}

/// [`play`] that ends early, with the best move so far, once `stop` is set (Python's
/// Ctrl-C sets it).
///
/// # Errors
/// As [`play`].
pub fn play_until<S: AsRef<str>>(
    board: &[S],
    color: &str,
    rules: &str,
    time: Option<f64>,
    depth: Option<i64>,
    stop: &Arc<AtomicBool>,
) -> Result<Path> {
    let rules = parse_rules(rules)?;
    let time = time.map(parse_seconds).transpose()?;
    let depth = depth.map(parse_depth).transpose()?;
    let color = parse_color(color)?;
    let mut budget = match depth {
        None => Budget::time(time.unwrap_or(DEFAULT_TIME)),
        Some(depth) => Budget::depth(depth),
    };
    if depth.is_some() {
        budget.time = time;
    }
    let budget = budget.with_stop(stop.clone());
    seed::play_budget(rules, board, color, &budget).map_err(Error::input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::search::Agent;
    use ply_checkers::EnglishCheckers;
    use ply_tools::engines::jsonl::{self, PlayServer};

    const EXAMPLE_1: [&str; 8] = [
        "________", "__b_____", "_w_w____", "________", "_w______", "_____b__", "____w___",
        "___w____",
    ];
    const EXAMPLE_2: [&str; 8] = [
        "________", "__b_b___", "_w______", "______b_", "_______b", "________", "________",
        "________",
    ];

    /// The JSON mode's error text for `board` and `color`, or `None` if it answers.
    fn json_error(board: &[&str], color: &str, play: bool) -> Option<String> {
        let line = format!(r#"{{"board": {board:?}, "color": {color:?}}}"#);
        let time = play.then_some(Duration::from_millis(10));
        let game = EnglishCheckers::new(8, Rules::Deepomatic).unwrap();
        let codec = ply_bundle::checkers_jsonl_codec();
        let reply = match time {
            None => jsonl::answer_moves(&line, &game, codec),
            Some(time) => {
                let build = Box::new(|_: &EnglishCheckers| {
                    let engine: Box<dyn Agent<EnglishCheckers> + Send> =
                        Box::new(ply_checkers::engine::engine());
                    Ok(engine)
                });
                PlayServer::new(game, codec, time, build).answer(&line)
            }
        };
        let prefix = r#"{"error":""#;
        reply.strip_prefix(prefix).map(|rest| {
            // The JSON string back to text (the messages here escape only quotes).
            rest.trim_end_matches("\"}").replace("\\\"", "\"")
        })
    }

    #[test]
    fn the_seed_examples() {
        let mut moves = allowed_moves(&EXAMPLE_1, "b", "deepomatic").unwrap();
        moves.sort();
        assert_eq!(moves, vec![vec![(1, 2), (3, 0), (5, 2)], vec![(1, 2), (3, 4)]]);
        assert_eq!(
            allowed_moves(&EXAMPLE_2, "w", "deepomatic").unwrap(),
            vec![vec![(2, 1), (0, 3), (2, 5)]]
        );
        assert_eq!(allowed_moves(&EXAMPLE_2, "w", "Standard").unwrap(), vec![vec![(2, 1), (0, 3)]]);
    }

    #[test]
    fn errors_match_the_json_mode() {
        let cases: &[(&[&str], &str)] = &[
            (&["_b__", "___", "____", "w___"], "b"),
            (&["_b__", "____", "____", "w___"], "black"),
            (&["_b__", "____", "____", "w___"], ""),
            (&["_b__", "____", "____", "w___"], "x"),
            (&["_x__", "____", "____", "w___"], "b"),
            (&["_b___", "_____", "_____", "_____", "w____"], "b"),
            (&[], "b"),
            (&["____", "____", "____", "_w__"][..], "w"),
            (&["w___", "____", "____", "____"], "w"),
            (&["_é__", "____", "____", "w___"], "b"),
        ];
        for &(board, color) in cases {
            for play_mode in [false, true] {
                let expected = json_error(board, color, play_mode);
                let got = if play_mode {
                    play(board, color, "deepomatic", Some(0.01), None).err()
                } else {
                    allowed_moves(board, color, "deepomatic").err()
                };
                assert_eq!(got.map(|e| e.to_string()), expected, "{board:?} {color:?}");
                if play_mode {
                    let by_depth = play(board, color, "deepomatic", None, Some(2)).err();
                    assert_eq!(by_depth.map(|e| e.to_string()), expected, "{board:?} {color:?}");
                }
            }
        }
        let over = ["____", "____", "____", "w___"];
        assert_eq!(allowed_moves(&over, "b", "deepomatic").unwrap(), Vec::<Path>::new());
        let e = play(&over, "b", "deepomatic", None, None).unwrap_err();
        assert_eq!(Some(e.to_string()), json_error(&over, "b", true));
        let e = apply_move(&over, "w", &[(3, 0), (1, 2)], "deepomatic").unwrap_err();
        assert_eq!(
            e.to_string(),
            "illegal move [(3, 0), (1, 2)]: legal moves are [[(3, 0), (2, 1)]]"
        );
        let e = play(&over, "b", "deepomatic", None, Some(3)).unwrap_err();
        assert_eq!(e.to_string(), "no move to play: the side to move has no legal move");
    }

    #[test]
    fn bad_rules_time_and_depth() {
        let e = allowed_moves(&EXAMPLE_2, "w", "turkish").unwrap_err();
        assert_eq!(e.to_string(), "unknown rules \"turkish\": expected deepomatic or standard");
        for t in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let e = play(&EXAMPLE_2, "w", "deepomatic", Some(t), None).unwrap_err();
            assert!(matches!(&e, Error::Input(m) if m.starts_with("bad time")), "{t}: {e}");
        }
        for d in [0, -3, i64::MAX] {
            let e = play(&EXAMPLE_2, "w", "deepomatic", None, Some(d)).unwrap_err();
            assert!(matches!(&e, Error::Input(m) if m.starts_with("bad depth")), "{d}: {e}");
        }
    }

    #[test]
    fn play_by_depth_chooses_a_listed_move_on_either_colour_of_square() {
        // Example 1 has pieces on both colours of square.
        for (board, color) in [(&EXAMPLE_1, "b"), (&EXAMPLE_1, "w"), (&EXAMPLE_2, "w")] {
            let legal = allowed_moves(board, color, "deepomatic").unwrap();
            for depth in [1, 3, 6] {
                let chosen = play(board, color, "deepomatic", None, Some(depth)).unwrap();
                assert!(legal.contains(&chosen), "{chosen:?} not in {legal:?}");
            }
            let chosen = play(board, color, "deepomatic", Some(0.02), Some(20)).unwrap();
            assert!(legal.contains(&chosen));
        }
        // A quiet position on both halves: both are searched.
        let board = [
            "_b______", "b_______", "________", "________", "________", "________", "_w______",
            "w_______",
        ];
        let legal = allowed_moves(&board, "w", "standard").unwrap();
        let chosen = play(&board, "w", "standard", None, Some(4)).unwrap();
        assert!(legal.contains(&chosen));
    }

    #[test]
    fn a_whole_game_by_depth() {
        let mut board: Vec<String> = [
            "_b_b_b_b", "b_b_b_b_", "_b_b_b_b", "________", "________", "w_w_w_w_", "_w_w_w_w",
            "w_w_w_w_",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut color = "b";
        for _ in 0..300 {
            let legal = allowed_moves(&board, color, "deepomatic").unwrap();
            if legal.is_empty() {
                return;
            }
            let mv = play(&board, color, "deepomatic", None, Some(2)).unwrap();
            assert!(legal.contains(&mv));
            board = apply_move(&board, color, &mv, "deepomatic").unwrap();
            color = if color == "b" { "w" } else { "b" };
        }
    }
}
