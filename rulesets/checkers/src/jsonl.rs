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

use std::io::{self, BufRead, Read, Write};
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

/// The longest thinking time a request may ask for, in milliseconds (one hour).
pub const MAX_TIME_MS: u64 = 3_600_000;

/// Kept back from a `play` request's time: a tenth of it, between 1 and 10 ms.
fn answer_margin(time: Duration) -> Duration {
    (time / 10).clamp(Duration::from_millis(1), Duration::from_millis(10))
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
            if request.time_ms.is_some_and(|t| t == 0 || t > MAX_TIME_MS) {
                return error(format!("time_ms must be from 1 to {MAX_TIME_MS}"));
            }
            let time = request.time_ms.map_or(default, Duration::from_millis);
            // The answer must arrive within `time_ms`: keep back a margin for reading the
            // request, setting up the search and writing the answer on a loaded machine.
            let time = time.saturating_sub(answer_margin(time));
            match crate::seed::play_with(rules, &request.board, color, time) {
                Ok(path) => json!(pairs(&path)).to_string(),
                Err(e) => error(e),
            }
        }
    }
}

/// The longest request line read, in bytes; a longer one is answered with an error.
pub const MAX_LINE: usize = 1 << 20;

/// Answers every non-blank line of stdin on stdout until end of input.
///
/// # Errors
/// If stdin cannot be read; a closed stdout ends the loop quietly.
pub fn serve(rules: Rules, time: Option<Duration>) -> io::Result<()> {
    serve_lines(io::stdin().lock(), &mut io::stdout().lock(), rules, time)
}

/// [`serve`] on any input and output. A line that is not UTF-8 text, or longer than
/// [`MAX_LINE`], gets `{"error": ...}` like any other bad line, and the next line is read.
///
/// # Errors
/// If the input cannot be read; a closed output ends the loop quietly.
pub fn serve_lines(
    mut input: impl BufRead,
    out: &mut impl Write,
    rules: Rules,
    time: Option<Duration>,
) -> io::Result<()> {
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let n = (&mut input).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut bytes)?;
        if n == 0 {
            return Ok(());
        }
        let reply = if bytes.len() > MAX_LINE && !bytes.ends_with(b"\n") {
            // Skip the rest of the long line.
            let mut rest = Vec::new();
            while !rest.ends_with(b"\n") {
                rest.clear();
                if (&mut input).take(64 * 1024).read_until(b'\n', &mut rest)? == 0 {
                    break;
                }
            }
            error(format!("request longer than {MAX_LINE} bytes"))
        } else {
            match std::str::from_utf8(&bytes) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => answer(line, rules, time),
                Err(_) => error("the line is not UTF-8 text"),
            }
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE_2: &str = r#"{"board": ["________", "__b_b___", "_w______", "______b_", "_______b", "________", "________", "________"], "color": "w"}"#;

    #[test]
    fn lines_that_are_not_text_or_too_long_get_an_error_and_processing_goes_on() {
        let mut input = b"\xff\xfe\n".to_vec();
        input.extend_from_slice(&vec![b'x'; MAX_LINE + 10]);
        input.push(b'\n');
        input.extend_from_slice(EXAMPLE_2.as_bytes());
        input.push(b'\n');
        let mut out = Vec::new();
        serve_lines(&input[..], &mut out, Rules::Deepomatic, None).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].contains("not UTF-8"), "{}", lines[0]);
        assert!(lines[1].contains("longer than"), "{}", lines[1]);
        assert_eq!(lines[2], "[[[2,1],[0,3],[2,5]]]");
    }

    #[test]
    fn play_refuses_times_out_of_range() {
        for t in ["0", "3600001", "18446744073709551615"] {
            let line = format!(
                r#"{{"board": ["_b__", "____", "__w_", "____"], "color": "w", "time_ms": {t}}}"#
            );
            let reply = answer(&line, Rules::Deepomatic, Some(Duration::from_millis(10)));
            assert!(reply.contains("time_ms must be from 1 to 3600000"), "{t}: {reply}");
        }
    }

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
