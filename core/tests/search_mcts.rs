//! MCTS: finds and proves known results on tic-tac-toe, plays for the right player in a
//! three-player game, and is reproducible from its seed with one or two threads.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use ply::games::{ConnectFour, TicTacToe, TicTacToeState};
use ply::search::mcts::{eval_to_rewards, Mcts, DEFAULT_ITERATIONS};
use ply::search::{Agent, Budget, Position, SearchError, Value};
use ply::{Game, MoveList, Notation, Outcome, Player};

fn ttt(board: &str) -> TicTacToeState {
    TicTacToe.parse_state(board).unwrap()
}

/// Exact tic-tac-toe value for the player to move: 1 win, 0 draw, -1 loss.
fn negamax(state: &TicTacToeState) -> i32 {
    let game = TicTacToe;
    if let Some(outcome) = game.outcome(state) {
        return match outcome {
            Outcome::Winner(w) if w == game.to_move(state) => 1,
            Outcome::Winner(_) => -1,
            _ => 0,
        };
    }
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *state;
            game.apply(&mut child, mv);
            -negamax(&child)
        })
        .max()
        .unwrap()
}

fn value_after(state: &TicTacToeState, mv: u8) -> i32 {
    let mut child = *state;
    TicTacToe.apply(&mut child, mv);
    -negamax(&child)
}

#[test]
fn plays_and_proves_a_win_in_one() {
    // X X .
    // O O .
    // . . .   X to move: c3 wins.
    let state = ttt("xx.oo....");
    for seed in 0..5 {
        let mut mcts = Mcts::new().with_seed(seed);
        let r = mcts.choose(&TicTacToe, Position::new(&state), &Budget::iterations(500)).unwrap();
        assert_eq!(r.best_move, 2, "seed {seed}");
        assert_eq!(r.value, Value::Win(1), "seed {seed}");
        assert!(r.iterations < 500, "a proven root ends the search early");
    }
}

#[test]
fn finds_a_win_in_one_without_the_solver() {
    let state = ttt("xx.oo....");
    let mut mcts = Mcts::new().with_solver(false).with_seed(3);
    let r = mcts.choose(&TicTacToe, Position::new(&state), &Budget::iterations(2000)).unwrap();
    assert_eq!(r.best_move, 2);
    assert!(matches!(r.value, Value::Reward(v) if v > 0.9), "{:?}", r.value);
    assert_eq!(r.iterations, 2000);
}

#[test]
fn blocks_a_win_in_one() {
    // X X .
    // . O .
    // . . .   O to move must take c3.
    let state = ttt("xx..o....");
    for (seed, solver) in [(0, true), (1, true), (2, false), (3, false)] {
        let mut mcts = Mcts::new().with_seed(seed).with_solver(solver);
        let r = mcts.choose(&TicTacToe, Position::new(&state), &Budget::iterations(3000)).unwrap();
        assert_eq!(r.best_move, 2, "seed {seed} solver {solver}");
        assert!(!matches!(r.value, Value::Loss(_)), "{:?}", r.value);
    }
}

#[test]
fn solver_proves_a_forced_win_and_a_forced_loss() {
    // X . O
    // . O .
    // . . X   X to move must block a1, which forks a2 and b1: a win in 3 plies.
    let state = ttt("x.o.o...x");
    assert_eq!(negamax(&state), 1);
    let mut mcts = Mcts::new().with_seed(11);
    let r = mcts.choose(&TicTacToe, Position::new(&state), &Budget::iterations(20_000)).unwrap();
    assert_eq!(r.best_move, 6);
    assert_eq!(r.value, Value::Win(3));
    assert!(r.iterations < 20_000, "the proof ends the search");

    // X O .
    // . X .
    // . . .   O to move cannot stop the fork that follows c1: a loss.
    let state = ttt("xo..x....");
    assert_eq!(negamax(&state), -1);
    let r = mcts.choose(&TicTacToe, Position::new(&state), &Budget::iterations(20_000)).unwrap();
    assert!(matches!(r.value, Value::Loss(n) if n >= 4), "{:?}", r.value);
}

#[test]
fn solver_agrees_with_exact_values_on_many_positions() {
    // Every position two moves before the end of a few seeded random games, and a few
    // mid-game ones: whenever the root is proven, the proof matches the exact value, and the
    // chosen move keeps that value.
    use rand::{Rng, SeedableRng};
    let game = TicTacToe;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
    let mut proven = 0;
    for g in 0..40 {
        let mut state = game.initial_state();
        let plies = rng.gen_range(3..7);
        let mut moves = MoveList::new();
        for _ in 0..plies {
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            game.apply(&mut state, moves[rng.gen_range(0..moves.len())]);
        }
        game.generate_moves(&state, &mut moves);
        if moves.len() < 2 {
            continue;
        }
        let exact = negamax(&state);
        let mut mcts = Mcts::new().with_seed(g);
        let r = mcts.choose(&game, Position::new(&state), &Budget::iterations(4000)).unwrap();
        let expected_kind = match r.value {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
            _ => continue,
        };
        proven += 1;
        assert_eq!(expected_kind, exact, "game {g}: {}", game.format_state(&state));
        assert_eq!(value_after(&state, r.best_move), exact, "game {g}");
    }
    assert!(proven >= 20, "only {proven} positions proven");
}

#[test]
fn empty_board_is_not_a_loss() {
    let mut mcts = Mcts::new().with_seed(5);
    let state = TicTacToe.initial_state();
    let r = mcts.choose(&TicTacToe, Position::new(&state), &Budget::iterations(20_000)).unwrap();
    assert!(matches!(r.value, Value::Reward(_) | Value::Draw), "{:?}", r.value);
    assert_eq!(value_after(&state, r.best_move), 0, "the first move keeps the draw");
}

#[test]
fn same_seed_same_search_and_different_seeds_differ() {
    let game = TicTacToe;
    let state = game.initial_state();
    let run = |seed: u64| {
        let mut mcts = Mcts::new().with_seed(seed);
        let r = mcts.choose(&game, Position::new(&state), &Budget::iterations(1500)).unwrap();
        (r.best_move, r.nodes, r.iterations, r.pv, mcts.root_stats(&game))
    };
    let a = run(42);
    assert_eq!(a, run(42));
    assert_eq!(a.4.iter().map(|s| s.visits).sum::<u64>(), 1500);
    assert!((1..6).any(|s| run(s).4 != a.4), "different seeds should explore differently");
}

#[test]
fn two_threads_are_legal_and_reproducible() {
    let game = ConnectFour::standard();
    let state = game.initial_state();
    let run = || {
        let mut mcts = Mcts::new().with_seed(8).with_threads(2);
        let r = mcts.choose(&game, Position::new(&state), &Budget::iterations(600)).unwrap();
        (r.best_move, r.iterations, r.nodes, mcts.root_stats(&game))
    };
    let a = run();
    assert!(a.0 < 7);
    assert_eq!(a.1, 600);
    assert_eq!(a.3.iter().map(|s| s.visits).sum::<u64>(), 600);
    assert_eq!(a, run());
}

#[test]
fn tree_reuse_keeps_the_subtree_of_the_moves_played() {
    let game = ConnectFour::standard();
    let mut state = game.initial_state();
    let mut mcts = Mcts::new().with_seed(1);
    let budget = Budget::iterations(800);
    let r = mcts.choose(&game, Position::new(&state), &budget).unwrap();
    assert_eq!(mcts.last_reused(), 0);
    // Our move, then the opponent's.
    for mv in [r.best_move, 3] {
        mcts.observe(&game, &state, mv);
        game.apply(&mut state, mv);
    }
    mcts.choose(&game, Position::new(&state), &budget).unwrap();
    assert!(mcts.last_reused() > 0);
    let visits: u64 = mcts.root_stats(&game).iter().map(|s| s.visits).sum();
    assert_eq!(visits, mcts.last_reused() - 1 + 800, "old playouts are kept");

    // Root parallelism keeps one subtree per thread.
    let mut two = Mcts::new().with_seed(1).with_threads(2);
    let s0 = game.initial_state();
    let r = two.choose(&game, Position::new(&s0), &budget).unwrap();
    two.observe(&game, &s0, r.best_move);
    let mut s1 = s0;
    game.apply(&mut s1, r.best_move);
    two.choose(&game, Position::new(&s1), &budget).unwrap();
    assert!(two.last_reused() > 0);

    // A position the tree does not know starts over.
    let other = game.initial_state();
    mcts.choose(&game, Position::new(&other), &budget).unwrap();
    assert_eq!(mcts.last_reused(), 0);

    // Reuse off never keeps anything.
    let mut fresh = Mcts::new().with_seed(1).with_tree_reuse(false);
    let s0 = game.initial_state();
    let r = fresh.choose(&game, Position::new(&s0), &budget).unwrap();
    fresh.observe(&game, &s0, r.best_move);
    let mut s1 = s0;
    game.apply(&mut s1, r.best_move);
    fresh.choose(&game, Position::new(&s1), &budget).unwrap();
    assert_eq!(fresh.last_reused(), 0);
}

/// Time limits without measuring time: a time budget that is never reached leaves the search
/// to its other limit (exactly), and one that is already spent stops it before the first
/// playout, with a legal move all the same.
#[test]
fn time_budget_combines_with_other_limits_and_a_spent_one_stops_at_once() {
    let game = ConnectFour::standard();
    let state = game.initial_state();
    for threads in [1, 2] {
        let hour = Budget::time(Duration::from_secs(3600)).with_iterations(600);
        let mut mcts = Mcts::new().with_seed(3).with_threads(threads);
        let r = mcts.choose(&game, Position::new(&state), &hour).unwrap();
        assert_eq!(r.iterations, 600, "{threads} threads");
        let spent = Budget::time(Duration::ZERO);
        let mut mcts = Mcts::new().with_threads(threads);
        let r = mcts.choose(&game, Position::new(&state), &spent).unwrap();
        assert_eq!(r.iterations, 0, "{threads} threads: the deadline is checked before a playout");
        assert!(r.best_move < 7);
    }
}

#[test]
fn clock_budget_uses_the_allotment_and_no_limit_means_default_iterations() {
    use ply::search::Clock;
    let game = ConnectFour::standard();
    let state = game.initial_state();
    // The allotment: what is left, less the safety margin, shared over the moves to go.
    let clock = Clock {
        remaining: Duration::from_secs(1),
        increment: Duration::ZERO,
        moves_to_go: Some(20),
    };
    assert_eq!(clock.allotment(), (Duration::from_secs(1) - Clock::SAFETY_MARGIN) / 20);
    // A clock with plenty of time and an iteration limit: the iterations end the search.
    let long = Clock { remaining: Duration::from_secs(3600), ..clock };
    let budget = Budget::clock(long).with_iterations(500);
    let r = Mcts::new().choose(&game, Position::new(&state), &budget).unwrap();
    assert_eq!(r.iterations, 500);
    // A clock with less than the safety margin left allots nothing: no playout starts.
    let flagged = Clock { remaining: Clock::SAFETY_MARGIN / 2, ..clock };
    assert_eq!(flagged.allotment(), Duration::ZERO);
    let r = Mcts::new().choose(&game, Position::new(&state), &Budget::clock(flagged)).unwrap();
    assert_eq!(r.iterations, 0);
    assert!(r.best_move < 7);

    let r = Mcts::new().choose(&game, Position::new(&state), &Budget::depth(3)).unwrap();
    assert_eq!(r.iterations, DEFAULT_ITERATIONS);
}

#[test]
fn stop_flag_and_node_budget_end_the_search() {
    let game = ConnectFour::standard();
    let state = game.initial_state();
    // A stop flag raised before the search: no playout runs, though the time allows 30 s.
    let stop = Arc::new(AtomicBool::new(true));
    let budget = Budget::time(Duration::from_secs(30)).with_stop(stop);
    let r = Mcts::new().choose(&game, Position::new(&state), &budget).unwrap();
    assert_eq!(r.iterations, 0);
    assert!(r.best_move < 7);

    let r = Mcts::new().choose(&game, Position::new(&state), &Budget::nodes(5000)).unwrap();
    // The last playout may run past the limit by at most one game (42 plies) plus one
    // expansion (7 nodes).
    assert!(r.nodes >= 5000 && r.nodes < 5000 + 50, "{}", r.nodes);
}

#[test]
fn single_move_and_terminal_positions() {
    // X O X
    // X O O
    // O X .   X to move: only c1 is left.
    let state = ttt("xoxxooox.");
    let r = Mcts::new().choose(&TicTacToe, Position::new(&state), &Budget::iterations(100));
    let r = r.unwrap();
    assert_eq!((r.best_move, r.iterations, r.value), (8, 0, Value::Unknown));
    let over = ttt("xxxoo....");
    let err = Mcts::new().choose(&TicTacToe, Position::new(&over), &Budget::iterations(100));
    assert_eq!(err.unwrap_err(), SearchError::NoLegalMoves);
}

#[test]
fn rollout_cutoff_and_node_cap_still_play_well() {
    let state = ttt("xx..o....");
    for cutoff in [Some(0), Some(2)] {
        let mut mcts = Mcts::new().with_seed(4).with_rollout_cutoff(cutoff).with_eval_scale(8.0);
        let r = mcts.choose(&TicTacToe, Position::new(&state), &Budget::iterations(3000)).unwrap();
        assert_eq!(r.best_move, 2, "cutoff {cutoff:?}");
    }
    let mut capped = Mcts::new().with_seed(4).with_max_nodes(20);
    let r = capped.choose(&TicTacToe, Position::new(&state), &Budget::iterations(3000)).unwrap();
    assert_eq!(r.iterations, 3000);
    assert!(r.depth <= 3, "a 20-node tree cannot be deep: {}", r.depth);
}

#[test]
fn eval_rewards_sum_to_one_for_two_players() {
    let game = ConnectFour::standard();
    let mut state = game.initial_state();
    for mv in [3, 3, 4, 2, 5] {
        game.apply(&mut state, mv);
    }
    let mut r = [0.0; 2];
    eval_to_rewards(&game, &state, 20.0, &mut r);
    assert!((r[0] + r[1] - 1.0).abs() < 1e-9, "{r:?}");
    assert!(r[0] > 0.5, "X has three in a row on the bottom: {r:?}");
}

#[test]
fn beats_random_at_connect_four() {
    use ply::search::baseline::RandomAgent;
    let game = ConnectFour::standard();
    let mut wins = 0;
    for g in 0..2u64 {
        let mut mcts = Mcts::new().with_seed(g);
        let mut random = RandomAgent::new(g);
        let mut state = game.initial_state();
        let mcts_seat = Player::new(g as usize % 2);
        while game.outcome(&state).is_none() {
            let pos = Position::new(&state);
            let mv = if game.to_move(&state) == mcts_seat {
                mcts.choose(&game, pos, &Budget::iterations(400)).unwrap().best_move
            } else {
                random.choose(&game, pos, &Budget::default()).unwrap().best_move
            };
            mcts.observe(&game, &state, mv);
            game.apply(&mut state, mv);
        }
        wins += usize::from(game.outcome(&state) == Some(Outcome::Winner(mcts_seat)));
    }
    assert_eq!(wins, 2);
}

/// A three-player game given as an explicit tree: each inner node names the seat to move and
/// its children; each leaf has a score per seat.
struct TreeGame {
    nodes: Vec<(u8, Vec<u8>, [i32; 3])>,
}

impl TreeGame {
    /// ```text
    /// 0 (seat 0) ─ a: 1 (seat 1) ─ 3: [1, 3, 2]   seat 1 picks this: seat 0 is last
    ///            │               └ 4: [3, 2, 1]
    ///            └ b: 2 (seat 1) ─ 5: [2, 1, 3]
    ///                            └ 6: [2, 3, 1]   seat 1 picks this: seat 0 is second
    /// 7 (seat 2) ─ 8: [1, 2, 3]  seat 2 wins at once
    ///            └ 9 (seat 0) ─ 10: [3, 2, 1]
    ///                         └ 11: [2, 3, 1]
    /// ```
    fn new() -> Self {
        let leaf = |s: [i32; 3]| (0, vec![], s);
        TreeGame {
            nodes: vec![
                (0, vec![1, 2], [0; 3]),
                (1, vec![3, 4], [0; 3]),
                (1, vec![5, 6], [0; 3]),
                leaf([1, 3, 2]),
                leaf([3, 2, 1]),
                leaf([2, 1, 3]),
                leaf([2, 3, 1]),
                (2, vec![8, 9], [0; 3]),
                leaf([1, 2, 3]),
                (0, vec![10, 11], [0; 3]),
                leaf([3, 2, 1]),
                leaf([2, 3, 1]),
            ],
        }
    }
}

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
        Player::new(self.nodes[*s as usize].0 as usize)
    }
    fn generate_moves(&self, s: &u8, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.extend(self.nodes[*s as usize].1.iter().copied());
    }
    fn apply(&self, s: &mut u8, mv: u8) {
        *s = mv;
    }
    fn outcome(&self, s: &u8) -> Option<Outcome> {
        let node = &self.nodes[*s as usize];
        node.1.is_empty().then(|| Outcome::from_scores(&node.2))
    }
    fn evaluate(&self, _s: &u8, _p: Player) -> i32 {
        0
    }
}

#[test]
fn three_players_each_maximise_their_own_reward() {
    let game = TreeGame::new();
    for seed in 0..4 {
        let mut mcts = Mcts::new().with_seed(seed);
        let r = mcts.choose(&game, Position::new(&0), &Budget::iterations(3000)).unwrap();
        assert_eq!(r.best_move, 2, "seed {seed}: seat 1 punishes a");
        assert_eq!(r.pv, vec![2, 6], "seed {seed}");
        let Value::Reward(v) = r.value else { panic!("no solver with 3 players: {:?}", r.value) };
        assert!((v - 0.5).abs() < 0.05, "second place is worth 0.5: {v}");
        let stats = mcts.root_stats(&game);
        let a = stats.iter().find(|s| s.mv == 1).unwrap();
        assert!(a.mean < 0.25, "a leaves seat 0 last: {}", a.mean);

        let r = mcts.choose(&game, Position::new(&7), &Budget::iterations(500)).unwrap();
        assert_eq!(r.best_move, 8, "seed {seed}: seat 2 takes the win");
        assert!(matches!(r.value, Value::Reward(v) if v > 0.9));
    }
}

#[test]
fn outscores_random_players_at_three_heaps() {
    use ply::games::ThreeHeaps;
    use ply::search::baseline::RandomAgent;
    let game = ThreeHeaps::standard();
    let mut total = 0.0;
    let games = 9;
    for g in 0..games {
        let seat = Player::new(g % 3);
        let mut mcts = Mcts::new().with_seed(g as u64);
        let mut random = RandomAgent::new(g as u64);
        let mut state = game.initial_state();
        while game.outcome(&state).is_none() {
            let pos = Position::new(&state);
            let mv = if game.to_move(&state) == seat {
                mcts.choose(&game, pos, &Budget::iterations(300)).unwrap().best_move
            } else {
                random.choose(&game, pos, &Budget::default()).unwrap().best_move
            };
            mcts.observe(&game, &state, mv);
            game.apply(&mut state, mv);
        }
        total += game.outcome(&state).unwrap().reward(seat, 3);
    }
    // Random players average 0.5; MCTS should usually finish first.
    let mean = total / games as f64;
    assert!(mean > 0.75, "mean reward {mean}");
}
