//! The CodinGame bot protocol of Impasse, as the referee speaks it.
//!
//! The referee sends the bot's colour once (`w` or `b`), then on each of the bot's turns the
//! 8 board lines (row 8 first), the opponent's last action (`null` on the first turn), the
//! number of legal actions and the actions themselves, sorted as strings. The bot answers one
//! action text per turn, optionally followed by a space and a comment. The referee's clock for
//! an answer starts when it has sent the turn: [`Turn::received`] is when the turn's first line
//! arrived, the instant a bot measures its deadline from.
//!
//! ```
//! use ply_impasse::codingame::Session;
//!
//! let input = "w\n.W.b.W.b\nb.W.b.W.\n........\n........\n........\n........\n.B.w.B.w\nw.B.w.B.\nnull\n2\nd2h6\nh2g3\n";
//! let mut session = Session::new(input.as_bytes())?;
//! let turn = session.read_turn()?.expect("a turn");
//! assert_eq!(turn.actions, ["d2h6", "h2g3"]);
//! assert_eq!(turn.state.ply(), 0);
//! assert!(session.read_turn()?.is_none()); // end of input
//! # Ok::<(), ply_impasse::Error>(())
//! ```

use std::fmt;
use std::io::{BufRead, Read};
use std::time::Instant;

use ply::{Game, MoveList, Player};

use crate::error::Error;
use crate::moves::Move;
use crate::notation::parse_position;
use crate::rules::{Impasse, ImpasseState};

/// The most actions a turn may list (far above any real position; guards against garbage).
pub const MAX_ACTIONS: usize = 10_000;

/// One turn's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The position, with the bot to move and the ply count derived from the turn number.
    pub state: ImpasseState,
    /// The opponent's last action, `None` on the first turn (`null`).
    pub last_action: Option<String>,
    /// The referee's legal actions, in the order sent.
    pub actions: Vec<String>,
    /// When the turn's first line was read: the referee's clock for the answer runs from
    /// about then (it sends a turn at once), not from when the bot starts thinking.
    pub received: Instant,
}

/// The longest line the bot reads, in bytes (the referee's longest is a few dozen).
pub const MAX_LINE: usize = 4096;

/// A bot's side of the conversation: reads the colour, then one [`Turn`] at a time.
#[derive(Debug)]
pub struct Session<R> {
    input: R,
    color: Player,
    turns: u16,
    line: String,
    line_number: usize,
}

impl<R: BufRead> Session<R> {
    /// Reads the colour line (`w` or `b`).
    ///
    /// # Errors
    /// [`Error::Protocol`] if the input is empty or the line is not `w` or `b`.
    pub fn new(input: R) -> Result<Session<R>, Error> {
        let mut s =
            Session { input, color: Player::new(0), turns: 0, line: String::new(), line_number: 0 };
        let color = s
            .next_line("the colour")?
            .ok_or_else(|| Error::Protocol("input ended before the colour line".to_string()))?;
        s.color = match color.as_str() {
            "w" => Player::new(0),
            "b" => Player::new(1),
            other => {
                return Err(Error::Protocol(format!("line 1: colour {other:?} is not w or b")))
            }
        };
        Ok(s)
    }

    /// The bot's colour: player 0 (White) or 1 (Black).
    pub fn color(&self) -> Player {
        self.color
    }

    /// Reads the next line without its line ending; `None` at the end of the input.
    /// A line longer than [`MAX_LINE`] bytes is an error, read no further: an endless line
    /// cannot grow the bot's memory.
    fn next_line(&mut self, what: &str) -> Result<Option<String>, Error> {
        self.line.clear();
        self.line_number += 1;
        let limit = MAX_LINE as u64 + 1;
        let n = (&mut self.input).take(limit).read_line(&mut self.line).map_err(|e| {
            Error::Protocol(format!("line {}: reading {what}: {e}", self.line_number))
        })?;
        if n == 0 {
            return Ok(None);
        }
        if n as u64 == limit && !self.line.ends_with('\n') {
            return Err(Error::Protocol(format!(
                "line {}: {what} is longer than {MAX_LINE} bytes",
                self.line_number
            )));
        }
        Ok(Some(self.line.trim().to_string()))
    }

    fn required_line(&mut self, what: &str) -> Result<String, Error> {
        self.next_line(what)?.ok_or_else(|| {
            Error::Protocol(format!("line {}: input ended while reading {what}", self.line_number))
        })
    }

    /// Reads one turn. Returns `Ok(None)` when the input ends cleanly before a turn starts
    /// (the referee closed the game).
    ///
    /// # Errors
    /// [`Error::Protocol`] for a truncated turn, a board line that is not 8 of `.wbWB`, a
    /// board the rules cannot have, or an action count that is not a number.
    pub fn read_turn(&mut self) -> Result<Option<Turn>, Error> {
        let mut rows = Vec::with_capacity(8);
        let mut received = Instant::now();
        for i in 0..8 {
            let what = format!("board line {}", i + 1);
            let line = if i == 0 {
                match self.next_line(&what)? {
                    Some(l) => {
                        received = Instant::now();
                        l
                    }
                    None => return Ok(None),
                }
            } else {
                self.required_line(&what)?
            };
            rows.push(line);
        }
        let ply = 2 * self.turns + self.color.index() as u16;
        let side = if self.color.index() == 0 { "w" } else { "b" };
        let text = format!("{} {side}", rows.join("/"));
        let board_line = self.line_number - 7;
        let state = parse_position(&text)
            .and_then(|s| with_ply(s, ply))
            .map_err(|e| Error::Protocol(format!("line {board_line}: board: {e}")))?;
        let last = self.required_line("the last action")?;
        let last_action = if last == "null" { None } else { Some(last) };
        let count_text = self.required_line("the number of actions")?;
        let count: usize = count_text.parse().map_err(|_| {
            Error::Protocol(format!(
                "line {}: action count {count_text:?} is not a number",
                self.line_number
            ))
        })?;
        if count > MAX_ACTIONS {
            return Err(Error::Protocol(format!(
                "line {}: action count {count} is implausibly large",
                self.line_number
            )));
        }
        let mut actions = Vec::with_capacity(count);
        for i in 0..count {
            actions.push(self.required_line(&format!("action {} of {count}", i + 1))?);
        }
        self.turns += 1;
        Ok(Some(Turn { state, last_action, actions, received }))
    }
}

/// `s` with its ply count set to `ply` (same parity), if the ply limit allows it.
fn with_ply(s: ImpasseState, ply: u16) -> Result<ImpasseState, Error> {
    let mut t = s;
    t.ply = ply;
    t.validate().map_err(|reason| Error::ImpossiblePosition {
        text: crate::notation::board_lines(&s).join("/"),
        reason,
    })?;
    Ok(t)
}

/// How the engine's list of actions differs from the referee's (as multisets of texts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListMismatch {
    /// Texts the referee lists that the engine does not generate.
    pub missing: Vec<String>,
    /// Texts the engine generates that the referee does not list.
    pub extra: Vec<String>,
}

impl fmt::Display for ListMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move list mismatch: referee only {:?}, engine only {:?}",
            self.missing, self.extra
        )
    }
}

/// Compares the legal actions of `state` with the referee's list.
///
/// # Errors
/// The [`ListMismatch`] if the two lists differ as multisets of texts.
pub fn compare_actions(
    game: &Impasse,
    state: &ImpasseState,
    referee: &[String],
) -> Result<(), ListMismatch> {
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let mut ours: Vec<String> = moves.iter().map(Move::to_string).collect();
    let mut theirs: Vec<String> = referee.to_vec();
    ours.sort();
    theirs.sort();
    if ours == theirs {
        return Ok(());
    }
    let mut mismatch = ListMismatch::default();
    let (mut i, mut j) = (0, 0);
    while i < theirs.len() || j < ours.len() {
        match (theirs.get(i), ours.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                mismatch.missing.push(a.clone());
                i += 1;
            }
            (Some(_), Some(b)) => {
                mismatch.extra.push(b.clone());
                j += 1;
            }
            (Some(a), None) => {
                mismatch.missing.push(a.clone());
                i += 1;
            }
            (None, Some(b)) => {
                mismatch.extra.push(b.clone());
                j += 1;
            }
            (None, None) => break,
        }
    }
    Err(mismatch)
}

/// The text to answer: `chosen`'s text if the referee lists it, else the referee's first
/// action (so the bot always answers a legal action). `None` only if the list is empty.
pub fn answer(chosen: Option<Move>, referee: &[String]) -> Option<String> {
    if let Some(m) = chosen {
        let text = m.to_string();
        if referee.contains(&text) {
            return Some(text);
        }
    }
    referee.first().cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::Notation;

    const START: &str =
        ".W.b.W.b\nb.W.b.W.\n........\n........\n........\n........\n.B.w.B.w\nw.B.w.B.\n";

    fn referee_turn(game: &Impasse, state: &ImpasseState, last: &str) -> String {
        let mut moves = MoveList::new();
        game.generate_moves(state, &mut moves);
        let mut texts: Vec<String> = moves.iter().map(Move::to_string).collect();
        texts.sort();
        let mut out = crate::notation::board_lines(state).join("\n");
        out.push_str(&format!("\n{last}\n{}\n{}\n", texts.len(), texts.join("\n")));
        out
    }

    /// Random and mutated referee input: a turn or an error, never a panic.
    #[test]
    fn random_and_mutated_input_reads_as_a_turn_or_an_error() {
        let game = Impasse::new();
        let first = format!("w\n{}", referee_turn(&game, &game.initial_state(), "null"));
        let samples = [first.as_str(), "b\n", "w\n........\n"];
        let read = |text: &str| -> Result<(), String> {
            if let Ok(mut session) = Session::new(text.as_bytes()) {
                while let Ok(Some(_)) = session.read_turn() {}
            }
            Ok(())
        };
        ply::testing::check_reader(&samples, read, 1_000, 33).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn an_endless_line_is_an_error_not_a_growing_buffer() {
        // An input that never ends its line: the bot reads MAX_LINE + 1 bytes of it, no more.
        let endless = std::io::BufReader::new(std::io::repeat(b'x'));
        let e = Session::new(endless).unwrap_err().to_string();
        assert!(e.contains("longer than 4096 bytes"), "{e}");
        let input = format!("w\n{}\n", "y".repeat(MAX_LINE + 10));
        let mut s = Session::new(input.as_bytes()).unwrap();
        let e = s.read_turn().unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("longer than"), "{e}");
    }

    /// A scripted game as Black: the referee's turns are generated from a real game, the bot
    /// reads them and its answers are checked against the list.
    #[test]
    fn scripted_session_as_black() {
        let game = Impasse::new();
        let mut state = game.initial_state();
        let mut script = String::from("b\n");
        let mut last = String::new();
        let mut expected = Vec::new();
        for ply in 0..12 {
            let mut moves = MoveList::new();
            game.generate_moves(&state, &mut moves);
            let m = moves[ply % moves.len()];
            if ply % 2 == 1 {
                script.push_str(&referee_turn(&game, &state, &last));
                expected.push(state);
            }
            last = m.to_string();
            game.apply(&mut state, m);
        }
        let mut session = Session::new(script.as_bytes()).unwrap();
        assert_eq!(session.color(), Player::new(1));
        let mut n = 0;
        while let Some(turn) = session.read_turn().unwrap() {
            assert_eq!(turn.state, expected[n]);
            assert!(turn.last_action.is_some());
            assert_eq!(compare_actions(&game, &turn.state, &turn.actions), Ok(()));
            let mut moves = MoveList::new();
            game.generate_moves(&turn.state, &mut moves);
            let a = answer(moves.last().copied(), &turn.actions).unwrap();
            assert_eq!(game.parse_move(&turn.state, &a).unwrap(), *moves.last().unwrap());
            n += 1;
        }
        assert_eq!(n, 6);
    }

    #[test]
    fn first_turn_as_white() {
        let input = format!("w\n{START}null\n22\n{}", "c7a5\n".repeat(22));
        let mut session = Session::new(input.as_bytes()).unwrap();
        let before = Instant::now();
        let turn = session.read_turn().unwrap().unwrap();
        assert!(turn.received >= before && turn.received <= Instant::now());
        assert_eq!(turn.last_action, None);
        assert_eq!(turn.state, ImpasseState::start());
        let game = Impasse::new();
        let mismatch = compare_actions(&game, &turn.state, &turn.actions).unwrap_err();
        assert_eq!(mismatch.missing.len(), 21);
        assert_eq!(mismatch.extra.len(), 21);
        assert!(!mismatch.extra.contains(&"c7a5".to_string()));
        assert_eq!(answer(None, &turn.actions).as_deref(), Some("c7a5"));
    }

    #[test]
    fn bad_input_is_a_protocol_error() {
        let cases = [
            String::new(),
            "x\n".to_string(),
            format!("w\n{}", &START[..20]),
            format!("w\n{}", START.replace(".W.b.W.b", ".W.b.W.z")),
            format!("w\n{}", START.replace(".W.b.W.b", ".W.b.W")),
            format!("w\n{START}null\n"),
            format!("w\n{START}null\ntwo\n"),
            format!("w\n{START}null\n3\nd2h6\n"),
            format!("w\n{START}null\n99999999\n"),
            format!("w\n{}", START.replace("w.B.w.B.", "W.B.w.B.")),
        ];
        for input in &cases {
            let result = Session::new(input.as_bytes()).and_then(|mut s| s.read_turn());
            assert!(matches!(result, Err(Error::Protocol(_))), "{input:?}: {result:?}");
        }
    }

    #[test]
    fn crlf_and_trailing_spaces_are_accepted() {
        let input = format!("b \r\n{}null\r\n1\r\nd7c6 \r\n", START.replace('\n', "\r\n"));
        let mut session = Session::new(input.as_bytes()).unwrap();
        let turn = session.read_turn().unwrap().unwrap();
        assert_eq!(turn.actions, ["d7c6"]);
        assert_eq!(turn.state.ply(), 1);
    }
}
