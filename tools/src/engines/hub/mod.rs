//! The Hub protocol (version 2, the text protocol of Scan and the Hub GUI) for any game with a
//! [`HubCodec`]: [`protocol`] reads and writes its lines (one parser for both sides),
//! [`client`] drives an external engine as an agent, [`engine`] serves a ply agent to a GUI
//! or match tool.

pub mod client;
pub mod engine;
pub mod protocol;

pub use client::HubClient;
pub use engine::{serve, HubEngine};
pub use protocol::{HubCodec, Level};

/// The protocol as agent specs see it ([`crate::spec::protocols`]).
pub const PROTOCOL: super::Protocol = crate::spec::protocols::HUB;

impl<G: ply::Game + 'static> super::EngineCodec<G> for HubCodec<G> {
    const PROTOCOL: &'static super::Protocol = &PROTOCOL;

    fn client(self, to: super::Connection<'_>) -> Box<dyn ply::search::Agent<G> + Send> {
        Box::new(HubClient::new(to.cmd.unwrap_or(""), self))
    }
}
