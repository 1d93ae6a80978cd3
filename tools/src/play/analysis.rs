//! An analysis of a game: every position searched by one engine, each move's value beside
//! the best move's where they differ (the web board's "analyse" and [`Session::analyse`]).
//!
//! The value of the move played is read from the search of the position after it, seen from
//! the player who moved: the same value when that player moves again (an extra turn), its
//! negation in a two-player game, and none in a game of more players, whose values are
//! each player's own.
//!
//! [`Session::analyse`]: super::session::Session::analyse

use ply::search::{Position, SearchReport, Value};
use ply::{Game, Notation, Player, Record};

use super::search_handle::SearchHandle;
use crate::agents::AgentKit;
use crate::error::{ToolError, ToolResult};
use crate::spec::AgentSpec;

/// One move of an analysed game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis<M> {
    /// The move played.
    pub played: M,
    /// Its value for the player who played it, where the game lets it be known.
    pub played_value: Option<Value>,
    /// The engine's move in the position before it.
    pub best: M,
    /// The best move's value for the player to move.
    pub best_value: Value,
    /// The engine's line from that position, `best` first.
    pub pv: Vec<M>,
}

impl<M: PartialEq> MoveAnalysis<M> {
    /// True when the engine prefers another move to the one played.
    pub fn differs(&self) -> bool {
        self.played != self.best
    }
}

/// `value` for the other player of a two-player game, one ply earlier.
pub fn negate(value: Value) -> Value {
    match value {
        Value::Heuristic(v) => Value::Heuristic(-v),
        Value::Reward(r) => Value::Reward(1.0 - r),
        Value::Win(n) => Value::Loss(n + 1),
        Value::Loss(n) => Value::Win(n + 1),
        other => other,
    }
}

/// Searches every position of `start` and `moves` (the last one too, unless the game is
/// over) with an engine built from `spec`; calls `progress(done, total)` before each search.
/// Searches publish to `watch`; once its flag is raised the running search ends and no other
/// starts: the analysis then holds the moves whose positions were searched (fewer than
/// `moves`), the last one's value unknown where the position after it was not.
///
/// # Errors
/// A spec that does not build, a search that fails, or moves that are not legal.
pub fn analyse<G: Notation + Sync + 'static>(
    game: &G,
    start: &G::State,
    moves: &[G::Move],
    kit: &AgentKit<G>,
    spec: &AgentSpec,
    watch: Option<&SearchHandle>,
    progress: &mut dyn FnMut(usize, usize),
) -> ToolResult<Vec<MoveAnalysis<G::Move>>> {
    let mut agent = kit.build(spec, 0)?;
    agent.new_game();
    let mut record = Record::new(game, start.clone());
    // One search per position, `None` for a finished game; states[i] is the position
    // before move i.
    let mut searched: Vec<Option<SearchReport<G::Move>>> = Vec::with_capacity(moves.len() + 1);
    let mut states = Vec::with_capacity(moves.len() + 1);
    for i in 0..=moves.len() {
        if watch.is_some_and(SearchHandle::stopped) {
            break;
        }
        progress(i, moves.len() + 1);
        states.push(record.state().clone());
        let report = match record.outcome() {
            Some(_) => None,
            None => {
                let budget = match watch {
                    Some(watch) => watch.arm(spec.budget()),
                    None => spec.budget(),
                };
                let position = Position::with_history(record.state(), record.hashes());
                let report = agent
                    .choose(game, position, &budget)
                    .map_err(|e| ToolError::Internal(format!("engine {spec}: {e}")))?;
                Some(report)
            }
        };
        searched.push(report);
        if let Some(&mv) = moves.get(i) {
            record.play(mv).map_err(|e| ToolError::Input(format!("move {}: {e}", i + 1)))?;
        }
    }
    progress(searched.len(), moves.len() + 1);
    let mut out = Vec::with_capacity(moves.len());
    for (i, &played) in moves.iter().enumerate().take(searched.len()) {
        let Some(report) = searched[i].take() else {
            return Err(ToolError::Input(format!("move {} follows the end of the game", i + 1)));
        };
        let mover = game.to_move(&states[i]);
        let played_value = match states.get(i + 1) {
            Some(after) => value_after(game, after, searched[i + 1].as_ref(), mover),
            None => None,
        };
        out.push(MoveAnalysis {
            played,
            played_value,
            best: report.best_move,
            best_value: report.value,
            pv: report.pv,
        });
    }
    Ok(out)
}

/// The value of `after` (searched as `report`, `None` when the game is over) for `mover`,
/// the player whose move led there: see the [module docs](self).
fn value_after<G: Game>(
    game: &G,
    after: &G::State,
    report: Option<&SearchReport<G::Move>>,
    mover: Player,
) -> Option<Value> {
    let players = game.num_players();
    if let Some(outcome) = game.outcome(after) {
        return Some(match outcome.reward(mover, players) {
            r if r >= 1.0 => Value::Win(1),
            r if r <= 0.0 => Value::Loss(1),
            r if players == 2 && (r - 0.5).abs() < 1e-9 => Value::Draw,
            r => Value::Reward(r),
        });
    }
    let value = report?.value;
    if game.to_move(after) == mover {
        Some(value)
    } else if players == 2 {
        Some(negate(value))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::TicTacToe;

    /// A blunder shows: O's edge reply b1 to X's centre b2 loses, so its value is a loss for
    /// O and the engine prefers another move (a corner).
    #[test]
    fn a_losing_move_gets_a_losing_value_and_another_best_move() {
        let game = TicTacToe;
        let start = game.initial_state();
        let mut state = start;
        let mut moves = Vec::new();
        for text in ["b2", "b1", "a1", "c3"] {
            let mv = game.parse_move(&state, text).unwrap();
            game.apply(&mut state, mv);
            moves.push(mv);
        }
        let kit = AgentKit::default();
        let spec: AgentSpec = "alphabeta:depth=9".parse().unwrap();
        let mut calls = 0;
        let got =
            analyse(&game, &start, &moves, &kit, &spec, None, &mut |_, _| calls += 1).unwrap();
        assert_eq!(got.len(), 4);
        assert_eq!(calls, 6, "one call per position and one at the end");
        assert_eq!(got[0].best_value, Value::Draw, "the empty board is a draw");
        assert!(matches!(got[1].played_value, Some(Value::Loss(_))), "{:?}", got[1]);
        assert!(got[1].differs(), "an edge reply to the centre loses: {:?}", got[1]);
        assert!(!matches!(got[1].best_value, Value::Loss(_)));
    }

    #[test]
    fn negation_swaps_wins_and_rewards() {
        assert_eq!(negate(Value::Win(3)), Value::Loss(4));
        assert_eq!(negate(Value::Loss(2)), Value::Win(3));
        assert_eq!(negate(Value::Reward(0.25)), Value::Reward(0.75));
        assert_eq!(negate(Value::Heuristic(12.0)), Value::Heuristic(-12.0));
        assert_eq!(negate(Value::Draw), Value::Draw);
    }
}
