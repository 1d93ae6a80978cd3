//! One test per rule, each with the board it plays on (rows top first, `1`..`4` discs).

use ply::{Game, MoveList, Notation, Outcome, Player};
use ply_reversi::{Error, Reversi, ReversiMove};

fn moves_of(game: &Reversi, state: &ply_reversi::ReversiState) -> Vec<String> {
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    moves.iter().map(|&m| game.format_move(state, m)).collect()
}

fn play(game: &Reversi, text: &str) -> String {
    let mut state = game.initial_state();
    let mv = game.parse_move(&state, text).unwrap();
    game.apply(&mut state, mv);
    game.format_state(&state)
}

/// ```text
///   a b c d e
/// 1 1 . 1 . 1
/// 2 . 2 2 2 .
/// 3 1 2 * 2 1     player 1 plays c3: every line is flanked
/// 4 . 2 2 2 .
/// 5 1 . 1 . 1
/// ```
#[test]
fn placement_flips_in_all_eight_directions() {
    let game = Reversi::from_position("1.1.1/.222./12.21/.222./1.1.1 1", 2).unwrap();
    assert_eq!(play(&game, "c3"), "1.1.1/.111./11111/.111./1.1.1 2");
}

/// ```text
///   a b c d e f
/// 1 1 2 2 * 2 2   d1: the west line ends on a 1 and flips, the east line runs to the edge
/// ```
#[test]
fn only_flanked_lines_flip() {
    let game = Reversi::from_position("122.22/....../....../....../....../...... 1", 2).unwrap();
    assert_eq!(play(&game, "d1"), "111122/....../....../....../....../...... 2");
}

/// ```text
///   a b c d e f
/// 1 1 . . 1 . .
/// 2 2 . . 2 . .
/// 3 * 2 2 1 . .   a3 flanks north (a2), east (b3 c3) and north-east (b2? empty: no)
/// 4 2 2 . . . .
/// 5 1 . 1 . . .
/// ```
#[test]
fn several_lines_flip_at_once() {
    let game = Reversi::from_position("1..1../2..2../.221../22..../1.1.../...... 1", 2).unwrap();
    // North: a2 then a1 (own). East: b3 c3 then d3 (own). South: a4 then a5 (own).
    // South-east: b4 then c5 (own).
    assert_eq!(play(&game, "a3"), "1..1../1..2../1111../11..../1.1.../...... 2");
}

/// ```text
///   a b c d e
/// 1 1 2 3 * .     3 players: player 1 flips a mixed line of players 2 and 3
/// ```
#[test]
fn three_players_capture_mixed_opponents() {
    let game = Reversi::from_position("123../...../...../...../..... 1", 3).unwrap();
    assert_eq!(play(&game, "d1"), "1111./...../...../...../..... 2");
    // A line stops at the mover's first disc: only the 3 between d1 and b... is flipped.
    let game = Reversi::from_position("1213./...../...../...../..... 1", 3).unwrap();
    assert_eq!(play(&game, "e1"), "12111/...../...../...../..... 2");
}

/// ```text
///   a b c d e
/// 1 . . . . .
/// 2 . 4 2 3 1     4 players: player 1 plays a2 and flips 4, 2 and 3
/// ```
#[test]
fn four_players_capture_mixed_opponents() {
    let game = Reversi::from_position("...../.4231/...../...../..... 1", 4).unwrap();
    assert_eq!(play(&game, "a2"), "...../11111/...../...../..... 2");
}

/// ```text
///   a b c d
/// 1 . 1 2 2     player 1 has no placement; player 2 has a1, so player 1 must pass
/// ```
#[test]
fn a_player_without_placement_passes() {
    let game = Reversi::from_position(".122/..../..../.... 1", 2).unwrap();
    let state = game.initial_state();
    assert_eq!(moves_of(&game, &state), ["pass"]);
    assert!(game.outcome(&state).is_none());
    let mut after = state;
    game.apply(&mut after, ReversiMove::Pass);
    assert_eq!(game.to_move(&after), Player::new(1));
    assert_eq!(moves_of(&game, &after), ["a1"]);
    // Three players: player 2 is skipped by an explicit pass as well.
    let game = Reversi::from_position("13.2/..../..../.... 2", 3).unwrap();
    let state = game.initial_state();
    assert_eq!(moves_of(&game, &state), ["pass"]);
}

/// ```text
///   a b c d
/// 1 1 2 2 2     nobody can place: the game is over with 1 disc against 3
/// ```
#[test]
fn game_ends_when_nobody_can_place() {
    let game = Reversi::from_position("1222/..../..../.... 1", 2).unwrap();
    let state = game.initial_state();
    assert!(moves_of(&game, &state).is_empty());
    assert_eq!(game.outcome(&state), Some(Outcome::from_scores(&[1, 3])));
    // A full board: ranks follow the disc counts.
    let game = Reversi::from_position("1111/2222/3333/1233 2", 3).unwrap();
    let outcome = game.outcome(&game.initial_state()).unwrap();
    assert_eq!(outcome, Outcome::from_scores(&[5, 5, 6]));
    assert_eq!(outcome.rank(Player::new(2), 3), 1.0);
    assert_eq!(outcome.rank(Player::new(0), 3), 2.5);
}

#[test]
fn every_player_has_a_first_move_in_every_layout() {
    for size in 4..=16 {
        for players in 2..=4 {
            let game = Reversi::new(size, players).unwrap();
            let state = game.initial_state();
            for p in 0..players {
                assert!(
                    game.mobility(&state, Player::new(p)) > 0,
                    "{size}x{size}, {players} players: player {} has no first move",
                    p + 1
                );
            }
            assert_eq!(game.to_move(&state), Player::new(0));
        }
    }
}

#[test]
fn layouts_are_central_and_symmetric() {
    let game = Reversi::new(8, 2).unwrap();
    assert_eq!(
        game.format_state(&game.initial_state()),
        "......../......../......../...21.../...12.../......../......../........ 1"
    );
    // 3 players, 7x7: the Latin square around the centre, symmetric in the main diagonal.
    let game = Reversi::new(7, 3).unwrap();
    let rows = game.initial_state().rows();
    assert_eq!(rows[2..5], ["..123..", "..231..", "..312.."]);
    for r in 0..7 {
        for c in 0..7 {
            assert_eq!(rows[r].as_bytes()[c], rows[c].as_bytes()[r]);
        }
    }
    // 4 players, 10x10: clockwise around the centre; a quarter turn renumbers the players.
    let game = Reversi::new(10, 4).unwrap();
    let rows = game.initial_state().rows();
    assert_eq!(rows[4..6], ["....12....", "....43...."]);
}

#[test]
fn sizes_and_player_counts_are_checked() {
    assert_eq!(Reversi::new(3, 2).unwrap_err(), Error::Size(3));
    assert_eq!(Reversi::new(17, 2).unwrap_err(), Error::Size(17));
    assert_eq!(Reversi::new(8, 1).unwrap_err(), Error::Players(1));
    assert_eq!(Reversi::new(8, 5).unwrap_err(), Error::Players(5));
    assert!(Reversi::new(16, 4).is_ok());
}

#[test]
fn moves_read_in_both_forms() {
    let game = Reversi::new(8, 2).unwrap();
    let state = game.initial_state();
    let d3 = game.parse_move(&state, "d3").unwrap();
    assert_eq!(game.parse_move(&state, "(3, 2)").unwrap(), d3);
    assert_eq!(game.parse_move(&state, "3,2").unwrap(), d3);
    assert_eq!(game.parse_move(&state, " D3 ").unwrap(), d3);
    assert_eq!(game.coordinates(d3), Some((3, 2)));
    assert_eq!(game.format_pair(d3), "(3, 2)");
}

#[test]
fn bad_moves_are_rejected_with_the_text() {
    let game = Reversi::new(8, 2).unwrap();
    let state = game.initial_state();
    for bad in ["", "z9", "c", "c0", "c9", "(8, 1)", "1,2,3", "x", "(a, b)"] {
        assert!(
            matches!(game.parse_move(&state, bad), Err(Error::ParseMove(_))),
            "{bad:?} should not parse"
        );
    }
    assert_eq!(game.parse_move(&state, "a1"), Err(Error::IllegalMove("a1".into())));
    assert_eq!(game.parse_move(&state, "d4"), Err(Error::IllegalMove("d4".into())));
    assert_eq!(game.parse_move(&state, "pass"), Err(Error::IllegalMove("pass".into())));
    let msg = game.parse_move(&state, "z9").unwrap_err().to_string();
    assert!(msg.contains("\"z9\""), "{msg}");
}

#[test]
fn bad_positions_are_rejected_with_a_reason() {
    let game = Reversi::new(4, 2).unwrap();
    let reason = |text: &str| match game.parse_state(text) {
        Err(Error::ParsePosition { reason, .. }) => reason,
        other => panic!("{text:?} gave {other:?}"),
    };
    assert!(reason("..../..../.... 1").contains("3 rows"));
    assert!(reason("..../..../..x./.... 1").contains("'x'"));
    assert!(reason("..../..../...../.... 1").contains("row 3"));
    assert!(reason("..../..3./..../.... 1").contains("player 3"));
    assert!(reason("..../..../..../.... 3").contains("player to move"));
    assert!(reason("..../..../..../.... 1 x").contains("unexpected"));
    assert!(matches!(Reversi::from_position("../.. 1", 2), Err(Error::ParsePosition { .. })));
}

#[test]
fn positions_round_trip_with_their_hash() {
    for (size, players) in [(8, 2), (7, 3), (10, 4), (16, 2), (12, 4), (5, 3)] {
        let game = Reversi::new(size, players).unwrap();
        let mut state = game.initial_state();
        let mut moves = MoveList::new();
        let mut i = 0usize;
        loop {
            let text = game.format_state(&state);
            let back = game.parse_state(&text).unwrap();
            assert_eq!(back, state, "{text}");
            assert_eq!(game.hash(&back), game.hash(&state));
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            i = i.wrapping_mul(31).wrapping_add(7);
            let mv = moves[i % moves.len()];
            assert_eq!(game.parse_move(&state, &game.format_move(&state, mv)).unwrap(), mv);
            game.apply(&mut state, mv);
        }
        assert!(game.outcome(&state).is_some());
    }
}

#[test]
fn render_shows_coordinates_and_counts() {
    let game = Reversi::new(8, 2).unwrap();
    let state = game.initial_state();
    let text = game.render(&state, None, false);
    assert!(text.starts_with("    a b c d e f g h\n"), "{text}");
    assert!(text.contains("  4 . . . 2 1 . . .\n"), "{text}");
    assert!(text.contains("1: 2  2: 2"), "{text}");
    let mut after = state;
    let mv = game.parse_move(&state, "f5").unwrap();
    game.apply(&mut after, mv);
    assert!(game.render(&after, Some(mv), false).contains("  5 . . . 1 1>1 . .\n"));
    assert!(game.render(&after, Some(mv), true).contains("\x1b["));
}
