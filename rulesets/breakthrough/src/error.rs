//! The crate's error type.

/// Bad Breakthrough input: an unsupported board, or text that is not a move or position.
///
/// Every message quotes the text it rejects.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The board does not fit the rules' limits (see [`crate::Breakthrough::new`]).
    #[error("unsupported board {cols}x{rows}: columns must be 3..=16 and rows 4..=16, with at most 64 squares")]
    Size {
        /// The columns asked for.
        cols: usize,
        /// The rows asked for.
        rows: usize,
    },
    /// Not two squares of the board.
    #[error("invalid move {0:?}: expected two squares of the board, as in a2-a3 or b4xc5")]
    MoveText(String),
    /// Two squares, but no legal move between them in this position.
    #[error("illegal move {0:?}: the player to move has no pawn that can make it")]
    Illegal(String),
    /// Not a position of this board.
    #[error("invalid position {0:?}: {1}")]
    Position(String, &'static str),
}
