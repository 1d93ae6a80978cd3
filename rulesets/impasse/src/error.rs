//! The crate's error type.

/// What can go wrong reading Impasse text: an action, a position or the CodinGame protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Not the text of an action (one to three squares `a1`..`h8`).
    #[error("invalid action text {0:?}: expected 1 to 3 squares such as b6, c1a3 or f8g7c5")]
    MoveSyntax(String),
    /// Well-formed text that names no legal action of the position.
    #[error("illegal action {0}: no legal action of this position has this text")]
    IllegalMove(String),
    /// Not a position in the `<row8>/.../<row1> <w|b> [<white> <black> [<ply>]]` format.
    #[error("invalid position {text:?}: {reason}")]
    PositionSyntax {
        /// The text that was read.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A well-formed position that Impasse cannot reach.
    #[error("impossible position {text:?}: {reason}")]
    ImpossiblePosition {
        /// The text that was read.
        text: String,
        /// Which rule it breaks.
        reason: String,
    },
    /// Input from the CodinGame referee that does not follow the protocol.
    #[error("codingame protocol: {0}")]
    Protocol(String),
}
