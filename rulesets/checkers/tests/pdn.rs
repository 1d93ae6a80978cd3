//! Game records in PDN: written and read back, published games read, bad files refused.

use ply::{Game, MoveList, Notation, Outcome, Player, Record};
use ply_checkers::{EnglishCheckers, Move, Rules};

fn standard() -> EnglishCheckers {
    EnglishCheckers::new(8, Rules::Standard).unwrap()
}

/// A game from `start` to its end (or `limit` plies), each move picked by a seeded
/// xorshift generator: no engine, the same game every run.
fn seeded_game(g: &EnglishCheckers, start: &str, seed: u64, limit: usize) -> Vec<Move> {
    let mut record = Record::new(g, g.parse_state(start).unwrap());
    let mut x = seed;
    while record.outcome().is_none() && record.moves().len() < limit {
        let moves = record.legal_moves();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        record.play(moves[(x % moves.len() as u64) as usize]).unwrap();
    }
    record.moves().to_vec()
}

const START: &str = "B:W21-32:B1-12";

#[test]
fn a_finished_game_round_trips_with_its_result() {
    let g = standard();
    let moves = seeded_game(&g, START, 0x9e37_79b9_7f4a_7c15, 10_000);
    let mut record = Record::new(&g, g.initial_state());
    for &m in &moves {
        record.play(m).unwrap();
    }
    let outcome = record.outcome().expect("the game was played to its end");
    let result = match outcome {
        Outcome::Winner(Player(0)) => "1-0",
        Outcome::Winner(_) => "0-1",
        _ => "1/2-1/2",
    };
    let text = g.write_record(&g.initial_state(), &moves);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("[Event \"ply game\"]"));
    assert_eq!(lines.next(), Some(format!("[Result \"{result}\"]").as_str()));
    assert_eq!(lines.next(), Some("[GameType \"21\"]"));
    assert_eq!(lines.next(), Some(""), "no FEN from the initial position:\n{text}");
    assert!(lines.next().unwrap().starts_with("1. "), "{text}");
    assert!(text.trim_end().ends_with(&format!(" {result}")), "{text}");
    assert!(text.lines().all(|l| l.len() < 80), "{text}");
    // Black moves first and every number is followed by Black's move.
    let first = g.format_move(&g.initial_state(), moves[0]);
    assert!(text.contains(&format!("1. {first} ")), "{text}");
    assert!(text.contains(&format!("{}. ", moves.len().div_ceil(2))), "{text}");
    let (start, read) = g.read_record(&text).unwrap();
    assert_eq!(start, g.initial_state());
    assert_eq!(read, moves);
}

#[test]
fn deepomatic_games_name_their_rules() {
    let g = EnglishCheckers::new(8, Rules::Deepomatic).unwrap();
    let moves = seeded_game(&g, START, 77, 10_000);
    let text = g.write_record(&g.initial_state(), &moves);
    assert!(text.contains("[GameType \"21\"]\n[Variant \"deepomatic\"]\n"), "{text}");
    assert_eq!(g.read_record(&text).unwrap().1, moves);
    // The standard game refuses it, and the Deepomatic game refuses a standard record.
    let err = standard().read_record(&text).unwrap_err();
    assert_eq!(err.line, 4, "{err}");
    assert!(err.to_string().contains("deepomatic"), "{err}");
    let plain = standard().write_record(&standard().initial_state(), &[]);
    let err = g.read_record(&plain).unwrap_err();
    assert!(err.to_string().contains("standard"), "{err}");
}

#[test]
fn other_board_sizes_are_written_in_the_game_type() {
    let g = EnglishCheckers::new(10, Rules::Standard).unwrap();
    let start = "B:W31-50:B1-20";
    let moves = seeded_game(&g, start, 5, 30);
    let text = g.write_record(&g.initial_state(), &moves);
    assert!(text.contains("[GameType \"21,B,10,10,N1,0\"]"), "{text}");
    assert_eq!(g.read_record(&text).unwrap().1, moves);
    let err = standard().read_record(&text).unwrap_err();
    assert!(err.to_string().contains("10x10"), "{err}");
    let eight = standard().write_record(&standard().initial_state(), &[]);
    assert!(g.read_record(&eight).is_err());
}

#[test]
fn a_partial_game_from_a_position_round_trips() {
    let g = standard();
    let fen = "W:W18,22,K26,27,30:B1,5,9,14,K19";
    let start = g.parse_state(fen).unwrap();
    let moves = seeded_game(&g, fen, 3, 5);
    assert_eq!(moves.len(), 5);
    let text = g.write_record(&start, &moves);
    assert!(text.contains("[Result \"*\"]\n"), "{text}");
    assert!(text.contains(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", g.format_state(&start))));
    // White moves first here: the movetext opens with "1...", and Black's reply is 2.
    let movetext = text.split("\n\n").nth(1).unwrap();
    assert!(movetext.starts_with("1... "), "{text}");
    assert!(movetext.contains(" 2. ") && movetext.contains(" 3. "), "{text}");
    assert!(movetext.trim_end().ends_with(" *"), "{text}");
    let (read_start, read) = g.read_record(&text).unwrap();
    assert_eq!(read_start, start);
    assert_eq!(read, moves);
}

/// The example game of the PDN article on Wikipedia (Edwards - Perez, itsyourturn.com
/// 2004): comments, `*` marks on starred moves, captures written with `-`, the result
/// twice.
const PUBLISHED: &str = r#"[Event "itsyourturn.com US vs. World 8/04"]
[Site ""]
[Date "2004.08.23"]
[Round "1"]
[Black "Lindus Edwards"]
[White "Anthony Perez"]
[Result "1/2-1/2"]
1. 11-15 23-18 2. 8-11 26-23 {Crescent Cross} 3. 10-14 30-26 4. 6-10 24-19 5.
15-24 27-20* {28-19 loses PP} 6. 4-8 {the popular book line is 12-16 28-24 4-8
22-17* 8-12 32-28* = same} 32-27 {Perez' cook; 28-24 apparently goes to the
previous note} 7. 12-16 {seems to be the only move with any strength} 27-24 8.
8-12 22-17 {returning to the book line mentioned before} 9. 10-15 17-10 10.
7-14 26-22* 1/2-1/2 {a very popular position} 1/2-1/2
"#;

#[test]
fn a_published_game_is_read() {
    let g = standard();
    let (start, moves) = g.read_record(PUBLISHED).unwrap();
    assert_eq!(start, g.initial_state());
    assert_eq!(moves.len(), 20);
    let mut s = start;
    for &m in &moves[..8] {
        g.apply(&mut s, m);
    }
    // 5. 15-24 is a capture written with '-': it takes the man on 19.
    assert_eq!(g.format_move(&s, moves[8]), "15x24");
}

/// The same opening with NAGs, suffixes, a variation, `;` comments, a black move number
/// written `1...` and tags in another order.
#[test]
fn annotations_and_variations_are_skipped() {
    let g = standard();
    let text = "[Result \"*\"]\n[Foo \"bar\"]\n[GameType \"21\"]\n\n\
                1. 11-15! 23-18?! $6 ; a comment to the end of the line\n\
                2. 8-11 (2. 9-14 18x9 {the other way} 5x14) 2... 26-23!! 3.10-14 *\n";
    let (_, moves) = g.read_record(text).unwrap();
    let (_, published) = g.read_record(PUBLISHED).unwrap();
    assert_eq!(moves, published[..5]);
}

#[test]
fn only_the_first_game_is_read() {
    let g = standard();
    let two = format!("{PUBLISHED}\n[Event \"second\"]\n1. 9-13 *\n");
    assert_eq!(g.read_record(&two).unwrap().1.len(), 20);
    // A game without a result token still ends at the next game's tags.
    let open = "[Event \"a\"]\n1. 11-15 23-19\n[Event \"b\"]\n1. 9-13 *\n";
    assert_eq!(g.read_record(open).unwrap().1.len(), 2);
}

/// A published problem from a position ("The Royal Tour", in the PDN article on Wikipedia):
/// White's king ends it with a nine-piece jump, which several jump orders give (the same
/// pieces taken, the same position after). Written with two of its landing squares, it is
/// read as that capture; the bare `5x32` also fits shorter jumps and is refused as
/// ambiguous.
#[test]
fn a_short_multi_jump_names_the_capture_whatever_its_order() {
    let g = standard();
    let problem = |last: &str| {
        format!(
            "[Event \"The Royal Tour\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n\
             [FEN \"W:W27,19,18,11,7,6,5:B28,26,25,20,17,10,9,4,3,2.\"]\n\
             1. 19-15 10x19 2. 5-1 3x10 3. 11-8 4x11 4. 27-24 20x27 5. 18-14 9x18\n\
             6. 1-5 2x9 7. {last} 1-0\n"
        )
    };
    let (start, moves) = g.read_record(&problem("5x7x21x32")).unwrap();
    let mut s = start;
    for &m in &moves {
        g.apply(&mut s, m);
    }
    assert_eq!(moves.last().unwrap().capture_count(), 9);
    assert_eq!(g.outcome(&s), Some(Outcome::Winner(Player(1))), "White has taken every piece");
    let err = g.read_record(&problem("5x32")).unwrap_err();
    assert_eq!(err.line, 6, "{err}");
    assert!(err.to_string().contains("ambiguous"), "{err}");
    assert!(err.to_string().contains("5x14x23x32"), "the three-piece jump fits too: {err}");
}

#[test]
fn an_illegal_move_names_its_line() {
    let g = standard();
    let text = "[Event \"x\"]\n[GameType \"21\"]\n\n1. 11-15 24-20\n2. 8-11 28-24\n3. 9-13 20-15\n";
    let err = g.read_record(text).unwrap_err();
    assert_eq!(err.line, 6, "{err}");
    assert!(err.to_string().contains("20-15"), "{err}");
    assert!(err.to_string().starts_with("line 6: 3... "), "{err}");
    let err = g.read_record("1. 11-15 23-19 2. 11-15 *").unwrap_err();
    assert_eq!(err.line, 1, "{err}");
    assert!(err.to_string().contains("2. "), "{err}");
}

#[test]
fn another_game_type_is_refused() {
    let g = standard();
    for (value, says) in [("20", "international draughts"), ("25,W,8,8,A0,0", "Russian")] {
        let text = format!("[Event \"x\"]\n[GameType \"{value}\"]\n1. 11-15 *\n");
        let err = g.read_record(&text).unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        assert!(err.to_string().contains(says), "{err}");
    }
    let err = g.read_record("[GameType \"21,W,8,8,N1,0\"]\n*").unwrap_err();
    assert!(err.to_string().contains("White moving first"), "{err}");
    assert!(g.read_record("[GameType \"21,B,8,8,N1,0\"]\n1. 11-15 *").is_ok());
}

#[test]
fn empty_and_malformed_files_are_explained() {
    let g = standard();
    for text in ["", "  \n\n", "\u{feff}"] {
        let err = g.read_record(text).unwrap_err();
        assert_eq!(err.line, 0);
        assert!(err.to_string().contains("empty"), "{err}");
    }
    let err = g.read_record("{only a comment}").unwrap_err();
    assert!(err.to_string().contains("no PDN game"), "{err}");
    let err = g.read_record("[Event \"x\"]\n{never closed\n1. 11-15").unwrap_err();
    assert_eq!(err.line, 2, "{err}");
    let err = g.read_record("[Event \"x\"]\n[FEN \"B:W99:B1\"]\n*").unwrap_err();
    assert_eq!(err.line, 2, "{err}");
    assert!(err.to_string().contains("FEN"), "{err}");
}

#[test]
fn ply_plain_records_are_still_read() {
    let g = standard();
    let moves = seeded_game(&g, START, 11, 12);
    let text = ply::record::write_text(&g, &g.initial_state(), &moves);
    assert_eq!(g.read_record(&text).unwrap().1, moves);
}

#[test]
fn no_move_is_read_after_a_repetition_draw() {
    let g = standard();
    // Kings shuffling: the start position comes back after every fourth ply.
    let text = "[FEN \"B:WK32:BK1\"]\n1. 1-5 32-28 2. 5-1 28-32 3. 1-5 32-28 4. 5-1 28-32 5. 1-5 *";
    let err = g.read_record(text).unwrap_err();
    assert!(err.to_string().contains("repetition"), "{err}");
    let mut moves = MoveList::new();
    g.generate_moves(&g.parse_state("B:WK32:BK1").unwrap(), &mut moves);
    assert!(!moves.is_empty());
    // The same in ply's plain record: refused on the line of the move.
    let plain = "B:WK32:BK1\n1-5\n32-28\n5-1\n28-32\n1-5\n32-28\n5-1\n28-32\n1-5\n";
    let err = g.read_record(plain).unwrap_err();
    assert_eq!(err.line, 10, "{err}");
    assert!(err.to_string().contains("repetition"), "{err}");
    // ply's own reader, the default of games without a record format, refuses it too.
    let err = ply::record::read_text(&g, plain).unwrap_err();
    assert_eq!(err.line, 10, "{err}");
    assert!(err.to_string().contains("5. 1-5: the game was already drawn by repetition"), "{err}");
    assert_eq!(ply::record::read_text(&g, &plain[..plain.len() - 4]).unwrap().1.len(), 8);
}

#[test]
fn a_short_game_is_written_in_the_standard_layout() {
    let g = standard();
    let mut s = g.initial_state();
    let mut moves = Vec::new();
    for text in ["11-15", "23-18", "8-11", "26-23", "10-14"] {
        let m = g.parse_move(&s, text).unwrap();
        g.apply(&mut s, m);
        moves.push(m);
    }
    let text = g.write_record(&g.initial_state(), &moves);
    assert_eq!(
        text,
        "[Event \"ply game\"]\n[Result \"*\"]\n[GameType \"21\"]\n\n\
         1. 11-15 23-18 2. 8-11 26-23 3. 10-14 *\n"
    );
}
