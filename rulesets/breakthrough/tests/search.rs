//! The framework's searches play Breakthrough: alpha-beta finds a win in one move, stops a
//! loss in one, and MCTS finds the same win.

use ply::search::alphabeta::AlphaBeta;
use ply::search::mcts::Mcts;
use ply::search::{Agent, Budget, Position, Value};
use ply::Notation;
use ply_breakthrough::Breakthrough;

#[test]
fn alpha_beta_finds_a_win_in_one() {
    // 8 . . . . . . . .
    // 7 . . . . . . W .    g7 steps onto the far row; Black would win next move with b2-b1
    // 2 . B . . . . . .
    let game = Breakthrough::standard();
    let state = game
        .parse_state("......../......W./......../..BBB.../...WW.../......../.B....../........ w")
        .unwrap();
    let report = AlphaBeta::new().choose(&game, Position::new(&state), &Budget::depth(3)).unwrap();
    assert_eq!(report.value, Value::Win(1));
    let text = game.format_move(&state, report.best_move);
    assert!(["g7-f8", "g7-g8", "g7-h8"].contains(&text.as_str()), "{text}");
}

#[test]
fn alpha_beta_stops_a_pawn_about_to_break_through() {
    // 2 . . . B . . . .    Black's d2 reaches row 1 next move unless c1 or e1 takes it.
    // 1 . . W W W . . .
    let game = Breakthrough::standard();
    let state = game
        .parse_state("B......./B......./......../......../......../......../...B..../..WWW... w")
        .unwrap();
    let report = AlphaBeta::new().choose(&game, Position::new(&state), &Budget::depth(4)).unwrap();
    let text = game.format_move(&state, report.best_move);
    assert!(["c1xd2", "e1xd2"].contains(&text.as_str()), "{text}");
}

#[test]
fn mcts_finds_the_win_in_one() {
    let game = Breakthrough::standard();
    let state = game
        .parse_state("......../......W./......../..BBB.../...WW.../......../.B....../........ w")
        .unwrap();
    let report =
        Mcts::new().choose(&game, Position::new(&state), &Budget::iterations(2000)).unwrap();
    assert_eq!(game.format_move(&state, report.best_move).as_bytes()[4], b'8');
}
