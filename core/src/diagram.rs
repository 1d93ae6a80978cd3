//! [`Diagram`]: what a graphical front end (the web board of `ply_tools::web`) needs to
//! draw a position and to turn clicks into moves, for any game whose board is a grid.
//!
//! A game gives it through [`Notation::diagram`](crate::Notation::diagram) and
//! [`Notation::move_cells`](crate::Notation::move_cells): the cells of the grid with what
//! stands on each, and for every move the cells it visits, in order (from, each landing,
//! to). A front end lets a player click the first cell of a move, then its last; a move of
//! one cell (a drop, a sowing) is one click, and a move of no cell (a pass) is a button. Two
//! moves with the same first and last cells (a capture that can take two paths, a move
//! that may crown) are told apart by the front end, which asks which one.
//!
//! ```
//! use ply::diagram::{Cell, Diagram, Piece, PieceKind};
//! use ply::Player;
//!
//! let mut d = Diagram::new(2, 3);
//! let cell = d.index(1, 2);
//! d.cells[cell].piece = Some(Piece::new(Player::new(0), PieceKind::Disc));
//! assert_eq!(d.cells.len(), 6);
//! assert_eq!(d.cells[5].piece.unwrap().owner, Player::new(0));
//! assert_eq!(d.cells[0], Cell::default());
//! ```

use crate::Player;

/// The kind of a cell, which decides how it is painted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shade {
    /// A square of a plain board (Othello, Breakthrough, Connect Four).
    #[default]
    Plain,
    /// A light square of a checkered board: nothing ever stands on it.
    Light,
    /// A dark (playing) square of a checkered board.
    Dark,
    /// A pit of a mancala board.
    Pit,
    /// A store of a mancala board.
    Store,
    /// Not part of the board: drawn as background.
    Off,
}

/// How a piece is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceKind {
    /// A man (draughts) or a pawn-like piece.
    Man,
    /// A king (a crowned man).
    King,
    /// A disc (Othello, Connect Four).
    Disc,
    /// Seeds of a mancala pit or store: [`Piece::count`] of them, drawn as a number.
    Seeds,
    /// A letter (noughts and crosses).
    Glyph(char),
}

/// A piece on a cell: its owner, its kind and how many stand there (a stack's height, a
/// pit's seeds; 1 for a single piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The player it belongs to.
    pub owner: Player,
    /// How it is drawn.
    pub kind: PieceKind,
    /// How many: 2 for an Impasse double, the seeds of a pit.
    pub count: u32,
}

impl Piece {
    /// One piece of `kind` owned by `owner`.
    pub const fn new(owner: Player, kind: PieceKind) -> Piece {
        Piece { owner, kind, count: 1 }
    }

    /// `count` pieces (a stack, seeds) of `kind` owned by `owner`.
    pub const fn many(owner: Player, kind: PieceKind, count: u32) -> Piece {
        Piece { owner, kind, count }
    }
}

/// One cell of a [`Diagram`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// How the cell is painted.
    pub shade: Shade,
    /// What stands on it.
    pub piece: Option<Piece>,
    /// A small label in the cell's corner (a square number), if any.
    pub label: Option<String>,
}

/// A position as a grid of cells, row 0 at the top as the first player sees the board (the
/// first player's side at the bottom). See the [module docs](self).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagram {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// The cells, row by row from the top: `rows * cols` of them.
    pub cells: Vec<Cell>,
    /// The column names along the bottom edge (`a`, `b`, ...), empty for none.
    pub col_labels: Vec<String>,
    /// The row names along the left edge, top row first, empty for none.
    pub row_labels: Vec<String>,
}

impl Diagram {
    /// An empty grid of `rows` x `cols` plain cells.
    pub fn new(rows: usize, cols: usize) -> Diagram {
        Diagram {
            rows,
            cols,
            cells: vec![Cell::default(); rows * cols],
            col_labels: Vec::new(),
            row_labels: Vec::new(),
        }
    }

    /// The index in [`Diagram::cells`] of the cell at `row` (from the top) and `col` (from
    /// the left).
    pub const fn index(&self, row: usize, col: usize) -> usize {
        row * self.cols + col
    }

    /// Columns named `a`, `b`, ... and rows numbered from the bottom (`8` at the top of an
    /// 8-row board), as chess-like notations name squares.
    pub fn with_chess_labels(mut self) -> Diagram {
        self.col_labels = (0..self.cols).map(|c| column_letter(c).to_string()).collect();
        self.row_labels = (0..self.rows).map(|r| (self.rows - r).to_string()).collect();
        self
    }
}

/// The letter of column `col` (`a` for 0); columns past `z` take `?`.
fn column_letter(col: usize) -> char {
    u8::try_from(col).ok().filter(|&c| c < 26).map_or('?', |c| char::from(b'a' + c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_labels_count_rows_from_the_bottom() {
        let d = Diagram::new(3, 2).with_chess_labels();
        assert_eq!(d.col_labels, ["a", "b"]);
        assert_eq!(d.row_labels, ["3", "2", "1"]);
        assert_eq!(d.index(2, 1), 5);
        assert_eq!(column_letter(30), '?');
    }
}
