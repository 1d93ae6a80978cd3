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
