//! Tuning an evaluation for any game: `tune generate` plays training games and keeps their
//! positions in a compact binary file ([`data`]), `tune merge` combines the files of a
//! sharded run; `tune fit` fits the weights of the game's linear evaluation
//! ([`ply::eval::LinearEval`] over its [`ply::eval::Features`]) to their results and writes a
//! weights file, which the ruleset embeds with `include_str!`; `tune zero` learns a
//! policy-value network for the learned searches from self-play alone ([`zero`]).
//!
//! A game gets `generate` by being registered, and `fit` by listing its features
//! ([`crate::registry::GameEntry::features`]). The guide's tuning page
//! (`docs/tuning.md`) walks through a whole run.

pub mod data;
pub mod fit;
pub mod generate;
pub mod train;
pub mod zero;

use clap::Subcommand;

pub use fit::FitArgs;
pub use generate::GenerateArgs;
pub use train::TrainArgs;
pub use zero::ZeroArgs;

/// What `tune` does.
#[derive(Subcommand, Clone, Debug)]
pub enum TuneCommand {
    /// Play training games by self-play and keep their positions (resumable, shardable).
    Generate(Box<GenerateArgs>),
    /// Combine data files (the shards of a run, or several runs) into one, each position
    /// once.
    Merge(MergeArgs),
    /// Fit the weights of the game's linear evaluation to the kept positions.
    Fit(FitArgs),
    /// Train the game's neural evaluation on the kept positions.
    Train(Box<TrainArgs>),
    /// Learn the game from its rules alone: self-play with learned search, training of a
    /// policy-value network, gating by SPRT (resumable).
    Zero(Box<ZeroArgs>),
}

/// The options of `tune merge`.
#[derive(clap::Args, Clone, Debug)]
pub struct MergeArgs {
    /// The data files to combine.
    #[arg(required = true, value_name = "FILE")]
    pub data: Vec<std::path::PathBuf>,
    /// The file to write (an existing one of the same game is extended).
    #[arg(long, value_name = "FILE")]
    pub out: std::path::PathBuf,
}
