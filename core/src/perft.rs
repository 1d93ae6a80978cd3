//! Perft and divide: count the leaves of the legal-move tree to check a move generator
//! against published figures, and to measure its speed.
//!
//! A [`PerftTable`] holds such figures as text, the one format of every ruleset's tables:
//! `#` comments and blank lines are skipped, `position TEXT` starts the figures of a position
//! in the game's notation ([`Notation::parse_state`]), and each `perft DEPTH LEAVES` line
//! gives the leaves at one depth, depths increasing within a position. Lines before the first
//! `position` belong to the start position. A text that breaks these rules is a
//! [`PerftTableError`] naming its line. [`PerftTable::check`] compares a game's counts with a
//! table:
//!
//! ```
//! use ply::perft::{PerftLimit, PerftTable};
//! use ply::{perft, PerftMode};
//! use ply::games::TicTacToe;
//!
//! let table: PerftTable = "
//! ## Tic-tac-toe from the empty board (a `#` line is a comment).
//! perft 1 9
//! perft 2 72
//! position x...o....
//! perft 1 7
//! perft 2 42
//! "
//! .parse()
//! .unwrap();
//! let game = TicTacToe;
//! let count = |state: &_, depth| perft(&game, state, depth, PerftMode::Bulk);
//! assert_eq!(table.check(&game, PerftLimit::Leaves(50), count), Ok(3));
//! assert_eq!(table.cases[1].leaves(2), Some(42));
//! ```

use std::str::FromStr;

use crate::game::{Game, MoveList, Notation};

/// How perft counts the last ply.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PerftMode {
    /// Count the moves at the last ply with [`Game::count_moves`] without playing them (the
    /// usual "bulk counting").
    #[default]
    Bulk,
    /// Play every leaf move through [`Game::apply`], measuring the whole generic path.
    MakeAll,
}

/// The number of leaf nodes `depth` plies below `state`; `perft(_, _, 0, _)` is 1. A game
/// that ends before the last ply counts as no leaf, or as one leaf where the game's
/// [`Game::perft_counts_finished_games`] says so (the convention of its published tables).
///
/// ```
/// use ply::{perft, Game, PerftMode};
/// use ply::games::TicTacToe;
///
/// let game = TicTacToe;
/// assert_eq!(perft(&game, &game.initial_state(), 2, PerftMode::Bulk), 72);
/// assert_eq!(perft(&game, &game.initial_state(), 2, PerftMode::MakeAll), 72);
/// ```
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32, mode: PerftMode) -> u64 {
    let mut lists: Vec<MoveList<G::Move>> = (0..depth).map(|_| MoveList::new()).collect();
    perft_with(game, state, depth, mode, &mut lists)
}

fn perft_with<G: Game>(
    game: &G,
    state: &G::State,
    depth: u32,
    mode: PerftMode,
    lists: &mut [MoveList<G::Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let finished = u64::from(game.perft_counts_finished_games());
    if depth == 1 && mode == PerftMode::Bulk {
        let n = game.count_moves(state);
        return if n == 0 { finished } else { n };
    }
    let (list, rest) = lists.split_first_mut().expect("one move list per ply");
    game.generate_moves(state, list);
    if list.is_empty() {
        return finished;
    }
    let mut total = 0;
    let mut child = state.clone();
    if depth == 2 && mode == PerftMode::Bulk {
        // The last ply counted in the loop: no call per child.
        for &mv in list.iter() {
            child.clone_from(state);
            game.apply(&mut child, mv);
            let n = game.count_moves(&child);
            total += if n == 0 { finished } else { n };
        }
        return total;
    }
    for &mv in list.iter() {
        child.clone_from(state);
        game.apply(&mut child, mv);
        total += perft_with(game, &child, depth - 1, mode, rest);
    }
    total
}

/// Perft split by first move: each legal move of `state` with the leaf count below it, in
/// generation order. The counts add up to `perft(game, state, depth, mode)`.
///
/// # Panics
/// If `depth` is 0 (divide needs at least one ply).
pub fn divide<G: Game>(
    game: &G,
    state: &G::State,
    depth: u32,
    mode: PerftMode,
) -> Vec<(G::Move, u64)> {
    assert!(depth >= 1, "divide needs depth >= 1");
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            (mv, perft(game, &child, depth - 1, mode))
        })
        .collect()
}

/// Reference perft figures: positions and the leaves counted below each to several depths,
/// read from the text format of the [module](self).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftTable {
    /// The positions, in the order written.
    pub cases: Vec<PerftCase>,
}

/// One position of a [`PerftTable`] and its leaf counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The position in the game's notation; `None` for the start position.
    pub position: Option<String>,
    /// `(depth, leaves)` pairs, depths increasing.
    pub counts: Vec<(u32, u64)>,
}

/// Which entries of a [`PerftTable`] a check runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftLimit {
    /// The entries of at most this many leaves (a node budget).
    Leaves(u64),
    /// The entries of at most this depth.
    Depth(u32),
}

impl PerftLimit {
    /// Whether the entry of `leaves` leaves at `depth` is within the limit.
    pub fn admits(self, depth: u32, leaves: u64) -> bool {
        match self {
            PerftLimit::Leaves(max) => leaves <= max,
            PerftLimit::Depth(max) => depth <= max,
        }
    }
}

/// Why a table's text could not be read: the line (1-based, 0 for the text as a whole) and
/// what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{fault}", if *line == 0 { String::new() } else { format!("line {line}: ") })]
pub struct PerftTableError {
    /// The line at fault, 1-based; 0 when the fault is not on one line (no figures at all).
    pub line: usize,
    /// What is wrong.
    pub fault: PerftTableFault,
}

/// What is wrong on a line of a perft table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerftTableFault {
    /// A line that is no comment and starts with neither `position` nor `perft`.
    #[error("unknown keyword {0:?}: expected `position TEXT` or `perft DEPTH LEAVES`")]
    Keyword(String),
    /// `position` with no text after it.
    #[error("`position` without a position")]
    NoPosition,
    /// A `perft` line without exactly two fields.
    #[error("expected `perft DEPTH LEAVES`, found `perft {0}`")]
    Fields(String),
    /// A depth that is not a whole number.
    #[error("bad depth {0:?}: expected a whole number")]
    Depth(String),
    /// A leaf count that is not a whole number.
    #[error("bad leaf count {0:?}: expected a whole number")]
    Leaves(String),
    /// A depth not above the one before it in the same position.
    #[error("depth {depth} after depth {previous}: the depths of a position must increase")]
    DepthOrder {
        /// The depth of this line.
        depth: u32,
        /// The depth of the line before.
        previous: u32,
    },
    /// A `position` with no `perft` line after it.
    #[error("a position with no perft lines")]
    NoCounts,
    /// A text without a single `perft` line.
    #[error("no perft lines")]
    Empty,
}

/// Why a game does not agree with a [`PerftTable`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerftCheckError {
    /// The game cannot read a position of the table.
    #[error("cannot read position {position:?}: {message}")]
    Position {
        /// The position as written.
        position: String,
        /// The game's error.
        message: String,
    },
    /// A count that differs from the table's.
    #[error("perft({depth}) of {}: expected {expected}, counted {counted}", describe(position))]
    Mismatch {
        /// The position (`None` for the start).
        position: Option<String>,
        /// The depth.
        depth: u32,
        /// The table's leaves.
        expected: u64,
        /// The game's leaves.
        counted: u64,
    },
}

/// A position of a table in words.
fn describe(position: &Option<String>) -> String {
    position.as_ref().map_or_else(|| "the start position".to_string(), |p| format!("{p:?}"))
}

impl PerftCase {
    /// The leaves the table gives at `depth`, if it gives them.
    pub fn leaves(&self, depth: u32) -> Option<u64> {
        self.counts.iter().find(|&&(d, _)| d == depth).map(|&(_, n)| n)
    }

    /// The `(depth, leaves)` entries within `limit`.
    pub fn within(&self, limit: PerftLimit) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.counts.iter().copied().filter(move |&(d, n)| limit.admits(d, n))
    }

    /// The position in `game`: its start, or the text read by [`Notation::parse_state`].
    ///
    /// # Errors
    /// [`PerftCheckError::Position`] if `game` cannot read the text.
    pub fn state<G: Notation>(&self, game: &G) -> Result<G::State, PerftCheckError> {
        match &self.position {
            None => Ok(game.initial_state()),
            Some(text) => game.parse_state(text).map_err(|e| PerftCheckError::Position {
                position: text.clone(),
                message: e.to_string(),
            }),
        }
    }

    /// A [`PerftCheckError::Mismatch`] at `depth` of this position.
    fn mismatch(&self, depth: u32, expected: u64, counted: u64) -> PerftCheckError {
        PerftCheckError::Mismatch { position: self.position.clone(), depth, expected, counted }
    }
}

impl PerftTable {
    /// Counts every entry within `limit` with `count(state, depth)` (a game's fast perft, or
    /// [`perft()`] in a [`PerftMode`]) and compares it with the table, stopping at the first
    /// difference. Returns how many entries were checked.
    ///
    /// # Errors
    /// A position `game` cannot read, or the first count that differs.
    pub fn check<G: Notation>(
        &self,
        game: &G,
        limit: PerftLimit,
        mut count: impl FnMut(&G::State, u32) -> u64,
    ) -> Result<usize, PerftCheckError> {
        let mut checked = 0;
        for case in &self.cases {
            let state = case.state(game)?;
            for (depth, expected) in case.within(limit) {
                let counted = count(&state, depth);
                if counted != expected {
                    return Err(case.mismatch(depth, expected, counted));
                }
                checked += 1;
            }
        }
        Ok(checked)
    }

    /// Ends the last case, written at `line`: an error if it has no counts.
    fn end_case(&self, line: usize) -> Result<(), PerftTableError> {
        match self.cases.last() {
            Some(case) if case.counts.is_empty() => {
                Err(PerftTableError { line, fault: PerftTableFault::NoCounts })
            }
            _ => Ok(()),
        }
    }

    /// Adds `(depth, leaves)` to the last case, or to a start-position case if there is none.
    fn push_count(&mut self, (depth, leaves): (u32, u64)) -> Result<(), PerftTableFault> {
        let counts = match self.cases.last_mut() {
            Some(case) => &mut case.counts,
            None => {
                self.cases.push(PerftCase { position: None, counts: Vec::new() });
                &mut self.cases[0].counts
            }
        };
        match counts.last() {
            Some(&(previous, _)) if depth <= previous => {
                Err(PerftTableFault::DepthOrder { depth, previous })
            }
            _ => {
                counts.push((depth, leaves));
                Ok(())
            }
        }
    }
}

/// The depth and leaves of a `perft` line, from the text after the keyword.
fn parse_count(fields: &str) -> Result<(u32, u64), PerftTableFault> {
    let mut words = fields.split_whitespace();
    let (Some(depth), Some(leaves), None) = (words.next(), words.next(), words.next()) else {
        return Err(PerftTableFault::Fields(fields.to_string()));
    };
    let depth = depth.parse().map_err(|_| PerftTableFault::Depth(depth.to_string()))?;
    let leaves = leaves.parse().map_err(|_| PerftTableFault::Leaves(leaves.to_string()))?;
    Ok((depth, leaves))
}

impl FromStr for PerftTable {
    type Err = PerftTableError;

    /// Reads a table in the format of the [module](self).
    fn from_str(text: &str) -> Result<PerftTable, PerftTableError> {
        let mut table = PerftTable::default();
        // The line of the last `position`, whose case must get counts.
        let mut position_line = 0;
        for (number, line) in (1..).zip(text.lines()) {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |fault| PerftTableError { line: number, fault };
            let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            match (keyword, rest.trim()) {
                ("position", "") => return Err(at(PerftTableFault::NoPosition)),
                ("position", text) => {
                    table.end_case(position_line)?;
                    let case = PerftCase { position: Some(text.to_string()), counts: Vec::new() };
                    table.cases.push(case);
                    position_line = number;
                }
                ("perft", fields) => {
                    table.push_count(parse_count(fields).map_err(at)?).map_err(at)?
                }
                _ => return Err(at(PerftTableFault::Keyword(keyword.to_string()))),
            }
        }
        table.end_case(position_line)?;
        if table.cases.is_empty() {
            return Err(PerftTableError { line: 0, fault: PerftTableFault::Empty });
        }
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

    fn fault(text: &str) -> (usize, PerftTableFault) {
        let e = text.parse::<PerftTable>().unwrap_err();
        (e.line, e.fault)
    }

    #[test]
    fn reads_the_start_position_then_positions() {
        let text = "# a comment\n\n  perft 0 1\nperft 1 9 \n# position x........\n\
                    position  x...o....  \n\tperft 2 42\nposition xo.......\nperft 1 7\n";
        let table: PerftTable = text.parse().unwrap();
        let start = PerftCase { position: None, counts: vec![(0, 1), (1, 9)] };
        let a = PerftCase { position: Some("x...o....".into()), counts: vec![(2, 42)] };
        let b = PerftCase { position: Some("xo.......".into()), counts: vec![(1, 7)] };
        assert_eq!(table.cases, [start, a, b]);
        assert_eq!(table.cases[0].leaves(1), Some(9));
        assert_eq!(table.cases[0].leaves(2), None);
    }

    #[test]
    fn a_table_may_have_no_start_position() {
        let table: PerftTable = "position x...o....\nperft 1 7".parse().unwrap();
        assert_eq!(table.cases.len(), 1);
        assert_eq!(table.cases[0].position.as_deref(), Some("x...o...."));
    }

    #[test]
    fn each_fault_names_its_line() {
        assert_eq!(fault("perft 1 9\nperf 2 72"), (2, PerftTableFault::Keyword("perf".into())));
        assert_eq!(fault("# start\n1 9"), (2, PerftTableFault::Keyword("1".into())));
        assert_eq!(fault("perft 1 9\n\nposition  "), (3, PerftTableFault::NoPosition));
        assert_eq!(fault("perft 1"), (1, PerftTableFault::Fields("1".into())));
        assert_eq!(fault("perft 1 9 3"), (1, PerftTableFault::Fields("1 9 3".into())));
        assert_eq!(fault("perft"), (1, PerftTableFault::Fields(String::new())));
        assert_eq!(fault("\nperft -1 9"), (2, PerftTableFault::Depth("-1".into())));
        assert_eq!(fault("perft 1 9,000"), (1, PerftTableFault::Leaves("9,000".into())));
        let order = PerftTableFault::DepthOrder { depth: 2, previous: 3 };
        assert_eq!(fault("perft 1 9\nperft 3 504\nperft 2 72"), (3, order));
        let again = PerftTableFault::DepthOrder { depth: 1, previous: 1 };
        assert_eq!(fault("perft 1 9\nperft 1 9"), (2, again));
        assert_eq!(
            fault("position x........\nposition .x.......\nperft 1 8"),
            (1, PerftTableFault::NoCounts)
        );
        assert_eq!(
            fault("perft 1 9\n\nposition x........\n# none"),
            (3, PerftTableFault::NoCounts)
        );
        assert_eq!(fault("# nothing\n\n"), (0, PerftTableFault::Empty));
    }

    #[test]
    fn errors_read_as_messages() {
        let e = "perft 1 9\nperft one 9".parse::<PerftTable>().unwrap_err();
        assert_eq!(e.to_string(), "line 2: bad depth \"one\": expected a whole number");
        let e = "".parse::<PerftTable>().unwrap_err();
        assert_eq!(e.to_string(), "no perft lines");
    }

    fn bulk(state: &<TicTacToe as Game>::State, depth: u32) -> u64 {
        perft(&TicTacToe, state, depth, PerftMode::Bulk)
    }

    #[test]
    fn checks_a_game_within_a_limit() {
        let table: PerftTable =
            "perft 1 9\nperft 2 72\nperft 3 504\nposition x...o....\nperft 1 7\nperft 4 70000\n"
                .parse()
                .unwrap();
        assert_eq!(table.check(&TicTacToe, PerftLimit::Depth(2), bulk), Ok(3));
        assert_eq!(table.check(&TicTacToe, PerftLimit::Leaves(600), bulk), Ok(4));
        assert_eq!(table.check(&TicTacToe, PerftLimit::Leaves(0), bulk), Ok(0));
        let wrong = table.check(&TicTacToe, PerftLimit::Depth(4), bulk).unwrap_err();
        let expected = PerftCheckError::Mismatch {
            position: Some("x...o....".into()),
            depth: 4,
            expected: 70_000,
            counted: 760,
        };
        assert_eq!(wrong, expected);
        assert_eq!(wrong.to_string(), "perft(4) of \"x...o....\": expected 70000, counted 760");
        let start: PerftTable = "perft 2 71".parse().unwrap();
        let e = start.check(&TicTacToe, PerftLimit::Depth(9), bulk).unwrap_err();
        assert_eq!(e.to_string(), "perft(2) of the start position: expected 71, counted 72");
    }

    #[test]
    fn a_position_the_game_cannot_read_is_an_error() {
        let table: PerftTable = "position xx\nperft 1 1".parse().unwrap();
        let e = table.check(&TicTacToe, PerftLimit::Depth(0), bulk).unwrap_err();
        assert!(
            matches!(&e, PerftCheckError::Position { position, .. } if position == "xx"),
            "{e}"
        );
        assert!(e.to_string().starts_with("cannot read position \"xx\": "), "{e}");
    }
}
