//! Error types: bad move text, moves that do not fit the position, bad FEN.

/// Move text that is not draughts notation at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid move {0:?}: expected squares 1-50 joined by '-' or 'x' (32-28, 19x30, 19x28x37)")]
pub struct ParseMoveError(pub String);

/// Well-formed move text that does not name exactly one legal move of the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// No legal move matches. The message names the move only (a player's interface lists
    /// the legal moves itself); `legal` holds them for callers that want them.
    #[error("illegal move {text}: not a legal move in this position")]
    Illegal {
        /// The text given.
        text: String,
        /// The legal moves in standard notation, separated by spaces.
        legal: String,
    },
    /// Several legal captures match the short form; give the full path.
    #[error("ambiguous move {text}: it may be {}", candidates.join(" or "))]
    Ambiguous {
        /// The text given.
        text: String,
        /// The matching moves written with their full paths.
        candidates: Vec<String>,
    },
}

/// A FEN position (`W:W31,...,50:B1,...,20`) that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// The overall shape is wrong.
    #[error("invalid fen {0:?}: expected side:Wsquares:Bsquares, e.g. W:W31-50:B1-20")]
    Syntax(String),
    /// The side to move is not `W` or `B`.
    #[error("invalid side to move {0:?} in fen: expected W or B")]
    Side(String),
    /// A square entry is not `n`, `Kn` or a range `a-b` within 1..=50.
    #[error("invalid square {0:?} in fen: expected 1..50, optionally prefixed by K")]
    Square(String),
    /// The same square is listed twice.
    #[error("square {0} is listed twice in fen")]
    Duplicate(u8),
    /// A man stands on its own far row, where it would have been crowned.
    #[error("a man on square {0} stands on its crowning row; write it as a king (K{0})")]
    ManOnCrowningRow(u8),
    /// A draw-counter field (`R<n>` or `E<n>`) is malformed.
    #[error("invalid counter field {0:?} in fen: expected R<plies> or E<plies>")]
    Counter(String),
}

/// Every error of this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Bad move syntax.
    #[error(transparent)]
    ParseMove(#[from] ParseMoveError),
    /// A move that does not fit the position.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// Bad FEN.
    #[error(transparent)]
    ParseFen(#[from] ParseFenError),
    /// Bad Hub position text.
    #[error("invalid hub position {0:?}: expected W or B followed by 50 of w, b, W, B, e")]
    HubPosition(String),
}
