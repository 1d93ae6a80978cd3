//! Move notation, FEN and the board picture.

use ply::diagram::{Piece, PieceKind, Shade};
use ply::{Game, MoveList, Notation, Player};
use ply_checkers::{EnglishCheckers, Error, FenError, MoveError, MoveText, Rules, Setup};

const START: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

fn game() -> EnglishCheckers {
    EnglishCheckers::new(8, Rules::Standard).unwrap()
}

#[test]
fn start_position_fen_and_opening_moves() {
    let g = game();
    let s = g.initial_state();
    assert_eq!(g.format_state(&s), START);
    assert_eq!(g.parse_state(START).unwrap(), s);
    let mut moves = MoveList::new();
    g.generate_moves(&s, &mut moves);
    let mut names: Vec<String> = moves.iter().map(|&m| g.format_move(&s, m)).collect();
    names.sort();
    assert_eq!(names, ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]);
}

#[test]
fn moves_round_trip_in_every_form() {
    let g = game();
    let s = g.parse_state("B:W18,K26,27:B1,14,15").unwrap();
    for (m, path) in g.moves_with_paths(&s) {
        let numeric = g.format_move(&s, m);
        assert_eq!(g.parse_move(&s, &numeric).unwrap(), m, "{numeric}");
        let coords = g.move_path_text(&s, m);
        assert_eq!(g.parse_move(&s, &coords).unwrap(), m, "{coords}");
        let python = format!(
            "[{}]",
            path.iter().map(|&sq| format!("{:?}", g.coords(sq))).collect::<Vec<_>>().join(", ")
        );
        assert_eq!(g.parse_move(&s, &python).unwrap(), m, "{python}");
        let short = format!("{}x{}", m.from() + 1, m.to() + 1);
        if m.is_capture() {
            assert_eq!(g.parse_move(&s, &short).unwrap(), m, "{short}");
        }
    }
}

#[test]
fn multi_jump_is_written_with_every_landing_square() {
    // Black man on 14 ... a white man on 18 and another on 27: 14x23 then 23x32.
    let g = game();
    let s = g.parse_state("B:W18,27:B14").unwrap();
    let mut moves = MoveList::new();
    g.generate_moves(&s, &mut moves);
    assert_eq!(moves.len(), 1);
    // 14 is (3,2); 18 is (4,3); landing 23 is (5,4); 27 is (6,5); landing 32 is (7,6).
    assert_eq!(g.format_move(&s, moves[0]), "14x23x32");
    assert_eq!(g.parse_move(&s, "14x32").unwrap(), moves[0]);
    assert_eq!(g.move_path_text(&s, moves[0]), "(3,2)-(5,4)-(7,6)");
}

#[test]
fn short_capture_with_two_paths_is_ambiguous() {
    // Black king on 14 (3,2) can go round the men on 10, 11, 18, 19 either way and end on
    // 14 again: 14x14 names two moves.
    let g = game();
    let s = g.parse_state("B:W10,11,18,19:BK14").unwrap();
    let err = g.parse_move(&s, "14x14").unwrap_err();
    assert!(matches!(err, Error::Move(MoveError::Ambiguous { .. })), "{err}");
    let mut moves = MoveList::new();
    g.generate_moves(&s, &mut moves);
    assert_eq!(moves.len(), 2);
    for &m in &moves {
        let full = g.format_move(&s, m);
        assert_eq!(g.parse_move(&s, &full).unwrap(), m);
    }
    assert_ne!(g.format_move(&s, moves[0]), g.format_move(&s, moves[1]));
}

#[test]
fn bad_moves_are_explained() {
    let g = game();
    let s = g.initial_state();
    for text in ["", "11", "11-", "a-b", "11--15", "(1,2)", "[(1,2)", "0-4", "(x,1)-(2,3)"] {
        assert!(
            matches!(g.parse_move(&s, text), Err(Error::Move(MoveError::Syntax(_)))),
            "{text:?}: {:?}",
            g.parse_move(&s, text)
        );
    }
    let err = g.parse_move(&s, "11-14").unwrap_err();
    assert_eq!(err.to_string(), "illegal move 11-14: not a legal move in this position");
    let Error::Move(MoveError::Illegal { legal, .. }) = err else { panic!("{err:?}") };
    assert!(legal.contains("11-15"), "the error value keeps the legal moves: {legal}");
    assert!(matches!(g.parse_move(&s, "11-33"), Err(Error::Move(MoveError::Square { .. }))));
    assert!(matches!(g.parse_move(&s, "(0,0)-(1,1)"), Err(Error::Move(MoveError::Square { .. }))));
}

#[test]
fn fen_errors_are_typed() {
    let g = game();
    type Check = fn(&FenError) -> bool;
    let cases: [(&str, Check); 8] = [
        ("", |e| matches!(e, FenError::Syntax(_))),
        ("X:W1:B2", |e| matches!(e, FenError::Syntax(_))),
        ("B:W21", |e| matches!(e, FenError::Syntax(_))),
        ("B:W21:B1:B2", |e| matches!(e, FenError::Syntax(_))),
        ("B:W21,x:B1", |e| matches!(e, FenError::Square { .. })),
        ("B:W33:B1", |e| matches!(e, FenError::Square { .. })),
        ("B:W21,21:B1", |e| matches!(e, FenError::Duplicate(21))),
        ("B:W2:B1", |e| matches!(e, FenError::ManOnCrowningRow(2))),
    ];
    for (text, check) in cases {
        match g.parse_state(text) {
            Err(Error::Fen(e)) => assert!(check(&e), "{text:?}: {e}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
    assert!(matches!(g.parse_state("B:W21:B1:Hx"), Err(Error::Fen(FenError::Counter(_)))));
    assert!(g.parse_state("B:W21,K2:B1").is_ok());
    assert!(g.parse_state("[FEN \"W:W21-24:BK1,2.\"]").is_ok());
}

#[test]
fn setup_and_move_text_round_trip() {
    for text in ["B:W18,K26:B1,K14", "W:W:B5", "B:WK1:B32:H17"] {
        let setup: Setup = text.parse().unwrap();
        assert_eq!(setup.to_string(), text);
    }
    for text in ["11-15", "22x15x8", "(5,0)-(4,1)"] {
        let m: MoveText = text.parse().unwrap();
        assert_eq!(m.to_string(), text);
    }
}

#[test]
fn larger_boards_number_their_squares_the_same_way() {
    let g = EnglishCheckers::new(10, Rules::Deepomatic).unwrap();
    let s = g.initial_state();
    // 10x10: five squares per row; Black holds 1-20, White 31-50.
    assert!(g.format_state(&s).ends_with(":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"));
    let m = g.parse_move(&s, "16-21").unwrap();
    assert_eq!(g.coords(m.from()), (3, 0));
    assert_eq!(g.coords(m.to()), (4, 1));
}

/// The picture without its ANSI codes and with its lines' trailing spaces removed.
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('\x1b') {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('m').expect("every escape ends with m");
        rest = &rest[i + end + 1..];
    }
    out.push_str(rest);
    out.lines().map(str::trim_end).collect::<Vec<_>>().join("\n")
}

/// The SGR codes (`\x1b[...m`) of a line, in order.
fn sgr_codes(line: &str) -> Vec<&str> {
    line.split('\x1b').skip(1).map(|part| &part[1..part.find('m').unwrap()]).collect()
}

#[test]
fn render_shows_coordinates_numbers_and_the_last_move() {
    let g = game();
    let mut s = g.initial_state();
    let m = g.parse_move(&s, "11-15").unwrap();
    g.apply(&mut s, m);
    let plain = g.render(&s, Some(m), false);
    assert!(!plain.contains('\x1b'));
    let lines: Vec<&str> = plain.lines().collect();
    assert!(lines[0].contains('0') && lines[0].contains('7'), "column numbers: {plain}");
    assert!(lines[3].trim_start().starts_with('2'), "row numbers: {plain}");
    assert!(plain.contains(" 11*"), "vacated square marked: {plain}");
    assert!(plain.contains("b15*"), "arrival marked: {plain}");
    assert_eq!(plain.matches('*').count(), 3, "two marks and the key: {plain}");
    assert!(plain.ends_with("White to move"));
    assert!(lines.iter().all(|l| l.len() < 80), "{plain}");
}

/// Every dark square shows its number, with or without a piece on it, and each kind of
/// piece has a letter of its own.
#[test]
fn render_keeps_every_number_and_tells_pieces_apart() {
    let g = game();
    let s = g.parse_state("B:W18,22,K26,27:B1,5,K14,K15,19").unwrap();
    let plain = g.render(&s, None, false);
    for sq in 0..32 {
        let letter = match s.piece(sq) {
            None => ' ',
            Some(p) => match (p.color, p.king) {
                (ply_checkers::Color::Black, false) => 'b',
                (ply_checkers::Color::Black, true) => 'B',
                (ply_checkers::Color::White, false) => 'w',
                (ply_checkers::Color::White, true) => 'W',
            },
        };
        let cell = format!("{letter}{}", sq + 1);
        let shown = plain
            .match_indices(&cell)
            .any(|(i, _)| !plain[i + cell.len()..].starts_with(|c: char| c.is_ascii_digit()));
        assert!(shown, "square {} as {cell:?}: {plain}", sq + 1);
    }
    // Letters followed by a square number: one per piece of each kind.
    let count = |letter: char| {
        plain
            .match_indices(letter)
            .filter(|(i, _)| plain[i + 1..].starts_with(|c: char| c.is_ascii_digit()))
            .count()
    };
    assert_eq!([count('b'), count('B'), count('w'), count('W')], [3, 2, 3, 1], "{plain}");
    assert!(plain.contains("b B Black man, king") && plain.contains("w W White man, king"));
}

#[test]
fn render_marks_captured_squares() {
    let g = game();
    let mut s = g.parse_state("B:W18,27:B14").unwrap();
    let m = g.parse_move(&s, "14x32").unwrap();
    g.apply(&mut s, m);
    let plain = g.render(&s, Some(m), false);
    assert!(plain.contains("x18 ") && plain.contains("x27 "), "taken pieces: {plain}");
    assert!(plain.contains(" 14*") && plain.contains("B32*"), "crowned on 32: {plain}");
}

/// With colour the text is the plain picture's, and every square paints its own background:
/// after a row's number, no code goes back to the terminal's colours before the row ends.
#[test]
fn colour_pictures_paint_every_square() {
    for (g, fen, mv) in [
        (game(), "B:W18,27,K30:B14,K9", Some("14x32")),
        (EnglishCheckers::new(16, Rules::Standard).unwrap(), "B:W100,K128:B1,K64", None),
    ] {
        let mut s = g.parse_state(fen).unwrap();
        let mv = mv.map(|t| g.parse_move(&s, t).unwrap());
        if let Some(m) = mv {
            g.apply(&mut s, m);
        }
        let plain = g.render(&s, mv, false);
        let colour = g.render(&s, mv, true);
        assert_eq!(strip_ansi(&colour), plain);
        for line in colour.lines().skip(1).take(g.size()) {
            let codes = sgr_codes(line);
            assert!(line[3..].starts_with('\x1b'), "the board starts with a colour: {line:?}");
            let first: Vec<u32> = codes[0].split(';').map(|c| c.parse().unwrap()).collect();
            assert!(first.iter().any(|c| (40..=47).contains(c) || (100..=107).contains(c)));
            let resets = codes
                .iter()
                .filter(|c| c.is_empty() || c.split(';').any(|x| x == "0" || x == "49"));
            assert_eq!(resets.count(), 1, "{line:?}");
            assert!(line.ends_with("\x1b[0m"), "{line:?}");
        }
    }
}

/// Prints coloured pictures (a move from the start; kings after a capture, also as Black
/// sees them) for a look in a terminal or through an ANSI-to-image converter: `cargo test -p ply-checkers --test
/// notation -- --ignored --nocapture show_pictures`.
#[test]
#[ignore = "prints pictures to look at"]
fn show_pictures() {
    let g = game();
    let mut s = g.initial_state();
    let m = g.parse_move(&s, "11-15").unwrap();
    g.apply(&mut s, m);
    println!("{}\n", g.render(&s, Some(m), true));
    let mut s = g.parse_state("W:W18,23,K27,30,31:B5,9,K14,K19,20").unwrap();
    let m = g.parse_move(&s, "23x16").unwrap();
    g.apply(&mut s, m);
    println!("{}\n", g.render(&s, Some(m), true));
    println!("{}", g.render_for(&s, Some(m), true, Player::FIRST));
}

#[test]
fn diagram_puts_black_at_the_bottom_with_square_numbers() {
    let g = game();
    let s = g.initial_state();
    let d = g.diagram(&s).unwrap();
    assert_eq!((d.rows, d.cols, d.cells.len()), (8, 8, 64));
    for (i, cell) in d.cells.iter().enumerate() {
        let (row, col) = (i / 8, i % 8);
        let dark = (row + col) % 2 == 1;
        assert_eq!(cell.shade, if dark { Shade::Dark } else { Shade::Light }, "{i}");
        assert_eq!(cell.label.is_some(), dark, "{i}");
        let expected = match row {
            _ if !dark => None,
            0..=2 => Some(Piece::new(Player::SECOND, PieceKind::Man)),
            5..=7 => Some(Piece::new(Player::FIRST, PieceKind::Man)),
            _ => None,
        };
        assert_eq!(cell.piece, expected, "{i}");
    }
    // Black's square 1 is at the bottom right, White's 32 at the top left.
    assert_eq!(d.cells[d.index(7, 6)].label.as_deref(), Some("1"));
    assert_eq!(d.cells[d.index(0, 1)].label.as_deref(), Some("32"));
    let mv = g.parse_move(&s, "11-15").unwrap();
    let cells = g.move_cells(&s, mv);
    assert_eq!(cells.len(), 2);
    assert_eq!(d.cells[cells[0]].label.as_deref(), Some("11"));
    assert_eq!(d.cells[cells[1]].label.as_deref(), Some("15"));
}

#[test]
fn diagram_cells_of_a_multi_jump_list_every_landing() {
    let g = game();
    let s = g.parse_state("B:W18,27:BK14").unwrap();
    let d = g.diagram(&s).unwrap();
    let mv = g.parse_move(&s, "14x23x32").unwrap();
    let cells = g.move_cells(&s, mv);
    let labels: Vec<_> = cells.iter().map(|&c| d.cells[c].label.clone().unwrap()).collect();
    assert_eq!(labels, ["14", "23", "32"]);
    assert_eq!(d.cells[cells[0]].piece, Some(Piece::new(Player::FIRST, PieceKind::King)));
    let big = EnglishCheckers::new(10, Rules::Standard).unwrap();
    let d = big.diagram(&big.initial_state()).unwrap();
    assert_eq!((d.rows, d.cols), (10, 10));
    assert_eq!(d.cells[d.index(0, 1)].label.as_deref(), Some("50"));
}

/// The squares of a board line of the plain picture: after the row number, cells of
/// `width` characters (the line padded back to its full length first).
fn board_cells(line: &str, size: usize, width: usize) -> Vec<String> {
    let padded = format!("{line:<len$}", len = 3 + size * width);
    let chars: Vec<char> = padded[3..].chars().collect();
    chars.chunks(width).map(|c| c.iter().collect()).collect()
}

/// White sees `render`'s picture; Black sees the same board turned half round: the rows and
/// columns, with their numbers, in reverse order, square 1's row at the bottom read right to
/// left, the marks of the last move on the same squares, and the key and side to move as
/// they were.
#[test]
fn render_for_turns_the_board_for_black() {
    for (g, fen, mv) in [
        (game(), START, "11-15"),
        (game(), "B:W18,27,K30:B14,K9", "14x32"),
        (EnglishCheckers::new(10, Rules::Standard).unwrap(), "B:W31,K40:B1,K12,13", "13-19"),
    ] {
        let mut s = g.parse_state(fen).unwrap();
        let m = g.parse_move(&s, mv).unwrap();
        g.apply(&mut s, m);
        let (black, white) = (Player::new(0), Player::new(1));
        for color in [false, true] {
            assert_eq!(g.render_for(&s, Some(m), color, white), g.render(&s, Some(m), color));
        }
        let plain = g.render(&s, Some(m), false);
        let turned = g.render_for(&s, Some(m), false, black);
        assert_eq!(strip_ansi(&g.render_for(&s, Some(m), true, black)), turned);
        let (p, t): (Vec<&str>, Vec<&str>) = (plain.lines().collect(), turned.lines().collect());
        let n = g.size();
        assert_eq!(p.len(), t.len());
        let width = g.squares().to_string().len() + 2;
        let columns = |line: &str| board_cells(line, n, width);
        let reversed = |mut cells: Vec<String>| {
            cells.reverse();
            cells
        };
        // Column numbers above, right to left.
        let heads: Vec<String> = columns(t[0]).iter().map(|c| c.trim().to_string()).collect();
        assert_eq!(heads, (0..n).rev().map(|c| c.to_string()).collect::<Vec<_>>(), "{turned}");
        for r in 0..n {
            let (shown, row) = (t[1 + r], p[n - r]);
            assert_eq!(shown[..3], row[..3], "row number moves with its row: {turned}");
            assert_eq!(columns(shown), reversed(columns(row)), "{plain}\n{turned}");
        }
        assert_eq!(t[n + 1..], p[n + 1..], "key and side to move");
        assert_eq!(turned.matches('*').count(), plain.matches('*').count());
    }
    // Square 1's line and square 32's line change places.
    let g = game();
    let s = g.initial_state();
    let (plain, turned) = (g.render(&s, None, false), g.render_for(&s, None, false, Player::FIRST));
    let (p, t): (Vec<&str>, Vec<&str>) = (plain.lines().collect(), turned.lines().collect());
    assert!(p[1].starts_with(" 0") && p[1].contains("b1 ") && p[8].ends_with("w32"), "{plain}");
    assert!(t[1].starts_with(" 7") && t[1].contains("w32 ") && t[8].ends_with("b1"), "{turned}");
    assert!(t[8].find("b4").unwrap() < t[8].find("b1").unwrap(), "right to left: {turned}");
}
