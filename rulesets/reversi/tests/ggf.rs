//! Game records: GGF for 2 players on even boards, ply's own text otherwise.

use ply::{Game, MoveList, Notation, Player};
use ply_reversi::{Reversi, ReversiMove, ReversiState};

/// A whole game from the start of `game`, choosing move `(i * step + 1) % len` at ply `i`.
fn whole_game(game: &Reversi, step: usize) -> (ReversiState, Vec<ReversiMove>, ReversiState) {
    let start = game.initial_state();
    let mut state = start;
    let mut moves = Vec::new();
    let mut legal = MoveList::new();
    loop {
        game.generate_moves(&state, &mut legal);
        if legal.is_empty() {
            return (start, moves, state);
        }
        let mv = legal[(moves.len() * step + 1) % legal.len()];
        game.apply(&mut state, mv);
        moves.push(mv);
    }
}

/// The value of property `key` in a one-game record.
fn property<'a>(text: &'a str, key: &str) -> &'a str {
    let at = text.find(&format!("{key}[")).unwrap_or_else(|| panic!("no {key} in {text}"))
        + key.len()
        + 1;
    &text[at..at + text[at..].find(']').unwrap()]
}

#[test]
fn a_whole_two_player_game_round_trips_through_ggf() {
    for size in [8, 6] {
        let game = Reversi::new(size, 2).unwrap();
        let (start, moves, end) = whole_game(&game, 7);
        let text = game.write_record(&start, &moves);
        assert!(text.starts_with("(;GM[Othello]PC[ply]PB[player 1]PW[player 2]"), "{text}");
        assert!(text.trim_end().ends_with(";)"), "{text}");
        assert_eq!(property(&text, "TY"), size.to_string());
        assert_eq!(game.read_record(&text).unwrap(), (start, moves.clone()));
        // The result: Black's disc margin at the end.
        let margin = end.count(Player(0)) as i32 - end.count(Player(1)) as i32;
        assert!(game.outcome(&end).is_some());
        assert_eq!(property(&text, "RE").parse::<f64>().unwrap(), f64::from(margin), "{text}");
        let played = &text[text.find("BO[").unwrap()..];
        assert_eq!(played.matches("B[").count() + played.matches("W[").count(), moves.len());
        // An unfinished game has no result yet.
        let half = game.write_record(&start, &moves[..10]);
        assert_eq!(property(&half, "RE"), "?");
        assert_eq!(game.read_record(&half).unwrap().1, moves[..10]);
    }
}

/// Passes are written `PA` with the colour of the side that passes, and read back.
#[test]
fn passes_round_trip_as_pa() {
    let game = Reversi::new(6, 2).unwrap();
    let (start, moves) = (1..40)
        .map(|step| whole_game(&game, step))
        .map(|(start, moves, _)| (start, moves))
        .find(|(_, moves)| moves.contains(&ReversiMove::Pass))
        .expect("a game with a pass");
    let text = game.write_record(&start, &moves);
    assert!(text.contains("B[PA]") || text.contains("W[PA]"), "{text}");
    assert_eq!(game.read_record(&text).unwrap().1, moves);
    // A record that leaves the forced pass out reads the same.
    let without = text.replacen("B[PA]", "", 1).replacen("W[PA]", "", 1);
    assert_ne!(without, text);
    let first_pass = moves.iter().position(|&m| m == ReversiMove::Pass).unwrap();
    let (_, read) = game.read_record(&without).unwrap();
    assert_eq!(read[..=first_pass], moves[..=first_pass]);
}

#[test]
fn a_game_from_a_custom_start_round_trips() {
    // White (player 2) to move on a 6x6 board that is not the standard start.
    let game = Reversi::from_position("....../.1..../.122../..21../....2./...... 2", 2).unwrap();
    let start = game.initial_state();
    let (_, moves, _) = whole_game(&game, 3);
    let text = game.write_record(&start, &moves);
    let board = property(&text, "BO");
    assert!(board.starts_with("6 -------*----") && board.ends_with(" O"), "{text}");
    assert!(text.contains("]W["), "White moves first: {text}");
    let (read_start, read_moves) = game.read_record(&text).unwrap();
    assert_eq!(game.format_state(&read_start), game.format_state(&start));
    assert_eq!(read_start, start);
    assert_eq!(read_moves, moves);
}

/// A record as GGS and NBoard write them: other properties, upper-case squares, evaluations
/// and times after the moves.
#[test]
fn a_ggs_record_is_read() {
    let text = "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[ant]PW[NewGuy]RB[2046.27]\n\
                RW[1550.00]TI[15:00//02:00]TY[8]RE[?]\n\
                BO[8 ---------------------------O*------*O--------------------------- *]\n\
                B[f5//0.01]W[D6/-1.50/2.3]B[c3//1.2]W[d3]B[C4/0.5/];)\n\
                (;GM[Othello]PC[GGS/os]TY[8];)";
    let game = Reversi::new(8, 2).unwrap();
    let (start, moves) = game.read_record(text).unwrap();
    assert_eq!(start, game.initial_state());
    let mut expected = Vec::new();
    let mut state = start;
    for square in ["f5", "d6", "c3", "d3", "c4"] {
        let mv = game.parse_move(&state, square).unwrap();
        game.apply(&mut state, mv);
        expected.push(mv);
    }
    assert_eq!(moves, expected);
}

#[test]
fn bad_records_are_rejected_naming_the_fault() {
    let game = Reversi::new(8, 2).unwrap();
    let board = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let error = |text: &str| game.read_record(text).unwrap_err();
    // An illegal move is named with its number and its line.
    let e = error(&format!("(;GM[Othello]{board}\nB[f5]W[d6]\nB[a1];)"));
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("move 3, B[a1]") && e.message.contains("illegal"), "{e}");
    let e = error(&format!("(;{board}B[f5]B[d6];)"));
    assert!(e.message.contains("move 2, B[d6]: played out of turn"), "{e}");
    let e = error(&format!("(;{board}B[z9];)"));
    assert!(e.message.contains("move 1, B[z9]: invalid move"), "{e}");
    assert!(error("(;GM[Othello]TY[8]B[f5];)").message.contains("before the board"));
    assert!(error("(;GM[Othello]TY[8];)").message.contains("no BO"));
    assert!(error("(;GM[Amazons];)").message.contains("not an Othello game"));
    assert!(error("(;GM[Othello]TY[10]BO[10 -- *];)").message.contains("this game is 8x8"));
    assert!(error("(;BO[8 --- *];)").message.contains("3 cells, expected 64"));
    assert!(error(&format!("(;{board}B[f5]")).message.contains(";)"));
    assert!(error(&format!("(;{board}B[f5;)")).message.contains("not closed"));
    assert!(error(&format!("(;{board} 7 ;)")).message.contains("unexpected '7'"));
    // A finished game takes no more moves.
    let (start, moves, _) = whole_game(&game, 5);
    let over = game.write_record(&start, &moves).replace(";)", "B[a1];)");
    assert!(error(&over).message.contains("the game is over"), "{over}");
}

/// 3 and 4 players (and odd boards) keep ply's own text; a GGF record is refused there with
/// the reason.
#[test]
fn other_games_use_ply_text() {
    for (size, players) in [(8, 4), (7, 3), (9, 2)] {
        let game = Reversi::new(size, players).unwrap();
        let (start, moves, _) = whole_game(&game, 11);
        let text = game.write_record(&start, &moves);
        assert_eq!(text, ply::record::write_text(&game, &start, &moves));
        assert!(text.starts_with(&game.format_state(&start)), "{text}");
        assert_eq!(game.read_record(&text).unwrap(), (start, moves));
        let e = game.read_record("(;GM[Othello]TY[8];)").unwrap_err();
        assert!(e.message.contains("2-player games on even boards"), "{e}");
    }
    // On an Othello board ply's text is read too.
    let game = Reversi::new(8, 2).unwrap();
    let (start, moves, _) = whole_game(&game, 2);
    let text = ply::record::write_text(&game, &start, &moves);
    assert_eq!(game.read_record(&text).unwrap(), (start, moves));
    assert_eq!(game.read_record("").unwrap_err().to_string(), "the file is empty");
}

/// Random and mutated GGF: an error or a game, never a panic; every game read writes back
/// to a record that reads as the same game.
#[test]
fn random_and_mutated_ggf_reads_or_fails_cleanly() {
    let game = Reversi::new(8, 2).unwrap();
    let games: Vec<(ReversiState, Vec<ReversiMove>)> = [1, 3, 7]
        .iter()
        .map(|&step| {
            let (start, mut moves, _) = whole_game(&game, step);
            moves.truncate(step * 5);
            (start, moves)
        })
        .collect();
    let write = |(start, moves): &(ReversiState, Vec<ReversiMove>)| {
        ply_reversi::ggf::write(&game, start, moves).expect("GGF describes 8x8 Othello")
    };
    let read = |text: &str| ply_reversi::ggf::read(&game, text);
    ply::testing::check_parser(&games, write, read, 2_000, 25).unwrap_or_else(|e| panic!("{e}"));
}
