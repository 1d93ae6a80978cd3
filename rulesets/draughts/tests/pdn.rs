//! Game records in PDN: written and read back, a published game read, bad files refused.

use ply::{Game, Notation, Outcome, Player, Record};
use ply_draughts::{DraughtsState, InternationalDraughts, Move};

/// A game from `start` to its end (or `limit` plies), each move picked by a seeded
/// xorshift generator: no engine, the same game every run.
fn seeded_game(
    g: &InternationalDraughts,
    start: &DraughtsState,
    seed: u64,
    limit: usize,
) -> Vec<Move> {
    let mut record = Record::new(g, *start);
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

#[test]
fn a_finished_game_round_trips_with_its_result() {
    let g = InternationalDraughts::new();
    let start = g.initial_state();
    let moves = seeded_game(&g, &start, 0x9e37_79b9_7f4a_7c15, 100_000);
    let mut record = Record::new(&g, start);
    for &m in &moves {
        record.play(m).unwrap();
    }
    let result = match record.outcome().expect("the game was played to its end") {
        Outcome::Winner(Player(0)) => "2-0",
        Outcome::Winner(_) => "0-2",
        _ => "1-1",
    };
    let text = g.write_record(&start, &moves);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("[Event \"ply game\"]"));
    assert_eq!(lines.next(), Some(format!("[Result \"{result}\"]").as_str()));
    assert_eq!(lines.next(), Some("[GameType \"20\"]"));
    assert_eq!(lines.next(), Some(""), "no FEN from the initial position:\n{text}");
    assert!(lines.next().unwrap().starts_with("1. "), "{text}");
    assert!(text.trim_end().ends_with(&format!(" {result}")), "{text}");
    assert!(text.lines().all(|l| l.len() < 80), "{text}");
    let first = g.format_move(&start, moves[0]);
    assert!(text.contains(&format!("1. {first} ")), "{text}");
    assert!(text.contains(&format!("{}. ", moves.len().div_ceil(2))), "{text}");
    let (read_start, read) = g.read_record(&text).unwrap();
    assert_eq!(read_start, start);
    assert_eq!(read, moves);
}

#[test]
fn several_seeded_games_round_trip() {
    let g = InternationalDraughts::new();
    for seed in 1..6 {
        let moves = seeded_game(&g, &g.initial_state(), seed, 100_000);
        let text = g.write_record(&g.initial_state(), &moves);
        assert_eq!(g.read_record(&text).unwrap().1, moves, "seed {seed}");
    }
}

#[test]
fn a_partial_game_from_a_position_round_trips() {
    let g = InternationalDraughts::new();
    let start: DraughtsState = "B:WK7,28,32,33,37,38:B12,13,17,19,23,24,K44".parse().unwrap();
    let moves = seeded_game(&g, &start, 3, 5);
    assert_eq!(moves.len(), 5);
    let text = g.write_record(&start, &moves);
    assert!(text.contains("[Result \"*\"]\n"), "{text}");
    assert!(text.contains(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", g.format_state(&start))));
    // Black moves first here: the movetext opens with "1...", and White's reply is 2.
    let movetext = text.split("\n\n").nth(1).unwrap();
    assert!(movetext.starts_with("1... "), "{text}");
    assert!(movetext.contains(" 2. ") && movetext.contains(" 3. "), "{text}");
    assert!(movetext.trim_end().ends_with(" *"), "{text}");
    let (read_start, read) = g.read_record(&text).unwrap();
    assert_eq!(read_start, start);
    assert_eq!(read, moves);
}

#[test]
fn a_short_game_is_written_in_the_standard_layout() {
    let g = InternationalDraughts::new();
    let mut s = g.initial_state();
    let mut moves = Vec::new();
    for text in ["32-28", "19-23", "28x19", "14x23", "33-28"] {
        let m = g.parse_move(&s, text).unwrap();
        g.apply(&mut s, m);
        moves.push(m);
    }
    assert_eq!(
        g.write_record(&g.initial_state(), &moves),
        "[Event \"ply game\"]\n[Result \"*\"]\n[GameType \"20\"]\n\n\
         1. 32-28 19-23 2. 28x19 14x23 3. 33-28 *\n"
    );
}

/// A rapid game played on lidraughts.org (2020, game 001NahOY) as the site exports it: 16
/// tags, a clock comment after every move, 301 plies with flying kings, and Black's
/// resignation in a comment before the result.
const LIDRAUGHTS: &str = include_str!("data/lidraughts_001NahOY.pdn");

#[test]
fn a_published_game_is_read() {
    let g = InternationalDraughts::new();
    let (start, moves) = g.read_record(LIDRAUGHTS).unwrap();
    assert_eq!(start, g.initial_state());
    assert_eq!(moves.len(), 301);
    let mut s = start;
    for &m in &moves {
        g.apply(&mut s, m);
    }
    // Black resigned: the game goes on under the rules, with White far ahead.
    assert_eq!(g.outcome(&s), None);
    let [white_men, white_kings, black_men, black_kings] = s.piece_counts();
    assert!(white_men + white_kings > black_men + black_kings, "{s:?}");
    // Written again, it reads back the same.
    let again = g.write_record(&start, &moves);
    assert_eq!(g.read_record(&again).unwrap().1, moves);
    assert!(again.contains("[Result \"*\"]"), "the game did not end on the board");
}

/// NAGs, suffixes, a variation, `;` comments, `1...` move numbers and tags in another
/// order.
#[test]
fn annotations_and_variations_are_skipped() {
    let g = InternationalDraughts::new();
    let text = "[Result \"*\"]\n[Foo \"bar\"]\n[GameType \"20,W,10,10,N2,0\"]\n\n\
                1. 32-28! 19-23?! $6 ; a comment to the end of the line\n\
                2. 28x19 (2. 33-29 {the other way} 23x32) 2... 14x23!! 3.33-28 *\n";
    let (_, moves) = g.read_record(text).unwrap();
    let mut s = g.initial_state();
    let mut written = Vec::new();
    for &m in &moves {
        written.push(g.format_move(&s, m));
        g.apply(&mut s, m);
    }
    assert_eq!(written, ["32-28", "19-23", "28x19", "14x23", "33-28"]);
}

#[test]
fn only_the_first_game_is_read() {
    let g = InternationalDraughts::new();
    let two = format!("{LIDRAUGHTS}\n[Event \"second\"]\n1. 32-28 *\n");
    assert_eq!(g.read_record(&two).unwrap().1.len(), 301);
    let open = "[Event \"a\"]\n1. 32-28 19-23\n[Event \"b\"]\n1. 33-28 *\n";
    assert_eq!(g.read_record(open).unwrap().1.len(), 2);
}

#[test]
fn an_illegal_move_names_its_line() {
    let g = InternationalDraughts::new();
    let text = "[Event \"x\"]\n[GameType \"20\"]\n\n1. 32-28 19-23\n2. 33-29 18-22\n";
    let err = g.read_record(text).unwrap_err();
    assert_eq!(err.line, 5, "{err}");
    assert!(err.to_string().starts_with("line 5: 2. "), "{err}");
    assert!(err.to_string().contains("33-29"), "White must take 28x19: {err}");
    let err = g.read_record("1. 32-28 19-23 2. 28x19 14-19 *").unwrap_err();
    assert_eq!(err.line, 1, "{err}");
    assert!(err.to_string().contains("2... "), "{err}");
}

#[test]
fn another_game_type_is_refused() {
    let g = InternationalDraughts::new();
    for (value, says) in [("21", "English draughts"), ("40,W,10,10,N2,0", "Frisian")] {
        let text = format!("[Event \"x\"]\n[GameType \"{value}\"]\n1. 32-28 *\n");
        let err = g.read_record(&text).unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        assert!(err.to_string().contains(says), "{err}");
    }
    let err = g.read_record("[GameType \"20,W,8,8,N2,0\"]\n*").unwrap_err();
    assert!(err.to_string().contains("8x8"), "{err}");
    let err = g.read_record("[GameType \"draughts\"]\n*").unwrap_err();
    assert!(err.to_string().contains("number"), "{err}");
}

#[test]
fn empty_and_malformed_files_are_explained() {
    let g = InternationalDraughts::new();
    for text in ["", "  \n\n", "\u{feff}"] {
        let err = g.read_record(text).unwrap_err();
        assert_eq!(err.line, 0);
        assert!(err.to_string().contains("empty"), "{err}");
    }
    let err = g.read_record("{only a comment}").unwrap_err();
    assert!(err.to_string().contains("no PDN game"), "{err}");
    let err = g.read_record("[Event \"x\"]\n1. 32-28 (1. 33-28\n").unwrap_err();
    assert_eq!(err.line, 2, "{err}");
    let err = g.read_record("[Event \"x\"]\n[FEN \"W:W31,51:B1\"]\n*").unwrap_err();
    assert_eq!(err.line, 2, "{err}");
    assert!(err.to_string().contains("FEN"), "{err}");
}

#[test]
fn ply_plain_records_are_still_read() {
    let g = InternationalDraughts::new();
    let moves = seeded_game(&g, &g.initial_state(), 11, 12);
    let text = ply::record::write_text(&g, &g.initial_state(), &moves);
    assert_eq!(g.read_record(&text).unwrap().1, moves);
}

#[test]
fn no_move_is_read_after_a_repetition_draw() {
    let g = InternationalDraughts::new();
    // Kings shuffling (with men, so no other draw rule applies first): the start position
    // comes back after every fourth ply.
    let text = "[FEN \"W:WK46,31,32:BK5,19,20\"]\n\
                1. 46-41 5-10 2. 41-46 10-5 3. 46-41 5-10 4. 41-46 10-5 5. 46-41 *";
    let err = g.read_record(text).unwrap_err();
    assert!(err.to_string().contains("repetition"), "{err}");
    assert!(err.to_string().contains("5. 46-41"), "{err}");
    // The same in ply's plain record: refused on the line of the move.
    let plain =
        "W:WK46,31,32:BK5,19,20\n46-41\n5-10\n41-46\n10-5\n46-41\n5-10\n41-46\n10-5\n46-41\n";
    let err = g.read_record(plain).unwrap_err();
    assert_eq!(err.line, 10, "{err}");
    assert!(err.to_string().contains("repetition"), "{err}");
}
