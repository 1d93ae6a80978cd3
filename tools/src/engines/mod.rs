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

/// Every engine protocol, in the order of the agents' help text: the agent names
/// `hub:`, `nboard:`, `jsonl:` and `dxp:` of an agent spec.
pub const PROTOCOLS: [&Protocol; 4] =
    [&hub::PROTOCOL, &nboard::PROTOCOL, &jsonl::PROTOCOL, &dxp::PROTOCOL];

/// An engine protocol as agent specs see it.
#[derive(Debug, PartialEq, Eq)]
pub struct Protocol {
    /// The agent name (`hub` in `hub:cmd=...`).
    pub name: &'static str,
    /// One line for help texts.
    pub summary: &'static str,
    /// The spec keys its agents take ([`crate::spec::KEYS`]).
    pub keys: &'static [&'static str],
    /// The key a spec cannot do without: `cmd` (the command that starts the engine) or `addr`
    /// (where it listens).
    pub required: &'static str,
}

/// Where an external engine is: the command that starts it and, for a network protocol, the
/// address it listens on (as the agent spec gave them).
#[derive(Clone, Copy, Debug, Default)]
pub struct Connection<'a> {
    /// The command line (`cmd=`).
    pub cmd: Option<&'a str>,
    /// `HOST:PORT` (`addr=`).
    pub addr: Option<&'a str>,
}

/// A game's codec for one protocol: what the protocol's client needs to play the game.
pub trait EngineCodec<G: Game>: Copy + Send + Sync + 'static {
    /// The protocol.
    const PROTOCOL: &'static Protocol;

    /// The protocol's client for the engine at `to`, as an agent (the engine is started or
    /// connected to on the first move).
    fn client(self, to: Connection<'_>) -> Box<dyn Agent<G> + Send>;
}
