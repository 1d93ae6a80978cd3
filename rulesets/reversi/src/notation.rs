//! Text forms: moves as `c4` (column letter, row number from the top) or as the seed's
//! `(column, row)` pair counted from (0, 0) at the top left, `pass`; positions as rows of `.`
//! and `1`..`4` joined by `/`, a space and the player to move.

use ply::{Game, MoveList, Notation, Player};

use crate::board::{ReversiMove, ReversiState};
use crate::{Error, Reversi};

/// ANSI colours of players 1..4 (foreground), for [`Notation::render`].
const COLOURS: [&str; 4] = ["\x1b[1;31m", "\x1b[1;34m", "\x1b[1;32m", "\x1b[1;33m"];
const RESET: &str = "\x1b[0m";

/// The name of (`column`, `row`): a column letter `a`.. and a row number from 1 at the top.
///
/// ```
/// assert_eq!(ply_reversi::square_name(2, 3), "c4");
/// ```
pub fn square_name(column: usize, row: usize) -> String {
    format!("{}{}", (b'a' + column as u8) as char, row + 1)
}

impl Reversi {
    /// Reads a square name (`c4`) or a `(column, row)` pair (`(2, 3)`, `2,3`, `2 3`) into
    /// (column, row), without checking legality.
    ///
    /// # Errors
    /// [`Error::ParseMove`] if the text is neither form or names a square off the board.
    pub fn parse_square(&self, text: &str) -> Result<(usize, usize), Error> {
        let t = text.trim();
        let bad = || Error::ParseMove(t.to_string());
        let b = t.as_bytes();
        let (c, r) = if b.first().is_some_and(u8::is_ascii_alphabetic) {
            let col = (b[0].to_ascii_lowercase() - b'a') as usize;
            let row: usize = t[1..].parse().map_err(|_| bad())?;
            (col, row.checked_sub(1).ok_or_else(bad)?)
        } else {
            let inner = t.trim_start_matches('(').trim_end_matches(')');
            let mut parts =
                inner.split(|ch: char| ch == ',' || ch.is_whitespace()).filter(|s| !s.is_empty());
            let col = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
            let row = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
            if parts.next().is_some() {
                return Err(bad());
            }
            (col, row)
        };
        if c >= self.size() || r >= self.size() {
            return Err(bad());
        }
        Ok((c, r))
    }

    /// The seed's `(column, row)` form of a move; `pass` for a pass.
    pub fn format_pair(&self, mv: ReversiMove) -> String {
        match self.coordinates(mv) {
            Some((c, r)) => format!("({c}, {r})"),
            None => "pass".to_string(),
        }
    }

    /// Reads a position of this size: rows joined by `/` (or line breaks), then optionally a
    /// space and the player to move (`1`..`4`, default `1`).
    pub(crate) fn parse_position(&self, text: &str) -> Result<ReversiState, Error> {
        let mut words = text.split_whitespace();
        let board = words.next().ok_or_else(|| Error::position(text, "empty text"))?;
        let rows: Vec<&str> = board.split('/').filter(|r| !r.is_empty()).collect();
        let to_move = match words.next() {
            None => Player(0),
            Some(w) => match w.parse::<usize>() {
                Ok(p) if (1..=self.players()).contains(&p) => Player::new(p - 1),
                _ => {
                    return Err(Error::position(
                        text,
                        format!("player to move {w:?}: expected 1..{}", self.players()),
                    ));
                }
            },
        };
        if let Some(extra) = words.next() {
            return Err(Error::position(
                text,
                format!("unexpected {extra:?} after the player to move"),
            ));
        }
        self.state_from_rows(&rows, to_move).map_err(|e| match e {
            Error::ParsePosition { reason, .. } => Error::position(text, reason),
            other => other,
        })
    }
}

impl Notation for Reversi {
    type Error = Error;

    fn format_move(&self, _state: &ReversiState, mv: ReversiMove) -> String {
        match self.coordinates(mv) {
            Some((c, r)) => square_name(c, r),
            None => "pass".to_string(),
        }
    }

    fn parse_move(&self, state: &ReversiState, text: &str) -> Result<ReversiMove, Error> {
        let t = text.trim();
        let mv = if ["pass", "pa", "--"].contains(&t.to_ascii_lowercase().as_str()) {
            ReversiMove::Pass
        } else {
            let (c, r) = self.parse_square(t)?;
            self.place(c, r)
        };
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(Error::IllegalMove(t.to_string()))
        }
    }

    fn format_state(&self, state: &ReversiState) -> String {
        format!("{} {}", state.rows().join("/"), state.to_move + 1)
    }

    fn parse_state(&self, text: &str) -> Result<ReversiState, Error> {
        self.parse_position(text)
    }

    /// A GGF game record ([`crate::ggf`]) for 2 players on an even board, ply's own text
    /// ([`ply::record::write_text`]) otherwise.
    fn write_record(&self, start: &ReversiState, moves: &[ReversiMove]) -> String {
        crate::ggf::write(self, start, moves)
            .unwrap_or_else(|_| ply::record::write_text(self, start, moves))
    }

    /// A GGF game record ([`crate::ggf::read`]) for 2 players on an even board, or ply's own
    /// text (a file that does not start with `(`).
    fn read_record(
        &self,
        text: &str,
    ) -> Result<(ReversiState, Vec<ReversiMove>), ply::record::ReadRecordError> {
        if text.trim_start().starts_with('(') {
            crate::ggf::read(self, text)
        } else {
            ply::record::read_text(self, text)
        }
    }

    fn render(&self, state: &ReversiState, last_move: Option<ReversiMove>, color: bool) -> String {
        let n = self.size();
        let last = last_move.and_then(|m| m.square());
        let mut out = String::new();
        let header: String = (0..n).map(|c| format!(" {}", (b'a' + c as u8) as char)).collect();
        out.push_str(&format!("   {header}\n"));
        for r in 0..n {
            out.push_str(&format!("{:>3}", r + 1));
            for c in 0..n {
                let mark = if last == Some(r * n + c) { '>' } else { ' ' };
                out.push(mark);
                match state.owner(c, r) {
                    Some(p) if color => {
                        out.push_str(COLOURS[p.index()]);
                        out.push('●');
                        out.push_str(RESET);
                    }
                    Some(p) => out.push((b'1' + p.0) as char),
                    None => out.push('.'),
                }
            }
            out.push('\n');
        }
        let counts: Vec<String> = (0..self.players())
            .map(|p| {
                let label = if color {
                    format!("{}●{RESET} {}", COLOURS[p], p + 1)
                } else {
                    format!("{}", p + 1)
                };
                format!("{label}: {}", state.count(Player::new(p)))
            })
            .collect();
        out.push_str(&format!(
            "   discs  {}   to move: {}\n",
            counts.join("  "),
            state.to_move + 1
        ));
        out
    }
}
