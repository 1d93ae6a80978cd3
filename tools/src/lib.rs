//! # ply-tools
//!
//! The tools of the [`ply`] framework, for any game that implements
//! [`ply::Game`] and [`ply::Notation`]: a game gets them by a registration of a few lines in
//! a [`registry::Registry`], with no change to the tools.
//!
//! | module | what it holds |
//! |---|---|
//! | [`registry`] | the games a program offers by name: options, builder, named evaluations, engine codecs |
//! | [`spec`] | agent specs, the text form of a player (`alphabeta:depth=8`, `mcts:time=100ms`) |
//! | [`play`] | the terminal play loop: humans and engines on any game |
//! | [`arena`] | tournaments: schedules, parallel games, JSON lines, resume, shards, merge, Elo, SPRT, SVG |
//! | [`perft`] | the perft/divide tool |
//! | [`tune`] | training data by self-play (binary, sharded, resumable) and fitting of evaluations |
//! | [`shard`] | `--shard K/N`: which games of a run a job-array task plays |
//! | [`egdb`] | endgame databases for any game with an index: build, info, probe, verify |
//! | [`engines`] | clients of external engines (Hub, NBoard) over a process transport |
//! | [`bench`](mod@bench) | benchmark workloads (perft, searches, MCTS) sized by counts, for any game |
//! | [`files`] | reading the files a user names, with a size limit |
//! | [`cli`] | whole programs (`perft`, `play`; the arena's is [`arena::main`]) over a registry |
//! | [`units`] | number and duration formatting for reports |
//!
//! ```
//! use ply::games::ConnectFour;
//! use ply_tools::registry::{GameEntry, Registry};
//!
//! let mut registry = Registry::new();
//! registry.add(GameEntry::new("connect-four", "Connect Four on 7x6", |_| Ok(ConnectFour::standard())));
//! assert!(registry.help().contains("connect-four"));
//! ```

pub mod arena;
pub mod bench;
pub mod book;
pub mod cli;
pub mod dynamic;
pub mod egdb;
pub mod engines;
pub mod files;
pub mod perft;
pub mod play;
pub mod registry;
pub mod shard;
pub mod spec;
pub mod tune;
pub mod units;
