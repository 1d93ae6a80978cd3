//! The endgame-database index (locate and position_of are inverse), tables built with
//! `ply::endgame::build` against the independent solver, and the in-memory seed table.

mod common;

use std::sync::Arc;

use common::Solver;
use ply::endgame::MarginIndex;
use ply::endgame::{build, EndgameIndex, Tables, Verdict};
use ply::testing::visit_random_games;
use ply::{Game, Notation};
use ply_kalah::{Capture, Kalah, SeedTable};

#[test]
fn every_index_of_small_slices_round_trips() {
    for (m, n) in [(1, 2), (2, 2), (3, 2), (4, 1)] {
        let game = Kalah::new(m, n, Capture::Empty).unwrap();
        let mut positions = 0;
        for slice in game.slices(game.total_seeds()) {
            for index in 0..game.slice_size(slice) {
                let state = game.position_of(slice, index).unwrap();
                assert_eq!(game.locate(&state), Some((slice, index)), "Kalah({m},{n})");
                assert_eq!(game.pieces(&state), u32::from(slice));
                positions += 1;
            }
            assert_eq!(game.position_of(slice, game.slice_size(slice)), None);
        }
        assert!(positions > 0);
    }
}

#[test]
fn positions_of_random_games_round_trip() {
    for (m, n) in [(6, 4), (8, 15), (6, 6), (7, 3)] {
        let game = Kalah::new(m, n, Capture::Standard).unwrap();
        let seen = visit_random_games(&game, 20, 1000, 9, |state| {
            match game.locate(state) {
                // Finished games (every house empty) are in no slice, and slices of more
                // than 2^64 indices have no index.
                None => assert!(
                    game.pieces(state) == 0
                        || game.slice_size(game.pieces(state) as u8) == u64::MAX
                ),
                Some((slice, index)) => {
                    assert!(index < game.slice_size(slice));
                    assert_eq!(game.position_of(slice, index).as_ref(), Some(state));
                }
            }
        });
        assert!(seen > 100);
    }
}

#[test]
fn slices_are_named_and_sized() {
    let game = Kalah::standard();
    assert_eq!(game.table_set(), "kalah-6-4-empty");
    assert_eq!(game.slice_name(7), "seeds-007");
    assert_eq!(game.slices(3), vec![1, 2, 3]);
    assert_eq!(game.slices(100).len(), 48);
    // One seed: 12 houses, South's store 0..=47, two sides to move.
    assert_eq!(game.slice_size(1), 12 * 48 * 2);
    // Too many for a table, but counted without overflow.
    assert!(game.slice_size(40) > u64::from(u32::MAX));
}

/// The verdict of a margin for the side to move.
fn verdict(margin: i32) -> &'static str {
    match margin.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    }
}

/// Tables of every position with up to 12 seeds in the houses (the most that
/// `Tables::open` reads), built with `ply::endgame::build`: each verdict is the sign of the
/// solver's margin. Kalah(3,2) has 12 seeds in all, so its tables hold the whole game.
#[test]
fn built_tables_agree_with_the_solver() {
    for capture in Capture::ALL {
        for (m, n) in [(3, 2), (3, 3)] {
            let game = Kalah::new(m, n, capture).unwrap();
            let what = format!("Kalah({m},{n}) {capture}");
            let name = format!("ply-kalah-egdb-{m}-{n}-{capture}-{}", std::process::id());
            let dir = std::env::temp_dir().join(name);
            let summary = build(&game, 12, &dir, 2, &|_| {}).unwrap();
            assert_eq!(summary.slices, 12);
            let tables = Tables::open(&game, &dir).unwrap();
            let mut solver = Solver::new(&game);
            let mut checked = 0;
            for slice in game.slices(12) {
                for index in 0..game.slice_size(slice) {
                    let state = game.position_of(slice, index).unwrap();
                    let got = match tables.probe(&game, &state) {
                        Some(Verdict::Win(_)) => "win",
                        Some(Verdict::Loss(_)) => "loss",
                        Some(Verdict::Draw) => "draw",
                        None => panic!("{what}: no verdict for {}", game.format_state(&state)),
                    };
                    let expected = verdict(solver.margin(&state));
                    assert_eq!(got, expected, "{what} {}", game.format_state(&state));
                    checked += 1;
                }
            }
            assert!(checked > 50_000, "{what}: {checked}");
            if m * n * 2 <= 12 {
                let start = game.initial_state();
                let expected = verdict(solver.margin(&start));
                let got = tables.probe(&game, &start).map(|v| match v {
                    Verdict::Win(_) => "win",
                    Verdict::Loss(_) => "loss",
                    Verdict::Draw => "draw",
                });
                assert_eq!(got, Some(expected), "{what}: the start");
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}

#[test]
fn the_seed_table_agrees_with_the_solver() {
    for capture in Capture::ALL {
        for (m, n) in [(3, 3), (4, 2), (2, 6)] {
            let game = Kalah::new(m, n, capture).unwrap();
            // Built on two threads for one size, to check that the threads agree.
            let threads = if m == 3 { 2 } else { 1 };
            let table =
                SeedTable::build_with(&game, game.total_seeds(), threads, &mut |_, _| {}).unwrap();
            let mut solver = Solver::new(&game);
            for slice in game.slices(game.total_seeds()) {
                let size = game.slice_size(slice);
                // Every index of the small slices, a sample of the large ones.
                let step = (size / 5000).max(1);
                for index in (0..size).step_by(step as usize) {
                    let state = game.position_of(slice, index).unwrap();
                    let what = format!("Kalah({m},{n}) {capture} {}", game.format_state(&state));
                    assert_eq!(table.margin(&state), Some(solver.margin(&state)), "{what}");
                }
            }
        }
    }
}

#[test]
fn a_seed_table_answers_for_the_search() {
    let game = Kalah::new(4, 3, Capture::Empty).unwrap();
    let table = Arc::new(SeedTable::build(&game, 10).unwrap());
    assert_eq!(table.max_seeds(), 10);
    let state = game.initial_state();
    assert_eq!(table.margin(&state), None, "24 seeds in the houses");
    let with = game.clone().with_table(table.clone()).unwrap();
    assert_eq!(with.table(), Some(&*table));
    // Other houses or another capture rule: refused.
    assert!(Kalah::new(5, 3, Capture::Empty).unwrap().with_table(table.clone()).is_err());
    assert!(Kalah::new(4, 3, Capture::None).unwrap().with_table(table.clone()).is_err());
    // Another number of seeds per house: the same houses, the same gains.
    assert!(Kalah::new(4, 5, Capture::Empty).unwrap().with_table(table).is_ok());
    assert!(SeedTable::build(&Kalah::standard(), 121).is_err());
}

#[test]
fn margin_indices_round_trip_for_every_board_width() {
    for m in [1, 3, 6, 8] {
        let game = Kalah::new(m, 1, Capture::Empty).unwrap();
        for count in [0, 1, 2, 5] {
            let size = game.count_size(count);
            let step = (size / 3000).max(1);
            for index in (0..size).step_by(step as usize) {
                let state = game.position_at(count, index).unwrap();
                assert_eq!(state.seeds_in_houses(), count);
                assert_eq!(MarginIndex::index(&game, &state), index, "Kalah({m}) {count} seeds");
            }
            assert_eq!(game.position_at(count, size), None);
        }
    }
}

#[test]
fn seed_tables_are_kept_as_files_and_checked() {
    let dir = std::env::temp_dir().join(format!("ply-kalah-seeds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let game = Kalah::new(4, 3, Capture::Standard).unwrap();
    assert_eq!(SeedTable::open(&game, &dir).unwrap(), None);
    let built = SeedTable::build_in(&game, 9, 2, &dir, &mut |_, _| {}).unwrap();
    let read = SeedTable::open(&game, &dir).unwrap().expect("the files just written");
    assert_eq!(read.max_seeds(), 9);
    let mut solver = Solver::new(&game);
    let mut checked = 0;
    for index in (0..game.count_size(9)).step_by(97) {
        let state = game.position_at(9, index).unwrap();
        assert_eq!(read.margin(&state), Some(solver.margin(&state)));
        assert_eq!(read.margin(&state), built.margin(&state));
        checked += 1;
    }
    assert!(checked > 100);
    assert!(read.margins().check(&game, 2000, 3).unwrap() > 1000);
    // Another capture rule has tables of its own.
    let other = Kalah::new(4, 3, Capture::Empty).unwrap();
    assert_eq!(SeedTable::open(&other, &dir).unwrap(), None);
    std::fs::remove_dir_all(&dir).unwrap();
}
