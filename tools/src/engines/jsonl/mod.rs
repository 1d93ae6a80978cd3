//! The JSON-lines protocol (the Deepomatic checkers challenge's API as lines of JSON) for any
//! game with a [`JsonlCodec`]: [`client`] drives an external engine as an agent, [`server`]
//! answers the lines with the game's rules and a ply agent.
//!
//! One request object per line, one answer line each:
//!
//! - `{"board": [...rows...], "color": "b"}`: every legal move, each the list of `[row, col]`
//!   squares it visits (the moves mode);
//! - the same with `"time_ms"` (and optional `"moves"`, `"start"`, `"new_game"`): the
//!   engine's move as `[row, col]` squares (the play mode, [`PlayServer`]);
//! - a line that cannot be used: `{"error": "..."}`; the end of the input means quit.
//!
//! ```text
//! {"board": ["_b__", "____", "__w_", "____"], "color": "w"}   ->  [[[2,2],[1,3]],[[2,2],[1,1]]]
//! {"board": ["_b__", "____", "__w_", "____"], "color": "w", "time_ms": 100}  ->  [[2,2],[1,3]]
//! ```
//!
//! A game speaks the protocol when its registration gives the codec; as a client,
//! `jsonl:time=100ms,cmd=COMMAND` plays any program that answers these lines (ply's own
//! `english_checkers play`, Cake's `cake_play.py`).

use ply::search::{Agent, Budget};
use ply::Game;

use crate::error::ToolResult;

pub mod client;
pub mod server;

pub use client::JsonlClient;
pub use server::{answer_moves, serve_moves, EngineBuilder, PlayServer};

/// A move as the protocol writes it: the `(row, col)` squares it visits, start first.
pub type Path = Vec<(usize, usize)>;

/// Reads an answer's squares as a legal move of a position.
pub type PathReader<G> =
    fn(&G, &<G as Game>::State, &[(usize, usize)]) -> ToolResult<<G as Game>::Move>;

/// Writes a position as the protocol's board rows and colour to move.
pub type BoardWriter<G> = fn(&G, &<G as Game>::State) -> ToolResult<(Vec<String>, char)>;

/// Reads board rows and a colour to move as a position of a game like the given one (its
/// rules), sized to the board.
pub type BoardReader<G> = fn(&G, &[String], char) -> ToolResult<(G, <G as Game>::State)>;

/// Every legal move of a position with the squares it visits, in generation order.
pub type PathLister<G> = fn(&G, &<G as Game>::State) -> ToolResult<Vec<PathMove<G>>>;

/// A legal move with the squares it visits.
pub type PathMove<G> = (<G as Game>::Move, Path);

/// Lists the legal moves of a board and colour that are no one position (`Ok(None)` for a
/// board that is not one of those).
pub type OtherMoves<G> = fn(&G, &[String], char) -> ToolResult<Option<Vec<Path>>>;

/// Plays a board and colour that are no one position within a budget (`Ok(None)` for a
/// board that is not one of those).
pub type OtherPlay<G> = fn(&G, &[String], char, &Budget) -> ToolResult<Option<Path>>;

/// How a game's positions and moves read in the JSON-lines protocol.
pub struct JsonlCodec<G: Game> {
    /// The board rows (`_ b B w W`, row 0 first) and the colour to move (`b` or `w`).
    pub request: BoardWriter<G>,
    /// Reads the answer's `(row, col)` squares as a legal move.
    pub parse_path: PathReader<G>,
    /// Reads a request's board and colour as a position (the server's side).
    pub read_board: BoardReader<G>,
    /// Lists a position's legal moves as squares (the server's side).
    pub legal_paths: PathLister<G>,
    /// Boards that [`JsonlCodec::read_board`] refuses but the game answers all the same,
    /// outside any game; `None` if there are none.
    pub other_boards: Option<OtherBoards<G>>,
}

/// Boards a game answers without reading them as one position (English checkers: the seed's
/// boards with pieces on both colours of square, played as two boards). Each function gives
/// `Ok(None)` for a board that is not one of them, whose reading error then stands.
pub struct OtherBoards<G: Game> {
    /// Every legal move of the board and colour.
    pub moves: OtherMoves<G>,
    /// The move of a fresh engine of the game's own, searched within the budget.
    pub play: OtherPlay<G>,
}

impl<G: Game> Clone for JsonlCodec<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for JsonlCodec<G> {}

impl<G: Game> Clone for OtherBoards<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for OtherBoards<G> {}

/// The protocol as agent specs see it ([`crate::spec::protocols`]).
pub const PROTOCOL: super::Protocol = crate::spec::protocols::JSONL;

impl<G: Game + 'static> super::EngineCodec<G> for JsonlCodec<G> {
    const PROTOCOL: &'static super::Protocol = &PROTOCOL;

    fn client(self, to: super::Connection<'_>) -> Box<dyn Agent<G> + Send> {
        Box::new(JsonlClient::new(to.cmd.unwrap_or(""), self))
    }
}
