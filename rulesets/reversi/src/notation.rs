//! Text forms: moves as `c4` (column letter, row number from the top) or as the seed's
//! `(column, row)` pair counted from (0, 0) at the top left, `pass`; positions as rows of `.`
//! and `1`..`4` joined by `/`, a space and the player to move; the terminal picture
//! ([`Notation::render`]) draws each player with its own glyph ([`GLYPHS`]).

use ply::diagram::{Diagram, Piece, PieceKind};
use ply::picture::RESET;
use ply::{Game, MoveList, Notation, Player};

use crate::board::{ReversiMove, ReversiState};
use crate::{Error, Reversi};

/// The disc of players 1..4 on the board and in the legend, with or without colour: Black's
/// filled disc and White's hollow one (Othello's players 1 and 2), then a triangle and a
/// square.
pub const GLYPHS: [char; 4] = ['●', '○', '▲', '■'];

/// The board's background in colour: green, as Othello boards are, so that the discs never
/// stand on the terminal's own background (light or dark).
const BOARD: &str = "\x1b[42m";
/// The ANSI foreground of players 1..4 on [`BOARD`]: black, bright white, blue, red.
const DISC_COLOURS: [&str; 4] = ["\x1b[22;30m", "\x1b[1;97m", "\x1b[22;34m", "\x1b[22;31m"];
/// Empty squares and the last-move brackets on [`BOARD`].
const BOARD_INK: &str = "\x1b[22;30m";

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

    /// The board as [`Notation::render`] draws it: a [`PieceKind::Disc`] of its player on
    /// every occupied square, columns labelled `a`.. and rows `1`.. from the top, as squares
    /// are written (`c4`).
    fn diagram(&self, state: &ReversiState) -> Option<Diagram> {
        let n = self.size();
        let mut d = Diagram::new(n, n);
        d.col_labels = (0..n).map(|c| ((b'a' + c as u8) as char).to_string()).collect();
        d.row_labels = (1..=n).map(|r| r.to_string()).collect();
        for (sq, cell) in d.cells.iter_mut().enumerate() {
            cell.piece = state.owner(sq % n, sq / n).map(|p| Piece::new(p, PieceKind::Disc));
        }
        Some(d)
    }

    /// The square of a placement; none for a pass.
    fn move_cells(&self, _state: &ReversiState, mv: ReversiMove) -> Vec<usize> {
        mv.square().into_iter().collect()
    }

    /// The board with coordinates, every player's disc as its own glyph ([`GLYPHS`]: `●`
    /// `○` `▲` `■`), empty squares as `.` (`·` in colour) and the last move in brackets
    /// (`[●]`), then the disc count of each player under the same glyphs. With `color` the
    /// board stands on a green background with black, white, blue and red discs, readable on
    /// light and dark terminals alike, and the brackets on the marking colour of
    /// [`ply::picture::mark`].
    fn render(&self, state: &ReversiState, last_move: Option<ReversiMove>, color: bool) -> String {
        let n = self.size();
        let last = last_move.and_then(|m| m.square());
        let paint = |text: &str, ink: &str| {
            if color {
                format!("{BOARD}{ink}{text}{RESET}")
            } else {
                text.to_string()
            }
        };
        let disc = |p: usize| paint(&GLYPHS[p].to_string(), DISC_COLOURS[p]);
        let mut out = String::new();
        let header: String = (0..n).map(|c| format!(" {}", (b'a' + c as u8) as char)).collect();
        out.push_str(&format!("   {header}\n"));
        for r in 0..n {
            out.push_str(&format!("{:>3}", r + 1));
            let mut row = String::new();
            // The ink in use since the row's last change of colour ("" after a reset).
            let mut ink = "";
            let put = |row: &mut String, ink: &mut &str, text: char, wanted: &'static str| {
                if color && *ink != wanted {
                    if ink.is_empty() {
                        row.push_str(BOARD);
                    }
                    row.push_str(wanted);
                    *ink = wanted;
                }
                row.push(text);
            };
            // A gap before every square and one after the last; the last move's square takes
            // the brackets in the gaps around it.
            let mut bracketed = false;
            for c in 0..n {
                let (glyph, glyph_ink) = match state.owner(c, r) {
                    Some(p) => (GLYPHS[p.index()], DISC_COLOURS[p.index()]),
                    None => (if color { '·' } else { '.' }, BOARD_INK),
                };
                if last == Some(r * n + c) {
                    if color {
                        row.push_str(RESET);
                        row.push_str(&ply::picture::mark(&paint(&glyph.to_string(), glyph_ink)));
                        ink = "";
                    } else {
                        row.push_str(&format!("[{glyph}]"));
                    }
                    bracketed = true;
                    continue;
                }
                if !bracketed {
                    put(&mut row, &mut ink, ' ', BOARD_INK);
                }
                bracketed = false;
                put(&mut row, &mut ink, glyph, glyph_ink);
            }
            if !bracketed {
                put(&mut row, &mut ink, ' ', BOARD_INK);
            }
            if color && !ink.is_empty() {
                row.push_str(RESET);
            }
            out.push_str(&row);
            out.push_str(&format!(" {}\n", r + 1));
        }
        let counts: Vec<String> = (0..self.players())
            .map(|p| format!("{} {}: {}", disc(p), p + 1, state.count(Player::new(p))))
            .collect();
        out.push_str(&format!(
            "   discs  {}   to move: {} {}\n",
            counts.join("  "),
            disc(state.to_move as usize),
            state.to_move + 1
        ));
        out
    }
}
