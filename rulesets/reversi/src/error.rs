//! The crate's error type.

/// Everything that can go wrong when building a game or reading Reversi text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The board size is outside `4..=16`.
    #[error("unsupported board size {0}: expected 4..=16")]
    Size(usize),
    /// The player count is outside `2..=4`.
    #[error("unsupported player count {0}: expected 2..=4")]
    Players(usize),
    /// The text is not a move.
    #[error("invalid move {0:?}: expected a square such as c4, a pair (column, row) such as (2, 3), or pass")]
    ParseMove(String),
    /// The text is a move, but not a legal one here.
    #[error("illegal move {0}")]
    IllegalMove(String),
    /// The text is not a position of these rules.
    #[error("invalid position {text:?}: {reason}")]
    ParsePosition {
        /// The text that was read.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl Error {
    pub(crate) fn position(text: &str, reason: impl Into<String>) -> Error {
        Error::ParsePosition { text: text.to_string(), reason: reason.into() }
    }
}
