//! # ply-tools
//!
//! The tools of the [`ply`] framework, for any game that implements
//! [`ply::Game`] and [`ply::Notation`]: a game gets them by a registration of a few lines in
//! a [`registry::Registry`], with no change to the tools.
//!
//! The modules form layers, each importing only those below it (a test,
//! `tests/module_graph.rs`, reads the imports and fails on a cycle):
//!
//! | layer | module | what it holds |
//! |---|---|---|
//! | programs | [`cli`] | whole programs over a registry: `perft`, `play`, `egdb`, `tune`, `book`, [`cli::arena`], [`cli::oracle`] |
//! | registry | [`registry`] | [`registry::GameEntry`] (a game's registration) and [`registry::Registry`], which joins each game to every tool |
//! | tools | [`play`] | the terminal play loop over [`play::Session`] (a game in play, one method per command) |
//! | | [`arena`] | tournaments: schedules, parallel games, JSON lines, resume, shards, Elo, SPRT, SVG |
//! | | [`perft`] | the perft/divide tool |
//! | | [`tune`] | training data by self-play (binary, sharded, resumable) and fitting of evaluations |
//! | | [`egdb`] | endgame databases for any game with an index: build, info, probe, verify |
//! | | [`book`](mod@book) | opening books: build by drop-out expansion, probe |
//! | | [`dynamic`] | any game behind one type-erased interface (what Python drives) |
//! | | [`bench`](mod@bench) | benchmark workloads (perft, searches, MCTS) sized by counts, for any game |
//! | agents | [`agents`] | the agent factory: [`agents::AgentKit`] turns a spec into an agent with the game's evaluations, books, tables, engine codecs |
//! | | [`options`] | game options, game information and their errors |
//! | base | [`spec`] | agent specs, the text form of a player (`alphabeta:depth=8`, `mcts:time=100ms`) |
//! | | [`engines`] | external engines: Hub, NBoard, JSON lines, DamExchange |
//! | | [`error`] | [`error::ToolError`], the error of the tools' public functions |
//! | | [`shard`], [`files`], [`units`] | `--shard K/N`; reading users' files with a size limit; number formatting |
//!
//! ```
//! use ply::games::ConnectFour;
//! use ply_tools::registry::{GameEntry, Registry};
//!
//! let mut registry = Registry::new();
//! registry.add(GameEntry::new("connect-four", "Connect Four on 7x6", |_| Ok(ConnectFour::standard())));
//! assert!(registry.help().contains("connect-four"));
//! ```

pub mod agents;
pub mod arena;
pub mod bench;
pub mod book;
pub mod cli;
pub mod dynamic;
pub mod egdb;
pub mod engines;
pub mod error;
pub mod files;
pub mod options;
pub mod perft;
pub mod play;
pub mod registry;
pub mod shard;
pub mod solve;
pub mod spec;
pub mod tune;
pub mod units;
pub mod web;
