//! The seed's API as JSON lines (feature `json`): one request object per line, one answer
//! line each, so that any program (the challenge's Python harness, an arena) can use the rules
//! and the engine.
//!
//! - moves: `{"board": [...rows...], "color": "b"}` gives every legal move as an array of
//!   moves, each an array of `[row, col]` pairs (the seed's `allowed_moves`);
//! - play: the same with an optional `"time_ms"` gives the engine's move as an array of
//!   `[row, col]` pairs (the seed's `play`).
//!
//! A line that cannot be used gets `{"error": "..."}`.
//!
//! ```
//! use ply_checkers::{jsonl, Rules};
//!
//! let line = r#"{"board": ["________","__b_b___","_w______","______b_","_______b","________","________","________"], "color": "w"}"#;
//! assert_eq!(jsonl::answer(line, Rules::Deepomatic, None), "[[[2,1],[0,3],[2,5]]]");
//! ```

use std::io::{self, BufRead, Write};
use std::time::Duration;

use crate::Rules;
use serde::Deserialize;
use serde_json::json;

/// One request line.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Request {
    board: Vec<String>,
    color: String,
    #[serde(default)]
    time_ms: Option<u64>,
}

/// The error line for `message`.
fn error(message: impl std::fmt::Display) -> String {
    json!({ "error": message.to_string() }).to_string()
}

fn color_char(color: &str) -> Result<char, String> {
    let mut chars = color.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(format!("unknown colour {color:?}: expected \"b\" or \"w\"")),
    }
}

/// The answer to one line: the legal moves (`time` is `None`) or the engine's move.
pub fn answer(line: &str, rules: Rules, time: Option<Duration>) -> String {
    let request: Request = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => return error(format!("bad request: {e}")),
    };
    let color = match color_char(&request.color) {
        Ok(c) => c,
        Err(e) => return error(e),
    };
    let pairs = |path: &[(usize, usize)]| -> Vec<[usize; 2]> {
        path.iter().map(|&(r, c)| [r, c]).collect()
    };
    match time {
        None => {
            if request.time_ms.is_some() {
                return error("time_ms is only read by the play mode");
            }
            match crate::seed::allowed_moves_with(rules, &request.board, color) {
                Ok(moves) => {
                    let moves: Vec<_> = moves.iter().map(|m| pairs(m)).collect();
                    json!(moves).to_string()
                }
                Err(e) => error(e),
            }
        }
        Some(default) => {
            let time = request.time_ms.map_or(default, Duration::from_millis);
            match crate::seed::play_with(rules, &request.board, color, time) {
                Ok(path) => json!(pairs(&path)).to_string(),
                Err(e) => error(e),
            }
        }
    }
}

/// Answers every non-blank line of stdin on stdout until end of input.
///
/// # Errors
/// If stdin cannot be read; a closed stdout ends the loop quietly.
pub fn serve(rules: Rules, time: Option<Duration>) -> io::Result<()> {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = answer(&line, rules, time);
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            return Ok(());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE_2: &str = r#"{"board": ["________", "__b_b___", "_w______", "______b_", "_______b", "________", "________", "________"], "color": "w"}"#;

    #[test]
    fn moves_answers_the_seed_example() {
        let reply = answer(EXAMPLE_2, Rules::Deepomatic, None);
        assert_eq!(reply, "[[[2,1],[0,3],[2,5]]]");
        let standard = answer(EXAMPLE_2, Rules::Standard, None);
        assert_eq!(standard, "[[[2,1],[0,3]]]");
    }

    #[test]
    fn play_answers_a_legal_move() {
        let line = r#"{"board": ["_b__", "____", "__w_", "____"], "color": "w", "time_ms": 50}"#;
        let reply = answer(line, Rules::Deepomatic, Some(Duration::from_millis(1000)));
        let moves = answer(line.replace(", \"time_ms\": 50", "").as_str(), Rules::Deepomatic, None);
        let chosen: serde_json::Value = serde_json::from_str(&reply).unwrap();
        let legal: serde_json::Value = serde_json::from_str(&moves).unwrap();
        assert!(legal.as_array().unwrap().contains(&chosen), "{reply} not in {moves}");
    }

    #[test]
    fn bad_lines_get_an_error_object() {
        for line in [
            "not json",
            "{}",
            r#"{"board": "________", "color": "b"}"#,
            r#"{"board": ["_b__", "___", "____", "w___"], "color": "b"}"#,
            r#"{"board": ["_b__", "____", "____", "w___"], "color": "black"}"#,
            r#"{"board": ["_x__", "____", "____", "w___"], "color": "b"}"#,
            r#"{"board": ["_b__", "____", "____", "w___"], "color": "b", "extra": 1}"#,
        ] {
            let reply = answer(line, Rules::Deepomatic, None);
            let v: serde_json::Value = serde_json::from_str(&reply).unwrap();
            assert!(v.get("error").and_then(|e| e.as_str()).is_some(), "{line}: {reply}");
        }
        let over = r#"{"board": ["____", "____", "____", "w___"], "color": "b"}"#;
        assert_eq!(answer(over, Rules::Deepomatic, None), "[]");
        let reply = answer(over, Rules::Deepomatic, Some(Duration::from_millis(10)));
        assert!(reply.contains("error"), "{reply}");
    }
}
