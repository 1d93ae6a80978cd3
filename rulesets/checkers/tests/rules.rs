//! One test per rule of the seed, each with its position drawn as the seed's row strings
//! (row 0 at the top is Black's side; Black moves down, White up).

use ply::{Game, Outcome, Player, Record};
use ply_checkers::seed::{allowed_moves, allowed_moves_with, apply_move, parse_board};
use ply_checkers::{BoardError, DrawRules, EnglishCheckers, Rules};

type Path = Vec<(usize, usize)>;

fn sorted(mut moves: Vec<Path>) -> Vec<Path> {
    moves.sort();
    moves
}

#[test]
fn men_move_forward_only() {
    // Black's man on (3,2) steps down; White's man on (5,6) steps up.
    let quiet = [
        "________", //
        "________", //
        "________", //
        "__b_____", //
        "________", //
        "______w_", //
        "________", //
        "________",
    ];
    assert_eq!(
        sorted(allowed_moves(&quiet, 'b').unwrap()),
        vec![vec![(3, 2), (4, 1)], vec![(3, 2), (4, 3)]]
    );
    assert_eq!(
        sorted(allowed_moves(&quiet, 'w').unwrap()),
        vec![vec![(5, 6), (4, 5)], vec![(5, 6), (4, 7)]]
    );
}

#[test]
fn men_capture_forward_only() {
    let board = [
        "________", //
        "________", //
        "_w______", // white man behind black's man: not capturable by a man
        "__b_____", //
        "________", //
        "________", //
        "________", //
        "________",
    ];
    assert_eq!(
        sorted(allowed_moves(&board, 'b').unwrap()),
        vec![vec![(3, 2), (4, 1)], vec![(3, 2), (4, 3)]]
    );
    // White's man is behind nothing: it may capture forward (up) over (3,2)? No: it stands
    // above the black man, so (3,2) is behind it.
    assert_eq!(
        sorted(allowed_moves(&board, 'w').unwrap()),
        vec![vec![(2, 1), (1, 0)], vec![(2, 1), (1, 2)]]
    );
}

#[test]
fn kings_move_one_square_in_every_direction() {
    let board = [
        "________", //
        "________", //
        "________", //
        "__B_____", //
        "________", //
        "________", //
        "________", //
        "________",
    ];
    assert_eq!(
        sorted(allowed_moves(&board, 'b').unwrap()),
        vec![
            vec![(3, 2), (2, 1)],
            vec![(3, 2), (2, 3)],
            vec![(3, 2), (4, 1)],
            vec![(3, 2), (4, 3)]
        ]
    );
}

#[test]
fn kings_capture_backwards_but_only_adjacent_pieces() {
    let board = [
        "________", //
        "w_______", // (1,0): two squares away, not capturable (no flying kings)
        "________", //
        "__B_w___", //
        "________", //
        "________", //
        "________", //
        "________",
    ];
    let near = [
        "________", //
        "________", //
        "_w______", // (2,1): next to the king, behind it for a black piece
        "__B_____", //
        "________", //
        "________", //
        "________", //
        "________",
    ];
    assert_eq!(allowed_moves(&board, 'b').unwrap().len(), 4);
    assert_eq!(allowed_moves(&near, 'b').unwrap(), vec![vec![(3, 2), (1, 0)]]);
}

#[test]
fn capture_is_mandatory() {
    let board = [
        "_b______", // this man could step, but the other one can capture
        "________", //
        "________", //
        "______b_", //
        "_____w__", //
        "________", //
        "________", //
        "________",
    ];
    assert_eq!(allowed_moves(&board, 'b').unwrap(), vec![vec![(3, 6), (5, 4)]]);
}

#[test]
fn capture_sequences_are_maximal_but_any_may_be_chosen() {
    let board = [
        "________", //
        "____b___", // (1,4)
        "___w_w__", //
        "________", //
        "_____w__", // a second jump after (2,3)? no: after (2,3) the man is on (3,2)
        "________", //
        "________", //
        "________",
    ];
    // Over (2,5) to (3,6) ends; over (2,3) to (3,2) ends; over (2,5) then (4,5) is not a
    // diagonal continuation from (3,6) (it would be over (4,5) to (5,4)): that one continues.
    let moves = sorted(allowed_moves(&board, 'b').unwrap());
    assert_eq!(moves, vec![vec![(1, 4), (3, 2)], vec![(1, 4), (3, 6), (5, 4)]]);
    assert!(!moves.contains(&vec![(1, 4), (3, 6)]), "a jump was still available");
}

#[test]
fn crowned_man_keeps_capturing_backwards_under_deepomatic_only() {
    let board = [
        "________", //
        "__b_b___", //
        "_w______", //
        "________", //
        "________", //
        "________", //
        "________", //
        "________",
    ];
    assert_eq!(
        allowed_moves_with(Rules::Deepomatic, &board, 'w').unwrap(),
        vec![vec![(2, 1), (0, 3), (2, 5)]]
    );
    assert_eq!(
        allowed_moves_with(Rules::Standard, &board, 'w').unwrap(),
        vec![vec![(2, 1), (0, 3)]]
    );
    let after =
        ply_checkers::seed::apply_move_with(Rules::Standard, &board, 'w', &[(2, 1), (0, 3)])
            .unwrap();
    assert_eq!(after[0], "___W____");
    assert_eq!(after[1], "____b___");
}

#[test]
fn a_king_may_pass_through_its_start_square() {
    // The king on (3,2) can jump round the four men around (4,4)'s neighbours and come back
    // through (3,2) to take (2,1) last.
    let board = [
        "________", //
        "________", //
        "_w_w_w__", // (2,1), (2,3), (2,5)
        "__B_____", // king at (3,2)
        "___w_w__", // (4,3), (4,5)
        "________", //
        "________", //
        "________",
    ];
    let moves = allowed_moves(&board, 'b').unwrap();
    let round = vec![(3, 2), (5, 4), (3, 6), (1, 4), (3, 2), (1, 0)];
    assert!(moves.contains(&round), "{moves:?}");
    let after = apply_move(&board, 'b', &round).unwrap();
    assert_eq!(after.concat().matches('w').count(), 0);
    assert_eq!(after[1], "B_______");
}

#[test]
fn a_crowned_man_may_pass_through_its_start_square() {
    // White's man on (4,3) jumps (3,2) and (1,2) to be crowned on (0,3), then as a king takes
    // (1,4) and (3,4), landing on its start square (4,3), and (5,2) last.
    let board = [
        "________", //
        "__b_b___", //
        "________", //
        "__b_b___", //
        "___w____", //
        "__b_____", //
        "________", //
        "________",
    ];
    let deep = allowed_moves_with(Rules::Deepomatic, &board, 'w').unwrap();
    let through = vec![(4, 3), (2, 1), (0, 3), (2, 5), (4, 3), (6, 1)];
    assert!(deep.contains(&through), "{deep:?}");
    assert!(deep.iter().all(|m| m.len() == 6), "every sequence takes all five: {deep:?}");
    let standard = allowed_moves_with(Rules::Standard, &board, 'w').unwrap();
    assert!(standard.contains(&vec![(4, 3), (2, 1), (0, 3)]), "{standard:?}");
    assert!(standard.iter().all(|m| m.len() == 3), "{standard:?}");
}

#[test]
fn distinct_paths_with_the_same_ends_and_captures_are_distinct_moves() {
    // The king on (3,2) can go round the square of four men either way and end where it
    // started: same start, end and captured set, two moves.
    let board = [
        "________", //
        "________", //
        "___w_w__", //
        "__B_____", //
        "___w_w__", //
        "________", //
        "________", //
        "________",
    ];
    let moves = sorted(allowed_moves_with(Rules::Standard, &board, 'b').unwrap());
    assert_eq!(
        moves,
        vec![
            vec![(3, 2), (1, 4), (3, 6), (5, 4), (3, 2)],
            vec![(3, 2), (5, 4), (3, 6), (1, 4), (3, 2)]
        ]
    );
    let (game, state) = parse_board(&board, 'b', Rules::Standard).unwrap();
    let mut list = ply::MoveList::new();
    game.generate_moves(&state, &mut list);
    assert_eq!(list.len(), 2);
    assert_ne!(list[0], list[1]);
    assert_eq!((list[0].from(), list[0].to()), (list[1].from(), list[1].to()));
    let mut after = state;
    game.apply(&mut after, list[1]);
    assert_eq!(after.pieces(ply_checkers::Color::White), 0);
}

#[test]
fn pieces_never_wrap_round_the_board_edge() {
    for size in (4..=16).step_by(2) {
        // A black man on the right edge of row 1 with a white man "beyond" the edge in the
        // index order: only the leftward step exists.
        let mut rows = vec![vec!['_'; size]; size];
        rows[1][size - 2] = 'b'; // (1, N-2) is dark: 1 + N - 2 is odd
        rows[2][size - 1] = 'w';
        rows[size - 1][0] = 'w';
        let board: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
        let moves = sorted(allowed_moves(&board, 'b').unwrap());
        assert_eq!(moves, vec![vec![(1, size - 2), (2, size - 3)]], "{size}x{size}");
    }
}

#[test]
fn every_even_size_from_4_to_16_is_playable() {
    for size in (4..=16).step_by(2) {
        let game = EnglishCheckers::new(size, Rules::Deepomatic).unwrap();
        let s = game.initial_state();
        let rows = size / 2 - 1;
        assert_eq!(s.pieces(ply_checkers::Color::Black).count_ones() as usize, rows * size / 2);
        assert_eq!(s.pieces(ply_checkers::Color::White).count_ones() as usize, rows * size / 2);
        let mut record = Record::new(&game, s);
        let mut plies = 0;
        while record.outcome().is_none() && plies < 2000 {
            let moves = record.legal_moves();
            record.play(moves[plies * 7 % moves.len()]).unwrap();
            plies += 1;
        }
        assert!(record.outcome().is_some(), "{size}x{size} game did not end");
    }
    for bad in [0, 2, 3, 7, 9, 18] {
        assert!(EnglishCheckers::new(bad, Rules::Standard).is_err(), "{bad}");
    }
}

#[test]
fn no_pieces_or_no_moves_loses() {
    // Black has no piece left: Black, to move, has lost.
    let no_black = [
        "________", //
        "________", //
        "________", //
        "________", //
        "________", //
        "________", //
        "________", //
        "w_______",
    ];
    let (game, state) = parse_board(&no_black, 'b', Rules::Deepomatic).unwrap();
    assert_eq!(game.outcome(&state), Some(Outcome::Winner(Player(1))));
    // White's only man on (3,0) faces (2,1), and the landing square (1,2) is taken: no step,
    // no jump.
    let stuck = [
        "____", //
        "__b_", //
        "_b__", //
        "w___",
    ];
    let (game, state) = parse_board(&stuck, 'w', Rules::Deepomatic).unwrap();
    assert!(allowed_moves(&stuck, 'w').unwrap().is_empty());
    assert_eq!(game.outcome(&state), Some(Outcome::Winner(Player(0))));
    assert!(game.outcome(&parse_board(&stuck, 'b', Rules::Deepomatic).unwrap().1).is_none());
}

#[test]
fn forty_moves_each_without_capture_or_man_move_is_a_draw() {
    let game = EnglishCheckers::new(8, Rules::Deepomatic).unwrap();
    let mut record = Record::new(&game, ply::Notation::parse_state(&game, "B:WK32:BK1").unwrap());
    // Kings walk without ever repeating a position for long enough? Repetition comes first
    // here, so switch repetition off and keep the move rule.
    let no_rep =
        game.clone().with_draw_rules(DrawRules { repetition: None, quiet_plies: Some(80) });
    let mut state = ply::Notation::parse_state(&no_rep, "B:WK32:BK1").unwrap();
    let mut plies = 0;
    while no_rep.outcome(&state).is_none() {
        let mut moves = ply::MoveList::new();
        no_rep.generate_moves(&state, &mut moves);
        // Avoid captures: pick the first move (kings on opposite corners never meet early).
        no_rep.apply(&mut state, moves[plies % moves.len()]);
        plies += 1;
        assert!(plies <= 80);
    }
    assert_eq!(plies, 80);
    assert_eq!(no_rep.outcome(&state), Some(Outcome::Draw));
    assert_eq!(no_rep.count_moves(&state), 0);
    // A man move resets the count.
    let s = ply::Notation::parse_state(&no_rep, "B:WK32:B5:H79").unwrap();
    let mut after = s;
    let mut moves = ply::MoveList::new();
    no_rep.generate_moves(&s, &mut moves);
    no_rep.apply(&mut after, moves[0]);
    assert_eq!(after.quiet_plies(), 0);
    // Threefold repetition with the default rules: shuffle both kings back and forth; the
    // start position occurs for the third time after eight plies.
    for (i, text) in ["1-6", "32-27", "6-1", "27-32"].iter().cycle().take(8).enumerate() {
        assert!(record.outcome().is_none(), "ended early at ply {i}");
        let mv = ply::Notation::parse_move(&game, record.state(), text).unwrap();
        record.play(mv).unwrap();
    }
    assert!(record.is_repetition_draw());
    assert_eq!(record.outcome(), Some(Outcome::Draw));
    // With no draw rules the same position goes on.
    let endless = game.with_draw_rules(DrawRules::NONE);
    let s = ply::Notation::parse_state(&endless, "B:WK32:BK1:H200").unwrap();
    assert!(endless.outcome(&s).is_none());
    assert_eq!(endless.repetition_limit(), None);
}

#[test]
fn malformed_boards_are_typed_errors() {
    let ok = ["_b__", "____", "____", "w___"];
    assert!(allowed_moves(&ok, 'b').is_ok());
    assert_eq!(
        allowed_moves(&["_b__", "___", "____", "w___"], 'b'),
        Err(BoardError::Ragged { row: 1, len: 3, size: 4 })
    );
    assert_eq!(allowed_moves(&["_b_", "___", "___"], 'b'), Err(BoardError::Size(3)));
    let big: Vec<String> = (0..18).map(|_| "_".repeat(18)).collect();
    assert_eq!(allowed_moves(&big, 'b'), Err(BoardError::Size(18)));
    let empty: [&str; 0] = [];
    assert_eq!(allowed_moves(&empty, 'b'), Err(BoardError::Size(0)));
    assert_eq!(
        allowed_moves(&["_x__", "____", "____", "w___"], 'b'),
        Err(BoardError::Character { row: 0, col: 1, ch: 'x' })
    );
    // The seed's functions accept pieces on light squares (its first example has some);
    // the conversion to one game state does not.
    let light = ["b___", "____", "____", "w___"];
    assert_eq!(allowed_moves(&light, 'b').unwrap(), vec![vec![(0, 0), (1, 1)]]);
    assert_eq!(
        parse_board(&light, 'b', Rules::Deepomatic).map(|_| ()),
        Err(BoardError::LightSquare { row: 0, col: 0 })
    );
    assert_eq!(
        allowed_moves(&["_w__", "____", "____", "w___"], 'b'),
        Err(BoardError::ManOnCrowningRow { row: 0, col: 1 })
    );
    assert_eq!(allowed_moves(&ok, 'x'), Err(BoardError::Color('x')));
    assert!(matches!(apply_move(&ok, 'b', &[(0, 1), (2, 3)]), Err(BoardError::IllegalMove { .. })));
    assert!(matches!(apply_move(&ok, 'b', &[]), Err(BoardError::IllegalMove { .. })));
    // Multi-byte characters are counted as characters, not bytes.
    assert!(matches!(
        allowed_moves(&["_é__", "____", "____", "w___"], 'b'),
        Err(BoardError::Character { ch: 'é', .. })
    ));
}

#[test]
fn first_opening_line_where_the_rule_sets_differ() {
    // After 1. 9-13 23-18 2. 11-15 18x11 3. 7x16 24-20 4. 2-7 White's man on 20 jumps 16 and
    // 7 to be crowned on 2; under Deepomatic rules the new king goes on over 6 to 9. This is
    // the first divergence in the perft tree (depth 9).
    let fen = "W:W20,21,22,25,26,27,28,29,30,31,32:B1,3,4,5,6,7,8,10,12,13,16";
    for (rules, want) in [(Rules::Standard, "20x11x2"), (Rules::Deepomatic, "20x11x2x9")] {
        let game = EnglishCheckers::new(8, rules).unwrap();
        let mut state = game.initial_state();
        for text in ["9-13", "23-18", "11-15", "18x11", "7x16", "24-20", "2-7"] {
            let mv = ply::Notation::parse_move(&game, &state, text).unwrap();
            game.apply(&mut state, mv);
        }
        assert_eq!(ply::Notation::format_state(&game, &state), fen);
        let moves: Vec<String> = game
            .moves_with_paths(&state)
            .iter()
            .map(|&(m, _)| ply::Notation::format_move(&game, &state, m))
            .collect();
        assert_eq!(moves, [want], "{rules}");
    }
}
