//! DamExchange (DXP), the TCP protocol of international draughts programs (layer 2, as Scan
//! 2.0 speaks it), for any game with a [`DxpCodec`]: [`protocol`] encodes and decodes its
//! messages and reads them from a connection, [`client`] plays an engine listening on a port
//! as an agent (ply initiates the games), [`server`] serves a ply agent to an initiator.
//!
//! Every message is 1 to 127 ASCII characters and a `'\0'`: a type letter, then fixed-width
//! fields. `R` requests a game (version, initiator name, follower colour `W`/`Z`, minutes,
//! moves, start `A` or `B` and a position), `A` answers it, `M` is a move (seconds, from, to,
//! captures and the captured squares), `E` ends a game, `C` is chat, `B` and `K` ask and
//! answer a take-back.
//!
//! ```
//! use std::time::Duration;
//! use ply_tools::engines::dxp::{Color, DxpMove, Message, TimeControl};
//!
//! // 28x19, capturing on 23, after 12 seconds.
//! let mv = Message::Move(DxpMove { seconds: 12, from: 28, to: 19, captured: vec![23] });
//! assert_eq!(mv.encode()?, "M001228190123");
//! assert_eq!(Message::decode("M001228190123")?, mv);
//! assert!(Message::decode("M0012281901").is_err(), "one capture announced, none given");
//!
//! // ply's game requests: the engine's colour, and the time control nearest the time per move.
//! let tc = TimeControl::for_move_time(Duration::from_millis(100));
//! assert_eq!((tc.minutes, tc.moves), (1, 600));
//! let text = Message::decode("BO12W").unwrap_err().to_string();
//! assert!(text.contains("not a 3-digit number"), "{text}");
//! assert_eq!(Color::from_letter('Z'), Some(Color::Black));
//! # Ok::<(), ply_tools::engines::dxp::DxpError>(())
//! ```

pub mod client;
pub mod protocol;
pub mod server;

pub use client::DxpClient;
pub use protocol::{
    Acceptance, BackAnswer, Color, DxpCodec, DxpError, DxpMove, EndReason, GameRequest, Message,
    MessageReader, ReadError, StopCode, TimeControl,
};
pub use server::DxpServer;

/// The protocol as agent specs see it ([`crate::spec::protocols`]).
pub const PROTOCOL: super::Protocol = crate::spec::protocols::DXP;

impl<G: ply::Game + 'static> super::EngineCodec<G> for DxpCodec<G> {
    const PROTOCOL: &'static super::Protocol = &PROTOCOL;

    fn client(self, to: super::Connection<'_>) -> Box<dyn ply::search::Agent<G> + Send> {
        Box::new(DxpClient::new(to.addr.unwrap_or(""), to.cmd, self))
    }
}

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
