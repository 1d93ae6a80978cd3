//! The conformance kit: checks that a [`crate::Game`] implementation keeps the trait's
//! contract, on seeded random games, and that search enhancements agree with plain minimax.
//!
//! Enabled by the `testing` feature; a ruleset turns it on from its `[dev-dependencies]`.

pub mod agreement;
mod conformance;

pub use conformance::*;
