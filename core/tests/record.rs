//! Game records: ply's plain text replayed with the history rules, and the PDN reader and
//! writer shared by the draughts games.

use ply::games::TicTacToe;
use ply::record::pdn::{self, GameType, Scoring};
use ply::record::{read_text, replay, write_text, WrittenMove};
use ply::{Game, MoveList, Notation, Outcome, Player};

/// Two tokens on a line of five cells, one a player, moved one cell left (`l`) or right
/// (`r`); the first player wins on reaching the last cell. The position repeats as the
/// players shuttle, and its third occurrence is a draw.
struct Shuttle;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Cells {
    at: [u8; 2],
    side: u8,
}

impl Game for Shuttle {
    type State = Cells;
    type Move = i8;
    type Score = i32;

    fn initial_state(&self) -> Cells {
        Cells { at: [1, 1], side: 0 }
    }
    fn num_players(&self) -> usize {
        2
    }
    fn to_move(&self, state: &Cells) -> Player {
        Player(state.side)
    }
    fn generate_moves(&self, state: &Cells, moves: &mut MoveList<i8>) {
        moves.clear();
        if self.outcome(state).is_none() {
            let at = state.at[usize::from(state.side)];
            moves.extend([-1i8, 1].into_iter().filter(|d| (0..5).contains(&(at as i8 + d))));
        }
    }
    fn apply(&self, state: &mut Cells, mv: i8) {
        let at = &mut state.at[usize::from(state.side)];
        *at = (*at as i8 + mv) as u8;
        state.side ^= 1;
    }
    fn outcome(&self, state: &Cells) -> Option<Outcome> {
        (state.at[0] == 4).then_some(Outcome::Winner(Player::FIRST))
    }
    fn evaluate(&self, _state: &Cells, _player: Player) -> i32 {
        0
    }
    fn hash(&self, state: &Cells) -> Option<u64> {
        Some(u64::from(state.at[0]) | u64::from(state.at[1]) << 8 | u64::from(state.side) << 16)
    }
    fn repetition_limit(&self) -> Option<u32> {
        Some(3)
    }
}

impl Notation for Shuttle {
    type Error = std::io::Error;

    fn format_move(&self, _state: &Cells, mv: i8) -> String {
        if mv < 0 { "l" } else { "r" }.to_string()
    }
    fn parse_move(&self, state: &Cells, text: &str) -> Result<i8, std::io::Error> {
        let mv = match text {
            "l" => -1,
            "r" => 1,
            _ => return Err(std::io::Error::other(format!("bad move {text:?}: expected l or r"))),
        };
        let mut legal = MoveList::new();
        self.generate_moves(state, &mut legal);
        legal
            .contains(&mv)
            .then_some(mv)
            .ok_or_else(|| std::io::Error::other(format!("illegal move {text}")))
    }
    fn format_state(&self, state: &Cells) -> String {
        format!("{}{}{}", state.at[0], state.at[1], state.side)
    }
    fn parse_state(&self, text: &str) -> Result<Cells, std::io::Error> {
        let d: Vec<u8> = text.bytes().map(|b| b.wrapping_sub(b'0')).collect();
        match d[..] {
            [a, b, s] if a < 5 && b < 5 && s < 2 => Ok(Cells { at: [a, b], side: s }),
            _ => Err(std::io::Error::other(format!("bad position {text:?}"))),
        }
    }
}

#[test]
fn read_text_refuses_a_move_after_a_repetition_draw() {
    let game = Shuttle;
    // 110 comes back after every fourth ply: the third time, after ply 8, the game is drawn.
    let shuffle = "110\nr\nr\nl\nl\nr\nr\nl\nl\n";
    let (start, moves) = read_text(&game, shuffle).unwrap();
    assert_eq!(start, game.initial_state());
    assert_eq!(moves.len(), 8);
    let err = read_text(&game, &format!("{shuffle}\nr\n")).unwrap_err();
    assert_eq!(err.line, 11, "{err}");
    assert_eq!(err.to_string(), "line 11: 5. r: the game was already drawn by repetition");
    // The same moves without the repetition rule's draw are a legal game: the rules alone
    // would have taken the ninth move.
    let mut state = game.initial_state();
    for &mv in moves.iter().chain([&1]) {
        assert!(game.parse_move(&state, game.format_move(&state, mv).as_str()).is_ok());
        game.apply(&mut state, mv);
    }
}

#[test]
fn read_text_refuses_a_move_after_the_end_and_names_its_line() {
    let game = Shuttle;
    let err = read_text(&game, "300\nr\nl\nr\n").unwrap_err();
    assert_eq!(err.to_string(), "line 3: 1... l: the game is over");
    let err = read_text(&game, "110\n\nr\nx\n").unwrap_err();
    assert_eq!(err.to_string(), "line 4: 1... bad move \"x\": expected l or r");
    let err = read_text(&game, "\n\n9\n").unwrap_err();
    assert_eq!(err.line, 3, "{err}");
    assert_eq!(read_text(&game, " \n").unwrap_err().line, 0);
}

#[test]
fn write_text_and_read_text_round_trip() {
    let game = TicTacToe;
    let start = game.initial_state();
    let moves: Vec<u8> = vec![4, 0, 8];
    let text = write_text(&game, &start, &moves);
    assert_eq!(read_text(&game, &text).unwrap(), (start, moves));
}

#[test]
fn replay_numbers_moves_from_the_side_that_starts() {
    let game = Shuttle;
    let written = |text: &str, line| WrittenMove { text: text.to_string(), line };
    let second = game.parse_state("111").unwrap();
    let err = replay(&game, &second, &[written("r", 1), written("r", 2), written("z", 3)]);
    assert_eq!(err.unwrap_err().to_string(), "line 3: 2... bad move \"z\": expected l or r");
}

#[test]
fn parse_skips_comments_variations_nags_and_escapes() {
    let text = "\u{feff}% an escape line\n[Event \"a \\\"b\\\" \\\\ c\"]\n[Site  unquoted  ]\n\
                {one\ntwo} 1. 11-15!? (1. 9-13\n{x\n} (1... 22-18)) $2\n; c\n23-19 2.8-11\n*";
    let game = pdn::parse(text).unwrap();
    assert_eq!(game.tags.len(), 2);
    assert_eq!(game.tag("Event").unwrap().value, "a \"b\" \\ c");
    assert_eq!(game.tag("Site").unwrap().value, "unquoted");
    assert_eq!(game.tag("Site").unwrap().line, 3);
    assert!(game.tag("Round").is_none());
    let moves: Vec<_> = game.moves.iter().map(|m| (m.text.as_str(), m.line)).collect();
    assert_eq!(moves, [("11-15", 5), ("23-19", 9), ("8-11", 9)]);
    assert_eq!(game.result.as_deref(), Some("*"));
}

#[test]
fn parse_reads_the_first_game_only() {
    let text = "[Event \"a\"]\n1. 32-28 19-23\n[Event \"b\"]\n1. 33-28 2-0\n";
    let game = pdn::parse(text).unwrap();
    assert_eq!(game.moves.len(), 2);
    assert_eq!(game.result, None, "the next game's tags end it, not a result");
    let game = pdn::parse("1. 32-28 2-0 1. 33-28").unwrap();
    assert_eq!(game.moves.len(), 1);
    assert_eq!(game.result.as_deref(), Some("2-0"));
    assert!(pdn::parse("").unwrap().is_empty());
    assert!(pdn::parse("{only a comment}\n").unwrap().is_empty());
}

#[test]
fn parse_errors_name_their_line() {
    for (text, line, says) in [
        ("{never", 1, "comment"),
        ("\n(1. 9-13", 2, "variation"),
        ("1. 11-15\n\n)", 3, ") closes no variation"),
        ("[Event \"x\"\n", 1, "never closed"),
        ("\n[Event \"x\" y]", 2, "text after the quoted value"),
        ("\n\n[ \"x\"]", 3, "without a name"),
        ("[Event x", 1, "never closed"),
    ] {
        let err = pdn::parse(text).unwrap_err();
        assert_eq!(err.line, line, "{text:?}: {err}");
        assert!(err.to_string().contains(says), "{text:?}: {err}");
    }
}

#[test]
fn write_numbers_moves_and_never_splits_a_number_from_its_move() {
    let moves: Vec<String> = (0..40).map(|i| format!("{}-{}", 10 + i % 20, 14 + i % 20)).collect();
    let tags = [("Event", "x".to_string())];
    let text = pdn::write(&tags, &moves, false, "1/2-1/2");
    let (head, movetext) = text.split_once("\n\n").unwrap();
    assert_eq!(head, "[Event \"x\"]");
    assert_eq!(text.split_whitespace().last(), Some("1/2-1/2"), "{text}");
    for line in movetext.lines() {
        assert!(line.len() <= pdn::WIDTH, "{line:?}");
        assert!(!line.ends_with('.'), "a number left at the end of {line:?}");
    }
    assert!(movetext.lines().count() > 3);
    let numbers = movetext.split_whitespace().filter(|w| w.ends_with('.')).count();
    assert_eq!(numbers, 20);
    let read = pdn::parse(&text).unwrap();
    assert_eq!(read.moves.iter().map(|m| m.text.clone()).collect::<Vec<_>>(), moves);
    // The second player first: `1...`, then the first player's `2.`.
    let second = pdn::write(&[], &moves[..3], true, "*");
    assert_eq!(second, "\n1... 10-14 2. 11-15 12-16 *\n");
}

#[test]
fn write_escapes_tag_values() {
    let text = pdn::write(&[("Event", "say \"hi\" \\o/".to_string())], &[], false, "*");
    assert_eq!(text, "[Event \"say \\\"hi\\\" \\\\o/\"]\n\n*\n");
    assert_eq!(pdn::parse(&text).unwrap().tag("Event").unwrap().value, "say \"hi\" \\o/");
}

#[test]
fn write_game_counts_repetition_and_stops_at_an_illegal_move() {
    let game = Shuttle;
    let start = game.initial_state();
    let shuffle = [1, 1, -1, -1, 1, 1, -1, -1];
    let text = pdn::write_game(&game, &start, &shuffle, Scoring::TwoPoints, &[]);
    assert!(text.starts_with("[Event \"ply game\"]\n[Result \"1-1\"]\n\n"), "{text}");
    assert!(text.ends_with("4. l l 1-1\n"), "{text}");
    let bad = pdn::write_game(&game, &start, &[1, -1, 5], Scoring::OnePoint, &[]);
    assert!(bad.contains("{ply 3: not a legal move; the record stops here} *"), "{bad}");
    let from = game.parse_state("301").unwrap();
    let won =
        pdn::write_game(&game, &from, &[1, 1], Scoring::OnePoint, &[("GameType", "99".into())]);
    assert!(won.contains("[Result \"1-0\"]\n[GameType \"99\"]\n[SetUp \"1\"]\n[FEN \"301\"]\n"));
    assert!(won.ends_with("\n1... r 2. r 1-0\n"), "{won}");
}

#[test]
fn read_game_checks_the_game_type_and_the_fen() {
    let game = Shuttle;
    let kind = GameType { number: 21, first: 'W', size: 8, standard_size: 8 };
    let read = |text: &str| {
        pdn::read_game(
            &game,
            text,
            &kind,
            |_| Ok(()),
            |s, t| game.parse_move(s, t).map_err(|e| e.to_string()),
        )
    };
    let (start, moves) = read("[FEN \"301\"]\n1... r 2. r 1-0").unwrap();
    assert_eq!((start.at, moves), ([3, 0], vec![1, 1]));
    let err = read("[Event \"x\"]\n[GameType \"20\"]\n*").unwrap_err();
    assert_eq!(err.to_string(), "line 2: GameType 20 is international draughts; this game is English draughts (GameType 21)");
    let err = read("[GameType \"21,B,8,8,N1,0\"]\n*").unwrap_err();
    assert!(err.to_string().contains("Black moving first"), "{err}");
    let err = read("[GameType \"21,W\"]\n*").unwrap_err();
    assert!(err.to_string().contains("malformed"), "{err}");
    let err = read("\n[FEN \"77\"]\n*").unwrap_err();
    assert_eq!(err.to_string(), "line 2: FEN tag: bad position \"77\"");
    let err = read("{nothing}").unwrap_err();
    assert_eq!(err.line, 0);
    assert!(err.to_string().contains("no PDN game"), "{err}");
    let refused = pdn::read_game(
        &game,
        "[Variant \"x\"]\n*",
        &kind,
        |g| match g.tag("Variant") {
            Some(t) => Err(ply::record::ReadRecordError::new(t.line, "no variants")),
            None => Ok(()),
        },
        |_, _| Err(String::new()),
    );
    assert_eq!(refused.unwrap_err().to_string(), "line 1: no variants");
    // ply's plain record, recognised by its first line.
    assert_eq!(read("111\nr\n").unwrap().1, vec![1]);
}
