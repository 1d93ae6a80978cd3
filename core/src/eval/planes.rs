//! What a learned search sees of a position and how it names moves, for any game: an
//! [`Observation`] turns a position into active binary inputs, an [`ActionSpace`] turns a
//! legal move into a policy index.
//!
//! [`Planes`] derive the inputs from the game's [`Notation::diagram`], so a game with a
//! diagram learns with no code of its own. For each cell and each player, seen relative to
//! the player to move (the mover is player 0 of the planes, the next player 1, and so on):
//! one input per piece kind (man, king, disc, seeds, glyph) and a ladder of count inputs
//! ("at least 1", "at least 2", ... "at least 32" pieces or seeds), then one input per seat
//! for the player to move. A game may replace them with its own [`NetInputs`]
//! ([`InputsObservation`]: its inputs, then one per phase bucket).
//!
//! The policy covers the game's [`Game::move_key_space`]: a move's index is its
//! [`Game::move_key`]. A game without keys gets keys from its diagram instead: the first and
//! last cells of [`Notation::move_cells`] (`from * cells + to`, one more for a pass).
//!
//! ```
//! use ply::eval::planes::{ActionSpace, Observation, Planes};
//! use ply::games::ConnectFour;
//! use ply::{Game, Notation};
//!
//! let game = ConnectFour::standard();
//! let planes = Planes::new(&game).unwrap();
//! assert_eq!(planes.inputs(), 42 * 2 * 18 + 2);
//! let mut state = game.initial_state();
//! game.apply(&mut state, 3);
//! let mut active = Vec::new();
//! planes.observe(&game, &state, &mut active);
//! // One disc (kind and "at least one"), seen as the opponent's, and the seat to move.
//! assert_eq!(active.len(), 3);
//! let actions = ActionSpace::new(&game).unwrap();
//! // Connect Four's keys are landing squares: column 3, one disc up.
//! assert_eq!(actions.len(), 42);
//! assert_eq!(actions.index(&game, &state, 3), 3 * 6 + 1);
//! ```

use std::marker::PhantomData;

use super::net::NetInputs;
use crate::diagram::{Diagram, PieceKind};
use crate::game::{Game, Notation};

/// The piece kinds the planes tell apart, in input order.
const KINDS: usize = 5;

/// The count ladder: a cell has the input "at least `t` pieces" for each `t` here it reaches.
pub const COUNT_LADDER: [u32; 13] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32];

/// Inputs per cell and player: the kinds, then the count ladder.
pub const PER_CELL: usize = KINDS + COUNT_LADDER.len();

/// The most players the planes and the policy-value networks serve.
pub const MAX_PLAYERS: usize = 8;

/// A position as active binary inputs, seen from the player to move.
pub trait Observation<G: Game>: Send + Sync {
    /// The number of inputs: every active input is below it.
    fn inputs(&self) -> usize;

    /// Clears `active` and writes the indices of `state`'s active inputs into it, each once.
    fn observe(&self, game: &G, state: &G::State, active: &mut Vec<u32>);

    /// A short text naming this encoding and its sizes (`planes 6x7 2p`), stored in network
    /// files so that a network is only used with the inputs it was trained on.
    fn tag(&self) -> String;
}

/// Why a game cannot be observed or its moves indexed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanesError {
    /// The game draws no diagram, so there is nothing to derive inputs from.
    #[error("the game has no diagram (Notation::diagram) to derive network inputs from")]
    NoDiagram,
    /// More players than the planes serve.
    #[error("{0} players; learned search serves 1 to {MAX_PLAYERS}")]
    Players(usize),
    /// Neither move keys nor a diagram.
    #[error(
        "the game has neither move keys (Game::move_key_space) nor a diagram to index moves by"
    )]
    NoKeys,
    /// The inputs or actions are too many.
    #[error("{what} of {count} is more than learned search handles ({max})")]
    TooMany {
        /// Inputs or actions.
        what: &'static str,
        /// How many the game needs.
        count: usize,
        /// The most allowed.
        max: usize,
    },
}

/// The most inputs an observation may have (as [`super::net::MAX_INPUTS`]).
pub const MAX_OBSERVATION: usize = super::net::MAX_INPUTS;

/// The most policy entries an action space may have.
pub const MAX_ACTIONS: usize = 1 << 20;

/// Inputs derived from [`Notation::diagram`]: see the [module docs](self).
pub struct Planes<G> {
    rows: usize,
    cols: usize,
    players: usize,
    game: PhantomData<fn(&G)>,
}

impl<G> Clone for Planes<G> {
    fn clone(&self) -> Self {
        Planes { rows: self.rows, cols: self.cols, players: self.players, game: PhantomData }
    }
}

impl<G> std::fmt::Debug for Planes<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Planes({}x{}, {} players)", self.rows, self.cols, self.players)
    }
}

impl<G: Game + Notation> Planes<G> {
    /// The planes of `game`, sized by the diagram of its initial position.
    ///
    /// # Errors
    /// [`PlanesError::NoDiagram`] for a game without a diagram, [`PlanesError::Players`] for
    /// more than [`MAX_PLAYERS`] players, [`PlanesError::TooMany`] for a board whose inputs
    /// pass [`MAX_OBSERVATION`].
    pub fn new(game: &G) -> Result<Planes<G>, PlanesError> {
        let d = game.diagram(&game.initial_state()).ok_or(PlanesError::NoDiagram)?;
        let players = game.num_players().max(1);
        if players > MAX_PLAYERS {
            return Err(PlanesError::Players(players));
        }
        let planes = Planes { rows: d.rows, cols: d.cols, players, game: PhantomData };
        let inputs = planes.cells() * players * PER_CELL + players;
        if inputs > MAX_OBSERVATION {
            return Err(PlanesError::TooMany {
                what: "inputs",
                count: inputs,
                max: MAX_OBSERVATION,
            });
        }
        Ok(planes)
    }

    fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The active inputs of `diagram` with `mover` to move, written to `active`.
    fn observe_diagram(&self, diagram: &Diagram, mover: usize, active: &mut Vec<u32>) {
        active.clear();
        let n = self.players;
        let cells = self.cells().min(diagram.cells.len());
        for (cell, c) in diagram.cells[..cells].iter().enumerate() {
            let Some(piece) = c.piece else { continue };
            let relative = (piece.owner.index() + n - mover % n) % n;
            let base = (cell * n + relative) * PER_CELL;
            let kind = match piece.kind {
                PieceKind::Man => 0,
                PieceKind::King => 1,
                PieceKind::Disc => 2,
                PieceKind::Seeds => 3,
                PieceKind::Glyph(_) => 4,
            };
            active.push((base + kind) as u32);
            for (step, &t) in COUNT_LADDER.iter().enumerate() {
                if piece.count < t {
                    break;
                }
                active.push((base + KINDS + step) as u32);
            }
        }
        active.push((self.cells() * n * PER_CELL + mover % n) as u32);
    }
}

impl<G: Game + Notation> Observation<G> for Planes<G> {
    fn inputs(&self) -> usize {
        self.cells() * self.players * PER_CELL + self.players
    }

    fn observe(&self, game: &G, state: &G::State, active: &mut Vec<u32>) {
        let mover = game.to_move(state).index();
        match game.diagram(state) {
            Some(d) => self.observe_diagram(&d, mover, active),
            None => {
                active.clear();
                active.push((self.cells() * self.players * PER_CELL + mover) as u32);
            }
        }
    }

    fn tag(&self) -> String {
        format!("planes {}x{} {}p", self.rows, self.cols, self.players)
    }
}

/// A game's own [`NetInputs`] as an observation: its inputs, then one input per phase bucket.
#[derive(Clone, Debug)]
pub struct InputsObservation<I> {
    inputs: I,
    name: String,
}

impl<I> InputsObservation<I> {
    /// `inputs` as an observation, tagged `name` in network files.
    pub fn new(inputs: I, name: &str) -> InputsObservation<I> {
        InputsObservation { inputs, name: name.to_string() }
    }
}

impl<G: Game, I: NetInputs<G>> Observation<G> for InputsObservation<I> {
    fn inputs(&self) -> usize {
        self.inputs.inputs() + self.inputs.buckets()
    }

    fn observe(&self, game: &G, state: &G::State, active: &mut Vec<u32>) {
        active.clear();
        let bucket = self.inputs.active(game, state, &mut |i| active.push(i as u32));
        active.push((self.inputs.inputs() + bucket) as u32);
    }

    fn tag(&self) -> String {
        format!("inputs {} {}+{}", self.name, self.inputs.inputs(), self.inputs.buckets())
    }
}

/// How legal moves map to policy entries: the game's move keys, or its diagram's cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionSpace {
    /// [`Game::move_key`], below this key space.
    Keys(usize),
    /// `from * cells + to` over the diagram's cells ([`Notation::move_cells`]), and
    /// `cells * cells` for a move of no cell.
    Cells(usize),
}

impl ActionSpace {
    /// The action space of `game`: its move keys if it has any, else its diagram's cells.
    ///
    /// # Errors
    /// [`PlanesError::NoKeys`] for a game with neither, [`PlanesError::TooMany`] when the
    /// space passes [`MAX_ACTIONS`].
    pub fn new<G: Game + Notation>(game: &G) -> Result<ActionSpace, PlanesError> {
        let space = match game.move_key_space() as usize {
            0 => {
                let d = game.diagram(&game.initial_state()).ok_or(PlanesError::NoKeys)?;
                ActionSpace::Cells(d.rows * d.cols)
            }
            keys => ActionSpace::Keys(keys),
        };
        if space.len() > MAX_ACTIONS {
            return Err(PlanesError::TooMany {
                what: "a move space",
                count: space.len(),
                max: MAX_ACTIONS,
            });
        }
        Ok(space)
    }

    /// The number of policy entries.
    pub fn len(&self) -> usize {
        match *self {
            ActionSpace::Keys(n) => n,
            ActionSpace::Cells(c) => c * c + 1,
        }
    }

    /// True for a space with no entry (never, for a space [`ActionSpace::new`] made).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The policy index of `mv`, a legal move of `state` (below [`ActionSpace::len`]).
    pub fn index<G: Game + Notation>(&self, game: &G, state: &G::State, mv: G::Move) -> usize {
        let index = match *self {
            ActionSpace::Keys(_) => game.move_key(state, mv) as usize,
            ActionSpace::Cells(c) => match game.move_cells(state, mv).as_slice() {
                [] => c * c,
                [only] => only * c + only,
                [first, .., last] => first * c + last,
            },
        };
        index.min(self.len() - 1)
    }

    /// A short text naming the space, stored in network files.
    pub fn tag(&self) -> String {
        match *self {
            ActionSpace::Keys(n) => format!("keys {n}"),
            ActionSpace::Cells(c) => format!("cells {c}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{ConnectFour, TicTacToe};
    use crate::{MoveList, Player};

    #[test]
    fn planes_see_the_board_from_the_player_to_move() {
        let game = ConnectFour::standard();
        let planes = Planes::new(&game).unwrap();
        let mut s = game.initial_state();
        game.apply(&mut s, 0); // first player's disc at the bottom left
        let (mut after_one, mut after_two) = (Vec::new(), Vec::new());
        planes.observe(&game, &s, &mut after_one);
        game.apply(&mut s, 6);
        planes.observe(&game, &s, &mut after_two);
        let bottom_left = 5 * 7;
        // After one move the disc is the opponent's (relative player 1) ...
        let theirs = ((bottom_left * 2 + 1) * PER_CELL + 2) as u32;
        assert!(after_one.contains(&theirs), "{after_one:?}");
        // ... and after the reply, with the first player to move again, it is the mover's.
        let mine = ((bottom_left * 2) * PER_CELL + 2) as u32;
        assert!(after_two.contains(&mine), "{after_two:?}");
        let seat = |p: usize| (42 * 2 * PER_CELL + p) as u32;
        assert_eq!(after_one.last(), Some(&seat(1)));
        assert_eq!(after_two.last(), Some(&seat(0)));
        assert!(after_two.iter().all(|&i| (i as usize) < planes.inputs()));
    }

    #[test]
    fn counts_climb_the_ladder() {
        let game = TicTacToe;
        let planes = Planes::new(&game).unwrap();
        let mut d = game.diagram(&game.initial_state()).unwrap();
        d.cells[4].piece = Some(crate::diagram::Piece::many(Player::new(1), PieceKind::Seeds, 7));
        let mut active = Vec::new();
        planes.observe_diagram(&d, 0, &mut active);
        // Kind, then "at least" 1, 2, 3, 4, 5 and 6, then the seat.
        let base = ((4 * 2 + 1) * PER_CELL) as u32;
        let expected: Vec<u32> = std::iter::once(base + 3)
            .chain((0..6).map(|k| base + KINDS as u32 + k))
            .chain(std::iter::once((9 * 2 * PER_CELL) as u32))
            .collect();
        assert_eq!(active, expected);
    }

    #[test]
    fn action_space_uses_keys_and_masks_nothing_out() {
        let game = TicTacToe;
        let actions = ActionSpace::new(&game).unwrap();
        let s = game.initial_state();
        let mut moves = MoveList::new();
        game.generate_moves(&s, &mut moves);
        let mut seen: Vec<usize> = moves.iter().map(|&m| actions.index(&game, &s, m)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), moves.len());
        assert!(seen.iter().all(|&i| i < actions.len()));
    }

    #[test]
    fn tags_name_the_sizes() {
        let planes = Planes::new(&ConnectFour::standard()).unwrap();
        assert_eq!(Observation::<ConnectFour>::tag(&planes), "planes 6x7 2p");
        assert_eq!(ActionSpace::Keys(7).tag(), "keys 7");
        assert_eq!(ActionSpace::Cells(9).len(), 82);
    }
}
