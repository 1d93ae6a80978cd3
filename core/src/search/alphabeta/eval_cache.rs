//! A small table of leaf evaluations by position key, one per search thread.
//!
//! A search evaluates many positions more than once: every iteration of iterative deepening
//! reaches the previous one's leaves again, and re-searches (aspiration windows, null-window
//! scouts, ProbCut's shallow searches) and transpositions add more. With an evaluation that
//! costs more than a table lookup (a network), keeping the last value seen in each slot saves
//! the repeats. The key is the game's position hash, the one the transposition table trusts.

/// Evaluations kept by position key in a direct-mapped table of `2^bits` slots.
pub(super) struct EvalCache<S> {
    slots: Vec<(u64, S)>,
}

/// The key of a slot that holds nothing (a position with this hash is never kept).
const EMPTY: u64 = u64::MAX;

impl<S: Copy> EvalCache<S> {
    /// An empty table of `2^bits` slots (none at all for `bits` 0), each starting at `zero`.
    pub(super) fn new(bits: u32, zero: S) -> Self {
        let len = if bits == 0 { 0 } else { 1usize << bits };
        EvalCache { slots: vec![(EMPTY, zero); len] }
    }

    /// Whether the table has slots.
    #[inline]
    pub(super) fn is_on(&self) -> bool {
        !self.slots.is_empty()
    }

    /// The value kept for `key`, or `evaluate()` kept in its slot.
    #[inline]
    pub(super) fn get_or(&mut self, key: u64, evaluate: impl FnOnce() -> S) -> S {
        let len = self.slots.len();
        if len == 0 || key == EMPTY {
            return evaluate();
        }
        // The high bits pick the slot: the transposition table's index uses the low ones.
        let slot = &mut self.slots[(key >> 32) as usize & (len - 1)];
        if slot.0 != key {
            *slot = (key, evaluate());
        }
        slot.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_value_is_returned_until_another_key_takes_its_slot() {
        let mut cache = EvalCache::new(2, 0i32);
        let calls = std::cell::Cell::new(0);
        let mut eval = |key: u64, v: i32| {
            cache.get_or(key, || {
                calls.set(calls.get() + 1);
                v
            })
        };
        assert_eq!(eval(7 << 32, 10), 10);
        assert_eq!(eval(7 << 32, 99), 10);
        // Same slot (the high bits agree modulo 4), other key: evaluated and kept.
        assert_eq!(eval(3 << 32, 20), 20);
        assert_eq!(eval(7 << 32, 30), 30);
        assert_eq!(eval(EMPTY, 40), 40);
        assert_eq!(eval(EMPTY, 50), 50);
        assert_eq!(calls.get(), 5);
        let mut none = EvalCache::new(0, 0i32);
        assert!(cache.is_on() && !none.is_on());
        assert_eq!(none.get_or(1, || 5), 5);
        assert_eq!(none.get_or(1, || 6), 6);
    }

    /// Connect Four's own evaluation, counting its calls, cached or not.
    #[derive(Clone)]
    struct Counted {
        cached: bool,
        calls: std::sync::Arc<std::sync::atomic::AtomicU64>,
    }

    impl crate::eval::Evaluator<crate::games::ConnectFour> for Counted {
        fn evaluate(
            &self,
            game: &crate::games::ConnectFour,
            state: &<crate::games::ConnectFour as crate::Game>::State,
            player: crate::Player,
        ) -> i32 {
            self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            crate::Game::evaluate(game, state, player)
        }

        fn worth_caching(&self) -> bool {
            self.cached
        }
    }

    #[test]
    fn a_search_through_the_cache_visits_the_same_tree_with_fewer_evaluations() {
        use crate::search::alphabeta::AlphaBeta;
        use crate::search::{Agent, Budget, Position};
        use crate::Game;
        let game = crate::games::ConnectFour::standard();
        let state = game.initial_state();
        let search = |cached: bool| {
            let calls = std::sync::Arc::default();
            let eval = Counted { cached, calls: std::sync::Arc::clone(&calls) };
            let mut engine = AlphaBeta::new().with_tt_mb(1).with_evaluator(eval);
            let report = engine.choose(&game, Position::new(&state), &Budget::depth(9)).unwrap();
            let calls = calls.load(std::sync::atomic::Ordering::Relaxed);
            (report.best_move, report.value, report.nodes, calls)
        };
        let (plain, cached) = (search(false), search(true));
        assert_eq!(plain.0, cached.0);
        assert_eq!(plain.1, cached.1);
        assert_eq!(plain.2, cached.2);
        assert!(cached.3 < plain.3, "{} evaluations with the cache, {} without", cached.3, plain.3);
    }
}
