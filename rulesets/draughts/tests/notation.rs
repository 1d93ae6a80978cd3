//! Move notation and FEN: round trips, ambiguous short forms, and every error.

use ply::diagram::{Piece, PieceKind, Shade};
use ply::{Game, MoveList, Notation, Player};
use ply_draughts::{
    DraughtsState, Error, InternationalDraughts, MoveError, MoveText, ParseFenError, ParseMoveError,
};

fn pos(fen: &str) -> DraughtsState {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn quiet_moves_and_captures_in_short_form() {
    let g = InternationalDraughts::new();
    let mut s = g.initial_state();
    let mv = g.parse_move(&s, "32-28").unwrap();
    assert_eq!((mv.from(), mv.to(), mv.is_capture()), (32, 28, false));
    assert_eq!(g.format_move(&s, mv), "32-28");
    g.apply(&mut s, mv);
    let mv = g.parse_move(&s, "19-23").unwrap();
    g.apply(&mut s, mv);
    let mv = g.parse_move(&s, "28x19").unwrap();
    assert_eq!(mv.captured_squares().collect::<Vec<_>>(), [23]);
    assert_eq!(g.format_move(&s, mv), "28x19");
}

/// King 20 can reach 3 taking 12, 24 and 28, or 12, 24 and 31: `20x3` is ambiguous and
/// the full paths tell the two apart.
#[test]
fn ambiguous_short_form_lists_full_paths() {
    let g = InternationalDraughts::new();
    let s = pos("W:WK20:B10,12,24,28,31");
    let err = g.parse_move(&s, "20x3").unwrap_err();
    let Error::Move(MoveError::Ambiguous { text, candidates }) = err else {
        panic!("expected an ambiguity, got {err:?}")
    };
    assert_eq!(text, "20x3");
    assert_eq!(candidates.len(), 2);
    let mut seen = Vec::new();
    for c in &candidates {
        let mv = g.parse_move(&s, c).unwrap();
        assert_eq!(&g.format_move(&s, mv), c, "the full path is the standard text");
        seen.push(mv);
    }
    assert_ne!(seen[0], seen[1]);
    assert!(err_text(&g, &s, "20x3").contains(" or "));
}

fn err_text(g: &InternationalDraughts, s: &DraughtsState, text: &str) -> String {
    g.parse_move(s, text).unwrap_err().to_string()
}

#[test]
fn every_move_round_trips_along_seeded_games() {
    let g = InternationalDraughts::new();
    let mut list = MoveList::new();
    let mut seed = 0x1234_5678_9abc_def1_u64;
    for _ in 0..30 {
        let mut s = g.initial_state();
        for _ in 0..200 {
            g.generate_moves(&s, &mut list);
            if list.is_empty() {
                break;
            }
            for &mv in list.iter() {
                let text = g.format_move(&s, mv);
                assert_eq!(g.parse_move(&s, &text).unwrap(), mv, "{text} in {s:?}");
            }
            let fen = g.format_state(&s);
            assert_eq!(g.parse_state(&fen).unwrap(), s, "{fen}");
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = list[(seed % list.len() as u64) as usize];
            g.apply(&mut s, mv);
        }
    }
}

#[test]
fn malformed_move_text_is_a_parse_error() {
    for bad in ["", "32", "32-", "-28", "32--28", "51-46", "0-5", "32-28-23", "32x28-23", "a-b"] {
        assert_eq!(bad.parse::<MoveText>(), Err(ParseMoveError(bad.to_string())), "{bad:?}");
    }
    let g = InternationalDraughts::new();
    let err = g.parse_move(&g.initial_state(), "32-").unwrap_err();
    assert!(matches!(err, Error::ParseMove(_)));
    assert!(err.to_string().contains("\"32-\""), "{err}");
}

#[test]
fn illegal_moves_name_the_move_and_keep_the_legal_ones() {
    let g = InternationalDraughts::new();
    let s = g.initial_state();
    for bad in ["32-29", "32x28", "28-23", "19-23"] {
        let err = g.parse_move(&s, bad).unwrap_err();
        let message = err.to_string();
        assert_eq!(message, format!("illegal move {bad}: not a legal move in this position"));
        let Error::Move(MoveError::Illegal { text, legal }) = err else {
            panic!("{bad}: expected illegal, got {err:?}")
        };
        assert_eq!(text, bad);
        assert_eq!(legal.split(' ').count(), 9);
    }
    // A capture is compulsory: the quiet move is refused.
    let s = pos("W:W28,40:B23");
    assert!(g.parse_move(&s, "40-34").is_err());
    assert!(g.parse_move(&s, "28x19").is_ok());
}

#[test]
fn fen_round_trips_with_kings_and_ranges() {
    let s = pos("B:W31-35,K7:BK44,1-5");
    assert_eq!(s.to_string(), "B:WK7,31,32,33,34,35:B1,2,3,4,5,K44");
    assert!(!s.white_to_move());
    assert_eq!(pos(&s.to_string()), s);
    let g = InternationalDraughts::new();
    let start = g.initial_state();
    assert_eq!(pos("W:W31-50:B1-20"), start);
    assert_eq!(
        g.format_state(&start),
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    );
    // Draw counters travel as extra fields.
    let s = pos("W:WK46,K50,K3:BK1:R12:E7");
    assert_eq!(s.king_move_plies(), 12);
    assert_eq!(s.endgame_plies(), Some(7));
    assert_eq!(s.to_string(), "W:WK3,K46,K50:BK1:R12:E7");
}

#[test]
fn bad_fen_gives_the_reason() {
    let cases: [(&str, ParseFenError); 9] = [
        ("", ParseFenError::Syntax(String::new())),
        ("W:W31", ParseFenError::Syntax("W:W31".into())),
        ("W:W31:W32", ParseFenError::Syntax("W:W31:W32".into())),
        ("X:W31:B1", ParseFenError::Side("X".into())),
        ("W:W31,51:B1", ParseFenError::Square("51".into())),
        ("W:W31,K:B1", ParseFenError::Square("K".into())),
        ("W:W31:B1,31", ParseFenError::Duplicate(31)),
        ("W:W3:B20", ParseFenError::ManOnCrowningRow(3)),
        ("W:W31:B1:Rx", ParseFenError::Counter("Rx".into())),
    ];
    for (text, expected) in cases {
        assert_eq!(text.parse::<DraughtsState>(), Err(expected), "{text:?}");
    }
    let g = InternationalDraughts::new();
    let err = g.parse_state("W:W31,99:B1").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid square \"99\" in fen: expected 1..50, optionally prefixed by K"
    );
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
    out.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

/// The SGR codes (`\x1b[...m`) of a line, in order.
fn sgr_codes(line: &str) -> Vec<&str> {
    line.split('\x1b').skip(1).map(|part| &part[1..part.find('m').unwrap()]).collect()
}

/// True if `picture` shows `cell` (a letter or blank, then a square number) not followed
/// by another digit.
fn shows(picture: &str, cell: &str) -> bool {
    picture
        .match_indices(cell)
        .any(|(i, _)| !picture[i + cell.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

#[test]
fn render_shows_numbers_pieces_and_the_last_move() {
    let g = InternationalDraughts::new();
    let mut s = g.initial_state();
    let mv = g.parse_move(&s, "32-28").unwrap();
    g.apply(&mut s, mv);
    let plain = g.render(&s, Some(mv), false);
    assert!(!plain.contains('\x1b'));
    assert!(plain.contains(" 32*"), "vacated square marked: {plain}");
    assert!(plain.contains("w28*"), "arrival marked, number kept: {plain}");
    assert!(plain.contains(" 27 "), "{plain}");
    assert_eq!(plain.matches('*').count(), 3, "two marks and the key: {plain}");
    assert!(plain.ends_with("Black to move\n"));
    assert!(plain.lines().all(|l| l.len() < 80), "{plain}");
    // Every square's number, under a piece or not.
    for sq in 1..=50u8 {
        let letter = match s.piece_at(sq) {
            None => ' ',
            Some(p) if p.is_white() => 'w',
            Some(_) => 'b',
        };
        assert!(shows(&plain, &format!("{letter}{sq}")), "square {sq}: {plain}");
    }
}

/// Each kind of piece has a letter of its own, and a capture shows its taken pieces.
#[test]
fn render_tells_pieces_apart_and_marks_captures() {
    let g = InternationalDraughts::new();
    let mut s = pos("W:WK1,33,38:B15,24,28,K44");
    let mv = g.parse_move(&s, "33x22").unwrap();
    g.apply(&mut s, mv);
    let plain = g.render(&s, Some(mv), false);
    let count = |letter: char| {
        plain
            .match_indices(letter)
            .filter(|(i, _)| plain[i + 1..].starts_with(|c: char| c.is_ascii_digit()))
            .count()
    };
    assert_eq!([count('w'), count('W'), count('b'), count('B')], [2, 1, 2, 1], "{plain}");
    assert!(shows(&plain, "x28"), "the taken man: {plain}");
    assert!(shows(&plain, " 33*") && shows(&plain, "w22*"), "{plain}");
    assert!(shows(&plain, "W1") && shows(&plain, "B44"), "kings keep their numbers: {plain}");
    assert!(plain.contains("w W White man, king") && plain.contains("b B Black man, king"));
}

/// With colour the text is the plain picture's, and every square paints its own background:
/// after the indent, no code goes back to the terminal's colours before the row ends.
#[test]
fn colour_pictures_paint_every_square() {
    let g = InternationalDraughts::new();
    let mut s = pos("W:WK1,33,38:B15,24,28,K44");
    let mv = g.parse_move(&s, "33x22").unwrap();
    g.apply(&mut s, mv);
    let plain = g.render(&s, Some(mv), false);
    let colour = g.render(&s, Some(mv), true);
    assert_eq!(strip_ansi(&colour), plain);
    for line in colour.lines().take(10) {
        assert!(line[2..].starts_with('\x1b'), "the board starts with a colour: {line:?}");
        let codes = sgr_codes(line);
        let first: Vec<u32> = codes[0].split(';').map(|c| c.parse().unwrap()).collect();
        assert!(first.iter().any(|c| (40..=47).contains(c) || (100..=107).contains(c)));
        let resets =
            codes.iter().filter(|c| c.is_empty() || c.split(';').any(|x| x == "0" || x == "49"));
        assert_eq!(resets.count(), 1, "{line:?}");
        assert!(line.ends_with("\x1b[0m"), "{line:?}");
    }
}

/// Prints coloured pictures (a move from the start; kings after a capture, also as Black
/// sees them) for a look in a terminal or through an ANSI-to-image converter: `cargo test -p ply-draughts --test
/// notation -- --ignored --nocapture show_pictures`.
#[test]
#[ignore = "prints pictures to look at"]
fn show_pictures() {
    let g = InternationalDraughts::new();
    let mut s = g.initial_state();
    let mv = g.parse_move(&s, "32-28").unwrap();
    g.apply(&mut s, mv);
    println!("{}", g.render(&s, Some(mv), true));
    let mut s = pos("W:WK1,33,38:B15,24,28,K44");
    let mv = g.parse_move(&s, "33x22").unwrap();
    g.apply(&mut s, mv);
    println!("{}", g.render(&s, Some(mv), true));
    println!("{}", g.render_for(&s, Some(mv), true, Player::SECOND));
}

#[test]
fn diagram_puts_white_at_the_bottom_with_square_numbers() {
    let g = InternationalDraughts::new();
    let s = g.initial_state();
    let d = g.diagram(&s).unwrap();
    assert_eq!((d.rows, d.cols, d.cells.len()), (10, 10, 100));
    for (i, cell) in d.cells.iter().enumerate() {
        let (row, col) = (i / 10, i % 10);
        let dark = (row + col) % 2 == 1;
        assert_eq!(cell.shade, if dark { Shade::Dark } else { Shade::Light }, "{i}");
        let expected = match row {
            _ if !dark => None,
            0..=3 => Some(Piece::new(Player::SECOND, PieceKind::Man)),
            6..=9 => Some(Piece::new(Player::FIRST, PieceKind::Man)),
            _ => None,
        };
        assert_eq!(cell.piece, expected, "{i}");
    }
    let label = |row, col| d.cells[d.index(row, col)].label.clone().unwrap();
    assert_eq!([label(0, 1), label(1, 0), label(9, 0), label(9, 8)], ["1", "6", "46", "50"]);
    let mv = g.parse_move(&s, "32-28").unwrap();
    let labels: Vec<_> = g.move_cells(&s, mv).iter().map(|&c| d.cells[c].label.clone()).collect();
    assert_eq!(labels, [Some("32".into()), Some("28".into())]);
}

/// Labels of the cells `mv` visits.
fn cell_labels(g: &InternationalDraughts, s: &DraughtsState, mv: ply_draughts::Move) -> Vec<u8> {
    let d = g.diagram(s).unwrap();
    g.move_cells(s, mv)
        .iter()
        .map(|&c| d.cells[c].label.as_ref().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn diagram_cells_of_a_capture_list_every_landing() {
    let g = InternationalDraughts::new();
    // The white man on 38 takes 33 and 23, landing on 29 and then 18.
    let s = pos("W:W38:B23,33");
    let mv = g.parse_move(&s, "38x18").unwrap();
    assert_eq!(cell_labels(&g, &s, mv), [38, 29, 18]);
    let d = g.diagram(&s).unwrap();
    let first = g.move_cells(&s, mv)[0];
    assert_eq!(d.cells[first].piece, Some(Piece::new(Player::FIRST, PieceKind::Man)));
    // A flying king: each capture has one landing, and the path is the one written in full.
    let s = pos("W:WK20:B10,12,24,28,31");
    let mut moves = MoveList::new();
    g.generate_moves(&s, &mut moves);
    for &mv in &moves {
        let labels = cell_labels(&g, &s, mv);
        assert_eq!(labels.len() as u32, mv.capture_count() + 1, "{mv:?}");
        assert_eq!((labels[0], *labels.last().unwrap()), (mv.from(), mv.to()));
        let text: MoveText = g.format_move(&s, mv).parse().unwrap();
        if text.squares.len() > 2 {
            assert_eq!(labels, text.squares);
        }
    }
}

/// The ten squares of a board line of the plain picture: after the indent, cells of four
/// characters (the line padded back to its full length first).
fn board_cells(line: &str) -> Vec<String> {
    let padded = format!("{line:<42}");
    let chars: Vec<char> = padded[2..].chars().collect();
    chars.chunks(4).map(|c| c.iter().collect()).collect()
}

/// White sees `render`'s picture; Black sees the same board turned half round: the rows in
/// reverse order, each read right to left (squares 50 to 46 along the top, 5 to 1 along the
/// bottom), the marks and taken pieces of the last move on the same squares, and the key
/// and side to move as they were.
#[test]
fn render_for_turns_the_board_for_black() {
    let g = InternationalDraughts::new();
    for (fen, mv) in [(None, "32-28"), (Some("W:WK1,33,38:B15,24,28,K44"), "33x22")] {
        let mut s = fen.map_or_else(|| g.initial_state(), pos);
        let mv = g.parse_move(&s, mv).unwrap();
        g.apply(&mut s, mv);
        for color in [false, true] {
            let white = g.render_for(&s, Some(mv), color, Player::FIRST);
            assert_eq!(white, g.render(&s, Some(mv), color));
        }
        let plain = g.render(&s, Some(mv), false);
        let turned = g.render_for(&s, Some(mv), false, Player::SECOND);
        assert_eq!(strip_ansi(&g.render_for(&s, Some(mv), true, Player::SECOND)), turned);
        let (p, t): (Vec<&str>, Vec<&str>) = (plain.lines().collect(), turned.lines().collect());
        assert_eq!(p.len(), t.len());
        for r in 0..10 {
            let mut row = board_cells(p[9 - r]);
            row.reverse();
            assert_eq!(board_cells(t[r]), row, "{plain}\n{turned}");
        }
        assert_eq!(t[10..], p[10..], "key and side to move");
        assert_eq!(turned.matches('*').count(), plain.matches('*').count());
        assert_eq!(turned.matches('x').count(), plain.matches('x').count());
    }
    // Square 1's line and square 50's line change places.
    let s = g.initial_state();
    let (plain, turned) =
        (g.render(&s, None, false), g.render_for(&s, None, false, Player::SECOND));
    let (p, t): (Vec<&str>, Vec<&str>) = (plain.lines().collect(), turned.lines().collect());
    assert!(p[0].contains("b1 ") && p[9].contains("w50"), "{plain}");
    assert!(t[0].contains("w50 ") && t[9].contains("b1"), "{turned}");
    assert!(t[0].find("w50").unwrap() < t[0].find("w46").unwrap(), "right to left: {turned}");
    assert!(t[9].find("b5").unwrap() < t[9].find("b1").unwrap(), "right to left: {turned}");
}
