//! Placeholder.
/// Placeholder.
pub struct ThreeHeaps;
/// Placeholder.
pub struct ThreeHeapsState;
