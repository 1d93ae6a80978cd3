//! The crate's error type.

/// Bad Kalah input: unsupported rules, or text that is not a move or position.
///
/// Every message quotes the text it rejects.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The board does not fit the rules' limits (see [`crate::Kalah::new`]).
    #[error("unsupported Kalah({pits},{seeds}): houses per side must be 1..=8 and seeds per house 1..=15")]
    Size {
        /// The houses per side asked for.
        pits: usize,
        /// The seeds per house asked for.
        seeds: usize,
    },
    /// Not a capture variant.
    #[error("unknown capture rule {0:?}: expected standard, empty or none")]
    Capture(String),
    /// Not a house number.
    #[error("invalid move {0:?}: expected a house number from 1 to {1}")]
    MoveText(String, usize),
    /// A house number, but the house is empty or the game is over.
    #[error("illegal move {0:?}: that house is empty or the game is over")]
    Illegal(String),
    /// A [`crate::SeedTable`] that cannot be built, or does not fit the rules.
    #[error("seed table: {0}")]
    Table(String),
    /// Not a position of these rules.
    #[error("invalid position {0:?}: {1}")]
    Position(String, String),
}
