//! Single-agent search for the contestant when the opponents' replies are known.
//!
//! With every opponent's weights given, the opponents' moves are functions of the position,
//! so the game is a puzzle for player 1: [`plan`] searches its own placements, simulating the
//! replies, to the end of the game when it can (the value is then its final disc count) and
//! otherwise to a depth in its own turns, where a leaf is the final disc count of a rollout
//! in which player 1 plays disc-greedy and the opponents their weights.

use std::collections::HashMap;

use ply::Game;

use super::strategy::Strategy;
use crate::board::{bits_is_empty, for_each_bit};
use crate::{Reversi, ReversiMove, ReversiState};

/// What [`plan`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The placement to play.
    pub square: usize,
    /// Player 1's final disc count expected after it.
    pub value: f64,
    /// Own turns searched (before the rollouts).
    pub depth: u32,
    /// True if the search reached the end of the game on every line.
    pub exact: bool,
    /// Positions visited.
    pub nodes: u64,
}

struct Search<'a> {
    game: &'a Reversi,
    models: &'a [&'a Strategy],
    greedy: Strategy,
    nodes: u64,
    limit: u64,
    table: HashMap<(u64, u32), (f64, bool)>,
    aborted: bool,
}

impl Search<'_> {
    /// Plays the opponents' replies from `state` until player 1 is to move (returns false) or
    /// the game is over (returns true).
    fn replies(&self, state: &mut ReversiState) -> bool {
        let n = self.game.players();
        let mut passes = 0;
        loop {
            if passes >= n {
                return true;
            }
            let p = state.to_move as usize;
            let placements = self.game.placements(state, p);
            if bits_is_empty(&placements) {
                self.game.apply(state, ReversiMove::Pass);
                passes += 1;
                continue;
            }
            if p == 0 {
                return false;
            }
            passes = 0;
            match self.models[p].best_with_flips(self.game, state, &placements) {
                Some((sq, _)) => self.game.apply(state, ReversiMove::Place(sq as u8)),
                None => return true,
            }
        }
    }

    /// Player 1's final disc count when everyone plays on from `state`, player 1
    /// disc-greedy.
    fn rollout(&self, mut state: ReversiState) -> f64 {
        let n = self.game.players();
        let mut passes = 0;
        while passes < n {
            let p = state.to_move as usize;
            let placements = self.game.placements(&state, p);
            let model = if p == 0 { &self.greedy } else { self.models[p] };
            match model.best_with_flips(self.game, &state, &placements) {
                Some((sq, _)) => {
                    self.game.apply(&mut state, ReversiMove::Place(sq as u8));
                    passes = 0;
                }
                None => {
                    self.game.apply(&mut state, ReversiMove::Pass);
                    passes += 1;
                }
            }
        }
        f64::from(state.count(ply::Player(0)))
    }

    /// The value of `state` with player 1 to move (after the replies), searching `depth`
    /// own turns; the flag is true if the value is exact.
    fn value(&mut self, state: &ReversiState, depth: u32) -> (f64, bool) {
        if let Some(&(v, exact)) = self.table.get(&(self.game.key(state), depth)) {
            return (v, exact);
        }
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
            return (0.0, false);
        }
        let placements = self.game.placements(state, 0);
        let mut best = (f64::NEG_INFINITY, true);
        for_each_bit(&placements, |sq| {
            if self.aborted {
                return;
            }
            let mut child = *state;
            self.game.apply(&mut child, ReversiMove::Place(sq as u8));
            let v = if self.replies(&mut child) {
                (f64::from(child.count(ply::Player(0))), true)
            } else if depth <= 1 {
                (self.rollout(child), false)
            } else {
                self.value(&child, depth - 1)
            };
            if v.0 > best.0 {
                best.0 = v.0;
            }
            best.1 &= v.1;
        });
        if !self.aborted {
            self.table.insert((self.game.key(state), depth), best);
        }
        best
    }
}

/// The best placement for player 1 (to move in `state`) against opponents who play
/// `models[seat]` (`models[0]` is unused), found by iterative deepening in its own turns
/// until the search is exact or has visited `node_limit` positions.
///
/// Returns `None` if player 1 has no placement or `models` has fewer entries than players.
pub fn plan(
    game: &Reversi,
    state: &ReversiState,
    models: &[&Strategy],
    node_limit: u64,
) -> Option<Plan> {
    plan_with_values(game, state, models, node_limit).map(|(p, _)| p)
}

/// [`plan`], with the value of every placement of player 1 at the plan's depth, in reading
/// order: `(square, expected final disc count)`.
pub fn plan_with_values(
    game: &Reversi,
    state: &ReversiState,
    models: &[&Strategy],
    node_limit: u64,
) -> Option<(Plan, Vec<(usize, f64)>)> {
    if models.len() < game.players() || state.to_move != 0 {
        return None;
    }
    let placements = game.placements(state, 0);
    if bits_is_empty(&placements) {
        return None;
    }
    let cells = game.size() * game.size();
    let mut search = Search {
        game,
        models,
        greedy: Strategy::new(vec![1.0; cells]),
        nodes: 0,
        limit: node_limit,
        table: HashMap::new(),
        aborted: false,
    };
    let mut found: Option<(Plan, Vec<(usize, f64)>)> = None;
    for depth in 1..=64u32 {
        let mut best: Option<(f64, usize)> = None;
        let mut exact = true;
        let mut values = Vec::new();
        for_each_bit(&placements, |sq| {
            if search.aborted {
                return;
            }
            let mut child = *state;
            game.apply(&mut child, ReversiMove::Place(sq as u8));
            let v = if search.replies(&mut child) {
                (f64::from(child.count(ply::Player(0))), true)
            } else if depth <= 1 {
                (search.rollout(child), false)
            } else {
                search.value(&child, depth - 1)
            };
            exact &= v.1;
            values.push((sq, v.0));
            if best.is_none_or(|(b, _)| v.0 > b) {
                best = Some((v.0, sq));
            }
        });
        if search.aborted {
            break;
        }
        let (value, square) = best?;
        found = Some((Plan { square, value, depth, exact, nodes: search.nodes }, values));
        if exact {
            break;
        }
    }
    if let Some((p, _)) = found.as_mut() {
        p.nodes = search.nodes;
    }
    found
}
