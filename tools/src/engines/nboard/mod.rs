//! The NBoard protocol (the line protocol Othello GUIs such as NBoard use to drive engines
//! such as Edax and NTest) for any game with an [`NBoardCodec`]: [`client`] drives an
//! external engine as an agent (version 1, as Edax and NTest speak it), [`server`] serves a
//! ply agent to a GUI (version 2, with pondering).
//!
//! The protocol sends positions as GGF game records (`set game (;GM[Othello]...;)`) and
//! moves as upper-case squares (`F5`, `PA` for a pass); the codec holds the game's forms of
//! both, so the protocol's code knows nothing of Othello.

pub mod client;
pub mod server;

pub use client::{parse_answer, NBoardClient, DEFAULT_DEPTH};
pub use server::{serve, NBoardEngine, Pondering};

use crate::error::ToolResult;
use ply::Game;

/// Reads a GGF game record: its start position and the moves played from it.
pub type GameReader<G> = fn(&G, &str) -> ToolResult<(<G as Game>::State, Vec<<G as Game>::Move>)>;

/// Reads a move's NBoard text (`F5`, `PA`) as a legal move of a position.
pub type MoveReader<G> = fn(&G, &<G as Game>::State, &str) -> ToolResult<<G as Game>::Move>;

/// How a game's positions and moves read in the NBoard protocol. Plain functions, so a
/// registration builds one from the ruleset's own formatters.
pub struct NBoardCodec<G: Game> {
    /// The position as a GGF game record (`(;GM[Othello]...BO[8 ... *];)`), or why this
    /// position cannot be sent (a board the protocol has no form for).
    pub game_record: fn(&G, &G::State) -> ToolResult<String>,
    /// Reads the game record of `set game`: the start and the moves played.
    pub read_game: GameReader<G>,
    /// The NBoard text of a legal move of a position (`F5`, `PA`).
    pub format_move: fn(&G, &G::State, G::Move) -> String,
    /// Reads a move's NBoard text.
    pub parse_move: MoveReader<G>,
}

impl<G: Game> Clone for NBoardCodec<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for NBoardCodec<G> {}

/// The protocol as agent specs see it ([`crate::spec::protocols`]).
pub const PROTOCOL: super::Protocol = crate::spec::protocols::NBOARD;

impl<G: ply::Notation + 'static> super::EngineCodec<G> for NBoardCodec<G> {
    const PROTOCOL: &'static super::Protocol = &PROTOCOL;

    fn client(self, to: super::Connection<'_>) -> Box<dyn ply::search::Agent<G> + Send> {
        Box::new(NBoardClient::new(to.cmd.unwrap_or(""), self))
    }
}

/// The codec of 2-player 8x8 Reversi, as the bundle registers it, for the tests.
#[cfg(test)]
pub(crate) fn reversi_codec() -> NBoardCodec<ply_reversi::Reversi> {
    use crate::error::ToolError;
    use ply::Notation;
    NBoardCodec {
        game_record: |g, s| ply_reversi::nboard::format_ggf(g, s).map_err(ToolError::input),
        read_game: |g, t| ply_reversi::ggf::read(g, t).map_err(ToolError::input),
        format_move: ply_reversi::nboard::format_move,
        parse_move: |g, s, t| g.parse_move(s, t).map_err(ToolError::input),
    }
}
