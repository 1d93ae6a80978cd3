//! One test per rule, each run for White and, on the colour-flipped position, for Black.
//!
//! Positions are written from White's side (White moves up, towards row 8); the helper runs
//! every check a second time on the mirrored position with Black to move and maps the
//! results back, so each assertion holds for both colours.

use ply::{Game, MoveList, Notation, Outcome, Player};
use ply_impasse::{Error, Impasse, ImpasseState, Move, MoveKind};

/// A position seen from White's side, played either as is or colour-flipped.
struct View {
    game: Impasse,
    state: ImpasseState,
    flipped: bool,
}

/// Mirrors the rows of every square in an action text (`c3b4` <-> `c6b5`).
fn flip_text(t: &str) -> String {
    t.as_bytes()
        .chunks(2)
        .map(|c| format!("{}{}", c[0] as char, (b'9' - c[1] + b'0') as char))
        .collect()
}

impl View {
    /// The position as White sees it (the flipped state flipped back).
    fn white(&self) -> ImpasseState {
        if self.flipped {
            self.state.flip()
        } else {
            self.state
        }
    }

    /// The legal action texts, sorted, written from White's side.
    fn texts(&self) -> Vec<String> {
        let mut moves = MoveList::new();
        self.game.generate_moves(&self.state, &mut moves);
        let mut t: Vec<String> = moves.iter().map(|m| self.back(&m.to_string())).collect();
        t.sort();
        t
    }

    fn back(&self, t: &str) -> String {
        if self.flipped {
            flip_text(t)
        } else {
            t.to_string()
        }
    }

    /// The action with this (White-side) text.
    fn find(&self, text: &str) -> Move {
        let t = self.back(text);
        self.game.parse_move(&self.state, &t).unwrap_or_else(|e| panic!("{t}: {e}"))
    }

    /// Plays the action with this (White-side) text.
    fn play(&mut self, text: &str) -> Move {
        let m = self.find(text);
        self.game.apply(&mut self.state, m);
        m
    }

    /// The board lines from White's side, row 8 first, joined by `/`.
    fn board(&self) -> String {
        let s = self.game.format_state(&self.white());
        s.split(' ').next().unwrap().to_string()
    }

    /// The score of the player who is White in the written position.
    fn white_score(&self) -> u32 {
        self.white().score(Player::new(0))
    }

    /// The player who is White in the written position.
    fn me(&self) -> Player {
        Player::new(usize::from(self.flipped))
    }
}

/// Runs `check` on `position` (White to move) and on its colour-flipped twin.
fn both_colours(position: &str, check: impl Fn(&mut View)) {
    let game = Impasse::new();
    let state = game.parse_state(position).unwrap_or_else(|e| panic!("{e}"));
    for flipped in [false, true] {
        let state = if flipped { state.flip() } else { state };
        let mut view = View { game: game.clone(), state, flipped };
        check(&mut view);
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    let mut s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    s.sort();
    s
}

#[test]
fn single_slides_forward_until_any_piece_blocks() {
    // 8 . . . . . . . .
    // 7 . . . . . . . .
    // 6 . . . . . . . .
    // 5 B . . . w . . .    the black double on a5 and the white single on e5 block c3
    // 4 . . . . . . . b
    // 3 . . w . . . . .
    // 2 . . . . . . . .
    // 1 . . . . . . . .
    //   a b c d e f g h
    both_colours(
        "......../......../......../B...w.../.......b/..w...../......../........ w",
        |v| {
            let from_c3: Vec<String> =
                v.texts().into_iter().filter(|t| t.starts_with("c3")).collect();
            assert_eq!(from_c3, strings(&["c3b4", "c3d4"]));
            let from_e5: Vec<String> =
                v.texts().into_iter().filter(|t| t.starts_with("e5")).collect();
            // e5 reaching row 8 must crown, with c3 as the only other single.
            assert_eq!(from_e5, strings(&["e5d6", "e5c7", "e5b8c3", "e5f6", "e5g7", "e5h8c3"]));
            assert_eq!(v.find("c3d4").kind(), MoveKind::SingleSlide);
        },
    );
}

#[test]
fn double_slides_backward_until_blocked() {
    // 6 . . . W . . . .    the double on d6 slides down; the black single on f4 blocks
    // 5 . . . . . . . .
    // 4 . . . . . b . .
    both_colours(
        "......../......../...W..../......../.....b../......../......../........ w",
        |v| {
            assert_eq!(v.texts(), strings(&["d6c5", "d6b4", "d6a3", "d6e5"]));
            let m = v.play("d6a3");
            assert_eq!((m.kind(), m.bears_off()), (MoveKind::DoubleSlide, false));
            assert_eq!(
                v.board(),
                "......../......../......../......../.....b../W......./......../........"
            );
        },
    );
}

#[test]
fn transpose_moves_the_crown_onto_a_single_in_a_nearer_row() {
    // 6 . . . . w . . .    e6 is in a farther row: no transpose onto it
    // 5 . . . W . . . .
    // 4 . . w . . . . .    c4 is adjacent and nearer: d5c4 transposes
    both_colours(
        "......../......../....w.../...W..../..w...../......../......../.......b w",
        |v| {
            let texts = v.texts();
            assert!(texts.contains(&"d5c4".to_string()));
            assert!(!texts.contains(&"d5e6".to_string()));
            let m = v.play("d5c4");
            assert_eq!((m.kind(), m.bears_off(), m.crown()), (MoveKind::Transpose, false, None));
            assert_eq!(
                v.board(),
                "......../......../....w.../...w..../..W...../......../......../.......b"
            );
        },
    );
}

#[test]
fn double_reaching_the_near_row_bears_off() {
    // 3 . . W . . . . .    c3 slides to a1 or e1 and bears off there
    both_colours(
        "......../......../......../.......b/......../..W...../......../........ w",
        |v| {
            assert_eq!(v.texts(), strings(&["c3b2", "c3a1", "c3d2", "c3e1"]));
            assert!(v.find("c3e1").bears_off() && !v.find("c3d2").bears_off());
            let before = v.white_score();
            v.play("c3e1");
            assert_eq!(v.white_score(), before + 1);
            assert_eq!(
                v.board(),
                "......../......../......../.......b/......../......../......../....w..."
            );
        },
    );
}

#[test]
fn transpose_onto_the_near_row_bears_off() {
    // 2 . . W . . . . .
    // 1 . w . . . . . .    c2b1: the crown lands on b1, which bears off at once
    both_colours(
        "......../......../......../.......b/......../......../..W...../.w...... w",
        |v| {
            assert_eq!(v.texts(), strings(&["b1a2", "c2b1", "c2d1"]));
            let m = v.play("c2b1");
            assert_eq!((m.kind(), m.bears_off()), (MoveKind::Transpose, true));
            assert_eq!(v.white_score(), 10);
            assert_eq!(
                v.board(),
                "......../......../......../.......b/......../......../..w...../.w......"
            );
        },
    );
}

#[test]
fn bear_off_gives_the_waiting_far_row_single_its_crown() {
    // 8 . . . w . . . .    d8 waits for a crown: no other single
    // 2 . . W . . . . .    bearing off leaves a single on b1 or d1, which crowns d8
    both_colours(
        "...w..../......../......../.......b/......../......../..W...../........ w",
        |v| {
            assert_eq!(v.texts(), strings(&["c2b1b1", "c2d1d1"]));
            let m = v.play("c2d1d1");
            assert!(m.bears_off());
            assert_eq!(m.crown().map(|c| c.target.to_string()), Some(v.back("d8")));
            assert_eq!(v.white_score(), 10);
            assert_eq!(
                v.board(),
                "...W..../......../......../.......b/......../......../......../........"
            );
        },
    );
}

#[test]
fn crown_is_deferred_until_another_single_exists() {
    // 7 . . w . . . . .    c7 reaches row 8 with no other single: no crown yet
    // 5 . . . . W . . b
    both_colours(
        "......../..w...../......../....W..b/......../......../......../........ w",
        |v| {
            let m = v.play("c7d8");
            assert_eq!(m.crown(), None);
            v.play("h5g4");
            // e5 slides to a1 and bears off; the new single on a1 crowns d8.
            let texts = v.texts();
            assert!(texts.contains(&"e5a1a1".to_string()), "{texts:?}");
            assert!(!texts.contains(&"e5a1".to_string()));
            assert!(texts.contains(&"e5d4".to_string()));
            v.play("e5a1a1");
            assert_eq!(
                v.board(),
                "...W..../......../......../......../......b./......../......../........"
            );
        },
    );
}

#[test]
fn impasse_removes_a_single_or_the_crown_of_a_double() {
    // 8 . b . . . . . .    a7 is blocked by b8
    // 7 w . . . . . . .
    // 2 . W . . . . . .    b2 is blocked by a1 and c1
    // 1 B . B . . . . .
    let position = ".b....../w......./......../......../......../......../.W....../B.B..... w";
    both_colours(position, |v| {
        assert_eq!(v.texts(), strings(&["a7", "b2"]));
        assert_eq!(v.find("a7").kind(), MoveKind::ImpasseSingle);
        v.play("a7");
        assert_eq!(v.white_score(), 10);
    });
    both_colours(position, |v| {
        let m = v.play("b2");
        assert_eq!((m.kind(), m.crown()), (MoveKind::ImpasseDouble, None));
        assert_eq!(v.white_score(), 10);
        assert_eq!(
            v.board(),
            ".b....../w......./......../......../......../......../.w....../B.B....."
        );
    });
}

#[test]
fn two_far_row_singles_either_can_be_crowned() {
    // 8 . . . w . W . .    f8 is blocked; removing its crown leaves two far-row singles
    // 7 . . . . b . b .
    both_colours(
        "...w.W../....b.b./......../......../......../......../......../........ w",
        |v| {
            assert_eq!(v.texts(), strings(&["d8", "f8d8", "f8f8"]));
            let m = v.find("f8d8");
            assert_eq!(m.crown().map(|c| c.target.to_string()), Some(v.back("f8")));
            v.play("f8f8");
            assert_eq!(v.white_score(), 10);
            assert_eq!(
                v.board(),
                "...W..../....b.b./......../......../......../......../......../........"
            );
        },
    );
}

#[test]
fn same_text_crowns_are_different_moves_and_the_first_is_played() {
    // 8 . b . w . W . .    removing f8's crown: d8 or f8 can be crowned from a7, both
    // 7 w . . . b . b .    printed f8a7; the referee plays the first, crowning d8
    both_colours(
        ".b.w.W../w...b.b./......../......../......../......../......../........ w",
        |v| {
            let mut moves = MoveList::new();
            v.game.generate_moves(&v.state, &mut moves);
            let same: Vec<Move> =
                moves.iter().copied().filter(|m| v.back(&m.to_string()) == "f8a7").collect();
            assert_eq!(same.len(), 2);
            assert_ne!(same[0], same[1]);
            assert_eq!(moves.len(), 6);
            let played = v.find("f8a7");
            assert_eq!(played, same[0]);
            assert_eq!(played.crown().map(|c| c.target.to_string()), Some(v.back("d8")));
        },
    );
}

#[test]
fn removing_the_last_checker_wins() {
    // 8 . b . . . . . .
    // 7 w . . . . . . .    White's last checker, blocked: the impasse removal wins
    both_colours(
        ".b....../w......./......../......../......../......../......../........ w",
        |v| {
            assert_eq!(v.texts(), strings(&["a7"]));
            v.play("a7");
            assert_eq!(v.game.outcome(&v.state), Some(Outcome::Winner(v.me())));
            assert_eq!(v.game.count_moves(&v.state), 0);
        },
    );
}

#[test]
fn game_is_drawn_after_250_plies() {
    let game = Impasse::new();
    let start = game.initial_state();
    let late = game.format_state(&start).replace(" w 0 0", " b 0 0 249");
    let mut s = game.parse_state(&late).unwrap();
    assert_eq!(game.outcome(&s), None);
    let mut moves = MoveList::new();
    game.generate_moves(&s, &mut moves);
    game.apply(&mut s, moves[0]);
    assert_eq!(s.ply(), 250);
    assert_eq!(game.outcome(&s), Some(Outcome::Draw));
    game.generate_moves(&s, &mut moves);
    assert!(moves.is_empty());
    // A win on the 250th ply is still a win.
    let mut s = game
        .parse_state(
            "......../......../......../......../......../......../...W...b/......w. b 9 11 249",
        )
        .unwrap();
    let m = game.parse_move(&s, "h2").unwrap();
    game.apply(&mut s, m);
    assert_eq!(game.outcome(&s), Some(Outcome::Winner(Player::new(1))));
}

#[test]
fn notation_round_trips() {
    let game = Impasse::new();
    let mut s = game.initial_state();
    let mut moves = MoveList::new();
    let mut rng = 7u64;
    for _ in 0..300 {
        let text = game.format_state(&s);
        assert_eq!(game.parse_state(&text), Ok(s), "{text}");
        assert_eq!(s.to_string(), text);
        assert_eq!(text.parse::<ImpasseState>(), Ok(s));
        game.generate_moves(&s, &mut moves);
        if moves.is_empty() {
            break;
        }
        for &m in moves.iter() {
            let t = game.format_move(&s, m);
            let back = game.parse_move(&s, &t).unwrap();
            assert_eq!(back.to_string(), t);
            let firsts = moves.iter().filter(|x| x.to_string() == t).count();
            if firsts == 1 {
                assert_eq!(back, m);
            }
        }
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        game.apply(&mut s, moves[(rng >> 33) as usize % moves.len()]);
    }
    let start = game.initial_state();
    assert_eq!(game.parse_move(&start, " d2h6 a comment"), game.parse_move(&start, "d2h6"));
}

#[test]
fn notation_errors_are_typed() {
    let game = Impasse::new();
    let s = game.initial_state();
    assert!(matches!(game.parse_move(&s, "d2h7"), Err(Error::IllegalMove(_))));
    assert!(matches!(game.parse_move(&s, "d2"), Err(Error::IllegalMove(_))));
    assert!(matches!(game.parse_move(&s, "d2x7"), Err(Error::MoveSyntax(_))));
    assert!(matches!(game.parse_move(&s, ""), Err(Error::MoveSyntax(_))));
    let good = game.format_state(&s);
    let syntax = |t: &str| matches!(game.parse_state(t), Err(Error::PositionSyntax { .. }));
    let impossible = |t: &str| matches!(game.parse_state(t), Err(Error::ImpossiblePosition { .. }));
    assert!(syntax(""));
    assert!(syntax(&good.replacen("/", "", 1)));
    assert!(syntax(&good.replacen(".W.b", ".W.x", 1)));
    assert!(syntax(&good.replacen(".W.b", ".W.bb", 1)));
    assert!(syntax(&good.replace(" w ", " x ")));
    assert!(syntax(&good.replace(" w 0 0", " w 0")));
    assert!(syntax(&good.replace(" w 0 0", " w 0 z")));
    assert!(syntax(&good.replace(" w 0 0", " w 0 0 1 2")));
    assert!(syntax(".W.b.W.b/b.W.b.W./......../......../......../......../.B.w.B.w/w.B.w.B."));
    assert!(impossible(&good.replace(" w 0 0", " w 1 0")));
    assert!(impossible(&good.replace(" w 0 0", " w 0 0 3")));
    assert!(impossible(&good.replace(" w 0 0", " w 0 0 252")));
    assert!(impossible(&good.replacen("w.B.w.B.", "W.B.w.B.", 1)));
    assert!(impossible(&good.replacen("........", "WWWWWWWW", 1)));
    assert!(impossible(
        "......../......../......../......../......../......../......../.......b w"
    ));
    let err = game.parse_state("x w").unwrap_err().to_string();
    assert!(err.contains("\"x w\""), "{err}");
}

#[test]
fn flipped_positions_have_flipped_moves() {
    let game = Impasse::new();
    let mut s = game.initial_state();
    let mut moves = MoveList::new();
    let mut flipped_moves = MoveList::new();
    let mut rng = 99u64;
    for ply in 0..250 {
        game.generate_moves(&s, &mut moves);
        game.generate_moves(&s.flip(), &mut flipped_moves);
        let mut a: Vec<String> = moves.iter().map(|m| m.flip().to_string()).collect();
        let mut b: Vec<String> = flipped_moves.iter().map(|m| m.to_string()).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "ply {ply}");
        assert_eq!(game.evaluate(&s, Player::new(0)), game.evaluate(&s.flip(), Player::new(1)));
        if ply % 25 == 0 {
            let p = |st: &ImpasseState| ply::perft(&game, st, 2, ply::PerftMode::MakeAll);
            assert_eq!(p(&s), p(&s.flip()));
        }
        if moves.is_empty() {
            break;
        }
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let m = moves[(rng >> 33) as usize % moves.len()];
        let mut t = s.flip();
        game.apply(&mut t, m.flip());
        game.apply(&mut s, m);
        let pieces = |x: &ImpasseState| {
            [0, 1].map(|p| (x.singles(Player::new(p)), x.doubles(Player::new(p))))
        };
        assert_eq!(pieces(&t), pieces(&s.flip()));
        assert_ne!(t.side_to_move(), s.side_to_move());
    }
}

#[test]
fn incremental_hash_matches_a_fresh_one() {
    let game = Impasse::new();
    let mut s = game.initial_state();
    let mut moves = MoveList::new();
    let mut rng = 3u64;
    let mut seen = std::collections::HashSet::new();
    while game.outcome(&s).is_none() {
        let fresh = game.parse_state(&game.format_state(&s)).unwrap();
        assert_eq!(game.hash(&s), game.hash(&fresh));
        assert!(seen.insert(game.hash(&s).unwrap()));
        game.generate_moves(&s, &mut moves);
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        game.apply(&mut s, moves[(rng >> 33) as usize % moves.len()]);
    }
}

#[test]
fn a_far_row_single_is_the_only_single_at_the_start_of_a_turn() {
    let game = Impasse::new();
    let mut moves = MoveList::new();
    let far = [0xffu64 << 56, 0xff];
    for seed in 1..40u64 {
        let mut s = game.initial_state();
        let mut rng = seed;
        while game.outcome(&s).is_none() {
            for p in 0..2 {
                let singles = s.singles(Player::new(p));
                if singles & far[p] != 0 {
                    assert_eq!(singles.count_ones(), 1, "{}", game.format_state(&s));
                }
            }
            game.generate_moves(&s, &mut moves);
            let texts: std::collections::HashSet<String> =
                moves.iter().map(|m| m.to_string()).collect();
            assert_eq!(texts.len(), moves.len());
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            game.apply(&mut s, moves[(rng >> 33) as usize % moves.len()]);
        }
    }
}

#[test]
fn render_marks_the_last_move_and_tells_the_sides_apart_without_colour() {
    use ply::picture::{chip, mark, Chip};
    let game = Impasse::new();
    let mut state = game.initial_state();
    let mv = game.parse_move(&state, "d2h6").unwrap();
    game.apply(&mut state, mv);
    let plain = game.render(&state, Some(mv), false);
    assert!(!plain.contains('\x1b'), "{plain}");
    assert!(plain.contains("[.]") && plain.contains("[w]"), "{plain}");
    for letter in ['w', 'W', 'b', 'B'] {
        assert!(plain.contains(letter), "{letter} in {plain}");
    }
    assert!(plain.contains("   a  b  c  d  e  f  g  h\n"), "{plain}");
    // With colour every piece is a chip that carries its own background.
    let coloured = game.render(&state, Some(mv), true);
    assert!(coloured.contains(&mark(&chip(Chip::Light, "w"))), "{coloured}");
    assert!(coloured.contains(&chip(Chip::Dark, "B")), "{coloured}");
    assert!(!coloured.contains("\x1b[1;97m"), "no bare white letters: {coloured}");
}

#[test]
fn diagram_draws_singles_and_doubles_with_white_at_the_bottom() {
    use ply::diagram::{Piece, PieceKind, Shade};
    let game = Impasse::new();
    let start = game.initial_state();
    let d = game.diagram(&start).unwrap();
    assert_eq!(
        (d.rows, d.cols, d.col_labels[0].as_str(), d.row_labels[0].as_str()),
        (8, 8, "a", "8")
    );
    let piece = |p: usize, count: u32| Some(Piece::many(Player::new(p), PieceKind::Man, count));
    assert_eq!(d.cells[d.index(0, 1)].piece, piece(0, 2), "b8: a white double");
    assert_eq!(d.cells[d.index(0, 3)].piece, piece(1, 1), "d8: a black single");
    assert_eq!(d.cells[d.index(7, 0)].piece, piece(0, 1), "a1: a white single");
    assert_eq!(d.cells[d.index(7, 2)].piece, piece(1, 2), "c1: a black double");
    let checkers: u32 = d.cells.iter().filter_map(|c| c.piece).map(|p| p.count).sum();
    assert_eq!(checkers, 24);
    for (i, cell) in d.cells.iter().enumerate() {
        let dark = (i / 8 + i % 8) % 2 == 1;
        assert_eq!(cell.shade, if dark { Shade::Dark } else { Shade::Light }, "{i}");
        assert!(dark || cell.piece.is_none(), "{i}");
    }
    // A slide: from d2 (a white single) to h6.
    let slide = game.parse_move(&start, "d2h6").unwrap();
    let cells = game.move_cells(&start, slide);
    assert_eq!(cells, [d.index(6, 3), d.index(2, 7)]);
    assert_eq!(d.cells[cells[0]].piece, piece(0, 1));
}

#[test]
fn move_cells_of_crowns_bear_offs_and_removals() {
    let game = Impasse::new();
    // e5 reaches h8 and must crown with c3: the cells are the slide's.
    let s = game
        .parse_state("......../......../......../B...w.../.......b/..w...../......../........ w")
        .unwrap();
    let crown = game.parse_move(&s, "e5h8c3").unwrap();
    assert_eq!(game.move_cells(&s, crown), [3 * 8 + 4, 7]);
    // The double on d2 slides back to c1 and bears off: still its start and end.
    let s = game
        .parse_state("......../......../......../......../.......b/......../...W..../........ w")
        .unwrap();
    let bear = game.parse_move(&s, "d2c1").unwrap();
    assert!(bear.bears_off());
    assert_eq!(game.move_cells(&s, bear), [6 * 8 + 3, 7 * 8 + 2]);
    // A white single on a1 blocked by b2 has no move: it is removed, one cell.
    let s = game
        .parse_state("......../......../......../......../......../......../.b....../w....... w")
        .unwrap();
    let removal = game.parse_move(&s, "a1").unwrap();
    assert_eq!(removal.kind(), MoveKind::ImpasseSingle);
    assert_eq!(game.move_cells(&s, removal), [7 * 8]);
}

/// White sees `render`'s picture; Black sees the same board turned half round: row 1 at the
/// top and row 8 at the bottom, each row read from `h` to `a` with the column letters below
/// in that order, the last move's squares still in brackets, the score line as it was.
#[test]
fn render_for_turns_the_board_for_black() {
    let game = Impasse::new();
    let mut state = game.initial_state();
    let mv = game.parse_move(&state, "d2h6").unwrap();
    game.apply(&mut state, mv);
    for color in [false, true] {
        let white = game.render_for(&state, Some(mv), color, Player::FIRST);
        assert_eq!(white, game.render(&state, Some(mv), color));
    }
    let plain = game.render(&state, Some(mv), false);
    let turned = game.render_for(&state, Some(mv), false, Player::SECOND);
    assert!(!turned.contains('\x1b'));
    let (p, t): (Vec<&str>, Vec<&str>) = (plain.lines().collect(), turned.lines().collect());
    assert_eq!(p.len(), 10);
    assert_eq!(t.len(), 10);
    // The squares of a board line, after its row number.
    let cells = |line: &str| {
        let chars: Vec<char> = line[2..].chars().collect();
        chars.chunks(3).map(|c| c.iter().collect::<String>()).collect::<Vec<_>>()
    };
    for r in 0..8 {
        assert_eq!(t[r][..2], p[7 - r][..2], "row numbers move with their rows: {turned}");
        let mut row = cells(p[7 - r]);
        row.reverse();
        assert_eq!(cells(t[r]), row, "{plain}\n{turned}");
    }
    assert!(t[0].starts_with("1 ") && t[7].starts_with("8 "), "{turned}");
    assert_eq!(t[8], "   h  g  f  e  d  c  b  a");
    assert_eq!(t[9], p[9]);
    assert_eq!(turned.matches('[').count(), 2, "{turned}");
    // d2, emptied, is the fifth square of the second line; h6 the first of the sixth.
    assert_eq!(cells(t[1])[4], "[.]", "{turned}");
    assert_eq!(cells(t[5])[0], "[w]", "{turned}");
}
