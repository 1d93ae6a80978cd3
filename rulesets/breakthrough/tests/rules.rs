//! One test per rule of Breakthrough, on positions written in the crate's notation (rows from
//! row 8 down, then the side to move).

use ply::{Game, MoveList, Notation, Outcome, Player};
use ply_breakthrough::{Breakthrough, BreakthroughState, Error};

fn position(game: &Breakthrough, text: &str) -> BreakthroughState {
    game.parse_state(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The legal moves of `state`, as sorted texts.
fn moves(game: &Breakthrough, state: &BreakthroughState) -> Vec<String> {
    let mut list = MoveList::new();
    game.generate_moves(state, &mut list);
    assert_eq!(game.count_moves(state), list.len() as u64, "bulk count of {state:?}");
    let mut texts: Vec<String> = list.iter().map(|&m| game.format_move(state, m)).collect();
    texts.sort();
    texts
}

/// `state` after the move written `text`.
fn play(game: &Breakthrough, state: &BreakthroughState, text: &str) -> BreakthroughState {
    let mut next = *state;
    game.apply(&mut next, game.parse_move(state, text).unwrap_or_else(|e| panic!("{e}")));
    next
}

#[test]
fn the_start_has_both_home_rows_full_and_white_to_move() {
    let game = Breakthrough::standard();
    let start = game.initial_state();
    assert_eq!(start.side_to_move(), Player::FIRST);
    assert_eq!(start.pawns(Player::FIRST), 0xffff);
    assert_eq!(start.pawns(Player::SECOND), 0xffff << 48);
    let texts = moves(&game, &start);
    assert_eq!(texts.len(), 22);
    assert!(texts.iter().all(|t| t.as_bytes()[1] == b'2' && t.as_bytes()[4] == b'3'));
    // After White's move, Black moves down from row 7.
    let black = moves(&game, &play(&game, &start, "a2-a3"));
    assert_eq!(black.len(), 22);
    assert!(black.iter().all(|t| t.as_bytes()[1] == b'7' && t.as_bytes()[4] == b'6'));
}

#[test]
fn straight_steps_need_an_empty_square() {
    // 5 . . . B . . W .    d4 is blocked by an enemy pawn, g4 by its own pawn:
    // 4 . . . W . . W .    neither steps straight, and d4 does not capture d5.
    let game = Breakthrough::standard();
    let state = position(
        &game,
        "B......./......../......../...B..W./...W..W./......../......../........ w",
    );
    assert_eq!(
        moves(&game, &state),
        ["d4-c5", "d4-e5", "g4-f5", "g4-h5", "g5-f6", "g5-g6", "g5-h6"]
    );
}

#[test]
fn diagonal_steps_capture_and_straight_steps_never_do() {
    // 5 . . B B B . . .
    // 4 . . . W . . . .    d4 takes c5 or e5; d5 in front of it is safe
    let game = Breakthrough::standard();
    let state = position(
        &game,
        "......../......../......../..BBB.../...W..../......../......../........ w",
    );
    assert_eq!(moves(&game, &state), ["d4xc5", "d4xe5"]);
    let after = play(&game, &state, "d4xe5");
    assert_eq!(
        game.format_state(&after),
        "......../......../......../..BBW.../......../......../......../........ b"
    );
    assert_eq!(after.pawns(Player::SECOND).count_ones(), 2);
    // e5 stands beside Black's pawns, not diagonally ahead of them: they can only step.
    assert_eq!(moves(&game, &after), ["c5-b4", "c5-c4", "c5-d4", "d5-c4", "d5-d4", "d5-e4"]);
}

#[test]
fn own_pawns_block_diagonal_steps() {
    // 3 . . W W W . . .    d2 has its own pawns ahead and on both diagonals: no move.
    // 2 . . W W W . . .    c2 and e2 keep only their outer diagonal.
    let game = Breakthrough::standard();
    let state = position(
        &game,
        "......B./......../......../......../......../..WWW.../..WWW.../........ w",
    );
    let texts = moves(&game, &state);
    assert!(texts.iter().all(|t| !t.starts_with("d2")), "{texts:?}");
    assert!(texts.contains(&"c2-b3".to_string()) && texts.contains(&"e2-f3".to_string()));
    assert!(!texts.contains(&"c2-d3".to_string()) && !texts.contains(&"e2-d3".to_string()));
}

#[test]
fn pawns_on_the_edge_files_do_not_wrap_round() {
    // 8 B . . . . . . B    Black's a8 and h8 step inwards or straight only;
    // 2 W . . . . . . W    White's a2 and h2 likewise (no h2 -> a4 through the bit layout).
    let game = Breakthrough::standard();
    let white = position(
        &game,
        "B......B/......../......../......../......../......../W......W/........ w",
    );
    assert_eq!(moves(&game, &white), ["a2-a3", "a2-b3", "h2-g3", "h2-h3"]);
    let black = position(
        &game,
        "B......B/......../......../......../......../......../W......W/........ b",
    );
    assert_eq!(moves(&game, &black), ["a8-a7", "a8-b7", "h8-g7", "h8-h7"]);
    // Edge captures: h5 takes g4 and a5 takes b4, but nothing across the board edge.
    let edge = position(
        &game,
        "......../......../......../B......B/.W....W./......../......../........ b",
    );
    assert_eq!(moves(&game, &edge), ["a5-a4", "a5xb4", "h5-h4", "h5xg4"]);
}

#[test]
fn reaching_the_far_row_wins() {
    let game = Breakthrough::standard();
    // 8 . . . . . . . B
    // 7 . . . . . . W .    g7 steps to f8 or g8, or takes h8: each wins at once.
    let state = position(
        &game,
        ".......B/......W./......../......../......../......../B......./........ w",
    );
    assert_eq!(game.outcome(&state), None);
    for text in ["g7-f8", "g7-g8", "g7xh8"] {
        let after = play(&game, &state, text);
        assert_eq!(game.outcome(&after), Some(Outcome::Winner(Player::FIRST)), "{text}");
        assert!(moves(&game, &after).is_empty(), "{text}");
    }
    // Black's far row is row 1.
    let black = position(
        &game,
        "......../......../......../......../......../......../.B....../...W.... b",
    );
    let after = play(&game, &black, "b2-b1");
    assert_eq!(game.outcome(&after), Some(Outcome::Winner(Player::SECOND)));
    assert_eq!(game.count_moves(&after), 0);
}

#[test]
fn capturing_every_enemy_pawn_wins() {
    // 5 . . . . B . . .
    // 4 . . . W . . . .    d4xe5 takes Black's last pawn
    let game = Breakthrough::standard();
    let state = position(
        &game,
        "......../......../......../....B.../...W..../......../......../........ w",
    );
    let after = play(&game, &state, "d4xe5");
    assert_eq!(after.pawns(Player::SECOND), 0);
    assert_eq!(game.outcome(&after), Some(Outcome::Winner(Player::FIRST)));
    assert!(moves(&game, &after).is_empty());
}

#[test]
fn a_finished_game_has_no_moves_even_with_pawns_left() {
    // White reached h8 last move; Black still has pawns that could move.
    let game = Breakthrough::standard();
    let state = position(
        &game,
        ".......W/BBBBBBB./......../......../......../......../WWWWWWW./WWWWWWW. b",
    );
    assert!(moves(&game, &state).is_empty());
    assert_eq!(game.outcome(&state), Some(Outcome::Winner(Player::FIRST)));
}

#[test]
fn captures_come_first_in_generation_order() {
    let game = Breakthrough::standard();
    let state = position(
        &game,
        "......../......../......../..B.B.../...W..../......../......../........ w",
    );
    let mut list = MoveList::new();
    game.generate_moves(&state, &mut list);
    let texts: Vec<String> = list.iter().map(|&m| game.format_move(&state, m)).collect();
    assert_eq!(texts, ["d4xc5", "d4xe5", "d4-d5"]);
}

#[test]
fn move_keys_are_distinct_and_inside_the_key_space() {
    for (cols, rows) in [(8, 8), (3, 4), (16, 4), (4, 16)] {
        let game = Breakthrough::new(cols, rows).unwrap();
        let space = game.move_key_space();
        assert_eq!(space as usize, (cols * rows) * (cols * rows));
        let mut state = game.initial_state();
        let mut list = MoveList::new();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        loop {
            game.generate_moves(&state, &mut list);
            if list.is_empty() {
                break;
            }
            let mut keys: Vec<u32> = list.iter().map(|&m| game.move_key(&state, m)).collect();
            assert!(keys.iter().all(|&k| k < space), "{cols}x{rows}: {keys:?} >= {space}");
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), list.len(), "{cols}x{rows}: shared keys in {state:?}");
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            game.apply(&mut state, list[(seed % list.len() as u64) as usize]);
        }
    }
}

#[test]
fn hash_follows_transpositions_and_the_side_to_move() {
    let game = Breakthrough::standard();
    let start = game.initial_state();
    let a = play(&game, &play(&game, &play(&game, &start, "a2-a3"), "h7-h6"), "b2-b3");
    let b = play(&game, &play(&game, &play(&game, &start, "b2-b3"), "h7-h6"), "a2-a3");
    assert_eq!(a, b);
    assert_eq!(game.hash(&a), game.hash(&b));
    let white = position(
        &game,
        "B......./......../......../......../......../......../......../W....... w",
    );
    let black = position(
        &game,
        "B......./......../......../......../......../......../......../W....... b",
    );
    assert_ne!(game.hash(&white), game.hash(&black));
    assert_ne!(game.hash(&start), game.hash(&play(&game, &start, "a2-a3")));
}

#[test]
fn the_state_is_small_enough_to_copy() {
    assert_eq!(std::mem::size_of::<BreakthroughState>(), 24);
}

#[test]
fn board_sizes_outside_a_u64_are_rejected() {
    assert_eq!(Breakthrough::new(9, 8), Err(Error::Size { cols: 9, rows: 8 }));
    for (cols, rows) in [(2, 8), (8, 3), (17, 4), (4, 17), (8, 9), (13, 5)] {
        assert!(Breakthrough::new(cols, rows).is_err(), "{cols}x{rows}");
    }
    for (cols, rows) in [(3, 4), (8, 8), (16, 4), (4, 16), (7, 9), (6, 10)] {
        let game = Breakthrough::new(cols, rows).unwrap();
        assert_eq!((game.cols(), game.rows()), (cols, rows));
    }
    assert!(Breakthrough::new(9, 8).unwrap_err().to_string().contains("9x8"));
}

#[test]
fn the_smallest_board_starts_with_captures_only() {
    // 4 B B B
    // 3 B B B
    // 2 W W W    every straight step is blocked: the only moves are the four captures
    // 1 W W W
    let game = Breakthrough::new(3, 4).unwrap();
    let start = game.initial_state();
    assert_eq!(moves(&game, &start), ["a2xb3", "b2xa3", "b2xc3", "c2xb3"]);
}

#[test]
fn every_game_ends_within_the_move_bound() {
    // Each move takes a pawn one row forward: at most 2 * cols * (rows - 1) moves per side.
    for (cols, rows) in [(8, 8), (3, 4), (4, 16), (16, 4)] {
        let game = Breakthrough::new(cols, rows).unwrap();
        let bound = 2 * 2 * cols * (rows - 1);
        let mut list = MoveList::new();
        for first in 0..20 {
            let mut state = game.initial_state();
            let mut plies = 0;
            // Always the last move generated (a quiet move when there is one), the slowest way
            // to play.
            loop {
                game.generate_moves(&state, &mut list);
                if list.is_empty() {
                    break;
                }
                let pick = if plies == 0 { first % list.len() } else { list.len() - 1 };
                game.apply(&mut state, list[pick]);
                plies += 1;
                assert!(plies <= bound, "{cols}x{rows}");
            }
            assert!(game.outcome(&state).is_some());
        }
    }
}

#[test]
fn evaluation_is_zero_sum_and_prefers_advanced_safe_pawns() {
    let game = Breakthrough::standard();
    assert_eq!(game.evaluate(&game.initial_state(), Player::FIRST), 0);
    let white = |text: &str| {
        let state = position(&game, text);
        let v = game.evaluate(&state, Player::FIRST);
        assert_eq!(v, -game.evaluate(&state, Player::SECOND), "{text}");
        v
    };
    let back = white("B......./......../......../......../......../...W..../......../........ b");
    let forward =
        white("B......./......../......../...W..../......../......../......../........ b");
    assert!(forward > back, "{forward} <= {back}");
    // 7 . . . . . B . .    f7 and e6 attack each other. With Black to move, White's e6
    // 6 . . . . W . . .    hangs (nothing defends it); with White to move, Black's f7 does.
    let hanging =
        white("B......./.....B../....W.../......../......../......../......../........ b");
    let to_move =
        white("B......./.....B../....W.../......../......../......../......../........ w");
    let defended =
        white("B......./.....B../....W.../...W..../......../......../......../........ b");
    assert_eq!(to_move - hanging, 2 * ply_breakthrough::Standard::DEFAULT.hanging);
    assert!(defended > to_move + 100, "{defended} <= {to_move} + a pawn");
}
