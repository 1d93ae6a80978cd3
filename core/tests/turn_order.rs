//! Every two-player tool follows the player to move: alpha-beta, paranoid search, the MCTS
//! solver, the agreement check, the opening book and the endgame tables, on a game whose
//! players alternate, one with extra turns and one with an irregular turn order ([`CoinRow`]),
//! against an exact solver written here.

use std::collections::HashMap;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply::book::DropOut;
use ply::endgame::{build, EndgameIndex, Probed, Tables, Verdict};
use ply::eval::GameEval;
use ply::games::{CoinRow, CoinRowState, TurnOrder};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::mcts::Mcts;
use ply::search::multiplayer::{MultiplayerSearch, OpponentModel};
use ply::search::{Agent, Budget, Position, Value};
use ply::testing::agreement::{
    check_agreement, check_multiplayer_agreement, check_search, random_positions,
};
use ply::{Game, MoveList, Player, Score};

const ORDERS: [TurnOrder; 3] = [TurnOrder::Alternate, TurnOrder::EvenAgain, TurnOrder::ThueMorse];

/// A row of `len` coins worth 1 to 9, from `seed`.
fn row(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..len).map(|_| rng.gen_range(1..=9)).collect()
}

/// The final score difference (the first player's score minus the second's) under perfect
/// play: the first player maximises it where it moves, the second minimises it, read from
/// each position's player to move.
fn exact(game: &CoinRow, s: CoinRowState, memo: &mut HashMap<CoinRowState, i32>) -> i32 {
    if let Some(o) = game.outcome(&s) {
        return o.margin(Player::FIRST);
    }
    if let Some(&v) = memo.get(&s) {
        return v;
    }
    let mut moves = MoveList::new();
    game.generate_moves(&s, &mut moves);
    let values = moves.iter().map(|&mv| {
        let mut child = s;
        game.apply(&mut child, mv);
        exact(game, child, memo)
    });
    let first = game.to_move(&s) == Player::FIRST;
    let v = if first { values.max() } else { values.min() }.expect("a move");
    memo.insert(s, v);
    v
}

/// [`exact`] for the player to move in `s`.
fn exact_for_mover(game: &CoinRow, s: CoinRowState, memo: &mut HashMap<CoinRowState, i32>) -> i32 {
    let v = exact(game, s, memo);
    if game.to_move(&s) == Player::FIRST {
        v
    } else {
        -v
    }
}

/// The start and positions along random games of a row.
fn positions(game: &CoinRow, count: usize, seed: u64) -> Vec<CoinRowState> {
    let mut out = vec![game.initial_state()];
    out.extend(random_positions(game, count, game.coins().len() as u32 - 2, seed));
    out
}

#[test]
fn alphabeta_solves_every_turn_order_exactly() {
    for (k, turns) in ORDERS.into_iter().enumerate() {
        for seed in 0..4 {
            let game = CoinRow::new(&row(11, seed), turns).unwrap();
            let mut memo = HashMap::new();
            let mut margin = AlphaBeta::with_options(AlphaBetaOptions {
                tt_mb: 1,
                ..AlphaBetaOptions::endgame()
            });
            let mut wdl = AlphaBeta::new().with_tt_mb(1);
            for s in positions(&game, 12, seed * 3 + k as u64) {
                let m = exact_for_mover(&game, s, &mut memo);
                let budget = Budget::depth(20);
                let report = margin.choose(&game, Position::new(&s), &budget).unwrap();
                let expected = if m == 0 { Value::Draw } else { Value::Heuristic(f64::from(m)) };
                assert_eq!(report.value, expected, "{turns:?} {:?} {s:?}", game.coins());
                let mut child = s;
                game.apply(&mut child, report.best_move);
                let same = game.to_move(&child) == game.to_move(&s);
                let through = exact_for_mover(&game, child, &mut memo);
                assert_eq!(if same { through } else { -through }, m, "{turns:?} {s:?}");
                let report = wdl.choose(&game, Position::new(&s), &budget).unwrap();
                // Every move takes a coin: every game ends when the coins left are taken.
                let left = game.pieces(&s);
                let expected = match m.signum() {
                    1 => Value::Win(left),
                    -1 => Value::Loss(left),
                    _ => Value::Draw,
                };
                assert_eq!(report.value, expected, "{turns:?} {s:?}");
            }
        }
    }
}

#[test]
fn paranoid_search_agrees_with_the_exact_solver() {
    for turns in ORDERS {
        let game = CoinRow::new(&row(10, 7), turns).unwrap();
        let mut memo = HashMap::new();
        let mut paranoid = MultiplayerSearch::new(OpponentModel::Paranoid).with_tt_mb(1);
        for s in positions(&game, 10, 11) {
            let m = exact_for_mover(&game, s, &mut memo);
            let report = paranoid.choose(&game, Position::new(&s), &Budget::depth(20)).unwrap();
            let won = match report.value {
                Value::Win(_) => 1,
                Value::Loss(_) => -1,
                Value::Draw => 0,
                other => panic!("{turns:?} {s:?}: not solved: {other:?}"),
            };
            assert_eq!(won, m.signum(), "{turns:?} {s:?}");
        }
    }
}

#[test]
fn the_mcts_solver_proves_exact_results_in_every_turn_order() {
    for turns in ORDERS {
        let game = CoinRow::new(&row(7, 12), turns).unwrap();
        let mut memo = HashMap::new();
        let mut proven = 0;
        for (i, s) in positions(&game, 10, 17).into_iter().enumerate() {
            let m = exact_for_mover(&game, s, &mut memo);
            let mut mcts = Mcts::new().with_seed(i as u64);
            let budget = Budget::iterations(3000);
            let report = mcts.choose(&game, Position::new(&s), &budget).unwrap();
            let won = match report.value {
                Value::Win(_) => 1,
                Value::Loss(_) => -1,
                Value::Draw => 0,
                _ => continue,
            };
            assert_eq!(won, m.signum(), "{turns:?} {s:?}");
            proven += 1;
        }
        assert!(proven >= 8, "{turns:?}: {proven} proven");
    }
}

#[test]
fn every_enhancement_agrees_with_minimax_in_every_turn_order() {
    for turns in ORDERS {
        let game = CoinRow::new(&row(12, 3), turns).unwrap();
        let positions = positions(&game, 16, 5);
        for depth in [2, 4, 5] {
            check_agreement(&game, &positions, depth).unwrap_or_else(|e| panic!("{turns:?}: {e}"));
        }
        check_multiplayer_agreement(&game, &positions, 4)
            .unwrap_or_else(|e| panic!("{turns:?}: {e}"));
    }
}

/// Plain negamax as two-player search was written before it followed the mover: every
/// child's value negated, whoever moves there. `follow` switches the fix on.
fn negamax(game: &CoinRow, s: &CoinRowState, depth: u32, ply: u32, follow: bool) -> i32 {
    if let Some(o) = game.outcome(s) {
        return o.margin(game.to_move(s)).signum() * i32::win_in(ply);
    }
    if depth == 0 {
        return game.evaluate(s, game.to_move(s));
    }
    let mut moves = MoveList::new();
    game.generate_moves(s, &mut moves);
    let value = |&mv: &u8| {
        let mut child = *s;
        game.apply(&mut child, mv);
        let v = negamax(game, &child, depth - 1, ply + 1, follow);
        if follow && game.to_move(&child) == game.to_move(s) {
            v
        } else {
            -v
        }
    };
    moves.iter().map(value).max().expect("a move")
}

/// The agreement check's search for `negamax`: the root value and a best move.
fn root_search(
    game: &CoinRow,
    depth: u32,
    follow: bool,
) -> impl FnMut(&CoinRowState) -> Result<(i32, u8), Box<dyn std::error::Error>> + '_ {
    move |s| {
        let mut moves = MoveList::new();
        game.generate_moves(s, &mut moves);
        let value = |&mv: &u8| {
            let mut child = *s;
            game.apply(&mut child, mv);
            let v = negamax(game, &child, depth - 1, 1, follow);
            if follow && game.to_move(&child) == game.to_move(s) {
                v
            } else {
                -v
            }
        };
        let best = moves.iter().max_by_key(|mv| value(mv)).ok_or("no move")?;
        Ok((value(best), *best))
    }
}

#[test]
fn the_agreement_check_fails_a_negamax_that_assumes_alternation() {
    for turns in ORDERS {
        let game = CoinRow::new(&row(12, 9), turns).unwrap();
        let positions = positions(&game, 20, 2);
        // The search that follows the mover passes in every turn order.
        check_search(&game, &positions, 4, "follows", root_search(&game, 4, true))
            .unwrap_or_else(|e| panic!("{turns:?}: {e}"));
        let old = check_search(&game, &positions, 4, "negates", root_search(&game, 4, false));
        match turns {
            // Where players alternate the two are the same search.
            TurnOrder::Alternate => old.unwrap(),
            _ => {
                let e = old.expect_err("the check must catch the old negamax");
                assert_eq!(e.options, "negates");
            }
        }
    }
}

/// The value category of a book value: 1 a proven win, -1 a proven loss, 0 otherwise.
fn category(value: f64) -> i32 {
    const PROVEN: f64 = ply::book::PROVEN;
    if value >= PROVEN {
        1
    } else if value <= -PROVEN {
        -1
    } else {
        0
    }
}

#[test]
fn a_book_backs_up_values_across_extra_turns() {
    for turns in ORDERS {
        let game = CoinRow::new(&row(8, 4), turns).unwrap();
        let mut tree = DropOut::new(&game, 1.0).unwrap();
        // A leaf evaluation that knows nothing: only the finished games carry information.
        while tree.expand_next(|_| Ok(0.0)).unwrap().is_some() {}
        let mut memo = HashMap::new();
        let start = game.initial_state();
        assert_eq!(category(tree.value()), exact_for_mover(&game, start, &mut memo).signum());
        let book = tree.book();
        assert!(book.len() > 20, "{turns:?}: {} positions", book.len());
        for entry in book.entries() {
            let mut state = start;
            for &mv in &entry.path {
                game.apply(&mut state, mv);
            }
            let m = exact_for_mover(&game, state, &mut memo);
            assert_eq!(category(entry.moves[0].value), m.signum(), "{turns:?} {:?}", entry.path);
            for bm in &entry.moves {
                let mut child = state;
                game.apply(&mut child, bm.mv);
                let through = exact_for_mover(&game, child, &mut memo);
                let same = game.to_move(&child) == game.to_move(&state);
                let v = if same { through } else { -through };
                assert_eq!(category(bm.value), v.signum(), "{turns:?} {:?}", entry.path);
            }
        }
    }
}

/// A fresh directory for a table set.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-turn-order-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn endgame_tables_agree_with_the_exact_solver_in_every_turn_order() {
    for turns in ORDERS {
        let game = CoinRow::new(&row(9, 6), turns).unwrap();
        let dir = temp_dir(&format!("{turns:?}"));
        build(&game, 9, &dir, 2, &|_| {}).unwrap();
        let tables = Tables::open(&game, &dir).unwrap();
        let mut memo = HashMap::new();
        let mut checked = 0;
        for slice in game.slices(9) {
            for index in 0..game.slice_size(slice) {
                let Some(s) = game.position_of(slice, index) else { continue };
                let verdict = tables.probe(&game, &s).unwrap();
                let left = game.pieces(&s);
                let expected = match exact_for_mover(&game, s, &mut memo).signum() {
                    1 => Verdict::Win(left),
                    -1 => Verdict::Loss(left),
                    _ => Verdict::Draw,
                };
                assert_eq!(verdict, expected, "{turns:?} {s:?}");
                assert_eq!(tables.implied(&game, &s), Some(verdict), "{turns:?} {s:?}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{turns:?}: {checked} positions");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn exact_margins_keep_their_size_through_win_loss_tables() {
    for turns in ORDERS {
        let game = CoinRow::new(&row(12, 8), turns).unwrap();
        let dir = temp_dir(&format!("margin-{turns:?}"));
        build(&game, 7, &dir, 2, &|_| {}).unwrap();
        let tables = Arc::new(Tables::open(&game, &dir).unwrap());
        let options = AlphaBetaOptions { tt_mb: 1, ..AlphaBetaOptions::endgame() };
        let mut probed = AlphaBeta::with_options(options.clone())
            .with_evaluator(Probed::new(GameEval, Arc::clone(&tables)));
        let mut wdl = AlphaBeta::new()
            .with_tt_mb(1)
            .with_evaluator(Probed::new(GameEval, Arc::clone(&tables)));
        let mut memo = HashMap::new();
        for s in positions(&game, 10, 13) {
            let m = exact_for_mover(&game, s, &mut memo);
            let budget = Budget::depth(20);
            let report = probed.choose(&game, Position::new(&s), &budget).unwrap();
            let expected = if m == 0 { Value::Draw } else { Value::Heuristic(f64::from(m)) };
            assert_eq!(report.value, expected, "{turns:?} {s:?}");
            // Without margins the tables' verdicts answer as they are.
            let won = match wdl.choose(&game, Position::new(&s), &budget).unwrap().value {
                Value::Win(_) => 1,
                Value::Loss(_) => -1,
                _ => 0,
            };
            assert_eq!(won, m.signum(), "{turns:?} {s:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
