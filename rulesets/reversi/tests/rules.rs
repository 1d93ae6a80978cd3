//! One test per rule, each with the board it plays on (rows top first, `1`..`4` discs).

use ply::diagram::{Piece, PieceKind};
use ply::{Game, MoveList, Notation, Outcome, Player};
use ply_reversi::{Error, Reversi, ReversiMove, GLYPHS};

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
    // 4 players, 10x10: the block 12/43 (clockwise in turn order) tiled 2x2 around the
    // centre; a quarter turn renumbers the players.
    let game = Reversi::new(10, 4).unwrap();
    let rows = game.initial_state().rows();
    assert_eq!(rows[3..7], ["...1212...", "...4343...", "...1212...", "...4343..."]);
    assert!(rows[..3].iter().chain(&rows[7..]).all(|r| r == ".........."));
    // 9x9: half a square down-left of the centre.
    let rows = Reversi::new(9, 4).unwrap().initial_state().rows();
    assert_eq!(rows[3..7], ["..1212...", "..4343...", "..1212...", "..4343..."]);
    // 4x4: the block and a second disc per player.
    let rows = Reversi::new(4, 4).unwrap().initial_state().rows();
    assert_eq!(rows, ["..1.", "412.", ".432", ".3.."]);
    for size in [4, 9, 10] {
        let rows = Reversi::new(size, 4).unwrap().initial_state().rows();
        let cell = |r: usize, c: usize| rows[r].as_bytes()[c];
        // Turned a quarter turn clockwise about the block's centre, player p's disc lands on
        // one of player p + 1.
        let (top, left) = if size == 4 { (0, 0) } else { ((size - 3) / 2, (size - 4) / 2) };
        for r in 0..4 {
            for c in 0..4 {
                let (from, to) = (cell(top + r, left + c), cell(top + c, left + 3 - r));
                let next = if from == b'.' { b'.' } else { b'1' + (from - b'1' + 1) % 4 };
                assert_eq!(to, next, "{size}x{size}: {rows:?}");
            }
        }
    }
}

/// Every sequence of first moves, one per player (a pass when a player has no placement),
/// from `state`: calls `check` with the position after each whole round and the moves.
fn first_rounds(
    game: &Reversi,
    state: &ply_reversi::ReversiState,
    left: usize,
    line: &mut Vec<String>,
    check: &mut dyn FnMut(&ply_reversi::ReversiState, &[String]),
) {
    if left == 0 {
        check(state, line);
        return;
    }
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    assert!(!moves.is_empty(), "the game ended during the first round: {line:?}");
    for &mv in &moves {
        let mut next = *state;
        line.push(game.format_move(state, mv));
        game.apply(&mut next, mv);
        first_rounds(game, &next, left - 1, line, check);
        line.pop();
    }
}

/// For every player count and size, in every first round (each player moving once, every
/// choice of every player) every player has a placement when its turn comes (no pass) and
/// has discs at the end; player 1 moves first.
#[test]
fn nobody_is_eliminated_or_blocked_in_the_first_round() {
    for players in 2..=4 {
        for size in 4..=16 {
            let game = Reversi::new(size, players).unwrap();
            assert_eq!(game.to_move(&game.initial_state()), Player::new(0));
            let mut rounds = 0usize;
            first_rounds(&game, &game.initial_state(), players, &mut Vec::new(), &mut |s, line| {
                rounds += 1;
                assert!(
                    !line.iter().any(|m| m == "pass"),
                    "{size}x{size}, {players} players: a pass in {line:?}"
                );
                for p in 0..players {
                    assert!(
                        s.count(Player::new(p)) > 0,
                        "{size}x{size}, {players} players: player {} eliminated by {line:?}",
                        p + 1
                    );
                }
            });
            assert!(rounds >= players, "{size}x{size}, {players} players: {rounds} rounds");
        }
    }
}

/// The check above finds what it looks for: from the former 4-player layout (the 2x2 block
/// alone), a first round can eliminate a player.
#[test]
fn the_first_round_check_finds_eliminations() {
    let game = Reversi::from_position(
        "......../......../......../...12.../...43.../......../......../........ 1",
        4,
    )
    .unwrap();
    let mut eliminations = 0usize;
    first_rounds(&game, &game.initial_state(), 4, &mut Vec::new(), &mut |s, _| {
        eliminations += usize::from((0..4).any(|p| s.count(Player::new(p)) == 0));
    });
    assert!(eliminations > 0);
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

/// `text` without its ANSI escape sequences.
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            chars.by_ref().find(|&c| c == 'm');
        } else {
            out.push(c);
        }
    }
    out
}

/// The characters of one line of ANSI text with the background each is drawn on (`None`: the
/// terminal's own).
fn backgrounds(line: &str) -> Vec<(char, Option<u8>)> {
    let mut out = Vec::new();
    let mut bg = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push((c, bg));
            continue;
        }
        let codes: String = chars.by_ref().take_while(|&c| c != 'm').collect();
        for code in codes.trim_start_matches('[').split(';') {
            match code.parse::<u8>() {
                Ok(0) | Ok(49) => bg = None,
                Ok(n @ (40..=47 | 100..=107)) => bg = Some(n),
                _ => {}
            }
        }
    }
    out
}

#[test]
fn render_shows_coordinates_and_counts() {
    let game = Reversi::new(8, 2).unwrap();
    let state = game.initial_state();
    let text = game.render(&state, None, false);
    assert!(text.starts_with("    a b c d e f g h\n"), "{text}");
    // Player 1 (Black) is a filled disc, player 2 (White) a hollow one, on the board and in
    // the counts.
    assert_eq!(GLYPHS[..2], ['●', '○']);
    assert!(text.contains("  4 . . . ○ ● . . .  4\n"), "{text}");
    assert!(text.contains("● 1: 2  ○ 2: 2"), "{text}");
    assert!(text.contains("to move: ● 1"), "{text}");
    let mut after = state;
    let mv = game.parse_move(&state, "f5").unwrap();
    game.apply(&mut after, mv);
    // The last move in brackets.
    let text = game.render(&after, Some(mv), false);
    assert!(text.contains("  5 . . . ● ●[●]. .  5\n"), "{text}");
    assert!(!text.contains('\x1b'), "plain text has no colour: {text}");
}

/// Every player has a glyph of its own (no digits on the board), the same in the counts, and
/// in colour every square stands on the board's own background.
#[test]
fn render_tells_four_players_apart_with_and_without_colour() {
    let game = Reversi::new(8, 4).unwrap();
    let mut state = game.initial_state();
    let mut moves = MoveList::new();
    for i in 0..6 {
        game.generate_moves(&state, &mut moves);
        game.apply(&mut state, moves[i % moves.len()]);
    }
    game.generate_moves(&state, &mut moves);
    let last = moves[0];
    game.apply(&mut state, last);
    let plain = game.render(&state, Some(last), false);
    let board: Vec<&str> = plain.lines().skip(1).take(8).collect();
    let distinct: std::collections::HashSet<char> = GLYPHS.iter().copied().collect();
    assert_eq!(distinct.len(), 4);
    for p in 0..4 {
        let glyph = GLYPHS[p];
        let on_board = board.iter().map(|row| row[3..].matches(glyph).count()).sum::<usize>();
        assert_eq!(on_board, state.count(Player::new(p)) as usize, "player {}: {plain}", p + 1);
        let count = format!("{glyph} {}: {}", p + 1, state.count(Player::new(p)));
        assert!(plain.lines().last().unwrap().contains(&count), "{count}: {plain}");
    }
    assert!(board.iter().all(|row| !row[3..row.len() - 2].contains(['1', '2', '3', '4'])));
    assert_eq!(plain.matches('[').count(), 1, "{plain}");
    assert_eq!(plain.matches(']').count(), 1, "{plain}");
    // The colour picture is the same picture (empty squares as `·`).
    let colour = game.render(&state, Some(last), true);
    assert_eq!(strip_ansi(&colour).replace('·', "."), plain);
    // Every square and gap of the board has a background of the picture's own, the same
    // under every square (the board's); only the row labels are left to the terminal.
    let mut square_backgrounds = std::collections::HashSet::new();
    for row in colour.lines().skip(1).take(8) {
        let cells = backgrounds(row);
        let (label, rest) = cells.split_at(3);
        let (board, right) = rest.split_at(rest.len() - 2);
        assert!(label.iter().chain(right).all(|&(_, bg)| bg.is_none()), "{row:?}");
        assert!(board.iter().all(|&(_, bg)| bg.is_some()), "{row:?}");
        for (i, &(_, bg)) in board.iter().enumerate() {
            if i % 2 == 1 {
                square_backgrounds.insert(bg);
            }
        }
    }
    assert_eq!(square_backgrounds.len(), 1, "{square_backgrounds:?}");
    // Each player's glyph is drawn in a colour of its own.
    let mut inks = std::collections::HashSet::new();
    for glyph in GLYPHS {
        let at = colour.find(glyph).unwrap();
        let ink = &colour[colour[..at].rfind('\x1b').unwrap()..at];
        inks.insert(ink.to_string());
    }
    assert_eq!(inks.len(), 4, "{inks:?}");
}

#[test]
fn diagram_shows_the_four_centre_discs_and_each_placement() {
    let game = Reversi::new(8, 2).unwrap();
    let state = game.initial_state();
    let d = game.diagram(&state).unwrap();
    assert_eq!((d.rows, d.cols, d.cells.len()), (8, 8, 64));
    assert_eq!((d.col_labels[3].as_str(), d.row_labels[0].as_str()), ("d", "1"));
    let disc = |p: usize| Some(Piece::new(Player::new(p), PieceKind::Disc));
    // d4 and e5 are the second player's, e4 and d5 the first's.
    assert_eq!(d.cells[d.index(3, 3)].piece, disc(1));
    assert_eq!(d.cells[d.index(4, 4)].piece, disc(1));
    assert_eq!(d.cells[d.index(3, 4)].piece, disc(0));
    assert_eq!(d.cells[d.index(4, 3)].piece, disc(0));
    assert_eq!(d.cells.iter().filter(|c| c.piece.is_some()).count(), 4);
    let f5 = game.parse_move(&state, "f5").unwrap();
    assert_eq!(game.move_cells(&state, f5), [d.index(4, 5)]);
    assert_eq!(game.move_cells(&state, ReversiMove::Pass), Vec::<usize>::new());
    // Four players on 16x16: every disc of the layout is drawn for its player.
    let big = Reversi::new(16, 4).unwrap();
    let d = big.diagram(&big.initial_state()).unwrap();
    for p in 0..4 {
        let discs = d.cells.iter().filter(|c| c.piece == disc(p)).count();
        assert_eq!(discs, 4, "player {p}");
    }
    assert_eq!(d.col_labels.last().map(String::as_str), Some("p"));
}

/// Prints colour pictures of 2- and 4-player positions (with a last move) for a look at them
/// in a terminal: `cargo test -p ply-reversi -- --ignored --nocapture show_colour_boards`.
#[test]
#[ignore]
fn show_colour_boards() {
    for (size, players, line) in [(8, 2, "f5 d6 c3 d3 c4"), (10, 4, "")] {
        let game = Reversi::new(size, players).unwrap();
        let mut state = game.initial_state();
        let mut last = None;
        let mut moves = MoveList::new();
        for i in 0..8 {
            let mv = match line.split_whitespace().nth(i) {
                Some(text) => game.parse_move(&state, text).unwrap(),
                None if line.is_empty() => {
                    game.generate_moves(&state, &mut moves);
                    moves[(i * 5 + 1) % moves.len()]
                }
                None => break,
            };
            game.apply(&mut state, mv);
            last = Some(mv);
        }
        println!("{}", game.render(&state, last, true));
    }
}
