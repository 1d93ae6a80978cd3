//! Clients of external engines: a [`process`] transport, and the protocol clients [`hub`]
//! (draughts engines such as Scan), [`nboard`] (Othello engines such as Edax) and [`jsonl`]
//! (checkers engines in the Deepomatic challenge's protocol, such as Cake's wrapper), each an
//! [`Agent`] for any game whose registration gives the protocol's codec;
//! and [`dxp`], DamExchange over TCP (draughts programs such as Scan), both ways: a client
//! agent and a server of ply's agents.

//!
//! The protocols are an open set: each is a module with a [`Protocol`] (its agent name, the
//! spec keys it takes) and a codec type implementing [`EngineCodec`], listed once in
//! [`PROTOCOLS`]. A game speaks a protocol when its registration adds the codec
//! ([`crate::registry::GameEntry::engine`]).

use ply::search::Agent;
use ply::Game;

pub mod dxp;
pub mod hub;
pub mod jsonl;
pub mod lines;
pub mod nboard;
pub mod process;

pub use crate::spec::protocols::{Protocol, PROTOCOLS};

/// Where an external engine is: the command that starts it and, for a network protocol, the
/// address it listens on (as the agent spec gave them).
#[derive(Clone, Copy, Debug, Default)]
pub struct Connection<'a> {
    /// The command line (`cmd=`).
    pub cmd: Option<&'a str>,
    /// `HOST:PORT` (`addr=`).
    pub addr: Option<&'a str>,
}

/// What went wrong with an external engine, or with the peer of one of ply's protocol
/// servers: it would not start, or it broke the protocol, went silent or went away. A client
/// reports it as [`ply::search::SearchError::Engine`], a server in its answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started, or the engine reached, with the operating
    /// system's reason.
    #[error("cannot start {command:?}: {reason}")]
    Start {
        /// The command line or address.
        command: String,
        /// Why (`No such file or directory`).
        reason: String,
    },
    /// It broke the protocol, answered what cannot be played, went silent or went away.
    #[error("{0}")]
    Protocol(String),
}

impl EngineError {
    /// An [`EngineError::Protocol`] with the text of `e`.
    pub fn protocol(e: impl std::fmt::Display) -> EngineError {
        EngineError::Protocol(e.to_string())
    }

    /// The error as a [`crate::error::ToolError::Engine`] of `protocol`.
    pub fn into_tool(self, protocol: &str) -> crate::error::ToolError {
        crate::error::ToolError::Engine {
            protocol: protocol.to_string(),
            message: self.to_string(),
        }
    }
}

/// A failure of ply's own side (a move that does not convert, a position that does not
/// read) while it talks to an engine.
impl From<crate::error::ToolError> for EngineError {
    fn from(e: crate::error::ToolError) -> EngineError {
        EngineError::Protocol(e.to_string())
    }
}

/// The connection's failure.
impl From<std::io::Error> for EngineError {
    fn from(e: std::io::Error) -> EngineError {
        EngineError::Protocol(e.to_string())
    }
}

/// A game's codec for one protocol: what the protocol's client needs to play the game.
pub trait EngineCodec<G: Game>: Copy + Send + Sync + 'static {
    /// The protocol.
    const PROTOCOL: &'static Protocol;

    /// The protocol's client for the engine at `to`, as an agent (the engine is started or
    /// connected to on the first move).
    fn client(self, to: Connection<'_>) -> Box<dyn Agent<G> + Send>;
}
