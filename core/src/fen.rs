//! PDN FEN, the position text of the draughts games: the side to move, then White's and
//! Black's square lists, then counters tagged by a letter, as in `B:W21,22,K26:B1-12:H12`.
//!
//! [`Fen`] holds the grammar only and knows no board: each game checks the squares against
//! its board, its crowning rows and the counter letters it takes.
//!
//! - The side to move is `W` or `B`; a list is `:W` or `:B` followed by comma-separated
//!   entries: a square (`21`), a king (`K26`) or a range (`1-12`, `K1-4`). Squares are
//!   numbered from 1.
//! - Every other field is a counter: a letter, then a number (`:H12`).
//! - A `[FEN "..."]` tag around the text and a trailing `.` are accepted.
//! - [`Fen`]'s [`Display`](fmt::Display) writes the canonical form: White's squares then
//!   Black's, each in increasing order, `K` before kings, then the counters as read.
//!
//! ```
//! use ply::fen::{Fen, FenPiece};
//!
//! let fen: Fen = "[FEN \"B:W21,K26:B1-3:H12.\"]".parse()?;
//! assert!(!fen.white_to_move);
//! assert_eq!(fen.pieces[3], FenPiece { square: 21, white: true, king: false });
//! assert_eq!(fen.counters, vec![('H', 12)]);
//! assert_eq!(fen.to_string(), "B:W21,K26:B1,2,3:H12");
//! # Ok::<(), ply::fen::FenError>(())
//! ```

use std::collections::BTreeSet;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// The largest square number [`Fen::from_str`] accepts: the dark squares of a 16x16 board.
pub const MAX_SQUARE: usize = 128;

/// A position read from PDN FEN, before any board checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fen {
    /// True if White is to move.
    pub white_to_move: bool,
    /// The pieces; parsing lists them in increasing square order.
    pub pieces: Vec<FenPiece>,
    /// The counters in the order written, each a letter other than `W` and `B` (upper case
    /// once parsed) and its value: `:H12` is `('H', 12)`.
    pub counters: Vec<(char, u32)>,
}

/// One piece of a [`Fen`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FenPiece {
    /// The square number, from 1.
    pub square: usize,
    /// True for a white piece.
    pub white: bool,
    /// True for a king.
    pub king: bool,
}

/// A text that is not PDN FEN.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Not of the form `B:W21,22:B1,2`: no side to move, an empty field, or a field that
    /// starts with neither a colour nor a counter letter.
    #[error("malformed fen {0:?}: expected side to move, then :W and :B square lists, like B:W21,22:B1,2")]
    Syntax(String),
    /// The side to move is not `W` or `B`.
    #[error("bad side to move {0:?} in fen: expected W or B")]
    Side(String),
    /// A list entry that is not `n`, `Kn` or a range `a-b` (`Ka-b`) of squares from 1 to
    /// `max`.
    #[error("bad square {entry:?} in fen: expected a number from 1 to {max} or a range a-b, optionally prefixed by K")]
    Square {
        /// The entry as written.
        entry: String,
        /// The largest square number accepted.
        max: usize,
    },
    /// The same square listed twice.
    #[error("square {0} appears twice in the fen")]
    Duplicate(usize),
    /// A counter field whose letter is not followed by a number.
    #[error("bad counter {0:?} in fen: expected a letter followed by a number, like H12")]
    Counter(String),
    /// The `:W` or `:B` list given twice.
    #[error("the :{0} square list appears twice in the fen")]
    ListTwice(char),
    /// The `:W` or `:B` list missing.
    #[error("the fen has no :{0} square list")]
    MissingList(char),
}

impl Fen {
    /// Reads `text`, accepting squares from 1 to `max_square` (which also bounds the work a
    /// range costs).
    ///
    /// # Errors
    /// A [`FenError`] naming the first fault found.
    pub fn parse(text: &str, max_square: usize) -> Result<Fen, FenError> {
        let syntax = || FenError::Syntax(text.trim().to_string());
        let mut fields = unwrap(text).split(':').map(str::trim);
        let white_to_move = match fields.next().unwrap_or_default() {
            "" => return Err(syntax()),
            "W" | "w" => true,
            "B" | "b" => false,
            other => return Err(FenError::Side(other.to_string())),
        };
        let mut lists = Lists::default();
        let mut counters = Vec::new();
        for field in fields {
            let mut chars = field.chars();
            let tag = chars.next().ok_or_else(syntax)?.to_ascii_uppercase();
            match tag {
                'W' | 'B' => lists.read(tag == 'W', chars.as_str(), max_square)?,
                c if c.is_ascii_alphabetic() => counters.push((c, counter(field, chars.as_str())?)),
                _ => return Err(syntax()),
            }
        }
        Ok(Fen { white_to_move, pieces: lists.finish()?, counters })
    }
}

impl FromStr for Fen {
    type Err = FenError;

    /// Reads `text` with squares from 1 to [`MAX_SQUARE`].
    fn from_str(text: &str) -> Result<Fen, FenError> {
        Fen::parse(text, MAX_SQUARE)
    }
}

impl fmt::Display for Fen {
    /// The canonical form: White's squares then Black's, each in increasing order, `K` before
    /// kings, then the counters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.white_to_move { "W" } else { "B" })?;
        for white in [true, false] {
            let mut pieces: Vec<_> = self.pieces.iter().filter(|p| p.white == white).collect();
            pieces.sort_unstable_by_key(|p| p.square);
            write!(f, ":{}", color_tag(white))?;
            for (i, p) in pieces.iter().enumerate() {
                let sep = if i == 0 { "" } else { "," };
                write!(f, "{sep}{}{}", if p.king { "K" } else { "" }, p.square)?;
            }
        }
        for (letter, value) in &self.counters {
            write!(f, ":{letter}{value}")?;
        }
        Ok(())
    }
}

/// `W` or `B`.
fn color_tag(white: bool) -> char {
    if white {
        'W'
    } else {
        'B'
    }
}

/// The text inside a `[FEN "..."]` tag, if it is one, without a trailing `.`.
fn unwrap(text: &str) -> &str {
    let mut t = text.trim();
    if let Some(inner) = t.strip_prefix("[FEN").and_then(|r| r.strip_suffix(']')) {
        t = inner.trim().trim_matches('"');
    }
    t.trim_end_matches('.')
}

/// The square lists read so far.
#[derive(Default)]
struct Lists {
    /// Whether White's (index 0) and Black's (index 1) lists were read.
    seen: [bool; 2],
    /// Every square listed.
    squares: BTreeSet<usize>,
    /// Every piece, in the order listed.
    pieces: Vec<FenPiece>,
}

impl Lists {
    /// Reads one colour's comma-separated entries.
    fn read(&mut self, white: bool, list: &str, max: usize) -> Result<(), FenError> {
        if std::mem::replace(&mut self.seen[usize::from(!white)], true) {
            return Err(FenError::ListTwice(color_tag(white)));
        }
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (king, squares) = entry(item, max)?;
            for square in squares {
                if !self.squares.insert(square) {
                    return Err(FenError::Duplicate(square));
                }
                self.pieces.push(FenPiece { square, white, king });
            }
        }
        Ok(())
    }

    /// The pieces in increasing square order, once both lists are read.
    fn finish(self) -> Result<Vec<FenPiece>, FenError> {
        for white in [true, false] {
            if !self.seen[usize::from(!white)] {
                return Err(FenError::MissingList(color_tag(white)));
            }
        }
        let mut pieces = self.pieces;
        pieces.sort_unstable_by_key(|p| p.square);
        Ok(pieces)
    }
}

/// One list entry: `n`, `Kn`, `a-b` or `Ka-b`: whether kings, and the squares.
fn entry(item: &str, max: usize) -> Result<(bool, RangeInclusive<usize>), FenError> {
    let bad = || FenError::Square { entry: item.to_string(), max };
    let (king, body) = match item.strip_prefix(['K', 'k']) {
        Some(rest) => (true, rest),
        None => (false, item),
    };
    let square = |s: &str| match number(s) {
        Some(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(bad()),
    };
    let (lo, hi) = match body.split_once('-') {
        Some((a, b)) => (square(a)?, square(b)?),
        None => square(body).map(|n| (n, n))?,
    };
    if lo > hi {
        return Err(bad());
    }
    Ok((king, lo..=hi))
}

/// The value of a counter field (`field` is the whole field, `digits` what follows its
/// letter).
fn counter(field: &str, digits: &str) -> Result<u32, FenError> {
    number(digits).ok_or_else(|| FenError::Counter(field.to_string()))
}

/// `s`, trimmed, as a number written in decimal digits only.
fn number<T: FromStr>(s: &str) -> Option<T> {
    let s = s.trim();
    if s.bytes().all(|c| c.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(text: &str) -> Fen {
        text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn piece(square: usize, white: bool, king: bool) -> FenPiece {
        FenPiece { square, white, king }
    }

    #[test]
    fn reads_sides_lists_kings_ranges_and_counters() {
        let f = fen("B:W21,K26,22:BK1-3,5:H12");
        assert!(!f.white_to_move);
        assert_eq!(
            f.pieces,
            vec![
                piece(1, false, true),
                piece(2, false, true),
                piece(3, false, true),
                piece(5, false, false),
                piece(21, true, false),
                piece(22, true, false),
                piece(26, true, true),
            ]
        );
        assert_eq!(f.counters, vec![('H', 12)]);
        assert!(fen("w:w5:b1").white_to_move);
        assert_eq!(fen("W:W:B").pieces, vec![]);
        assert_eq!(fen("W:Wk1, 2 - 3,:B").pieces.len(), 3);
        assert_eq!(fen("W:W1:B2:r3:E0:R4").counters, vec![('R', 3), ('E', 0), ('R', 4)]);
    }

    #[test]
    fn accepts_the_tag_wrapper_and_a_trailing_period() {
        let plain = fen("W:W21-24:BK1,2");
        assert_eq!(fen("[FEN \"W:W21-24:BK1,2.\"]"), plain);
        assert_eq!(fen("  [FEN \"W:W21-24:BK1,2\"]  "), plain);
        assert_eq!(fen("W:W21-24:BK1,2."), plain);
    }

    #[test]
    fn writes_the_canonical_form() {
        let f = fen("[FEN \"w:bk5,1:W30-32,K7:h3:E9.\"]");
        assert_eq!(f.to_string(), "W:WK7,30,31,32:B1,K5:H3:E9");
        assert_eq!(fen("B:W:B").to_string(), "B:W:B");
        let unsorted = Fen {
            white_to_move: false,
            pieces: vec![piece(9, false, false), piece(4, true, true), piece(2, false, true)],
            counters: vec![],
        };
        assert_eq!(unsorted.to_string(), "B:WK4:BK2,9");
    }

    #[test]
    fn round_trips() {
        for text in ["B:W18,K26:B1,K14", "W:W:B5", "B:WK1:B32:H17", "W:WK3,K46,K50:BK1:R12:E7"] {
            assert_eq!(fen(text).to_string(), text);
            assert_eq!(fen(&fen(text).to_string()), fen(text));
        }
    }

    #[test]
    fn every_error_names_its_fault() {
        let square = |entry: &str| FenError::Square { entry: entry.into(), max: MAX_SQUARE };
        let cases = [
            ("", FenError::Syntax(String::new())),
            (" W::B1 ", FenError::Syntax("W::B1".into())),
            ("W:W1:B2:#3", FenError::Syntax("W:W1:B2:#3".into())),
            ("X:W1:B2", FenError::Side("X".into())),
            ("W21:B1", FenError::Side("W21".into())),
            ("W:W1,x:B2", square("x")),
            ("W:W0:B2", square("0")),
            ("W:W129:B2", square("129")),
            ("W:W+5:B2", square("+5")),
            ("W:WK:B2", square("K")),
            ("W:W5-3:B2", square("5-3")),
            ("W:W1-2-3:B9", square("1-2-3")),
            ("W:W1-:B9", square("1-")),
            ("W:W1,1:B2", FenError::Duplicate(1)),
            ("W:W1-5:B4", FenError::Duplicate(4)),
            ("W:W1:B2:Hx", FenError::Counter("Hx".into())),
            ("W:W1:B2:H", FenError::Counter("H".into())),
            ("W:W1:B2:H-1", FenError::Counter("H-1".into())),
            ("W:W1:B2:H99999999999", FenError::Counter("H99999999999".into())),
            ("W:W1:B2:W3", FenError::ListTwice('W')),
            ("W:W1:b2:B3", FenError::ListTwice('B')),
            ("W:B2", FenError::MissingList('W')),
            ("W:W1", FenError::MissingList('B')),
            ("W", FenError::MissingList('W')),
        ];
        for (text, expected) in cases {
            assert_eq!(text.parse::<Fen>(), Err(expected), "{text:?}");
        }
        assert_eq!(
            Fen::parse("W:W31,51:B1", 50),
            Err(FenError::Square { entry: "51".into(), max: 50 })
        );
    }

    #[test]
    fn messages_are_precise() {
        let message = |text: &str| text.parse::<Fen>().unwrap_err().to_string();
        assert_eq!(message("B:W21"), "the fen has no :B square list");
        assert_eq!(message("B:W21:B1:B2"), "the :B square list appears twice in the fen");
        assert_eq!(message("Q:W1:B2"), "bad side to move \"Q\" in fen: expected W or B");
        assert_eq!(message("W:W3,3:B1"), "square 3 appears twice in the fen");
        assert_eq!(
            Fen::parse("W:WK51:B1", 50).unwrap_err().to_string(),
            "bad square \"K51\" in fen: expected a number from 1 to 50 or a range a-b, \
             optionally prefixed by K"
        );
        assert_eq!(
            message("W:W1:B2:Hx"),
            "bad counter \"Hx\" in fen: expected a letter followed by a number, like H12"
        );
    }

    /// Random and mutated text: an error or a position, never a panic; every position read
    /// writes back to text that reads as the same position.
    #[test]
    fn random_and_mutated_text_parses_or_fails_cleanly() {
        let values: Vec<Fen> = [
            "B:W21-32:B1-12",
            "W:WK3,K46,K50:BK1:R12:E7",
            "[FEN \"B:W18,K26:B1,K14:H17.\"]",
            "W:W:B5",
        ]
        .iter()
        .map(|t| fen(t))
        .collect();
        crate::testing::check_parser(&values, Fen::to_string, str::parse::<Fen>, 3_000, 28)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
