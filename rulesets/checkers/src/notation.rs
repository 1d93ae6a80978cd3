//! Text forms: PDN FEN positions ([`Setup`]), moves as square numbers or as a path of
//! `(row, col)` squares ([`MoveText`]), and the terminal board picture.
//!
//! Parsing is split as in the chess crates: [`Setup`] and [`MoveText`] read text without
//! knowing the board, then [`EnglishCheckers::setup`] and [`EnglishCheckers::resolve`] check
//! it against the board size and the legal moves.
//!
//! - Squares are numbered 1..=N*N/2 over the dark squares, left to right and top to bottom
//!   (8x8: 1-4 on row 0, 29-32 on row 7). Black starts on the low numbers.
//! - A step is written `11-15`; a capture lists its start and every landing square,
//!   `22x15x8`. On input the short form `22x8` (or any subset of the landing squares, in
//!   order) is accepted when it names one legal move; otherwise the error lists the
//!   candidates.
//! - The seed's path form lists the visited `(row, col)` squares, row 0 at the top (Black's
//!   side): written `(1,2)-(3,0)-(5,2)`; on input `[(1, 2), (3, 0), (5, 2)]` (the Python
//!   list the seed prints) is accepted too.
//! - Positions are PDN FEN, read and written by [`ply::fen`]: `B:W21,22,...:B1,2,...` (side
//!   to move, then each colour's squares, `K` before a king; ranges like `1-12` are
//!   accepted). When the count of plies without capture or man move is not zero it follows
//!   as `:H12`.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use ply::diagram::{Cell, Diagram, Piece as DiagramPiece, PieceKind, Shade};
use ply::fen::{Fen, FenPiece};
use ply::record::ReadRecordError;
use ply::{Game, MoveList, Notation, Player};

use crate::error::{Error, FenError, MoveError};
use crate::moves::Move;
use crate::rules::{CheckersState, Color, EnglishCheckers, Piece};

/// A position read from PDN FEN, before it is checked against a board size.
///
/// ```
/// use ply_checkers::{Setup, Color};
/// let setup: Setup = "W:WK3,21:B1-2".parse()?;
/// assert_eq!(setup.to_move, Color::White);
/// assert_eq!(setup.pieces.len(), 4);
/// assert_eq!(setup.to_string(), "W:WK3,21:B1,2");
/// # Ok::<(), ply_checkers::FenError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The side to move.
    pub to_move: Color,
    /// Each piece with its square number (1-based).
    pub pieces: Vec<(usize, Piece)>,
    /// Plies since the last capture or man move.
    pub quiet_plies: u16,
}

impl FromStr for Setup {
    type Err = FenError;

    /// Reads the grammar with [`ply::fen`]; the only counter taken is `H`.
    fn from_str(text: &str) -> Result<Setup, FenError> {
        let fen: Fen = text.parse().map_err(|e| fen_error(text, e))?;
        let mut quiet_plies = 0;
        for &(letter, value) in &fen.counters {
            if letter != 'H' {
                return Err(FenError::Syntax(text.to_string()));
            }
            quiet_plies =
                u16::try_from(value).map_err(|_| FenError::Counter(format!("H{value}")))?;
        }
        let pieces =
            fen.pieces.iter().map(|p| (p.square, Piece { color: color(p.white), king: p.king }));
        Ok(Setup { to_move: color(fen.white_to_move), pieces: pieces.collect(), quiet_plies })
    }
}

/// White if `white`, else Black.
fn color(white: bool) -> Color {
    if white {
        Color::White
    } else {
        Color::Black
    }
}

/// The error of this crate for a grammar error of `text`: the shape errors are all
/// [`FenError::Syntax`].
fn fen_error(text: &str, error: ply::fen::FenError) -> FenError {
    use ply::fen::FenError as Grammar;
    match error {
        Grammar::Square { entry, max } => FenError::Square { square: entry, max },
        Grammar::Duplicate(square) => FenError::Duplicate(square),
        Grammar::Counter(field) => FenError::Counter(field),
        Grammar::Syntax(_) | Grammar::Side(_) | Grammar::ListTwice(_) | Grammar::MissingList(_) => {
            FenError::Syntax(text.to_string())
        }
    }
}

impl Setup {
    /// The position as a [`Fen`], the counter `H` when not zero.
    fn to_fen(&self) -> Fen {
        let pieces = self.pieces.iter().map(|&(square, p)| FenPiece {
            square,
            white: p.color == Color::White,
            king: p.king,
        });
        let quiet = u32::from(self.quiet_plies);
        Fen {
            white_to_move: self.to_move == Color::White,
            pieces: pieces.collect(),
            counters: if quiet > 0 { vec![('H', quiet)] } else { Vec::new() },
        }
    }
}

impl fmt::Display for Setup {
    /// White's squares then Black's, each in increasing order, kings marked `K`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_fen().fmt(f)
    }
}

/// A move as written, before it is matched against the legal moves.
///
/// ```
/// use ply_checkers::MoveText;
/// let m: MoveText = "22x15x8".parse()?;
/// assert_eq!(m, MoveText::Numbers { squares: vec![22, 15, 8], capture: true });
/// let p: MoveText = "[(1, 2), (3, 0), (5, 2)]".parse()?;
/// assert_eq!(p.to_string(), "(1,2)-(3,0)-(5,2)");
/// # Ok::<(), ply_checkers::MoveError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveText {
    /// Square numbers separated by `-` (a step) or `x` (a capture).
    Numbers {
        /// The squares as written (1-based), at least two.
        squares: Vec<usize>,
        /// True if written with `x`.
        capture: bool,
    },
    /// `(row, col)` squares, row 0 at the top, at least two.
    Path(Vec<(usize, usize)>),
}

impl FromStr for MoveText {
    type Err = MoveError;

    fn from_str(text: &str) -> Result<MoveText, MoveError> {
        let t = text.trim();
        let syntax = || MoveError::Syntax(t.to_string());
        if t.contains('(') {
            let inner = t.trim_start_matches('[').trim_end_matches(']');
            let mut path = Vec::new();
            let mut rest = inner.trim();
            while !rest.is_empty() {
                let open = rest.strip_prefix('(').ok_or_else(syntax)?;
                let (pair, after) = open.split_once(')').ok_or_else(syntax)?;
                let (r, c) = pair.split_once(',').ok_or_else(syntax)?;
                let r = r.trim().parse().map_err(|_| syntax())?;
                let c = c.trim().parse().map_err(|_| syntax())?;
                path.push((r, c));
                rest = after.trim_start_matches(|ch: char| {
                    ch.is_whitespace() || ch == ',' || ch == '-' || ch == 'x'
                });
            }
            if path.len() < 2 {
                return Err(syntax());
            }
            return Ok(MoveText::Path(path));
        }
        let capture = t.contains(['x', 'X', ':']);
        let squares = t
            .split(['-', 'x', 'X', ':'])
            .map(|s| s.trim().parse::<usize>().map_err(|_| syntax()))
            .collect::<Result<Vec<_>, _>>()?;
        if squares.len() < 2 || squares.contains(&0) {
            return Err(syntax());
        }
        Ok(MoveText::Numbers { squares, capture })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::Numbers { squares, capture } => {
                let sep = if *capture { "x" } else { "-" };
                for (i, sq) in squares.iter().enumerate() {
                    write!(f, "{}{sq}", if i == 0 { "" } else { sep })?;
                }
                Ok(())
            }
            MoveText::Path(path) => {
                for (i, (r, c)) in path.iter().enumerate() {
                    write!(f, "{}({r},{c})", if i == 0 { "" } else { "-" })?;
                }
                Ok(())
            }
        }
    }
}

/// True if `want` (start, some landings, end) fits `path`: same start and end, and the middle
/// squares of `want` appear in `path` in the same order.
pub(crate) fn fits(want: &[usize], path: &[usize]) -> bool {
    if want.first() != path.first() || want.last() != path.last() {
        return false;
    }
    let mut inner = path[1..path.len() - 1].iter();
    want[1..want.len() - 1].iter().all(|w| inner.any(|p| p == w))
}

impl EnglishCheckers {
    /// Every legal move of `state` with its visited squares, in generation order.
    pub fn moves_with_paths(&self, state: &CheckersState) -> Vec<(Move, Vec<usize>)> {
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        moves.iter().map(|&m| (m, self.path(state, m))).collect()
    }

    /// `mv` in numeric notation with every landing square (`11-15`, `22x15x8`).
    pub fn move_numbers(&self, state: &CheckersState, mv: Move) -> String {
        let squares = self.path(state, mv).iter().map(|&s| s + 1).collect();
        MoveText::Numbers { squares, capture: mv.is_capture() }.to_string()
    }

    /// `mv` in the seed's path form, `(5,0)-(4,1)`.
    pub fn move_path_text(&self, state: &CheckersState, mv: Move) -> String {
        let path = self.path(state, mv).iter().map(|&s| self.coords(s)).collect();
        MoveText::Path(path).to_string()
    }

    /// The legal move of `state` that `text` names.
    ///
    /// An exact path wins; otherwise the written squares must be the start, the end and, in
    /// order, some of the landing squares of exactly one legal move.
    ///
    /// # Errors
    /// [`MoveError::Square`] for a square not on this board, [`MoveError::Illegal`] when no
    /// legal move fits, [`MoveError::Ambiguous`] when several do.
    pub fn resolve(&self, state: &CheckersState, text: &MoveText) -> Result<Move, MoveError> {
        let written = text.to_string();
        let bad_square = |square: String| MoveError::Square { square, text: written.clone() };
        let want: Vec<usize> = match text {
            MoveText::Numbers { squares, .. } => squares
                .iter()
                .map(|&n| {
                    if (1..=self.squares()).contains(&n) {
                        Ok(n - 1)
                    } else {
                        Err(bad_square(n.to_string()))
                    }
                })
                .collect::<Result<_, _>>()?,
            MoveText::Path(path) => path
                .iter()
                .map(|&(r, c)| self.square_at(r, c).ok_or_else(|| bad_square(format!("({r},{c})"))))
                .collect::<Result<_, _>>()?,
        };
        let legal = self.moves_with_paths(state);
        if let Some((m, _)) = legal.iter().find(|(_, p)| *p == want) {
            return Ok(*m);
        }
        let fitting: Vec<_> = legal.iter().filter(|(_, p)| fits(&want, p)).collect();
        let list = |moves: &mut dyn Iterator<Item = &(Move, Vec<usize>)>| {
            moves.map(|(m, _)| self.move_numbers(state, *m)).collect::<Vec<_>>().join(", ")
        };
        match fitting.len() {
            1 => Ok(fitting[0].0),
            0 => Err(MoveError::Illegal {
                text: written.clone(),
                legal: if legal.is_empty() { "none".into() } else { list(&mut legal.iter()) },
            }),
            _ => Err(MoveError::Ambiguous {
                text: written.clone(),
                candidates: list(&mut fitting.into_iter()),
            }),
        }
    }

    /// The state a [`Setup`] describes on this board.
    ///
    /// # Errors
    /// A [`FenError`] (inside [`Error::Fen`]) for a square off the board, a square listed
    /// twice, or a man on its crowning row.
    pub fn setup(&self, setup: &Setup) -> Result<CheckersState, Error> {
        let mut pieces = Vec::with_capacity(setup.pieces.len());
        for &(n, p) in &setup.pieces {
            if n == 0 || n > self.squares() {
                return Err(FenError::Square { square: n.to_string(), max: self.squares() }.into());
            }
            pieces.push((n - 1, p));
        }
        let mut state = self.position(setup.to_move, &pieces)?;
        state.quiet_plies = setup.quiet_plies;
        Ok(state)
    }

    /// The [`Setup`] of a state.
    pub fn to_setup(&self, state: &CheckersState) -> Setup {
        let pieces = (0..self.squares()).filter_map(|sq| state.piece(sq).map(|p| (sq + 1, p)));
        Setup { to_move: state.to_move(), pieces: pieces.collect(), quiet_plies: state.quiet_plies }
    }
}

// The board picture's styles, shared with the other draughts games.
use ply::picture::checkered::{self as style, Occupant};

/// The letter of a piece (`b`/`B` for Black's man/king, `w`/`W` for White's), its style and
/// the style of the square number beside it.
fn piece_letter(piece: Piece) -> (char, &'static str, &'static str) {
    match (piece.color, piece.king) {
        (Color::Black, false) => ('b', style::BLACK_MAN, style::ON_BLACK),
        (Color::Black, true) => ('B', style::BLACK_KING, style::ON_BLACK),
        (Color::White, false) => ('w', style::WHITE_MAN, style::ON_WHITE),
        (Color::White, true) => ('W', style::WHITE_KING, style::ON_WHITE),
    }
}

/// The board picture of [`Notation::render`] (see there), or with `turned` the same board
/// turned half round, Black's side at the bottom: rows and columns in reverse order, each
/// coordinate with its squares.
fn render(
    game: &EnglishCheckers,
    state: &CheckersState,
    last: Option<Move>,
    color: bool,
    turned: bool,
) -> String {
    // `state` is the position after `last`: mark its start and end squares, and show its
    // captured squares as `x` when they are empty now.
    let marked = last.map_or(0u128, |m| 1 << m.from() | 1 << m.to());
    let taken = last.map_or(0, |m| m.captured);
    let digits = game.squares().to_string().len();
    let width = digits + 2;
    let paint = |out: &mut String, style: &str, text: &str| {
        if color {
            out.push_str(style);
        }
        out.push_str(text);
    };
    let n = game.size();
    let along = move |i: usize| if turned { n - 1 - i } else { i };
    let mut out = String::from("   ");
    for c in (0..n).map(along) {
        let _ = write!(out, "{c:<width$}");
    }
    trim_end(&mut out);
    out.push('\n');
    for r in (0..n).map(along) {
        let _ = write!(out, "{r:>2} ");
        for c in (0..n).map(along) {
            let Some(sq) = game.square_at(r, c) else {
                paint(&mut out, style::LIGHT, &" ".repeat(width));
                continue;
            };
            let bit = 1u128 << sq;
            let number = format!("{:<digits$}", sq + 1);
            let occupant = match state.piece(sq) {
                Some(p) => {
                    let (letter, chip, beside) = piece_letter(p);
                    Occupant::Piece { letter, chip, beside }
                }
                None if taken & bit != 0 => Occupant::Taken,
                None => Occupant::Empty,
            };
            style::dark_square(&mut out, color, occupant, &number, marked & bit != 0);
        }
        paint(&mut out, style::RESET, "");
        trim_end(&mut out);
        out.push('\n');
    }
    legend(&mut out, color);
    let _ = write!(out, "{} to move", state.to_move());
    if state.quiet_plies > 0 {
        let _ = write!(out, " ({} plies without capture or man move)", state.quiet_plies);
    }
    out
}

/// The key to the letters and marks, one line.
fn legend(out: &mut String, color: bool) {
    let pieces = [(Color::Black, "Black man, king"), (Color::White, "White man, king")];
    for (side, name) in pieces {
        for king in [false, true] {
            let (letter, chip, _) = piece_letter(Piece { color: side, king });
            if color {
                let _ = write!(out, "{chip}{letter}{}", style::RESET);
            } else {
                out.push(letter);
            }
            out.push(' ');
        }
        let _ = write!(out, "{name}   ");
    }
    out.push_str("* last move   x taken\n");
}

/// Removes trailing spaces (plain pictures end their lines at the last square).
fn trim_end(out: &mut String) {
    while out.ends_with(' ') {
        out.pop();
    }
}

/// The cell of [`Notation::diagram`] that shows dark square `sq`: the board turned half a
/// turn from the notation's rows, so that Black (the first player) sits at the bottom.
fn diagram_cell(game: &EnglishCheckers, sq: usize) -> usize {
    let (row, col) = game.coords(sq);
    let n = game.size();
    (n - 1 - row) * n + (n - 1 - col)
}

/// The diagram's cell for a dark square: its piece and its square number.
fn dark_cell(state: &CheckersState, sq: usize) -> Cell {
    let piece = state.piece(sq).map(|p| {
        let kind = if p.king { PieceKind::King } else { PieceKind::Man };
        DiagramPiece::new(p.color.player(), kind)
    });
    Cell { shade: Shade::Dark, piece, label: Some((sq + 1).to_string()) }
}

impl Notation for EnglishCheckers {
    type Error = Error;

    fn format_move(&self, state: &CheckersState, mv: Move) -> String {
        self.move_numbers(state, mv)
    }

    fn parse_move(&self, state: &CheckersState, text: &str) -> Result<Move, Error> {
        let parsed: MoveText = text.parse()?;
        Ok(self.resolve(state, &parsed)?)
    }

    fn format_state(&self, state: &CheckersState) -> String {
        self.to_setup(state).to_string()
    }

    fn parse_state(&self, text: &str) -> Result<CheckersState, Error> {
        let setup: Setup = text.parse()?;
        self.setup(&setup)
    }

    /// The game in PDN 3.0 (see the `pdn` module): tags, then the movetext.
    fn write_record(&self, start: &CheckersState, moves: &[Move]) -> String {
        crate::pdn::write(self, start, moves)
    }

    /// The first game of a PDN text (or of ply's plain record), each move checked.
    fn read_record(&self, text: &str) -> Result<(CheckersState, Vec<Move>), ReadRecordError> {
        crate::pdn::read(self, text)
    }

    /// The board, row 0 (Black's side) at the top: row numbers on the left, column numbers
    /// above, and on each dark square its piece (`b`, `w` men, `B`, `W` kings, blank when
    /// empty) followed by its square number, so every square's number stays in sight. The
    /// start and end squares of `last_move` are marked `*`, the pieces it took `x`; a key to
    /// the letters and the side to move follow. With `color`, the squares and pieces have
    /// backgrounds of their own (green and buff squares, black and white pieces, the last
    /// move's squares cyan), so the picture reads on light and dark terminals alike; its
    /// text is the plain picture's.
    fn render(&self, state: &CheckersState, last_move: Option<Move>, color: bool) -> String {
        render(self, state, last_move, color, false)
    }

    /// White (player 1) sees [`Notation::render`]'s picture, its men at the bottom. Black
    /// (player 0) sees it turned half round: row 7 and column 7 at the top left, square 1 at
    /// the bottom right, so its own men start at the bottom.
    fn render_for(
        &self,
        state: &CheckersState,
        last_move: Option<Move>,
        color: bool,
        viewer: Player,
    ) -> String {
        render(self, state, last_move, color, Color::of(viewer) == Color::Black)
    }

    /// The board seen from Black's side: the picture of [`Notation::render`] turned half a
    /// turn, so that Black's men start on the bottom rows (square 1 at the bottom right).
    /// Light and dark squares, men and kings, each dark square labelled with its number.
    fn diagram(&self, state: &CheckersState) -> Option<Diagram> {
        let n = self.size();
        let mut d = Diagram::new(n, n);
        for cell in d.cells.iter_mut() {
            cell.shade = Shade::Light;
        }
        for sq in 0..self.squares() {
            d.cells[diagram_cell(self, sq)] = dark_cell(state, sq);
        }
        Some(d)
    }

    /// The start square, every landing square of a capture, the end square.
    fn move_cells(&self, state: &CheckersState, mv: Move) -> Vec<usize> {
        self.path(state, mv).into_iter().map(|sq| diagram_cell(self, sq)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_checks_order_and_ends() {
        assert!(fits(&[1, 5], &[1, 3, 5]));
        assert!(fits(&[1, 3, 5], &[1, 3, 5]));
        assert!(!fits(&[1, 4, 5], &[1, 3, 5]));
        assert!(!fits(&[1, 6], &[1, 3, 5]));
    }
}
