//! Error types: one enum per concern, gathered in the crate-wide [`Error`].

/// Any error of this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A board size the rules do not support.
    #[error("unsupported board size {0}: expected an even size from 4 to 16")]
    Size(usize),
    /// Unknown rule-set name.
    #[error(transparent)]
    Rules(#[from] ParseRulesError),
    /// A move that could not be read or played.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A position (FEN) that could not be read.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A board in the seed's row-string form that could not be read.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The engine could not choose a move.
    #[error("no move to play: {0}")]
    Search(String),
}

/// A rule-set name that is neither `deepomatic` nor `standard`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules {0:?}: expected deepomatic or standard")]
pub struct ParseRulesError(pub String);

/// A move that is malformed, illegal or ambiguous in the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move in any accepted form.
    #[error("cannot read move {0:?}: expected squares like 11-15 or 22x15x8, or a path like (5,0)-(4,1)")]
    Syntax(String),
    /// A square number or coordinate that is not a dark square of this board.
    #[error("no dark square {square} on this board (move {text:?})")]
    Square {
        /// The square as written.
        square: String,
        /// The whole move text.
        text: String,
    },
    /// Well formed, but not a legal move here. The message names the move only (a player's
    /// interface lists the legal moves itself); `legal` holds them for callers that want them.
    #[error("illegal move {text}: not a legal move in this position")]
    Illegal {
        /// The move as written.
        text: String,
        /// The legal moves, comma separated.
        legal: String,
    },
    /// Matches more than one legal move.
    #[error("ambiguous move {text}: it could be {candidates}; write every square of the path")]
    Ambiguous {
        /// The move as written.
        text: String,
        /// The matching moves, comma separated.
        candidates: String,
    },
}

/// A PDN FEN position that cannot be read or cannot occur under the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Not of the form `B:W21,22:B1,2` (side to move, then each colour's squares).
    #[error("malformed fen {0:?}: expected side to move, then :W and :B square lists, like B:W21,22:B1,2")]
    Syntax(String),
    /// A square that is not a number, or not on this board.
    #[error("bad square {square:?} in fen: expected a number from 1 to {max}")]
    Square {
        /// The square as written.
        square: String,
        /// The largest square number on this board.
        max: usize,
    },
    /// The same square listed twice.
    #[error("square {0} appears twice in the fen")]
    Duplicate(usize),
    /// A man standing on the row where it would have been crowned.
    #[error("a man on square {0} stands on its crowning row: it would be a king")]
    ManOnCrowningRow(usize),
    /// The quiet-move counter is not a number.
    #[error("bad move counter {0:?} in fen: expected H followed by a number")]
    Counter(String),
}

/// A board in the seed's form (a list of row strings) that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Row count not an even number from 4 to 16.
    #[error("unsupported board of {0} rows: expected an even size from 4 to 16")]
    Size(usize),
    /// A row whose length differs from the number of rows.
    #[error("row {row} has {len} squares, expected {size}")]
    Ragged {
        /// The row index.
        row: usize,
        /// Its length in characters.
        len: usize,
        /// The number of rows.
        size: usize,
    },
    /// A character other than `_`, `b`, `B`, `w`, `W`.
    #[error("unknown character {ch:?} at ({row}, {col}): expected one of _ b B w W")]
    Character {
        /// The row index.
        row: usize,
        /// The column index.
        col: usize,
        /// The character.
        ch: char,
    },
    /// A piece on a light square (where the top-left square is light).
    #[error("piece on light square ({row}, {col}): pieces stand on squares with row + col odd")]
    LightSquare {
        /// The row index.
        row: usize,
        /// The column index.
        col: usize,
    },
    /// A man standing on the row where it would have been crowned.
    #[error("man at ({row}, {col}) stands on its crowning row: it would be a king")]
    ManOnCrowningRow {
        /// The row index.
        row: usize,
        /// The column index.
        col: usize,
    },
    /// A colour other than `b` or `w`.
    #[error("unknown colour {0:?}: expected 'b' or 'w'")]
    Color(char),
    /// A move that is not a legal move of the board.
    #[error("illegal move {move_text}: legal moves are {legal}")]
    IllegalMove {
        /// The move as given.
        move_text: String,
        /// The legal moves.
        legal: String,
    },
}
