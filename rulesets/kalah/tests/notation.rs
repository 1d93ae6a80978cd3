//! Moves and positions as text: written forms, round trips, errors (never panics), and the
//! terminal picture.

use ply::{Game, MoveList, Notation, Player};
use ply_kalah::{Capture, Error, Kalah};

#[test]
fn moves_are_house_numbers_from_the_movers_side() {
    let g = Kalah::standard();
    let south = g.initial_state();
    let mv = g.parse_move(&south, " 3 ").unwrap();
    assert_eq!((mv.number(), mv.player()), (3, Player::FIRST));
    assert_eq!(g.format_move(&south, mv), "3");
    let north = g.parse_state("4,4,4,4,4,4/0/4,4,4,4,4,4/0 n").unwrap();
    let mv = g.parse_move(&north, "3").unwrap();
    assert_eq!((mv.number(), mv.player()), (3, Player::SECOND));
    let mut moves = MoveList::new();
    g.generate_moves(&north, &mut moves);
    for &mv in &moves {
        assert_eq!(g.parse_move(&north, &g.format_move(&north, mv)), Ok(mv));
    }
}

#[test]
fn bad_moves_are_errors() {
    let g = Kalah::standard();
    let s = g.parse_state("1,0,0,1,2,5/20/1,0,0,0,1,1/16 s").unwrap();
    for text in ["", "0", "7", "-1", "+3", "3a", "a", "1.5", "99999999999999999999", "٣"] {
        assert!(matches!(g.parse_move(&s, text), Err(Error::MoveText(..))), "{text:?}");
    }
    // House 2 is empty.
    assert_eq!(g.parse_move(&s, "2"), Err(Error::Illegal("2".into())));
    let over = g.parse_state("0,0,0,0,0,0/24/1,0,0,0,0,1/22 n").unwrap();
    assert!(matches!(g.parse_move(&over, "1"), Err(Error::Illegal(_))));
    let e = g.parse_move(&s, "7").unwrap_err().to_string();
    assert!(e.contains("\"7\"") && e.contains("1 to 6"), "{e}");
}

#[test]
fn positions_round_trip() {
    let g = Kalah::standard();
    for text in [
        "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s",
        "1,0,0,1,2,5/20/1,0,0,0,1,1/16 s",
        "0,0,13,0,0,0/10/1,0,0,0,0,2/22 n",
        "0,0,0,0,0,0/24/0,0,0,0,0,0/24 n",
    ] {
        let s = g.parse_state(text).unwrap();
        assert_eq!(g.format_state(&s), text);
    }
    // The side to move may be a capital; spaces around are ignored.
    let s = g.parse_state("  4,4,4,4,4,4/0/4,4,4,4,4,4/0 N ").unwrap();
    assert_eq!(g.to_move(&s), Player::SECOND);
    let small = Kalah::new(2, 3, Capture::None).unwrap();
    assert_eq!(small.format_state(&small.initial_state()), "3,3/0/3,3/0 s");
}

#[test]
fn bad_positions_are_errors_that_say_why() {
    let g = Kalah::standard();
    let cases = [
        ("", "side to move"),
        ("4,4,4,4,4,4/0/4,4,4,4,4,4/0", "side to move"),
        ("4,4,4,4,4,4/0/4,4,4,4,4,4/0 w", "s or n"),
        ("4,4,4,4,4,4/0/4,4,4,4,4,4/0 s extra", "side to move"),
        ("4,4,4,4,4/4/4,4,4,4,4,4/4 s", "houses"),
        ("4,4,4,4,4,4,0/4,4,4,4,4,4/0 s", "South's houses"),
        ("4,4,4,4,4,4/0/4,4,4,4,4,4 s", "South's houses"),
        ("4,4,4,4,4,4/0/4,4,4,4,4,4/0/0 s", "South's houses"),
        ("4,4,4,4,4,4/1/4,4,4,4,4,4/0 s", "49 seeds"),
        ("4,4,4,-4,4,4/0/4,4,4,4,4,4/0 s", "not a number"),
        ("4,4,4,x,4,4/0/4,4,4,4,4,4/0 s", "not a number"),
        ("4,4,4,,4,4/0/4,4,4,4,4,4/0 s", "not a number"),
        ("4,4,4,4,4,4/300/4,4,4,4,4,4/0 s", "do not fit"),
    ];
    for (text, why) in cases {
        match g.parse_state(text) {
            Err(e @ Error::Position(..)) => {
                let message = e.to_string();
                assert!(message.contains(why), "{text:?}: {message}");
            }
            other => panic!("{text:?} parsed as {other:?}"),
        }
    }
}

#[test]
fn the_picture_shows_both_rows_the_stores_and_the_last_house() {
    let g = Kalah::standard();
    let mut s = g.initial_state();
    let mv = g.parse_move(&s, "3").unwrap();
    g.apply(&mut s, mv);
    let picture = g.render(&s, Some(mv), false);
    let expected = [
        "    6   5   4   3   2   1",
        "    4   4   4   4   4   4",
        " 0                          1",
        "    4   4 [ 0]  5   5   5",
        "    1   2   3   4   5   6",
        "South to move",
    ]
    .join("\n");
    assert_eq!(picture, expected);
    let coloured = g.render(&s, Some(mv), true);
    assert!(coloured.contains('\x1b'));
    let over = g.parse_state("0,0,0,0,0,0/20/0,0,0,0,0,0/28 s").unwrap();
    assert!(g.render(&over, None, false).ends_with("North wins 28-20"));
    let draw = g.parse_state("0,0,0,0,0,0/24/0,0,0,0,0,0/24 n").unwrap();
    assert!(g.render(&draw, None, false).ends_with("draw 24-24"));
}

/// South sees `render`'s picture; North sees the board turned half round: its own houses
/// along the bottom (house 1 on the left) with its store on the right, South's houses and
/// store above, the house of the last move still in brackets.
#[test]
fn render_for_puts_the_viewers_houses_at_the_bottom() {
    let g = Kalah::standard();
    let mut s = g.initial_state();
    let mv = g.parse_move(&s, "3").unwrap();
    g.apply(&mut s, mv);
    for color in [false, true] {
        assert_eq!(g.render_for(&s, Some(mv), color, Player::FIRST), g.render(&s, Some(mv), color));
    }
    let expected = [
        "    6   5   4   3   2   1",
        "    5   5   5 [ 0]  4   4",
        " 1                          0",
        "    4   4   4   4   4   4",
        "    1   2   3   4   5   6",
        "South to move",
    ]
    .join("\n");
    assert_eq!(g.render_for(&s, Some(mv), false, Player::SECOND), expected);
    assert!(g.render_for(&s, Some(mv), true, Player::SECOND).contains('\x1b'));
    // North's move, on a board with two-digit counts: the store on North's right.
    let s = g.parse_state("0,0,0,0,0,12/20/1,0,0,0,0,13/2 n").unwrap();
    let north = g.render_for(&s, None, false, Player::SECOND);
    let lines: Vec<&str> = north.lines().collect();
    assert_eq!(lines[1], "   12   0   0   0   0   0", "{north}");
    assert_eq!(lines[2], "20                          2", "{north}");
    assert_eq!(lines[3], "    1   0   0   0   0  13", "{north}");
    assert_eq!(lines[5], "North to move");
}

#[test]
fn the_diagram_is_the_mancala_board_seen_from_south() {
    use ply::diagram::{Piece, PieceKind, Shade};
    let g = Kalah::new(6, 4, Capture::Empty).unwrap();
    let mut state = g.initial_state();
    let mv = g.parse_move(&state, "3").unwrap();
    assert_eq!(g.move_cells(&state, mv), [8 + 3]);
    g.apply(&mut state, mv);
    // South sowed house 3 into houses 4, 5, 6 and the store: "4,4,0,5,5,5/1/4,4,4,4,4,4/0 s".
    let d = g.diagram(&state).unwrap();
    assert_eq!((d.rows, d.cols, d.cells.len()), (2, 8, 16));
    let seeds = |p: usize, n: u32| Some(Piece::many(Player::new(p), PieceKind::Seeds, n));
    let shades: Vec<Shade> = d.cells.iter().map(|c| c.shade).collect();
    let (pit, store, off) = (Shade::Pit, Shade::Store, Shade::Off);
    assert_eq!(shades[..8], [store, pit, pit, pit, pit, pit, pit, off]);
    assert_eq!(shades[8..], [off, pit, pit, pit, pit, pit, pit, store]);
    let south: Vec<_> = d.cells[9..15].iter().map(|c| c.piece).collect();
    assert_eq!(
        south,
        [seeds(0, 4), seeds(0, 4), seeds(0, 0), seeds(0, 5), seeds(0, 5), seeds(0, 5)]
    );
    assert_eq!(d.cells[15].piece, seeds(0, 1), "South's store");
    assert_eq!(d.cells[0].piece, seeds(1, 0), "North's store, empty but drawn");
    assert!(d.cells[1..7].iter().all(|c| c.piece == seeds(1, 4)));
    assert_eq!(d.cells[7].piece, None);
    // House labels: South's 1..6 from the left, North's 6..1 from the left.
    let labels: Vec<_> = d.cells.iter().map(|c| c.label.clone().unwrap_or_default()).collect();
    assert_eq!(labels.join(","), ",6,5,4,3,2,1,,,1,2,3,4,5,6,");
    // North's house 1 is at the top right, next to South's store.
    let north = g.parse_state("4,4,4,4,4,4/0/4,4,4,4,4,4/0 n").unwrap();
    let mv = g.parse_move(&north, "1").unwrap();
    assert_eq!(g.move_cells(&north, mv), [6]);
}
