//! Test fixtures: the draughts codec, ply's server and scripted servers on ephemeral ports.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use ply::search::Agent;
use ply_draughts::InternationalDraughts;

use super::protocol::{DxpCodec, MessageReader};
use super::server::DxpServer;

/// International draughts in DamExchange, as examples/lib.rs registers it: the Hub position
/// with `Z`/`z`/`B` for black.
pub(crate) fn codec() -> DxpCodec<InternationalDraughts> {
    DxpCodec {
        position: |_, s| ply_draughts::dxp::format_position(s),
        parse_position: |_, t| {
            ply_draughts::dxp::parse_position(t).map_err(crate::error::ToolError::input)
        },
        move_squares: |_, m| (m.from(), m.to(), m.captured_squares().collect()),
    }
}

/// ply's server of `agent` on an ephemeral port of 127.0.0.1, serving for ever on a thread.
pub(crate) fn ply_server<A>(agent: A, idle: Duration) -> SocketAddr
where
    A: Agent<InternationalDraughts> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        DxpServer::new(InternationalDraughts::new(), codec(), agent)
            .with_idle_limit(idle)
            .listen(&listener)
    });
    addr
}

/// A server on an ephemeral port of 127.0.0.1 that plays `script` on every connection.
pub(crate) fn scripted_server<F>(script: F) -> SocketAddr
where
    F: Fn(MessageReader<TcpStream>, TcpStream) + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let reader = MessageReader::new(stream.try_clone().unwrap());
            script(reader, stream);
        }
    });
    addr
}
