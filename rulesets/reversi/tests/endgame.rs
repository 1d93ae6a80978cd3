//! Exact endgames against published solutions: the first positions of the FFO endgame test
//! suite (from `problem/fforum-1-19.obf` of Edax 4.6, whose lines carry the best move's exact
//! score), solved by alpha-beta's endgame mode with the bitboard solver under it, and by the
//! bare solver alone. FFO scores give the empty squares of a finished game to the winner; these
//! positions end with a full board under perfect play, so the margins are equal.

use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::{Agent, Budget, Position, Value};
use ply::{Game, Notation, SolverBudget};
use ply_reversi::{endgame, Reversi, ReversiState};

/// FFO positions 1-4 (14 empty squares, Black to move) and their exact scores.
const FFO: [(&str, i32); 4] = [
    ("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--", 18),
    ("-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX-", 10),
    ("----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX", 2),
    ("-XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO-", 0),
];

fn position(game: &Reversi, board: &str) -> ReversiState {
    let squares: String = board
        .chars()
        .map(|c| match c {
            'X' => '1',
            'O' => '2',
            _ => '.',
        })
        .collect();
    let rows: Vec<&str> = (0..8).map(|r| &squares[r * 8..r * 8 + 8]).collect();
    game.parse_state(&format!("{} 1", rows.join("/"))).expect("a valid position")
}

#[test]
fn alphabeta_endgame_mode_finds_the_published_scores() {
    let game = Reversi::new(8, 2).unwrap();
    for (board, score) in FFO {
        let state = position(&game, board);
        let mut engine = AlphaBeta::with_options(AlphaBetaOptions::endgame());
        let budget = Budget::depth(state.empties() + 2);
        let report = engine.choose(&game, Position::new(&state), &budget).unwrap();
        let value = match report.value {
            Value::Heuristic(v) => v as i32,
            Value::Draw => 0,
            other => panic!("{board}: unexpected value {other:?}"),
        };
        assert_eq!(value, score, "{board}");
    }
}

#[test]
fn the_bare_solver_finds_them_too_and_bounds_them_in_narrow_windows() {
    let game = Reversi::new(8, 2).unwrap();
    for (board, score) in FFO {
        let state = position(&game, board);
        let (p, o) = endgame::bitboards(&state).unwrap();
        let mut nodes = SolverBudget::unlimited();
        assert_eq!(endgame::solve(p, o, -64, 64, &mut nodes), Some(score), "{board}");
        assert!(endgame::solve(p, o, score, score + 1, &mut nodes).unwrap() <= score);
        assert!(endgame::solve(p, o, score - 1, score, &mut nodes).unwrap() >= score);
    }
}

#[test]
fn the_solver_is_off_for_other_boards_and_when_asked() {
    let mut nodes = SolverBudget::unlimited();
    let three = Reversi::new(9, 3).unwrap();
    assert_eq!(three.solve_endgame(&three.initial_state(), -64, 64, &mut nodes), None);
    let game = Reversi::new(8, 2).unwrap();
    let state = position(&game, FFO[0].0);
    // 14 empty squares: more than the default answers for.
    assert_eq!(game.solve_endgame(&state, -64, 64, &mut nodes), None);
    let game = game.with_endgame_empties(14);
    assert_eq!(
        game.solve_endgame(&state, -64, 64, &mut nodes),
        Some(ply::Solved::Margin(FFO[0].1))
    );
    let off = game.clone().with_endgame_empties(0);
    assert_eq!(off.solve_endgame(&state, -64, 64, &mut nodes), None);
    assert!(nodes.nodes() > 0);
}

/// With margin bounds (for exact solving) a window outside the disc difference's range is
/// answered at once with the range's end; without them (alpha-beta's heuristic scores) it is
/// not, and positions with many empty squares stay unanswered either way inside the range.
#[test]
fn margin_bounds_answer_windows_outside_the_range_only_when_asked() {
    let plain = Reversi::new(8, 2).unwrap();
    let bounded = plain.clone().with_margin_bounds(true);
    let start = plain.initial_state();
    let stop = || false;
    let ask = |game: &Reversi, alpha: i32, beta: i32| {
        game.solve_endgame(&start, alpha, beta, &mut SolverBudget::new(&stop))
    };
    assert_eq!(ask(&bounded, -100, -64), Some(ply::Solved::Margin(-64)));
    assert_eq!(ask(&bounded, 64, 65), Some(ply::Solved::Margin(64)));
    assert_eq!(ask(&bounded, -1, 1), None);
    assert_eq!(ask(&plain, -100, -64), None);
    assert_eq!(ask(&plain, 64, 65), None);
}
