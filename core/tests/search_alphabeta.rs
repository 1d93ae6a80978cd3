//! Alpha-beta: solved positions, agreement of every enhancement with plain minimax, budgets.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ply::games::{ConnectFour, ThreeHeaps, TicTacToe};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::multiplayer::{MultiplayerSearch, OpponentModel};
use ply::search::{Agent, Budget, Position, SearchError, Value};
use ply::testing::agreement::{check_agreement, random_positions};
use ply::zobrist::mix64;
use ply::{Game, MoveList, Notation, Outcome, Player};

/// A random game tree derived from a hash: between 2 and 4 moves per position, moves that
/// commute (so positions transpose), terminal positions, evaluations and quietness all
/// follow from the position's hash. Values are arbitrary but deterministic.
#[derive(Clone, Copy)]
struct HashGame {
    seed: u64,
    max_plies: u8,
    /// Finish with a disc-count style score per player instead of win/draw/loss.
    scores: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct HashState {
    acc: u64,
    plies: u8,
}

impl HashGame {
    fn new(seed: u64, max_plies: u8) -> Self {
        HashGame { seed, max_plies, scores: false }
    }
    fn h(&self, s: &HashState) -> u64 {
        mix64(s.acc ^ self.seed ^ u64::from(s.plies) << 56)
    }
    fn is_over(&self, s: &HashState) -> bool {
        s.plies >= self.max_plies || (s.plies > 0 && self.h(s).is_multiple_of(11))
    }
}

impl Game for HashGame {
    type State = HashState;
    type Move = u8;
    type Score = i32;
    fn initial_state(&self) -> HashState {
        HashState { acc: 0, plies: 0 }
    }
    fn num_players(&self) -> usize {
        2
    }
    fn to_move(&self, s: &HashState) -> Player {
        Player::new(usize::from(s.plies % 2))
    }
    fn generate_moves(&self, s: &HashState, moves: &mut MoveList<u8>) {
        moves.clear();
        if !self.is_over(s) {
            moves.extend(0..(2 + (self.h(s) >> 7) % 3) as u8);
        }
    }
    fn apply(&self, s: &mut HashState, mv: u8) {
        s.acc = s.acc.wrapping_add(1 << (12 * mv));
        s.plies += 1;
    }
    fn outcome(&self, s: &HashState) -> Option<Outcome> {
        if !self.is_over(s) {
            return None;
        }
        let h = self.h(s) >> 20;
        Some(if self.scores {
            Outcome::from_scores(&[(h % 7) as i32, (h / 7 % 7) as i32])
        } else {
            match h % 3 {
                0 => Outcome::Winner(Player(0)),
                1 => Outcome::Winner(Player(1)),
                _ => Outcome::Draw,
            }
        })
    }
    fn evaluate(&self, s: &HashState, p: Player) -> i32 {
        let e = (mix64(self.h(s)) % 201) as i32 - 100;
        if p == Player(0) {
            e
        } else {
            -e
        }
    }
    fn hash(&self, s: &HashState) -> Option<u64> {
        Some(self.h(s))
    }
    fn is_quiet(&self, s: &HashState) -> bool {
        self.h(s) >> 40 & 3 != 0
    }
}

fn choose<G: Game>(engine: &mut AlphaBeta, game: &G, s: &G::State, b: &Budget) -> Value {
    engine.choose(game, Position::new(s), b).unwrap().value
}

#[test]
fn tic_tac_toe_is_a_draw() {
    let game = TicTacToe;
    for options in [AlphaBetaOptions::default(), AlphaBetaOptions::plain()] {
        let mut engine = AlphaBeta::with_options(AlphaBetaOptions { tt_mb: 1, ..options });
        let v = choose(&mut engine, &game, &game.initial_state(), &Budget::depth(9));
        assert_eq!(v, Value::Draw);
    }
}

#[test]
fn finds_forced_wins_and_the_shortest_one() {
    let game = TicTacToe;
    let mut engine = AlphaBeta::new().with_tt_mb(1);
    // x x .      X wins at once on c3, though other moves win later.
    // o o .
    // . . .
    let s = game.parse_state("xx.oo....").unwrap();
    let r = engine.choose(&game, Position::new(&s), &Budget::depth(9)).unwrap();
    assert_eq!(r.value, Value::Win(1));
    assert_eq!(game.format_move(&s, r.best_move), "c3");
    // x o .      corner opening answered on the edge: X forces a win.
    // . . .
    // . . .
    let s = game.parse_state("xo.......").unwrap();
    let r = engine.choose(&game, Position::new(&s), &Budget::depth(9)).unwrap();
    assert!(matches!(r.value, Value::Win(n) if n <= 5), "{:?}", r.value);
    assert_eq!(r.pv[0], r.best_move);
    // Playing the engine against itself from there, X wins.
    let mut state = s;
    while game.outcome(&state).is_none() {
        let mv = engine.choose(&game, Position::new(&state), &Budget::depth(9)).unwrap().best_move;
        game.apply(&mut state, mv);
    }
    assert_eq!(game.outcome(&state), Some(Outcome::Winner(Player(0))));
}

#[test]
fn connect_four_open_three_wins_in_three() {
    let game = ConnectFour::standard();
    // X plays d1 for an open three on the bottom row; O can block only one end.
    let s = game.parse_state("......./......./......./......./.oo..../.xx....").unwrap();
    let mut engine = AlphaBeta::new().with_tt_mb(1);
    let r = engine.choose(&game, Position::new(&s), &Budget::depth(6)).unwrap();
    assert_eq!(r.value, Value::Win(3));
    assert_eq!(game.format_move(&s, r.best_move), game.format_move(&s, 3));
    assert_eq!(r.pv.len(), 3);
    let positions = random_positions(&game, 10, 12, 5);
    check_agreement(&game, &positions, 3).unwrap();
}

#[test]
fn lost_side_chooses_the_longest_loss() {
    let game = TicTacToe;
    // x . x      O to move; X threatens b3 and a2: lost in 2 whatever O does.
    // . o .
    // x . o
    let s = game.parse_state("x.x.o.x.o").unwrap();
    for options in [AlphaBetaOptions::default(), AlphaBetaOptions::plain()] {
        let mut engine = AlphaBeta::with_options(AlphaBetaOptions { tt_mb: 1, ..options });
        assert_eq!(choose(&mut engine, &game, &s, &Budget::depth(9)), Value::Loss(2));
    }
}

#[test]
fn every_enhancement_agrees_with_minimax_on_random_trees() {
    for seed in 0..4 {
        let game = HashGame::new(seed, 12);
        let positions = random_positions(&game, 25, 5, seed);
        assert!(positions.len() > 20);
        for depth in 1..=4 {
            check_agreement(&game, &positions, depth).unwrap();
        }
    }
}

#[test]
fn every_enhancement_agrees_with_minimax_on_tic_tac_toe() {
    let game = TicTacToe;
    let positions = random_positions(&game, 40, 6, 11);
    for depth in 1..=5 {
        check_agreement(&game, &positions, depth).unwrap();
    }
}

#[test]
fn margin_scores_solve_to_the_exact_difference() {
    fn margin(game: &HashGame, s: &HashState) -> i32 {
        if let Some(o) = game.outcome(s) {
            return o.margin(game.to_move(s));
        }
        let mut moves = MoveList::new();
        game.generate_moves(s, &mut moves);
        moves
            .iter()
            .map(|&mv| {
                let mut c = *s;
                game.apply(&mut c, mv);
                -margin(game, &c)
            })
            .max()
            .unwrap()
    }
    for seed in 0..6 {
        let game = HashGame { seed, max_plies: 7, scores: true };
        let s = game.initial_state();
        let options = AlphaBetaOptions { margin_scores: true, tt_mb: 1, ..Default::default() };
        let mut engine = AlphaBeta::with_options(options);
        let r = engine.choose(&game, Position::new(&s), &Budget::depth(20)).unwrap();
        let expected = margin(&game, &s);
        if expected == 0 {
            assert_eq!(r.value, Value::Draw);
        } else {
            assert_eq!(r.value, Value::Heuristic(f64::from(expected)));
        }
    }
}

#[test]
fn repeated_position_scores_as_a_draw() {
    /// Tic-tac-toe with a repetition rule, to feed the search a history.
    struct Repeating;
    impl Game for Repeating {
        type State = <TicTacToe as Game>::State;
        type Move = u8;
        type Score = i32;
        fn initial_state(&self) -> Self::State {
            TicTacToe.initial_state()
        }
        fn num_players(&self) -> usize {
            2
        }
        fn to_move(&self, s: &Self::State) -> Player {
            TicTacToe.to_move(s)
        }
        fn generate_moves(&self, s: &Self::State, m: &mut MoveList<u8>) {
            TicTacToe.generate_moves(s, m)
        }
        fn apply(&self, s: &mut Self::State, mv: u8) {
            TicTacToe.apply(s, mv)
        }
        fn outcome(&self, s: &Self::State) -> Option<Outcome> {
            TicTacToe.outcome(s)
        }
        fn evaluate(&self, s: &Self::State, p: Player) -> i32 {
            TicTacToe.evaluate(s, p)
        }
        fn hash(&self, s: &Self::State) -> Option<u64> {
            TicTacToe.hash(s)
        }
        fn repetition_limit(&self) -> Option<u32> {
            Some(3)
        }
    }
    // x x .      X wins at once on c3, or in 3 plies with b2 (double threat).
    // o . .      With the position after c3 in the game's history, c3 is a draw.
    // . . o
    let s = TicTacToe.parse_state("xx.o....o").unwrap();
    let mut won = s;
    TicTacToe.apply(&mut won, 2);
    let history = [TicTacToe.hash(&won).unwrap(), TicTacToe.hash(&s).unwrap()];
    let mut engine = AlphaBeta::new().with_tt_mb(1);
    let plain = engine.choose(&Repeating, Position::new(&s), &Budget::depth(9)).unwrap();
    assert_eq!(plain.value, Value::Win(1));
    let with = Position::with_history(&s, &history);
    let r = engine.choose(&Repeating, with, &Budget::depth(9)).unwrap();
    assert_eq!((r.best_move, r.value), (4, Value::Win(3)));
}

/// Time limits without measuring time: a time budget that is never reached leaves the search
/// to its other limit, with exactly the result of that limit alone; one that is already spent
/// still completes depth 1 (the clock is read every 1024 nodes, and no iteration starts once
/// the time is up) and goes no deeper.
#[test]
fn time_budget_combines_with_other_limits_and_a_spent_one_stops_after_depth_one() {
    let game = HashGame::new(5, 200);
    let s = game.initial_state();
    let mut engine = AlphaBeta::new().with_tt_mb(1);
    let report = |engine: &mut AlphaBeta, budget: &Budget| {
        let r = engine.choose(&game, Position::new(&s), budget).unwrap();
        (r.best_move, r.value, r.nodes, r.depth, r.pv)
    };
    let nodes = report(&mut engine, &Budget::nodes(20_000));
    let hour = Duration::from_secs(3600);
    assert_eq!(report(&mut engine, &Budget::time(hour).with_nodes(20_000)), nodes);
    let depth = report(&mut engine, &Budget::depth(4));
    assert_eq!(report(&mut engine, &Budget::time(hour).with_depth(4)), depth);
    let spent = report(&mut engine, &Budget::time(Duration::ZERO));
    assert_eq!(spent, report(&mut engine, &Budget::depth(1)));
    assert_eq!(spent.3, 1);
}

#[test]
fn node_budget_is_respected_and_deterministic() {
    let game = HashGame::new(9, 200);
    let s = game.initial_state();
    let mut engine = AlphaBeta::new().with_tt_mb(1);
    let a = engine.choose(&game, Position::new(&s), &Budget::nodes(20_000)).unwrap();
    let b = engine.choose(&game, Position::new(&s), &Budget::nodes(20_000)).unwrap();
    assert!(a.nodes <= 20_000 && a.nodes > 19_000, "{}", a.nodes);
    assert!(a.depth >= 3);
    assert_eq!((a.best_move, a.value, a.nodes, &a.pv), (b.best_move, b.value, b.nodes, &b.pv));
}

/// The stop flag, raised from the search's own progress callback rather than after a sleep:
/// the iteration in progress completes and no other starts.
#[test]
fn stop_flag_ends_the_search() {
    let game = HashGame::new(3, 200);
    let s = game.initial_state();
    let stop = Arc::new(AtomicBool::new(false));
    let setter = stop.clone();
    let mut engine = AlphaBeta::new().with_tt_mb(1).with_info(Box::new(move |info| {
        if info.depth == 3 {
            setter.store(true, Ordering::Relaxed);
        }
    }));
    let budget = Budget::depth(150).with_stop(stop.clone());
    let r = engine.choose(&game, Position::new(&s), &budget).unwrap();
    assert_eq!(r.depth, 3);
    // Raised before the search: the first iteration is all there is.
    assert!(stop.load(Ordering::Relaxed));
    let r = AlphaBeta::new().with_tt_mb(1).choose(&game, Position::new(&s), &budget).unwrap();
    assert_eq!(r.depth, 1);
}

#[test]
fn single_legal_move_is_answered_at_once() {
    let game = TicTacToe;
    let s = game.parse_state("xoxxoo.xo").unwrap();
    let r = AlphaBeta::new().with_tt_mb(1).choose(&game, Position::new(&s), &Budget::depth(9));
    let r = r.unwrap();
    assert_eq!((r.best_move, r.value, r.nodes, r.depth), (6, Value::Unknown, 0, 0));
    let full = game.parse_state("xoxxooxxo").unwrap();
    let err = AlphaBeta::new().choose(&game, Position::new(&full), &Budget::depth(1));
    assert_eq!(err.unwrap_err(), SearchError::NoLegalMoves);
}

#[test]
fn three_players_are_unsupported() {
    let game = ThreeHeaps::standard();
    let r = AlphaBeta::new().with_tt_mb(1).choose(
        &game,
        Position::new(&game.initial_state()),
        &Budget::depth(2),
    );
    assert!(matches!(r, Err(SearchError::Unsupported { .. })));
}

#[test]
fn kept_table_speeds_up_a_repeated_search() {
    let game = ConnectFour::standard();
    let s = game.initial_state();
    let options = AlphaBetaOptions { keep_tt: true, tt_mb: 4, ..Default::default() };
    let mut engine = AlphaBeta::with_options(options);
    let first = engine.choose(&game, Position::new(&s), &Budget::depth(7)).unwrap();
    let again = engine.choose(&game, Position::new(&s), &Budget::depth(7)).unwrap();
    assert!(again.nodes < first.nodes / 2, "{} then {}", first.nodes, again.nodes);
    assert_eq!(again.best_move, first.best_move);
}

/// The table is allocated when the game starts, outside any move's clock: a fresh agent
/// holds none, `new_game` allocates it, and a search then finds it ready.
#[test]
fn memory_is_set_up_at_new_game_not_in_the_first_move() {
    let game = ConnectFour::standard();
    let mut engine = AlphaBeta::new().with_tt_mb(4);
    assert_eq!(engine.table_bytes(), 0);
    Agent::<ConnectFour>::new_game(&mut engine);
    let bytes = engine.table_bytes();
    assert!(bytes > 2 << 20 && bytes <= 4 << 20, "{bytes}");
    let state = game.initial_state();
    engine.choose(&game, Position::new(&state), &Budget::depth(4)).unwrap();
    assert_eq!(engine.table_bytes(), bytes, "the search reused the table");
    let mut multi = MultiplayerSearch::new(OpponentModel::Paranoid).with_tt_mb(2);
    assert_eq!(multi.table_bytes(), 0);
    Agent::<ConnectFour>::new_game(&mut multi);
    assert!(multi.table_bytes() > 1 << 20);
}

/// Lazy SMP: with helper threads the exact values stay exact (any thread's deepest completed
/// iteration answers, and every iteration of an exact search is exact), a node budget is shared
/// out between the threads, and the stop flag still ends the search.
#[test]
fn parallel_search_keeps_exact_values_and_budgets() {
    for threads in [2, 3] {
        for seed in 0..6 {
            let game = HashGame { seed, max_plies: 9, scores: true };
            let s = game.initial_state();
            let exact = AlphaBetaOptions { margin_scores: true, tt_mb: 1, ..Default::default() };
            let one = AlphaBeta::with_options(exact.clone())
                .choose(&game, Position::new(&s), &Budget::depth(20))
                .unwrap();
            let mut engine = AlphaBeta::with_options(AlphaBetaOptions { threads, ..exact });
            let many = engine.choose(&game, Position::new(&s), &Budget::depth(20)).unwrap();
            assert_eq!(many.value, one.value, "seed {seed}, {threads} threads");
        }
        let game = TicTacToe;
        let mut engine = AlphaBeta::new().with_tt_mb(1).with_threads(threads);
        for text in ["xx.oo....", "x.x.o.x.o", "........."] {
            let s = game.parse_state(text).unwrap();
            let serial = AlphaBeta::new().with_tt_mb(1);
            let expected = choose(&mut { serial }, &game, &s, &Budget::depth(9));
            assert_eq!(choose(&mut engine, &game, &s, &Budget::depth(9)), expected, "{text}");
        }
        let game = HashGame::new(9, 200);
        let s = game.initial_state();
        let r = engine.choose(&game, Position::new(&s), &Budget::nodes(20_000)).unwrap();
        // The main thread searches its share (a helper may start late on a busy machine).
        assert!(r.nodes <= 20_000 && r.nodes >= 20_000 / threads as u64, "{}", r.nodes);
        let stop = Arc::new(AtomicBool::new(true));
        let r = engine.choose(&game, Position::new(&s), &Budget::default().with_stop(stop));
        assert_eq!(r.unwrap().depth, 1);
    }
    assert_eq!(AlphaBeta::new().with_threads(2).options().threads, 2);
    assert_eq!(Agent::<TicTacToe>::name(&AlphaBeta::new().with_threads(4)), "alphabeta(threads=4)");
}

/// A parallel search to a fixed depth completes that depth and answers with a legal line.
#[test]
fn parallel_search_answers_with_a_legal_line() {
    let game = ConnectFour::standard();
    let s = game.initial_state();
    let mut engine = AlphaBeta::new().with_tt_mb(4).with_threads(2);
    let r = engine.choose(&game, Position::new(&s), &Budget::depth(9)).unwrap();
    assert_eq!(r.depth, 9);
    assert_eq!(r.pv.first(), Some(&r.best_move));
    let mut state = s;
    for &mv in &r.pv {
        let mut moves = MoveList::new();
        game.generate_moves(&state, &mut moves);
        assert!(moves.contains(&mv), "{mv:?} in {:?}", r.pv);
        game.apply(&mut state, mv);
    }
}

/// A corridor: the first player chooses between a draw (move 1) and a line of `length`
/// forced single moves (move 0) that ends in a win for the first player.
struct Corridor {
    length: u8,
}

impl Game for Corridor {
    /// `(branch, plies)`: branch 0 is the corridor, 1 the draw, 2 the start.
    type State = (u8, u8);
    type Move = u8;
    type Score = i32;
    fn initial_state(&self) -> (u8, u8) {
        (2, 0)
    }
    fn num_players(&self) -> usize {
        2
    }
    fn to_move(&self, s: &(u8, u8)) -> Player {
        Player::new(usize::from(s.1 % 2))
    }
    fn generate_moves(&self, s: &(u8, u8), moves: &mut MoveList<u8>) {
        moves.clear();
        match s.0 {
            2 => moves.extend([0, 1]),
            0 if s.1 <= self.length => moves.push(0),
            _ => {}
        }
    }
    fn apply(&self, s: &mut (u8, u8), mv: u8) {
        if s.0 == 2 {
            s.0 = mv;
        }
        s.1 += 1;
    }
    fn outcome(&self, s: &(u8, u8)) -> Option<Outcome> {
        match s.0 {
            1 => Some(Outcome::Draw),
            0 if s.1 > self.length => Some(Outcome::Winner(Player(0))),
            _ => None,
        }
    }
    fn evaluate(&self, _: &(u8, u8), _: Player) -> i32 {
        0
    }
}

/// Extensions look through forced lines: a depth-2 search sees the win at the end of a
/// corridor of only moves, which it cannot see without them.
#[test]
fn extensions_follow_forced_lines() {
    let game = Corridor { length: 4 };
    let s = game.initial_state();
    let off = AlphaBetaOptions { tt: false, ..AlphaBetaOptions::default() };
    let on = AlphaBetaOptions { extensions: true, ..off.clone() };
    let r = AlphaBeta::with_options(off).choose(&game, Position::new(&s), &Budget::depth(2));
    assert_eq!(r.unwrap().value, Value::Heuristic(0.0));
    let r = AlphaBeta::with_options(on).choose(&game, Position::new(&s), &Budget::depth(2));
    let r = r.unwrap();
    assert_eq!((r.value, r.best_move, r.depth), (Value::Win(5), 0, 2));
}

/// Late-move reductions, null-move pruning and IID keep proven results on small games, and a
/// game that declines null moves (the default) is searched the same with pruning on.
#[test]
fn selective_search_keeps_proven_results() {
    let all = AlphaBetaOptions {
        lmr: true,
        null_move: true,
        iid: true,
        extensions: true,
        tt_mb: 1,
        ..AlphaBetaOptions::default()
    };
    let game = TicTacToe;
    let mut engine = AlphaBeta::with_options(all.clone());
    // Reduced lines end at the horizon, so the draw may show as an even evaluation.
    let v = choose(&mut engine, &game, &game.initial_state(), &Budget::depth(9));
    assert!(matches!(v, Value::Draw | Value::Heuristic(0.0)), "{v:?}");
    let s = game.parse_state("xx.oo....").unwrap();
    assert_eq!(choose(&mut engine, &game, &s, &Budget::depth(9)), Value::Win(1));
    let s = game.parse_state("x.x.o.x.o").unwrap();
    assert_eq!(choose(&mut engine, &game, &s, &Budget::depth(9)), Value::Loss(2));
    let c4 = ConnectFour::standard();
    let s = c4.parse_state("......./......./......./......./.oo..../.xx....").unwrap();
    assert_eq!(choose(&mut engine, &c4, &s, &Budget::depth(6)), Value::Win(3));

    let null = AlphaBetaOptions { null_move: true, ..AlphaBetaOptions::default() };
    let s = c4.initial_state();
    let a = AlphaBeta::new().choose(&c4, Position::new(&s), &Budget::depth(8)).unwrap();
    let b = AlphaBeta::with_options(null).choose(&c4, Position::new(&s), &Budget::depth(8));
    assert_eq!(a.nodes, b.unwrap().nodes);
}

/// A forward-pruning option, set by `set(options, margin)` (margin 0 turns it off), keeps
/// proven results on small games (it never prunes with a proven bound) and prunes the tree of
/// a deeper search.
fn pruning_keeps_proven_results_and_prunes(what: &str, set: fn(&mut AlphaBetaOptions, f64)) {
    let with = |margin: f64| {
        let mut options = AlphaBetaOptions { tt_mb: 1, ..AlphaBetaOptions::default() };
        set(&mut options, margin);
        AlphaBeta::with_options(options)
    };
    let c4 = ConnectFour::standard();
    let s = c4.parse_state("......./......./......./......./.oo..../.xx....").unwrap();
    assert_eq!(choose(&mut with(20.0), &c4, &s, &Budget::depth(6)), Value::Win(3), "{what}");
    let ttt = TicTacToe;
    let s = ttt.parse_state("x.x.o.x.o").unwrap();
    assert_eq!(choose(&mut with(1.0), &ttt, &s, &Budget::depth(9)), Value::Loss(2), "{what}");

    let start = c4.initial_state();
    let nodes = |engine: &mut AlphaBeta| {
        engine.choose(&c4, Position::new(&start), &Budget::depth(10)).unwrap().nodes
    };
    let off = nodes(&mut with(0.0));
    let pruned = nodes(&mut with(5.0));
    assert!(pruned < off, "{what} searched {pruned} nodes, without it {off}");
}

#[test]
fn probcut_keeps_proven_results_and_prunes() {
    pruning_keeps_proven_results_and_prunes("ProbCut", |o, margin| o.probcut = margin);
}

#[test]
fn probcut_in_proportion_keeps_proven_results_and_prunes() {
    pruning_keeps_proven_results_and_prunes("ProbCut in proportion", |o, margin| {
        (o.probcut, o.probcut_ratio) = (margin, 0.4);
    });
}

#[test]
fn futility_keeps_proven_results_and_prunes() {
    pruning_keeps_proven_results_and_prunes("futility pruning", |o, margin| o.futility = margin);
}

/// Late-move reductions that grow with depth and move number keep proven results and search
/// fewer nodes than the fixed rule.
#[test]
fn growing_reductions_keep_proven_results_and_reduce_more() {
    let with = |lmr_log: f64| {
        AlphaBeta::with_options(AlphaBetaOptions {
            tt_mb: 1,
            lmr: true,
            lmr_log,
            ..AlphaBetaOptions::default()
        })
    };
    let c4 = ConnectFour::standard();
    let s = c4.parse_state("......./......./......./......./.oo..../.xx....").unwrap();
    assert_eq!(choose(&mut with(1.0), &c4, &s, &Budget::depth(6)), Value::Win(3));
    let ttt = TicTacToe;
    let s = ttt.parse_state("x.x.o.x.o").unwrap();
    assert_eq!(choose(&mut with(1.0), &ttt, &s, &Budget::depth(9)), Value::Loss(2));
    let start = c4.initial_state();
    let nodes = |mut engine: AlphaBeta| {
        engine.choose(&c4, Position::new(&start), &Budget::depth(12)).unwrap().nodes
    };
    let (fixed, growing) = (nodes(with(0.0)), nodes(with(1.0)));
    assert!(growing < fixed, "growing reductions searched {growing} nodes, the fixed rule {fixed}");
}

/// Reducing moves into loud positions too keeps proven results and searches fewer nodes than
/// reducing only moves into quiet ones (a quarter of the hash game's positions are loud).
#[test]
fn reductions_of_loud_moves_keep_proven_results_and_reduce_more() {
    let with = |lmr_loud: bool| {
        AlphaBeta::with_options(AlphaBetaOptions {
            tt_mb: 1,
            lmr: true,
            lmr_loud,
            ..AlphaBetaOptions::default()
        })
    };
    let ttt = TicTacToe;
    let s = ttt.parse_state("x.x.o.x.o").unwrap();
    assert_eq!(choose(&mut with(true), &ttt, &s, &Budget::depth(9)), Value::Loss(2));
    let game = HashGame::new(7, 30);
    let start = game.initial_state();
    let nodes = |mut engine: AlphaBeta| {
        engine.choose(&game, Position::new(&start), &Budget::depth(14)).unwrap().nodes
    };
    let (quiet, loud) = (nodes(with(false)), nodes(with(true)));
    assert!(loud < quiet, "reducing loud moves searched {loud} nodes, quiet ones only {quiet}");
}

/// Reducing from the second move outside the principal variation (`lmr_first` 1, as Scan
/// 2.0 does) keeps proven results and searches fewer nodes than from the fourth.
#[test]
fn earlier_reductions_keep_proven_results_and_reduce_more() {
    let with = |lmr_first: usize| {
        AlphaBeta::with_options(AlphaBetaOptions {
            tt_mb: 1,
            lmr: true,
            lmr_first,
            ..AlphaBetaOptions::default()
        })
    };
    let ttt = TicTacToe;
    let s = ttt.parse_state("x.x.o.x.o").unwrap();
    assert_eq!(choose(&mut with(1), &ttt, &s, &Budget::depth(9)), Value::Loss(2));
    let c4 = ConnectFour::standard();
    let s = c4.parse_state("......./......./......./......./.oo..../.xx....").unwrap();
    assert_eq!(choose(&mut with(1), &c4, &s, &Budget::depth(6)), Value::Win(3));
    let start = c4.initial_state();
    let nodes = |mut engine: AlphaBeta| {
        engine.choose(&c4, Position::new(&start), &Budget::depth(12)).unwrap().nodes
    };
    let (fourth, second) = (nodes(with(3)), nodes(with(1)));
    assert!(
        second < fourth,
        "reducing from the second move searched {second} nodes, from the fourth {fourth}"
    );
}

/// A search cut short after a root move that beat the previous best still reports that
/// move's line (an engine proposes its second move as the reply to ponder on).
#[test]
fn cut_short_search_keeps_the_line_of_its_best_move() {
    let game = ConnectFour::standard();
    let s = game.initial_state();
    for nodes in [3_000, 10_000, 30_000, 100_000] {
        let mut engine = AlphaBeta::new().with_tt_mb(4);
        let r = engine.choose(&game, Position::new(&s), &Budget::nodes(nodes)).unwrap();
        assert_eq!(r.pv.first(), Some(&r.best_move));
        assert!(r.pv.len() >= 2, "{nodes} nodes: {:?}", r.pv);
    }
}

/// The counts of a search add up: every kind of node is at most the nodes searched, together
/// too; each pruning counts only when it is on, its cuts never past its tries; and they grow
/// from one iteration to the next.
#[test]
fn search_counts_add_up_and_follow_the_options() {
    let run = |options: AlphaBetaOptions| {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let mut engine = AlphaBeta::with_options(options).with_info(Box::new(move |info| {
            sink.lock().unwrap().push((info.nodes, info.counts));
        }));
        let game = HashGame::new(7, 30);
        let report = engine.choose(&game, Position::new(&game.initial_state()), &Budget::depth(10));
        let seen = seen.lock().unwrap().clone();
        (report.unwrap().nodes, seen)
    };
    let plain = AlphaBetaOptions { tt_mb: 1, ..AlphaBetaOptions::default() };
    let (nodes, iterations) = run(plain.clone());
    assert_eq!(iterations.len(), 10);
    for pair in iterations.windows(2) {
        let ((n0, c0), (n1, c1)) = (pair[0], pair[1]);
        assert!(n0 < n1 && c0.interior < c1.interior && c0.leaves < c1.leaves, "{c0:?} {c1:?}");
    }
    let (last_nodes, c) = *iterations.last().unwrap();
    assert_eq!(last_nodes, nodes);
    assert!(c.interior > 0 && c.leaves > 0 && c.quiescence > 0 && c.table_cuts > 0, "{c:?}");
    assert!(c.interior + c.quiescence + c.leaves + c.solved <= nodes, "{c:?} of {nodes}");
    assert!(c.first_cutoffs > 0 && c.first_cutoffs <= c.cutoffs, "{c:?}");
    assert!(c.widened <= c.null_windows, "{c:?}");
    assert_eq!((c.reduced, c.probcut_tries, c.null_tries, c.futile), (0, 0, 0, 0), "{c:?}");

    let pruned = AlphaBetaOptions { lmr: true, probcut: 20.0, futility: 20.0, ..plain };
    let (nodes, iterations) = run(pruned);
    let c = iterations.last().unwrap().1;
    assert!(c.reduced > 0 && c.reduced_again <= c.reduced, "{c:?}");
    assert!(c.probcut_tries > 0 && c.probcut_cuts <= c.probcut_tries, "{c:?}");
    assert!(c.futile > 0, "{c:?}");
    assert!(c.interior + c.quiescence + c.leaves + c.solved <= nodes, "{c:?} of {nodes}");
}
