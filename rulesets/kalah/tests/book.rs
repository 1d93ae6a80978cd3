//! An opening book grown by drop-out expansion over a whole small Kalah tree agrees with the
//! independent exact solver: every book position's value and every book move's value has the
//! sign of the exact final margin, across extra turns as across turns that pass.

mod common;

use common::Solver;
use ply::book::{DropOut, PROVEN};
use ply::Game;
use ply_kalah::{Capture, Kalah};

/// 1 for a proven win, -1 for a proven loss, 0 otherwise.
fn category(value: f64) -> i32 {
    if value >= PROVEN {
        1
    } else if value <= -PROVEN {
        -1
    } else {
        0
    }
}

#[test]
fn a_whole_book_of_small_kalah_agrees_with_the_exact_solver() {
    for capture in [Capture::Empty, Capture::Standard] {
        let game = Kalah::new(3, 2, capture).unwrap();
        let mut tree = DropOut::new(&game, 1.0).unwrap();
        // A leaf evaluation that knows nothing: only the finished games carry information.
        let mut expansions = 0;
        while tree.expand_next(|_| Ok(0.0)).unwrap().is_some() {
            expansions += 1;
            assert!(expansions < 200_000, "the tree is finite");
        }
        let mut solver = Solver::new(&game);
        let start = game.initial_state();
        assert_eq!(category(tree.value()), solver.margin(&start).signum(), "{capture:?}");
        let book = tree.book();
        assert!(book.len() > 100, "{capture:?}: {} positions", book.len());
        let mut extra_turns = 0;
        for entry in book.entries() {
            let mut state = start;
            for &mv in &entry.path {
                game.apply(&mut state, mv);
            }
            let exact = solver.margin(&state).signum();
            assert_eq!(category(entry.moves[0].value), exact, "{capture:?} {:?}", entry.path);
            for m in &entry.moves {
                let mut child = state;
                game.apply(&mut child, m.mv);
                let same = game.to_move(&child) == game.to_move(&state);
                extra_turns += usize::from(same && game.outcome(&child).is_none());
                let through = solver.margin(&child).signum();
                let value = if same { through } else { -through };
                assert_eq!(category(m.value), value, "{capture:?} {:?}", entry.path);
            }
        }
        assert!(extra_turns > 0, "{capture:?}: the book has no extra turn");
    }
}
