//! Searches publish what they have found so far to the budget's `Progress`.

use std::sync::Arc;
use std::time::Duration;

use ply::games::{ConnectFour, ThreeHeaps};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::mcts::Mcts;
use ply::search::multiplayer::{MultiplayerSearch, OpponentModel};
use ply::search::{Agent, Budget, Position, Progress, Value};
use ply::{Game, MoveList};

/// The published line is a legal line from the root, and on one thread the last iteration's
/// is the answer.
#[test]
fn alphabeta_publishes_every_iteration_on_one_or_two_threads() {
    let game = ConnectFour::standard();
    let root = game.initial_state();
    for threads in [1, 2] {
        let progress = Arc::new(Progress::new());
        let budget = Budget::depth(7).with_progress(progress.clone());
        let options = AlphaBetaOptions { threads, ..AlphaBetaOptions::default() };
        let report =
            AlphaBeta::with_options(options).choose(&game, Position::new(&root), &budget).unwrap();
        let seen = progress.latest::<u8>().expect("a snapshot");
        if threads == 1 {
            assert_eq!(progress.updates(), 7, "one per iteration");
            assert_eq!(seen.depth, 7);
            assert_eq!(seen.pv.first(), Some(&report.best_move));
        } else {
            // The main thread publishes; a helper may finish the last depth first.
            assert!(
                (1..=7).contains(&progress.updates()) && seen.depth == progress.updates() as u32
            );
        }
        let mut state = root;
        for &mv in &seen.pv {
            let mut legal = MoveList::new();
            game.generate_moves(&state, &mut legal);
            assert!(legal.contains(&mv));
            game.apply(&mut state, mv);
        }
        assert!(seen.nodes > 0 && seen.value.is_some());
        // Another move type gets nothing rather than a wrong reading.
        assert!(progress.latest::<u64>().is_none());
        progress.clear();
        assert!(progress.latest::<u8>().is_none() && progress.updates() == 0);
    }
}

#[test]
fn multiplayer_search_publishes_its_iterations() {
    let game = ThreeHeaps::new([3, 4, 5]).unwrap();
    let progress = Arc::new(Progress::new());
    let budget = Budget::depth(4).with_progress(progress.clone());
    let report = MultiplayerSearch::new(OpponentModel::Paranoid)
        .choose(&game, Position::new(&game.initial_state()), &budget)
        .unwrap();
    let seen = progress.latest::<<ThreeHeaps as Game>::Move>().expect("a snapshot");
    assert_eq!(seen.pv.first(), Some(&report.best_move));
    assert!(progress.updates() >= 1 && seen.depth >= 1);
}

#[test]
fn mcts_publishes_its_best_line_while_it_runs() {
    let game = ConnectFour::standard();
    let progress = Arc::new(Progress::new());
    let budget = Budget::time(Duration::from_millis(700)).with_progress(progress.clone());
    Mcts::new().with_seed(1).choose(&game, Position::new(&game.initial_state()), &budget).unwrap();
    let seen = progress.latest::<u8>().expect("a snapshot after 200 ms");
    assert!(!seen.pv.is_empty() && seen.nodes > 0);
    assert!(matches!(seen.value, Some(Value::Reward(r)) if (0.0..=1.0).contains(&r)));
    // A count budget with no progress set publishes nothing anywhere: nothing to check but
    // that the search still answers.
    Mcts::<ConnectFour>::new()
        .choose(&game, Position::new(&game.initial_state()), &Budget::iterations(100))
        .unwrap();
}
