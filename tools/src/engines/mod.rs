//! Clients of external engines: a [`process`] transport, and the protocol clients [`hub`]
//! (draughts engines such as Scan), [`nboard`] (Othello engines such as Edax) and [`jsonl`]
//! (checkers engines in the Deepomatic challenge's protocol, such as Cake's wrapper), each an
//! [`Agent`](ply::search::Agent) for any game whose registration gives the protocol's codec;
//! and [`dxp`], DamExchange over TCP (draughts programs such as Scan), both ways: a client
//! agent and a server of ply's agents.

pub mod dxp;
pub mod hub;
pub mod jsonl;
pub mod lines;
pub mod nboard;
pub mod process;
