//! Clients of external engines: a [`process`] transport, and the protocol clients [`hub`]
//! (draughts engines such as Scan) and [`nboard`] (Othello engines such as Edax), each an
//! [`Agent`](ply::search::Agent) for any game whose registration gives the protocol's codec.

pub mod hub;
pub mod lines;
pub mod nboard;
pub mod process;
