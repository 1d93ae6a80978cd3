//! The conformance kit: checks that a [`crate::Game`] implementation keeps the trait's
//! contract on seeded random games (with failure messages in the game's [`crate::Notation`]
//! when it has one), and that the searches agree with brute-force references written
//! independently of them: two-player alpha-beta with plain negamax, and the multiplayer
//! search's paranoid, max^n and best-reply models with brute-force searches of each model
//! ([`agreement`]).
//!
//! Enabled by the `testing` feature; a ruleset turns it on from its `[dev-dependencies]`.

pub mod agreement;
mod conformance;

pub use conformance::*;
