//! Placeholder.
/// Placeholder.
pub struct ConnectFour;
/// Placeholder.
pub struct ConnectFourState;
