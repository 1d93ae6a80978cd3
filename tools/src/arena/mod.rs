//! The arena: tournaments between agents on one game or on every game of a registry, fair by
//! construction (every opening from every seat), in parallel, resumable, shardable over a
//! batch system, with Elo, SPRT and an SVG chart.
//!
//! The program is [`crate::cli::arena`]; [`tournament`] plays one tournament on one game, [`results`] reads and writes the JSON-lines records, [`chart`] draws the SVG.

pub mod chart;
pub mod results;
pub mod tournament;
