//! Multiplayer search: paranoid, max^n and best-reply search against the brute-force
//! references of `ply::testing::agreement::check_multiplayer_agreement`.

use std::time::Duration;

use ply::games::{ThreeHeaps, TicTacToe};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::multiplayer::{MultiplayerOptions, MultiplayerSearch, OpponentModel};
use ply::search::{Agent, Budget, Position, SearchError, Value};
use ply::testing::agreement::{check_multiplayer_agreement, random_positions};
use ply::{Game, MoveList, Notation, Outcome, Player};

fn moves<G: Game>(game: &G, s: &G::State) -> Vec<G::Move> {
    let mut m = MoveList::new();
    game.generate_moves(s, &mut m);
    m.to_vec()
}

/// Checks every model and option set against the kit's brute-force references on `positions`
/// at each of `depths`.
fn check_models<G: Game>(game: &G, positions: &[G::State], depths: &[u32]) {
    for &depth in depths {
        check_multiplayer_agreement(game, positions, depth).unwrap();
    }
}

#[test]
fn three_player_models_match_brute_force() {
    let game = ThreeHeaps::new([4, 5, 6]).unwrap();
    let positions = random_positions(&game, 12, 8, 3);
    assert!(positions.len() >= 10);
    check_models(&game, &positions[..6], &[1, 2, 3, 4, 5]);
    // Late positions, searched to the end.
    let late = random_positions(&game, 12, 12, 4);
    let objects = |s: &_| -> u32 {
        let text = game.format_state(s);
        text.split(';').next().unwrap().split(',').map(|n| n.parse::<u32>().unwrap()).sum()
    };
    let late: Vec<_> = late.into_iter().filter(|s| objects(s) <= 7).collect();
    assert!(late.len() >= 3);
    check_models(&game, &late, &[16]);
}

#[test]
fn three_player_models_solve_small_games_exactly() {
    let game = ThreeHeaps::new([2, 3, 3]).unwrap();
    let s = game.initial_state();
    check_models(&game, &[s], &[12]);
    let r = MultiplayerSearch::new(OpponentModel::Paranoid)
        .with_tt_mb(1)
        .choose(&game, Position::new(&s), &Budget::depth(12))
        .unwrap();
    assert!(matches!(r.value, Value::Win(_) | Value::Loss(_) | Value::Draw), "{:?}", r.value);
}

/// A draw and a heuristic zero are the same root value.
fn normal(v: Value) -> Value {
    if v == Value::Draw {
        Value::Heuristic(0.0)
    } else {
        v
    }
}

#[test]
fn two_player_models_equal_alpha_beta() {
    let game = TicTacToe;
    let positions = random_positions(&game, 15, 5, 1);
    check_models(&game, &positions, &[1, 2, 3, 5]);
    for s in &positions {
        if moves(&game, s).len() < 2 {
            continue;
        }
        let plain = AlphaBetaOptions::plain();
        let ab = AlphaBeta::with_options(plain).choose(&game, Position::new(s), &Budget::depth(3));
        // With two players a best-reply layer is one opponent move, so both are alpha-beta.
        for model in [OpponentModel::Paranoid, OpponentModel::BestReply] {
            let mut engine = MultiplayerSearch::new(model).with_tt_mb(1);
            let r = engine.choose(&game, Position::new(s), &Budget::depth(3)).unwrap();
            assert_eq!(normal(r.value), normal(ab.as_ref().unwrap().value), "{model:?} {s:?}");
        }
    }
}

/// A three-player game given as an explicit tree: each inner node names the seat to move and
/// its children; each leaf has a score per seat.
///
/// ```text
/// 0 (seat 0) ─ a: 1 (seat 1) ─ 3: [1, 3, 2]
///            │               └ 4: [3, 2, 1]
///            └ b: 2 (seat 1) ─ 5: [2, 1, 3]
///                            └ 6: [2, 3, 1]
/// ```
struct TreeGame;

const TREE: [(u8, &[u8], [i32; 3]); 7] = [
    (0, &[1, 2], [0; 3]),
    (1, &[3, 4], [0; 3]),
    (1, &[5, 6], [0; 3]),
    (0, &[], [1, 3, 2]),
    (0, &[], [3, 2, 1]),
    (0, &[], [2, 1, 3]),
    (0, &[], [2, 3, 1]),
];

impl Game for TreeGame {
    type State = u8;
    type Move = u8;
    type Score = i32;
    fn initial_state(&self) -> u8 {
        0
    }
    fn num_players(&self) -> usize {
        3
    }
    fn to_move(&self, s: &u8) -> Player {
        Player(TREE[*s as usize].0)
    }
    fn generate_moves(&self, s: &u8, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.extend(TREE[*s as usize].1.iter().copied());
    }
    fn apply(&self, s: &mut u8, mv: u8) {
        *s = mv;
    }
    fn outcome(&self, s: &u8) -> Option<Outcome> {
        let (_, children, scores) = TREE[*s as usize];
        children.is_empty().then(|| Outcome::from_scores(&scores))
    }
    fn evaluate(&self, _s: &u8, _p: Player) -> i32 {
        0
    }
}

/// The values worked out by hand, so that the kit's references are checked too, not only
/// compared with the searches.
#[test]
fn the_models_give_the_hand_computed_values_of_a_small_tree() {
    let game = TreeGame;
    check_multiplayer_agreement(&game, &[0], 2).unwrap();
    let search = |model| {
        MultiplayerSearch::new(model).choose(&game, Position::new(&0), &Budget::depth(2)).unwrap()
    };
    // Paranoid: seat 1 is assumed to hurt seat 0, and can make seat 0 lose under both moves
    // (a: leaf 3, b: either leaf), 2 plies from the root.
    assert_eq!(search(OpponentModel::Paranoid).value, Value::Loss(2));
    // Best reply: seat 1 is the only opponent who moves here, so the same.
    assert_eq!(search(OpponentModel::BestReply).value, Value::Loss(2));
    // Max^n: seat 1 takes its own best leaf: after a, leaf 3 (seat 0 last: share 0); after b,
    // leaf 6 (seat 0 second: reward 1/2 of the rewards 1/2 + 1 + 0, a share of 1/3).
    let r = search(OpponentModel::MaxN);
    assert_eq!(r.best_move, 2);
    assert_eq!(r.pv, vec![2, 6]);
    let Value::Reward(share) = r.value else { panic!("{:?}", r.value) };
    assert!((share - 1.0 / 3.0).abs() < 1e-12, "{share}");
}

#[test]
fn shallow_pruning_prunes_and_keeps_the_value() {
    // Pruning needs shares that sum past 1 for two players, which finished games give.
    let game = ThreeHeaps::new([2, 3, 3]).unwrap();
    let s = game.initial_state();
    let run = |pruning: bool| {
        let options =
            MultiplayerOptions { shallow_pruning: pruning, tt: false, ..Default::default() };
        MultiplayerSearch::new(OpponentModel::MaxN)
            .with_options(options)
            .choose(&game, Position::new(&s), &Budget::depth(8))
            .unwrap()
    };
    let (with, without) = (run(true), run(false));
    assert_eq!(with.value, without.value);
    assert!(with.nodes < without.nodes, "{} vs {}", with.nodes, without.nodes);
}

/// Budgets without measuring time: node budgets are kept and reproducible; a time budget that
/// is never reached gives exactly the result of the other limit; one that is already spent
/// still completes depth 1 and goes no deeper.
#[test]
fn budgets_are_respected() {
    let game = ThreeHeaps::new([20, 20, 20]).unwrap();
    let s = game.initial_state();
    let hour = Duration::from_secs(3600);
    for model in [OpponentModel::Paranoid, OpponentModel::MaxN, OpponentModel::BestReply] {
        let mut engine = MultiplayerSearch::new(model).with_tt_mb(1);
        let mut report = |budget: &Budget| {
            let r = engine.choose(&game, Position::new(&s), budget).unwrap();
            (r.best_move, r.value, r.nodes, r.depth, r.pv)
        };
        let a = report(&Budget::nodes(5000));
        assert!(a.2 <= 5000, "{model:?}: {} nodes", a.2);
        assert_eq!(report(&Budget::nodes(5000)), a, "{model:?}");
        assert_eq!(report(&Budget::time(hour).with_nodes(5000)), a, "{model:?}");
        let spent = report(&Budget::time(Duration::ZERO));
        assert_eq!(spent, report(&Budget::depth(1)), "{model:?}");
        assert_eq!(spent.3, 1, "{model:?}");
    }
}

#[test]
fn single_move_and_finished_games() {
    let game = ThreeHeaps::standard();
    let one = game.parse_state("0,0,1;3,4,5;2").unwrap();
    let mut engine = MultiplayerSearch::new(OpponentModel::MaxN).with_tt_mb(1);
    let r = engine.choose(&game, Position::new(&one), &Budget::depth(3)).unwrap();
    assert_eq!((r.best_move, r.value, r.nodes), ((2, 1), Value::Unknown, 0));
    let mut over = one;
    game.apply(&mut over, (2, 1));
    let err = engine.choose(&game, Position::new(&over), &Budget::depth(3)).unwrap_err();
    assert_eq!(err, SearchError::NoLegalMoves);
}

#[test]
fn iterations_are_reported() {
    use std::sync::{Arc, Mutex};
    let game = ThreeHeaps::standard();
    let s = game.initial_state();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let mut engine = MultiplayerSearch::new(OpponentModel::MaxN).with_tt_mb(1).with_info(Box::new(
        move |info| {
            let pv = info.pv::<(u8, u8)>().unwrap();
            log.lock().unwrap().push((info.depth, pv.len()));
        },
    ));
    let r = engine.choose(&game, Position::new(&s), &Budget::depth(3)).unwrap();
    assert_eq!(*seen.lock().unwrap(), vec![(1, 1), (2, 2), (3, 3)]);
    assert_eq!(r.pv.len(), 3);
}

/// Lazy SMP for the multiplayer searches: solved values are the same on two threads as on one.
#[test]
fn parallel_multiplayer_search_keeps_solved_values() {
    let game = ThreeHeaps::new([2, 3, 3]).unwrap();
    let s = game.initial_state();
    for model in [OpponentModel::Paranoid, OpponentModel::MaxN, OpponentModel::BestReply] {
        let one = MultiplayerSearch::new(model)
            .with_tt_mb(1)
            .choose(&game, Position::new(&s), &Budget::depth(12))
            .unwrap();
        let mut two = MultiplayerSearch::new(model).with_tt_mb(1).with_threads(2);
        let r = two.choose(&game, Position::new(&s), &Budget::depth(12)).unwrap();
        assert_eq!(r.value, one.value, "{model}");
        assert!(Agent::<ThreeHeaps>::name(&two).ends_with(",threads=2)"));
    }
}
