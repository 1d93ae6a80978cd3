//! Standard notation: moves (`32-28`, `19x30`, `19x28x37`), FEN positions and the board
//! picture, and the [`Notation`] implementation.
//!
//! Move text is read in two steps: [`MoveText`] parses the syntax alone, then
//! [`MoveText::resolve`] finds the legal move it names, failing as illegal or ambiguous.

use std::fmt;
use std::str::FromStr;

use ply::diagram::{Cell, Diagram, Piece as DiagramPiece, PieceKind, Shade};
use ply::fen::{Fen, FenPiece};
use ply::record::ReadRecordError;
use ply::{Game, MoveList, Notation, Player};

use crate::bitboard::{bit_of, free_ray, nearest, square_of, Bits, DELTA, RAYS};
use crate::error::{Error, MoveError, ParseFenError, ParseMoveError};
use crate::movegen::{Move, Pieces};
use crate::rules::{DraughtsState, InternationalDraughts};

/// Move text without a position: the squares named and whether it is a capture.
///
/// ```
/// use ply_draughts::MoveText;
/// let t: MoveText = "19x28x37".parse().unwrap();
/// assert!(t.capture);
/// assert_eq!(t.squares, vec![19, 28, 37]);
/// assert_eq!(t.to_string(), "19x28x37");
/// assert!("19-".parse::<MoveText>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Start, intermediate landing squares (captures only) and end, each 1..=50.
    pub squares: Vec<u8>,
    /// True for `x` (capture), false for `-` (quiet move).
    pub capture: bool,
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let t = text.trim();
        let err = || ParseMoveError(t.to_string());
        let capture = t.contains(['x', 'X', ':']);
        let quiet = t.contains('-');
        if capture == quiet {
            return Err(err());
        }
        let squares = t
            .split(['x', 'X', ':', '-'])
            .map(|s| match s.parse::<u8>() {
                Ok(n) if (1..=50).contains(&n) && !s.starts_with('+') => Ok(n),
                _ => Err(err()),
            })
            .collect::<Result<Vec<u8>, _>>()?;
        if squares.len() < 2 || (!capture && squares.len() != 2) {
            return Err(err());
        }
        Ok(MoveText { squares, capture })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { "x" } else { "-" };
        for (i, s) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl MoveText {
    /// The legal move of `state` this text names.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] if none matches, [`MoveError::Ambiguous`] if a short capture
    /// form matches several captures (each listed with its full path).
    pub fn resolve(
        &self,
        game: &InternationalDraughts,
        state: &DraughtsState,
    ) -> Result<Move, MoveError> {
        let mut moves = MoveList::new();
        game.generate_moves(state, &mut moves);
        let from = self.squares[0];
        let to = *self.squares.last().expect("at least two squares");
        let via = &self.squares[1..self.squares.len() - 1];
        let found: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.from() == from && m.to() == to && m.is_capture() == self.capture)
            .filter(|m| {
                via.is_empty() || capture_paths(&state.pieces, *m).iter().any(|p| has_sub(p, via))
            })
            .collect();
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(MoveError::Illegal {
                text: self.to_string(),
                legal: moves
                    .iter()
                    .map(|&m| format_move(state, m, &moves))
                    .collect::<Vec<_>>()
                    .join(" "),
            }),
            _ => Err(MoveError::Ambiguous {
                text: self.to_string(),
                candidates: found.iter().map(|&m| full_path(state, m)).collect(),
            }),
        }
    }
}

/// True if `sub` appears in `path` in order (not necessarily adjacent).
fn has_sub(path: &[u8], sub: &[u8]) -> bool {
    let mut it = path.iter();
    sub.iter().all(|s| it.any(|p| p == s))
}

/// Every path (landing squares between start and end, as square numbers) by which the
/// capture `mv` can be played in `pieces`.
fn capture_paths(pieces: &Pieces, mv: Move) -> Vec<Vec<u8>> {
    let from = 1u64 << mv.from;
    let occupied = (pieces.white | pieces.black) & !from;
    let king = pieces.kings & from != 0;
    let mut out = Vec::new();
    let mut path = Vec::new();
    walk(u32::from(mv.from), mv, mv.captured, occupied, king, &mut path, &mut out);
    out
}

fn walk(
    cur: u32,
    mv: Move,
    left: u64,
    occupied: u64,
    king: bool,
    path: &mut Vec<u8>,
    out: &mut Vec<Vec<u8>>,
) {
    if left == 0 {
        if cur == u32::from(mv.to) {
            // The last landing is the end square itself, not an intermediate one.
            out.push(path[..path.len().saturating_sub(1)].to_vec());
        }
        return;
    }
    for dir in 0..4 {
        let ray = RAYS[dir][cur as usize];
        let blockers = ray & occupied;
        if blockers == 0 {
            continue;
        }
        let victim = nearest(blockers, dir);
        let step = |b: u32| (b as i32 + DELTA[dir]) as u32;
        if left >> victim & 1 == 0 || (!king && victim != step(cur)) {
            continue;
        }
        let beyond = free_ray(victim, dir, occupied);
        let lands: Vec<u32> = if king {
            Bits(beyond).collect()
        } else {
            Bits(beyond).filter(|&b| b == step(victim)).collect()
        };
        for land in lands {
            path.push(square_of(land));
            walk(land, mv, left & !(1 << victim), occupied, king, path, out);
            path.pop();
        }
    }
}

/// The capture `mv` with its full path (`19x28x37`); a quiet move as `32-28`.
pub(crate) fn full_path(state: &DraughtsState, mv: Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    MoveText { squares: visited_squares(state, mv), capture: true }.to_string()
}

/// The squares `mv` visits (1..=50): its start, the landing square after each capture but
/// the last, and its end. A capture that several paths play (one move here) takes the path
/// its full notation writes, the first that [`capture_paths`] finds.
fn visited_squares(state: &DraughtsState, mv: Move) -> Vec<u8> {
    let mut squares = vec![mv.from()];
    if mv.is_capture() {
        if let Some(p) = capture_paths(&state.pieces, mv).first() {
            squares.extend_from_slice(p);
        }
    }
    squares.push(mv.to());
    squares
}

/// The cell of [`Notation::diagram`] that shows `square` (1..=50): rows of five from the
/// top, square 1 at the top right's neighbour (row 0, column 1) as in [`render`].
fn diagram_cell(square: u8) -> usize {
    let k = usize::from(square - 1);
    let row = k / 5;
    row * 10 + 2 * (k % 5) + usize::from(row.is_multiple_of(2))
}

/// `mv` in standard notation: the short form, or the full path when another legal move of
/// `moves` has the same start and end.
pub(crate) fn format_move(state: &DraughtsState, mv: Move, moves: &[Move]) -> String {
    let ambiguous = moves.iter().any(|&m| m != mv && m.from == mv.from && m.to == mv.to);
    if ambiguous {
        full_path(state, mv)
    } else if mv.is_capture() {
        format!("{}x{}", mv.from(), mv.to())
    } else {
        format!("{}-{}", mv.from(), mv.to())
    }
}

/// The FEN of a state: `W:W31,...,50:B1,...,20`, `K` before kings, plus `:R<n>` (king move
/// plies) and `:E<n>` (endgame plies) when those draw counters are running.
pub(crate) fn fen(s: &DraughtsState) -> Fen {
    let piece = |b: u32| FenPiece {
        square: usize::from(square_of(b)),
        white: s.pieces.white >> b & 1 != 0,
        king: s.pieces.kings >> b & 1 != 0,
    };
    let mut counters = Vec::new();
    if s.king_move_plies() > 0 {
        counters.push(('R', u32::from(s.king_move_plies())));
    }
    if let Some(e) = s.endgame_plies().filter(|&e| e > 0) {
        counters.push(('E', u32::from(e)));
    }
    let pieces = Bits(s.pieces.white | s.pieces.black).map(piece).collect();
    Fen { white_to_move: s.white_to_move(), pieces, counters }
}

impl fmt::Display for DraughtsState {
    /// The FEN of the position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fen(self).fmt(f)
    }
}

impl FromStr for DraughtsState {
    type Err = ParseFenError;

    /// Reads a FEN position. Square lists take single squares (`31`), kings (`K31`) and
    /// ranges (`31-50`); a `[FEN "..."]` tag around it and a trailing `.` are ignored.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_fen(text)
    }
}

/// Reads the grammar with [`ply::fen`], then checks the crowning rows and the counters `R`
/// and `E`.
fn parse_fen(text: &str) -> Result<DraughtsState, ParseFenError> {
    let fen = Fen::parse(text, 50).map_err(|e| fen_error(text, e))?;
    let mut pieces = Pieces::default();
    for p in &fen.pieces {
        let sq = square(p.square)?;
        let crowning = if p.white { 1..=5 } else { 46..=50 };
        if !p.king && crowning.contains(&sq) {
            return Err(ParseFenError::ManOnCrowningRow(sq));
        }
        let b = 1u64 << bit_of(sq);
        if p.white {
            pieces.white |= b;
        } else {
            pieces.black |= b;
        }
        if p.king {
            pieces.kings |= b;
        }
    }
    let mut king_plies = 0u16;
    let mut endgame: Option<u16> = None;
    for &(letter, value) in &fen.counters {
        let n =
            u16::try_from(value).map_err(|_| ParseFenError::Counter(format!("{letter}{value}")));
        match letter {
            'R' => king_plies = n?,
            'E' => endgame = Some(n?),
            _ => return Err(ParseFenError::Syntax(text.trim().to_string())),
        }
    }
    let mut state = DraughtsState::from_parts(pieces, fen.white_to_move, king_plies);
    if let Some(e) = endgame {
        state.set_endgame_plies(e);
    }
    Ok(state)
}

/// A square number of [`Fen::parse`] with 50 squares, as this crate keeps it.
fn square(n: usize) -> Result<u8, ParseFenError> {
    u8::try_from(n).map_err(|_| ParseFenError::Square(n.to_string()))
}

/// The error of this crate for a grammar error of `text`: the shape errors are all
/// [`ParseFenError::Syntax`].
fn fen_error(text: &str, error: ply::fen::FenError) -> ParseFenError {
    use ply::fen::FenError as Grammar;
    match error {
        Grammar::Side(side) => ParseFenError::Side(side),
        Grammar::Square { entry, .. } => ParseFenError::Square(entry),
        Grammar::Duplicate(n) => square(n).map_or_else(|e| e, ParseFenError::Duplicate),
        Grammar::Counter(field) => ParseFenError::Counter(field),
        Grammar::Syntax(_) | Grammar::ListTwice(_) | Grammar::MissingList(_) => {
            ParseFenError::Syntax(text.trim().to_string())
        }
    }
}

// The board picture's styles, shared with the other draughts games.
use ply::picture::checkered::{self as style, Occupant};

/// The letter of a piece (`w`/`W` for White's man/king, `b`/`B` for Black's), its style and
/// the style of the square number beside it.
fn piece_style(piece: crate::Piece) -> (char, &'static str, &'static str) {
    match piece {
        crate::Piece::WhiteMan => ('w', style::WHITE_MAN, style::ON_WHITE),
        crate::Piece::WhiteKing => ('W', style::WHITE_KING, style::ON_WHITE),
        crate::Piece::BlackMan => ('b', style::BLACK_MAN, style::ON_BLACK),
        crate::Piece::BlackKing => ('B', style::BLACK_KING, style::ON_BLACK),
    }
}

/// The board as text, Black's side (squares 1-5) at the top: 10 rows of 4-character cells,
/// each dark square showing its piece (`w`/`b` men, `W`/`B` kings, blank when empty) and
/// its number, so every number stays in sight. The start and end squares of the last move
/// are marked `*`, the pieces it took `x`; a key to the letters and the side to move follow.
/// With `color` the squares and pieces have backgrounds of their own; the text is the plain
/// picture's. With `turned` the board is turned half round, White's side at the top:
/// rows and columns in reverse order, squares 50 to 46 along the top.
pub(crate) fn render(
    state: &DraughtsState,
    last: Option<Move>,
    color: bool,
    turned: bool,
) -> String {
    let marked = last.map_or(0, |m| 1u64 << m.from | 1u64 << m.to);
    let taken = last.map_or(0, |m| m.captured);
    let paint = |out: &mut String, style: &str, text: &str| {
        if color {
            out.push_str(style);
        }
        out.push_str(text);
    };
    let along = |i: u8| if turned { 9 - i } else { i };
    let mut out = String::new();
    for row in (0..10u8).map(along) {
        out.push_str("  ");
        for col in (0..10u8).map(along) {
            if (row + col) % 2 == 0 {
                paint(&mut out, style::LIGHT, "    ");
                continue;
            }
            let sq = row * 5 + col / 2 + 1;
            let b = 1u64 << bit_of(sq);
            let number = format!("{sq:<2}");
            let occupant = match state.piece_at(sq) {
                Some(p) => {
                    let (letter, chip, beside) = piece_style(p);
                    Occupant::Piece { letter, chip, beside }
                }
                None if taken & b != 0 => Occupant::Taken,
                None => Occupant::Empty,
            };
            style::dark_square(&mut out, color, occupant, &number, marked & b != 0);
        }
        paint(&mut out, style::RESET, "");
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    out.push_str("  ");
    for (pieces, name) in [
        ([crate::Piece::WhiteMan, crate::Piece::WhiteKing], "White man, king   "),
        ([crate::Piece::BlackMan, crate::Piece::BlackKing], "Black man, king   "),
    ] {
        for p in pieces {
            let (letter, chip, _) = piece_style(p);
            paint(&mut out, chip, &letter.to_string());
            paint(&mut out, style::RESET, " ");
        }
        out.push_str(name);
    }
    out.push_str("* last move   x taken\n");
    out.push_str(if state.white_to_move() { "  White to move\n" } else { "  Black to move\n" });
    out
}

impl Notation for InternationalDraughts {
    type Error = Error;

    fn format_move(&self, state: &DraughtsState, mv: Move) -> String {
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        format_move(state, mv, &moves)
    }

    fn parse_move(&self, state: &DraughtsState, text: &str) -> Result<Move, Error> {
        let t: MoveText = text.parse()?;
        Ok(t.resolve(self, state)?)
    }

    fn format_state(&self, state: &DraughtsState) -> String {
        fen(state).to_string()
    }

    fn parse_state(&self, text: &str) -> Result<DraughtsState, Error> {
        Ok(text.parse::<DraughtsState>()?)
    }

    fn render(&self, state: &DraughtsState, last_move: Option<Move>, color: bool) -> String {
        render(state, last_move, color, false)
    }

    /// White (player 0) sees [`Notation::render`]'s picture, its men at the bottom. Black
    /// (player 1) sees it turned half round: squares 50 to 46 along the top, 5 to 1 along
    /// the bottom, so its own men start at the bottom.
    fn render_for(
        &self,
        state: &DraughtsState,
        last_move: Option<Move>,
        color: bool,
        viewer: Player,
    ) -> String {
        render(state, last_move, color, viewer != Player::FIRST)
    }

    /// The 10x10 board as [`Notation::render`] draws it, White (the first player) at the
    /// bottom: light and dark squares, men and kings, each dark square labelled with its
    /// number 1..=50.
    fn diagram(&self, state: &DraughtsState) -> Option<Diagram> {
        let mut d = Diagram::new(10, 10);
        for cell in d.cells.iter_mut() {
            cell.shade = Shade::Light;
        }
        for square in 1..=50u8 {
            let piece = state.piece_at(square).map(|p| {
                let owner = if p.is_white() { Player::FIRST } else { Player::SECOND };
                let kind = if p.is_king() { PieceKind::King } else { PieceKind::Man };
                DiagramPiece::new(owner, kind)
            });
            let label = Some(square.to_string());
            d.cells[diagram_cell(square)] = Cell { shade: Shade::Dark, piece, label };
        }
        Some(d)
    }

    /// The start, each landing square of a capture, the end. A move is a start, an end and
    /// a set of captured pieces; where several paths take them (a king may land on any free
    /// square behind a piece, and pieces may be taken in another order) the landings are
    /// those of the first path found, the one [`Notation::format_move`] writes in full.
    fn move_cells(&self, state: &DraughtsState, mv: Move) -> Vec<usize> {
        visited_squares(state, mv).into_iter().map(diagram_cell).collect()
    }

    /// The game in PDN 3.0 (see the `pdn` module): tags, then the movetext.
    fn write_record(&self, start: &DraughtsState, moves: &[Move]) -> String {
        crate::pdn::write(self, start, moves)
    }

    /// The first game of a PDN text (or of ply's plain record), each move checked.
    fn read_record(&self, text: &str) -> Result<(DraughtsState, Vec<Move>), ReadRecordError> {
        crate::pdn::read(self, text)
    }
}
