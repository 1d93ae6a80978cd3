//! Move and position texts: the written forms, the lenient spellings the reader accepts,
//! round trips, errors that quote the bad text, and the rendered board.

use ply::picture::{chip, mark, Chip};
use ply::{Game, MoveList, Notation, Player};
use ply_breakthrough::{Breakthrough, Error, Move};

const START: &str = "BBBBBBBB/BBBBBBBB/......../......../......../......../WWWWWWWW/WWWWWWWW w";

#[test]
fn the_start_position_is_written_rows_from_the_top() {
    let game = Breakthrough::standard();
    assert_eq!(game.format_state(&game.initial_state()), START);
    assert_eq!(game.parse_state(START), Ok(game.initial_state()));
    let small = Breakthrough::new(3, 5).unwrap();
    assert_eq!(small.format_state(&small.initial_state()), "BBB/BBB/.../WWW/WWW w");
}

#[test]
fn moves_are_written_with_a_dash_or_an_x() {
    let game = Breakthrough::standard();
    let state = game
        .parse_state("......../......../......../..B.B.../...W..../......../......../........ w")
        .unwrap();
    let mut list = MoveList::new();
    game.generate_moves(&state, &mut list);
    let texts: Vec<String> = list.iter().map(|&m| game.format_move(&state, m)).collect();
    assert_eq!(texts, ["d4xc5", "d4xe5", "d4-d5"]);
    // Square indices are row * cols + col: d4 is 3 * 8 + 3.
    assert_eq!(list[2], Move { from: 27, to: 35 });
    assert_eq!(game.square_name(27), "d4");
    assert_eq!(Breakthrough::new(4, 16).unwrap().square_name(63), "d16");
}

#[test]
fn the_reader_accepts_lenient_spellings() {
    let game = Breakthrough::standard();
    let start = game.initial_state();
    let a3 = game.parse_move(&start, "a2-a3").unwrap();
    // The separator is not checked against the board: `x` on a step is still the step.
    for text in ["a2a3", "A2A3", " a2-a3 ", "A2-a3", "a2xa3", "a2Xa3"] {
        assert_eq!(game.parse_move(&start, text), Ok(a3), "{text}");
    }
    let state = game
        .parse_state("......../......../......../..B...../...W..../......../......../........ w")
        .unwrap();
    let capture = game.parse_move(&state, "d4xc5").unwrap();
    for text in ["d4c5", "D4XC5", "d4-c5"] {
        assert_eq!(game.parse_move(&state, text), Ok(capture), "{text}");
    }
    // Two-digit ranks on tall boards.
    let tall = Breakthrough::new(4, 16).unwrap();
    let mut state = tall.initial_state();
    for text in ["a2-a3", "d15-d14", "a3-a4"] {
        let mv = tall.parse_move(&state, text).unwrap();
        tall.apply(&mut state, mv);
    }
    let mv = tall.parse_move(&state, "D14C13").unwrap();
    assert_eq!(tall.format_move(&state, mv), "d14-c13");
}

#[test]
fn bad_moves_are_errors_that_quote_the_text() {
    let game = Breakthrough::standard();
    let start = game.initial_state();
    for text in [
        "", "a2", "a2-", "a2--a3", "a2-a3-a4", "i2-i3", "a0-a1", "a2-a9", "2a3a", "a2 a3", "é2-a3",
        "a+2a3",
    ] {
        let err = game.parse_move(&start, text).unwrap_err();
        assert_eq!(err, Error::MoveText(text.to_string()), "{text}");
        assert!(err.to_string().contains(&format!("{text:?}")), "{err}");
    }
    // Well-formed, but not legal here: straight onto a pawn, backwards, two rows, Black's
    // pawn while White is to move.
    for text in ["a1-a2", "a2-a1", "a2-a4", "a7-a6", "b1xc2"] {
        assert_eq!(game.parse_move(&start, text), Err(Error::Illegal(text.to_string())), "{text}");
    }
}

#[test]
fn bad_positions_are_errors_that_say_why() {
    let game = Breakthrough::standard();
    let rejected = [
        ("", "expected the rows"),
        (
            "BBBBBBBB/BBBBBBBB/......../......../......../......../WWWWWWWW/WWWWWWWW",
            "expected the rows",
        ),
        ("BBBBBBBB/BBBBBBBB/......../......../......../......../WWWWWWWW/WWWWWWWW x", "w or b"),
        ("BBBBBBBB/BBBBBBBB/......../......../......../......../WWWWWWWW w", "rows or columns"),
        (
            "BBBBBBBB/BBBBBBBB/......../......../......../......../WWWWWWWW/WWWWWWW w",
            "rows or columns",
        ),
        (
            "BBBBBBBB/BBBBBBBB/......../......../......../......../WWWWWWWW/WWWWWWWW w extra",
            "expected the rows",
        ),
        ("BBBBBBBB/BBBBBBBB/......../......../...Q..../......../WWWWWWWW/WWWWWWWW w", "W, B or ."),
        ("BBBBBBBB/BBBBBBBB/......../......../......../WWWWWWWW/WWWWWWWW/WWWWWWWW w", "more pawns"),
        ("...W..../BBBBBBBB/......../......../......../......../......../WWWWWWWW w", "far row"),
        ("......../......../......../......../......../......../WWWWWWWW/WWWWWWWW w", "no pawns"),
    ];
    for (text, why) in rejected {
        let err = game.parse_state(text).unwrap_err();
        assert!(matches!(err, Error::Position(..)), "{text}: {err:?}");
        assert!(err.to_string().contains(why), "{text}: {err}");
        assert!(err.to_string().contains(&format!("{:?}", text.trim())), "{err}");
    }
    // Lower-case squares and side are fine.
    assert_eq!(game.parse_state(&START.to_lowercase()), Ok(game.initial_state()));
}

#[test]
fn texts_round_trip_along_a_game() {
    let game = Breakthrough::new(6, 6).unwrap();
    let mut state = game.initial_state();
    let mut list = MoveList::new();
    let mut plies = 0;
    loop {
        let text = game.format_state(&state);
        assert_eq!(game.parse_state(&text), Ok(state), "{text}");
        game.generate_moves(&state, &mut list);
        if list.is_empty() {
            break;
        }
        for &mv in &list {
            let written = game.format_move(&state, mv);
            assert_eq!(game.parse_move(&state, &written), Ok(mv), "{written} in {text}");
            assert_eq!(game.parse_move(&state, &written.to_uppercase()), Ok(mv));
        }
        // Prefer captures (they come first) to reach a few of them.
        game.apply(&mut state, list[plies % 2 * (list.len() - 1)]);
        plies += 1;
    }
    assert!(plies > 4);
}

#[test]
fn render_draws_coordinates_and_marks_the_last_move() {
    let game = Breakthrough::standard();
    let start = game.initial_state();
    let mv = game.parse_move(&start, "d2-e3").unwrap();
    let mut state = start;
    game.apply(&mut state, mv);
    let picture = game.render(&state, Some(mv), false);
    let expected = "\
8  B  B  B  B  B  B  B  B
7  B  B  B  B  B  B  B  B
6  .  .  .  .  .  .  .  .
5  .  .  .  .  .  .  .  .
4  .  .  .  .  .  .  .  .
3  .  .  .  . [W] .  .  .
2  W  W  W [.] W  W  W  W
1  W  W  W  W  W  W  W  W
   a  b  c  d  e  f  g  h
Black (B) to move";
    assert_eq!(picture, expected);
    let coloured = game.render(&state, Some(mv), true);
    // Pawns are chips with a background of their own; the last move is marked.
    let white = chip(Chip::Light, "W");
    assert!(coloured.contains(&mark(&white)), "{coloured}");
    assert!(coloured.contains(&chip(Chip::Dark, "B")), "{coloured}");
    assert_eq!(coloured.matches(&white).count(), 16, "{coloured}");
    // No last move, a finished game, a tall board with two-digit ranks, a bogus move.
    assert!(!game.render(&start, None, false).contains('['));
    let won = game
        .parse_state("...W..../B......./......../......../......../......../......../........ b")
        .unwrap();
    assert!(game.render(&won, None, false).ends_with("White (W) wins"));
    let tall = Breakthrough::new(4, 16).unwrap();
    let picture = tall.render(&tall.initial_state(), Some(Move { from: 200, to: 255 }), false);
    assert!(picture.starts_with("16  B  B  B  B\n15 "), "{picture}");
    assert!(picture.contains("\n 1  W  W  W  W\n    a  b  c  d\n"), "{picture}");
}

/// White sees `render`'s picture; Black sees the same board turned half round: rank 1 at
/// the top, each rank read from the last file to `a` with the file letters below in that
/// order, the last move's squares still in brackets.
#[test]
fn render_for_turns_the_board_for_black() {
    let game = Breakthrough::standard();
    let mut state = game.initial_state();
    let mv = game.parse_move(&state, "d2-e3").unwrap();
    game.apply(&mut state, mv);
    for color in [false, true] {
        let white = game.render_for(&state, Some(mv), color, Player::FIRST);
        assert_eq!(white, game.render(&state, Some(mv), color));
    }
    let expected = "\
1  W  W  W  W  W  W  W  W
2  W  W  W  W [.] W  W  W
3  .  .  . [W] .  .  .  .
4  .  .  .  .  .  .  .  .
5  .  .  .  .  .  .  .  .
6  .  .  .  .  .  .  .  .
7  B  B  B  B  B  B  B  B
8  B  B  B  B  B  B  B  B
   h  g  f  e  d  c  b  a
Black (B) to move";
    assert_eq!(game.render_for(&state, Some(mv), false, Player::SECOND), expected);
    let coloured = game.render_for(&state, Some(mv), true, Player::SECOND);
    assert!(coloured.contains(&mark(&chip(Chip::Light, "W"))), "{coloured}");
    // A board that is not square, with two-digit ranks.
    let tall = Breakthrough::new(3, 10).unwrap();
    let mut state = tall.initial_state();
    let mv = tall.parse_move(&state, "a2-b3").unwrap();
    tall.apply(&mut state, mv);
    let turned = tall.render_for(&state, Some(mv), false, Player::SECOND);
    let lines: Vec<&str> = turned.lines().collect();
    assert_eq!(lines[0], " 1  W  W  W", "{turned}");
    assert_eq!(lines[1], " 2  W  W [.]", "{turned}");
    assert_eq!(lines[2], " 3  . [W] .", "{turned}");
    assert_eq!(lines[9], "10  B  B  B", "{turned}");
    assert_eq!(lines[10], "    c  b  a", "{turned}");
}

#[test]
fn the_diagram_has_white_at_the_bottom_and_chess_labels() {
    use ply::diagram::{Piece, PieceKind};
    use ply::Player;
    let game = Breakthrough::new(5, 6).unwrap();
    let state = game.initial_state();
    let d = game.diagram(&state).unwrap();
    assert_eq!((d.rows, d.cols), (6, 5));
    assert_eq!(d.col_labels, ["a", "b", "c", "d", "e"]);
    assert_eq!(d.row_labels, ["6", "5", "4", "3", "2", "1"]);
    for (i, cell) in d.cells.iter().enumerate() {
        let expected = match i / 5 {
            0 | 1 => Some(Piece::new(Player::SECOND, PieceKind::Man)),
            4 | 5 => Some(Piece::new(Player::FIRST, PieceKind::Man)),
            _ => None,
        };
        assert_eq!(cell.piece, expected, "{i}");
    }
    // b2-c3: from row 2 (the fifth from the top) to row 3.
    let mv = game.parse_move(&state, "b2-c3").unwrap();
    let cells = game.move_cells(&state, mv);
    assert_eq!(cells, [d.index(4, 1), d.index(3, 2)]);
    assert_eq!(d.cells[cells[0]].piece.map(|p| p.owner), Some(Player::FIRST));
}
