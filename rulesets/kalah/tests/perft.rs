//! Perft and whole random games against the plain-array reference rules of `common`, on
//! several board sizes and under every capture variant.

mod common;

use common::Board;
use ply::perft::{PerftLimit, PerftTable};
use ply::{divide, perft, Game, MoveList, Notation, PerftMode};
use ply_kalah::{Capture, Kalah};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// (houses, seeds, perft depth): each depth a fraction of a second in the test profile.
const SIZES: [(usize, usize, u32); 8] =
    [(1, 1, 6), (2, 3, 10), (3, 3, 10), (4, 3, 9), (4, 4, 9), (6, 2, 8), (6, 4, 7), (8, 6, 6)];

#[test]
fn perft_agrees_with_the_reference_rules() {
    for capture in Capture::ALL {
        for (m, n, depth) in SIZES {
            let game = Kalah::new(m, n, capture).unwrap();
            let board = Board::new(m, n as u32, capture);
            let start = game.initial_state();
            assert_eq!(game.format_state(&start), board.text());
            for d in 1..=depth {
                let expected = board.perft(d);
                let what = format!("Kalah({m},{n}) {capture} depth {d}");
                assert_eq!(perft(&game, &start, d, PerftMode::Bulk), expected, "{what}");
                if d < depth {
                    assert_eq!(perft(&game, &start, d, PerftMode::MakeAll), expected, "{what}");
                }
            }
        }
    }
}

/// `data/standard.perft`: Kalah(6,4) with the empty-capture rule, from the reference rules
/// (they agree on every size above); a change of these numbers is a change of the rules.
#[test]
fn standard_start_perft_is_fixed() {
    let game = Kalah::standard();
    let table: PerftTable = include_str!("data/standard.perft").parse().unwrap();
    let bulk = |s: &_, d| perft(&game, s, d, PerftMode::Bulk);
    assert_eq!(table.check(&game, PerftLimit::Depth(6), bulk), Ok(6));
    let board = Board::new(6, 4, Capture::Empty);
    assert_eq!(table.check(&game, PerftLimit::Depth(6), |_, d| board.perft(d)), Ok(6));
    // House 3 earns a second move, so depth 2 has 5 more leaves than 6 x 6 ... and fewer
    // where a house is empty: the first ply is simply the six houses.
    let counts = &table.cases[0];
    assert_eq!(counts.leaves(1), Some(6));
    let split = divide(&game, &game.initial_state(), 3, PerftMode::Bulk);
    assert_eq!(split.len(), 6);
    assert_eq!(Some(split.iter().map(|&(_, n)| n).sum::<u64>()), counts.leaves(3));
}

#[test]
fn random_games_agree_with_the_reference_move_by_move() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x6b61_6c61);
    let sizes = [(1, 3), (2, 5), (3, 4), (4, 6), (5, 1), (6, 4), (6, 6), (7, 3), (8, 10), (8, 15)];
    let mut games = 0;
    for capture in Capture::ALL {
        for (m, n) in sizes {
            let game = Kalah::new(m, n, capture).unwrap();
            for _ in 0..20 {
                let mut state = game.initial_state();
                let mut board = Board::new(m, n as u32, capture);
                let mut moves = MoveList::new();
                loop {
                    assert_eq!(game.format_state(&state), board.text(), "Kalah({m},{n}) {capture}");
                    game.generate_moves(&state, &mut moves);
                    let mut numbers: Vec<usize> = moves.iter().map(|mv| mv.number()).collect();
                    numbers.sort_unstable();
                    assert_eq!(numbers, board.moves(), "{}", board.text());
                    assert_eq!(game.outcome(&state).is_some(), board.over());
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[rng.gen_range(0..moves.len())];
                    game.apply(&mut state, mv);
                    board.play(mv.number());
                }
                games += 1;
            }
        }
    }
    assert_eq!(games, 3 * 10 * 20);
}
