use super::prove::{final_value, to_parent, Prover, WIN};
use super::*;
use crate::game::{Game, Notation, Player};
use crate::games::{CoinRow, ConnectFour, ThreeHeaps, TicTacToe, TurnOrder};

/// The value of `state` by plain minimax over every line, with no table and no pruning.
fn reference<G: Game>(game: &G, state: &G::State) -> i32 {
    let me = game.to_move(state);
    if let Some(outcome) = game.outcome(state) {
        return final_value(&outcome, me);
    }
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let mut best = i32::MIN;
    for &mv in &moves {
        let mut child = state.clone();
        game.apply(&mut child, mv);
        let same = game.to_move(&child) == me;
        best = best.max(to_parent(reference(game, &child), same));
    }
    best
}

fn solve<G: Game>(game: &G, state: &G::State, options: SolveOptions) -> Solution<G::Move>
where
    G::State: Send + Sync,
{
    Solver::new(game, options).unwrap().solve(state, &|| false, &mut |_| {}).unwrap()
}

/// Every position reached by `plies` random moves from the start, `count` times.
fn random_positions<G: Game>(game: &G, count: usize, plies: usize, seed: u64) -> Vec<G::State> {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..count)
        .map(|_| {
            let mut state = game.initial_state();
            for _ in 0..plies {
                let mut moves = MoveList::new();
                game.generate_moves(&state, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(next() % moves.len() as u64) as usize];
                game.apply(&mut state, mv);
            }
            state
        })
        .collect()
}

/// Checks the solver's values and best moves against plain minimax on `states`, with and
/// without a table, on one thread and two, with each move ordering, exact and weak.
fn agrees_with_minimax<G: Game>(game: &G, states: &[G::State])
where
    G::State: Send + Sync + std::fmt::Debug,
{
    let settings = [
        SolveOptions { table_mib: 0, ..SolveOptions::default() },
        SolveOptions { table_mib: 1, threads: 2, ..SolveOptions::default() },
        SolveOptions { table_mib: 1, order_by_eval: false, ..SolveOptions::default() },
        SolveOptions { table_mib: 1, fastest_first: Some(true), ..SolveOptions::default() },
    ];
    for options in settings {
        let mut solver = Solver::new(game, options.clone()).unwrap();
        for state in states {
            let expected = reference(game, state);
            let solution = solver.solve(state, &|| false, &mut |_| {}).unwrap();
            assert_eq!(solution.value, Exact::of(expected), "{state:?} with {options:?}");
            let analysis = solver.analyse(state, &|| false, &mut |_| {}).unwrap();
            let me = game.to_move(state);
            let best: Vec<G::Move> = analysis
                .iter()
                .filter(|(mv, _)| {
                    let mut child = state.clone();
                    game.apply(&mut child, *mv);
                    let same = game.to_move(&child) == me;
                    to_parent(reference(game, &child), same) == expected
                })
                .map(|(mv, _)| *mv)
                .collect();
            assert_eq!(solution.best, best, "{state:?}");
            for (mv, value) in &analysis {
                let mut child = state.clone();
                game.apply(&mut child, *mv);
                let same = game.to_move(&child) == me;
                assert_eq!(*value, Exact::of(to_parent(reference(game, &child), same)));
            }
        }
        let weak = Solver::new(game, SolveOptions { weak: true, ..options }).unwrap().solve(
            &states[0],
            &|| false,
            &mut |_| {},
        );
        let expected = reference(game, &states[0]);
        assert_eq!(weak.unwrap().value, Exact::sign_of(expected));
    }
}

#[test]
fn values_and_best_moves_agree_with_minimax_on_wins_and_losses() {
    let small = ConnectFour::new(4, 4, 3).unwrap();
    agrees_with_minimax(&small, &random_positions(&small, 12, 3, 7));
    agrees_with_minimax(&TicTacToe, &random_positions(&TicTacToe, 10, 2, 3));
}

#[test]
fn margins_agree_with_minimax_with_and_without_extra_turns() {
    let coins = [3, 9, 1, 6, 2, 8, 5, 4, 7, 2];
    for turns in [TurnOrder::Alternate, TurnOrder::EvenAgain, TurnOrder::ThueMorse] {
        let game = CoinRow::new(&coins, turns).unwrap();
        agrees_with_minimax(&game, &random_positions(&game, 6, 2, 11));
    }
}

#[test]
fn tic_tac_toe_distances_are_counted_in_plies() {
    let game = TicTacToe;
    let won_next = game.parse_state("xx.oo....").unwrap();
    let solution = solve(&game, &won_next, SolveOptions::default());
    assert_eq!(solution.value, Exact::Win(Some(1)));
    assert_eq!(solution.best.len(), 1);
    let mut won = won_next;
    game.apply(&mut won, solution.best[0]);
    assert_eq!(game.outcome(&won), Some(crate::game::Outcome::Winner(Player::new(0))));
    assert_eq!(solution.value.to_string(), "win in 1 ply");
    // O to move cannot stop both of X's threats: lost in two plies.
    let lost = game.parse_state("xx.xo..o.").unwrap();
    assert_eq!(game.to_move(&lost), Player::new(1));
    let value = solve(&game, &lost, SolveOptions::default()).value;
    assert_eq!(value, Exact::Loss(Some(2)));
    // A finished game has its value and no best move.
    let over = game.parse_state("xxxoo....").unwrap();
    let solution = solve(&game, &over, SolveOptions::default());
    assert_eq!((solution.value, solution.best.len()), (Exact::Loss(Some(0)), 0));
}

/// Pons' score of a Connect Four value, `stones` being on the board.
fn pons_score(value: Exact, stones: u32) -> i32 {
    match value {
        Exact::Win(Some(d)) => (44 - stones - d) as i32 / 2,
        Exact::Loss(Some(d)) => -((44 - stones - d) as i32 / 2),
        Exact::Draw => 0,
        other => panic!("not a Connect Four value: {other:?}"),
    }
}

#[test]
fn connect_four_scores_match_pons_solver() {
    // Scores printed by Pascal Pons' solver (`c4solver -a`) for these move sequences.
    let game = ConnectFour::standard();
    let cases: [(&str, [i32; 7]); 4] = [
        ("472377177711455513314136", [-1000, 8, 8, 9, 8, 9, -1000]),
        ("337365461633661253", [10, 2, -1000, 11, 11, 2, 2]),
        ("144676211667342364", [2, 2, -10, 2, 2, -5, -8]),
        ("5435553551662677", [-13, -13, -13, -7, -1000, -13, -13]),
    ];
    for (moves, scores) in cases {
        let mut state = game.initial_state();
        for c in moves.bytes() {
            game.apply(&mut state, c - b'1');
        }
        let stones = moves.len() as u32;
        let mut solver = Solver::new(&game, SolveOptions::default()).unwrap();
        let solution = solver.solve(&state, &|| false, &mut |_| {}).unwrap();
        let best = *scores.iter().max().unwrap();
        assert_eq!(pons_score(solution.value, stones), best, "{moves}");
        let analysis = solver.analyse(&state, &|| false, &mut |_| {}).unwrap();
        for (col, value) in analysis {
            if scores[usize::from(col)] == -1000 {
                panic!("{moves}: column {} is full", col + 1);
            }
            let score = -pons_score(
                match value {
                    Exact::Win(d) => Exact::Loss(d.map(|d| d - 1)),
                    Exact::Loss(d) => Exact::Win(d.map(|d| d - 1)),
                    v => v,
                },
                stones + 1,
            );
            assert_eq!(score, scores[usize::from(col)], "{moves} column {}", col + 1);
        }
    }
}

#[test]
fn a_stop_and_too_many_players_are_errors() {
    let game = ConnectFour::standard();
    let mut solver = Solver::new(&game, SolveOptions::default()).unwrap();
    let stopped = solver.solve(&game.initial_state(), &|| true, &mut |_| {});
    assert_eq!(stopped.unwrap_err(), SolveError::Stopped);
    let three = Solver::new(&ThreeHeaps::standard(), SolveOptions::default()).err().unwrap();
    assert_eq!(
        three.to_string(),
        "exact solving handles one- and two-player games; this one has 3"
    );
}

#[test]
fn progress_narrows_the_bounds() {
    let game = ConnectFour::standard();
    let mut state = game.initial_state();
    for c in "337365461633661253".bytes() {
        game.apply(&mut state, c - b'1');
    }
    let mut steps = Vec::new();
    let solution = Solver::new(&game, SolveOptions::default())
        .unwrap()
        .solve(&state, &|| false, &mut |s| steps.push(*s))
        .unwrap();
    assert!(steps.len() >= 2, "{steps:?}");
    let last = steps.last().unwrap();
    assert_eq!((last.lower, last.upper), (Some(solution.value), Some(solution.value)));
    assert!(steps.windows(2).all(|w| w[0].nodes <= w[1].nodes && w[0].tests < w[1].tests));
}

#[test]
fn every_answer_bounds_the_value_or_is_it() {
    // Null windows and wide ones (principal variation search inside the prover): an answer
    // at or beyond an edge of the window bounds the value on that side, one inside is exact.
    let game = ConnectFour::new(4, 4, 3).unwrap();
    let done = AtomicBool::new(false);
    let stop = || false;
    for state in random_positions(&game, 200, 5, 7) {
        if game.outcome(&state).is_some() {
            continue;
        }
        let v = reference(&game, &state);
        let nulls = [v - 2, v - 1, v, v + 1, v + 2, 0, -1, WIN - 10, 10 - WIN].map(|t| (t, t + 1));
        let wide = [(-WIN, WIN), (v - 3, v + 3), (v - 1, v + 1), (v, WIN), (-WIN, v)];
        for (lo, hi) in nulls.into_iter().chain(wide) {
            let mut prover = Prover::new(&game, None, &done, &stop, 0, Vec::new());
            let r = prover.test(&state, lo, hi).unwrap();
            let holds = if r <= lo {
                v <= r
            } else if r >= hi {
                v >= r
            } else {
                v == r
            };
            assert!(holds, "{state:?}: value {v}, window ({lo}, {hi}) answered {r}");
        }
    }
}
