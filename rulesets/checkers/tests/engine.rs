//! The seed's `play` and the evaluation the engine searches with.

use std::time::Duration;

use ply::search::alphabeta::AlphaBeta;
use ply::search::{Agent, Budget, Position, Value};
use ply::{Game, Notation, Player};
use ply_checkers::seed::{allowed_moves, play};
use ply_checkers::{EnglishCheckers, Rules};

#[test]
fn play_returns_one_of_the_allowed_moves() {
    let boards: [&[&str]; 2] = [
        &[
            "_b_b_b_b", "b_b_b_b_", "_b_b_b_b", "________", "________", "w_w_w_w_", "_w_w_w_w",
            "w_w_w_w_",
        ],
        // The seed's first example, with pieces on both colours of square.
        &[
            "________", "__b_____", "_w_w____", "________", "_w______", "_____b__", "____w___",
            "___w____",
        ],
    ];
    for board in boards {
        for color in ['b', 'w'] {
            let mv = play(board, color, Duration::from_millis(30)).unwrap();
            assert!(allowed_moves(board, color).unwrap().contains(&mv), "{mv:?}");
        }
    }
    assert!(play(&["____", "____", "____", "w___"], 'b', Duration::from_millis(10)).is_err());
}

#[test]
fn engine_takes_the_double_capture_that_wins() {
    // Black to move: 14x23x32 takes both white men and wins at once; 14x21... does not exist,
    // so the engine must see the win (proven in one ply).
    let game = EnglishCheckers::new(8, Rules::Deepomatic).unwrap();
    let state = game.parse_state("B:W18,27:B14,1").unwrap();
    let mut engine = AlphaBeta::new().with_tt_mb(1);
    let report = engine.choose(&game, Position::new(&state), &Budget::depth(4)).unwrap();
    assert_eq!(game.format_move(&state, report.best_move), "14x23x32");
    // With a single legal move the engine answers at once; the line still wins.
    let mut after = state;
    game.apply(&mut after, report.best_move);
    assert!(game.outcome(&after).is_some());
    assert!(matches!(report.value, Value::Win(_) | Value::Unknown), "{:?}", report.value);
}

/// The position seen from the other side: square `n` becomes `33 - n`, colours swap.
fn flip(fen: &str) -> String {
    let setup: ply_checkers::Setup = fen.parse().unwrap();
    ply_checkers::Setup {
        to_move: setup.to_move.opponent(),
        pieces: setup
            .pieces
            .iter()
            .map(|&(sq, p)| {
                (33 - sq, ply_checkers::Piece { color: p.color.opponent(), king: p.king })
            })
            .collect(),
        quiet_plies: setup.quiet_plies,
    }
    .to_string()
}

#[test]
fn evaluation_is_zero_sum_and_colour_symmetric() {
    let game = EnglishCheckers::new(8, Rules::Deepomatic).unwrap();
    let start = game.initial_state();
    assert_eq!(game.evaluate(&start, Player(0)), 0, "the start is symmetric");
    assert_eq!(flip("B:W18,K26:B1"), "W:W32:BK7,15");
    for fen in ["B:W18,K26,27,28:B1,3,K10,14", "W:WK3,10,11:B5,K14,K23", "B:W21,22,30:B9,13"] {
        let a = game.parse_state(fen).unwrap();
        let b = game.parse_state(&flip(fen)).unwrap();
        assert_eq!(game.evaluate(&a, Player(0)), -game.evaluate(&a, Player(1)));
        // The same position seen from the other side of the board.
        assert_eq!(game.evaluate(&a, Player(0)), game.evaluate(&b, Player(1)), "{fen}");
    }
}

#[test]
fn the_threat_extension_sees_a_capture_the_opponent_cannot_stop() {
    use ply::search::alphabeta::AlphaBetaOptions;
    use ply_checkers::eval::Classic;
    use ply_checkers::Weights;
    // Black's 9-13 attacks the man on 17, which cannot move (13 and 14 are taken) and whose
    // landing square 22 no white man can reach; 4-8 leaves 9 to 14x5. In a one-ply search
    // the position after 9-13 is quiet, and the capture comes one ply past the horizon.
    let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
    let state = game.parse_state("B:W14,17,18:B4,9").unwrap();
    let attack = game.parse_move(&state, "9-13").unwrap();
    let mut after = state;
    game.apply(&mut after, attack);
    assert!(game.is_quiet(&after) && game.is_threatened(&after));
    assert!(!game.is_threatened(&game.initial_state()));
    let search = |threats: bool| {
        let options = AlphaBetaOptions { threats, ..AlphaBetaOptions::default() };
        let mut engine =
            AlphaBeta::with_options(options).with_evaluator(Classic::new(Weights::material_only()));
        engine.choose(&game, Position::new(&state), &Budget::depth(1)).unwrap()
    };
    // A man down; with the threat seen, 9-13 wins it back.
    assert_eq!(search(false).value, Value::Heuristic(-100.0));
    let report = search(true);
    assert_eq!((report.value, report.best_move), (Value::Heuristic(0.0), attack));
}
