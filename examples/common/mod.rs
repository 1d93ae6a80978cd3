//! Code shared by the example programs: agent specs, the terminal play loop, the game
//! registry, output formatting, and the arena's tournament runner, results file, chart and
//! external-engine clients (Hub, NBoard). Each program includes it with `mod common;`.

// Every program uses only part of this module, so items unused by one program are expected.
#![allow(dead_code)]

pub mod agents;
pub mod chart;
pub mod engine_process;
pub mod games;
pub mod hub;
pub mod nboard;
pub mod play;
pub mod results;
pub mod tournament;
pub mod units;
