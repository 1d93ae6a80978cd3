//! Endgame databases: every position with few pieces solved by retrograde analysis, stored
//! compressed, and looked up by the search.
//!
//! A game takes part by giving a perfect index of its positions with few pieces
//! ([`EndgameIndex`]): the positions fall into *slices* (in checkers, one per count of men and
//! kings of each side), each slice numbers its positions `0..size` without two positions on
//! one number (numbers that name no position are allowed), and a move leads to the same slice
//! or to one built earlier. From that alone:
//!
//! - [`build`] solves every slice up to a number of pieces, in order, by retrograde analysis
//!   from the ends of the game ([`solve_slice`]): each position gets a [`Verdict`], a win,
//!   loss or draw for the side to move with the number of plies to the end under best play
//!   (the winner hurrying, the loser holding out). Each slice is written as one compressed
//!   file; a build that stops is resumed by running it again (finished slices are read back).
//! - [`Tables`] opens a directory of such files and answers [`Tables::probe`] for any
//!   position, loading a slice on its first use.
//! - [`Probed`] wraps any evaluation with tables: alpha-beta asks it
//!   ([`Evaluator::solve`](crate::eval::Evaluator::solve)) at every node and scores the
//!   positions it answers exactly, as wins and losses at their distance.
//!
//! The tables know nothing of draw rules that count moves (checkers' 40-move rule, draughts'
//! 16- and 25-move rules) or of repetitions: [`Tables::solve`] answers a win or a loss only
//! when its length fits in what the game's counters allow ([`EndgameIndex::plies_left`]).
//! Repetitions cannot spoil a verdict: the winner's shortest line never repeats a position.
//!
//! Games that end with scores also get exact margins, not only wins and losses: a
//! [`MarginIndex`] (a count no move raises, such as Kalah's seeds in the houses) gives
//! [`MarginTable`]s of the final margin of every position with a small count (the [`margin`]
//! module).
//!
//! Tic-tac-toe has the smallest index (its slices are counts of empty squares); its whole
//! game fits in ten slices:
//!
//! ```
//! use ply::endgame::{build, Tables, Verdict};
//! use ply::games::TicTacToe;
//! use ply::Game;
//!
//! let dir = std::env::temp_dir().join(format!("ply-egdb-doc-{}", std::process::id()));
//! let summary = build(&TicTacToe, 9, &dir, 2, &|_| {})?;
//! assert_eq!(summary.stats.positions(), 5478);
//! let tables = Tables::open(&TicTacToe, &dir)?;
//! assert_eq!(tables.probe(&TicTacToe, &TicTacToe.initial_state()), Some(Verdict::Draw));
//! # std::fs::remove_dir_all(&dir)?;
//! assert_eq!(Verdict::Win(3).to_string(), "win in 3");
//! assert_eq!(Verdict::from_byte(Verdict::Loss(8).to_byte()), Some(Verdict::Loss(8)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::hash::Hash;

use crate::game::{Game, Solved};

mod build;
mod file;
pub mod margin;
mod material;
pub mod ranking;
mod tables;

pub use build::{build, solve_slice, BuildError, BuildEvent, BuildSummary, SliceStats};
pub use file::{read_table, read_table_header, write_table, TableFile, TableFileError};
pub use margin::{MarginError, MarginIndex, MarginTable};
pub use material::Material;
pub use tables::{default_dir, Probed, Tables};

/// A game whose positions with few pieces have a perfect index, for endgame databases.
///
/// The index must be *perfect*: two positions never share a number within a slice, and
/// [`EndgameIndex::position_of`] of [`EndgameIndex::locate`]'s number gives back the position (up
/// to counters that the tables ignore, such as the plies since the last capture). Numbers
/// that name no legal position are allowed (`position_of` answers `None`), at the cost of a
/// byte of table each.
pub trait EndgameIndex: Game {
    /// A slice of positions, say the material of both sides.
    type Slice: Copy + Eq + Hash + Ord + fmt::Debug + Send + Sync + 'static;

    /// The name of this game's table set, which differs whenever the rules make different
    /// moves (board size, rule variant): the tables of one set live in a directory of that
    /// name.
    fn table_set(&self) -> String;

    /// Every slice of positions with `1..=pieces` pieces, in an order in which every move
    /// from a position of a slice leads to a finished game, to the same slice or to a slice
    /// earlier in the list.
    fn slices(&self, pieces: u32) -> Vec<Self::Slice>;

    /// The slice's file name, without extension: letters, digits, `-` and `_` only.
    fn slice_name(&self, slice: Self::Slice) -> String;

    /// The number of indices of `slice` (positions and unused numbers).
    fn slice_size(&self, slice: Self::Slice) -> u64;

    /// The number of pieces of `state` (cheap: the search asks at every node).
    fn pieces(&self, state: &Self::State) -> u32;

    /// The slice and the index of `state`; `None` when no slice holds it.
    fn locate(&self, state: &Self::State) -> Option<(Self::Slice, u64)>;

    /// The position with this index, `None` when the number names no legal position.
    fn position_of(&self, slice: Self::Slice, index: u64) -> Option<Self::State>;

    /// How many more plies the game's counting draw rules allow from `state` before they
    /// declare a draw (checkers' 40-move rule, say), or `None` when it has no such rule.
    /// The tables ignore those rules; [`Tables::solve`] trusts a win or loss only when its
    /// length fits in this.
    fn plies_left(&self, _state: &Self::State) -> Option<u32> {
        None
    }
}

/// The value of a position for the side to move under perfect play, with the number of plies
/// to the end of the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Verdict {
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
    /// A draw.
    Draw,
}

/// The longest distance a table stores exactly; longer ones are stored as this many plies.
pub const MAX_STORED_PLIES: u32 = 126;

/// The byte of an index that names no position.
pub(crate) const HOLE: u8 = 255;

impl Verdict {
    /// The verdict one ply earlier, for the player who moved into a position with this
    /// verdict when that position has the other player to move.
    pub fn parent(self) -> Verdict {
        match self {
            Verdict::Win(n) => Verdict::Loss(n + 1),
            Verdict::Loss(n) => Verdict::Win(n + 1),
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// The verdict one ply earlier, for the player who moved into a position with this
    /// verdict: [`Verdict::parent`] where the other player moves there, the same result one
    /// ply longer where the mover moves again (`keeps_turn`, an extra turn).
    ///
    /// ```
    /// use ply::endgame::Verdict;
    /// assert_eq!(Verdict::Win(2).through(false), Verdict::Loss(3));
    /// assert_eq!(Verdict::Win(2).through(true), Verdict::Win(3));
    /// ```
    pub fn through(self, keeps_turn: bool) -> Verdict {
        match (self, keeps_turn) {
            (Verdict::Win(n), true) => Verdict::Win(n + 1),
            (Verdict::Loss(n), true) => Verdict::Loss(n + 1),
            (v, _) => v.parent(),
        }
    }

    /// The number of plies to the end (`None` for a draw).
    pub fn plies(self) -> Option<u32> {
        match self {
            Verdict::Win(n) | Verdict::Loss(n) => Some(n),
            Verdict::Draw => None,
        }
    }

    /// The byte a table stores: 0 a draw, `1 + n` a win in `n` plies, `128 + n` a loss in
    /// `n` plies, with `n` at most [`MAX_STORED_PLIES`] (longer distances are stored as that).
    pub fn to_byte(self) -> u8 {
        let cap = |n: u32| n.min(MAX_STORED_PLIES) as u8;
        match self {
            Verdict::Draw => 0,
            Verdict::Win(n) => 1 + cap(n),
            Verdict::Loss(n) => 128 + cap(n),
        }
    }

    /// The verdict of a stored byte; `None` for the byte of an unused index.
    pub fn from_byte(byte: u8) -> Option<Verdict> {
        match byte {
            0 => Some(Verdict::Draw),
            1..=127 => Some(Verdict::Win(u32::from(byte - 1))),
            128..=254 => Some(Verdict::Loss(u32::from(byte - 128))),
            HOLE => None,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win(n) => write!(f, "win in {n}"),
            Verdict::Loss(n) => write!(f, "loss in {n}"),
            Verdict::Draw => f.write_str("draw"),
        }
    }
}

impl From<Verdict> for Solved {
    fn from(v: Verdict) -> Solved {
        match v {
            Verdict::Win(n) => Solved::Win(n),
            Verdict::Loss(n) => Solved::Loss(n),
            Verdict::Draw => Solved::Draw,
        }
    }
}
