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
