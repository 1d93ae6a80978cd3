//! A scripted NBoard session: the tools' NBoard server playing 2-player 8x8 Reversi.

use ply::search::{Agent, Budget, Position, SearchError, SearchReport, Value};
use ply::{Game, MoveList, Notation};
use ply_reversi::{Reversi, ReversiMove, ReversiState};
use ply_tools::engines::nboard::{NBoardCodec, NBoardEngine};
use ply_tools::error::ToolError;

/// Reversi in the NBoard protocol, as the bundle registers it.
fn codec() -> NBoardCodec<Reversi> {
    NBoardCodec {
        game_record: |g, s| ply_reversi::nboard::format_ggf(g, s).map_err(ToolError::input),
        read_game: |g, t| ply_reversi::ggf::read(g, t).map_err(ToolError::input),
        format_move: ply_reversi::nboard::format_move,
        parse_move: |g, s, t| g.parse_move(s, t).map_err(ToolError::input),
    }
}

/// An engine for 2-player 8x8 Reversi over [`Last`].
fn engine() -> NBoardEngine<Reversi, Last> {
    NBoardEngine::new(Reversi::new(8, 2).unwrap(), codec(), Last, "ply")
}

/// Plays the last listed move and reports the depth it was given as its value.
struct Last;
impl Agent<Reversi> for Last {
    fn name(&self) -> String {
        "last".into()
    }
    fn choose(
        &mut self,
        game: &Reversi,
        position: Position<'_, ReversiState>,
        budget: &Budget,
    ) -> Result<SearchReport<ReversiMove>, SearchError> {
        let mut moves = MoveList::new();
        game.generate_moves(position.state, &mut moves);
        let mv = *moves.last().ok_or(SearchError::NoLegalMoves)?;
        let mut report = SearchReport::instant(mv, Default::default());
        report.value = Value::Heuristic(10.0 * budget.depth.unwrap_or(0) as f64);
        Ok(report)
    }
}

const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

#[test]
fn scripted_session() {
    let mut e = engine();
    assert_eq!(e.handle("nboard 2"), ["set myname ply"]);
    assert_eq!(e.version(), 2);
    assert!(e.handle("set depth 5").is_empty());
    assert_eq!(e.depth(), 5);
    let game = format!("set game (;GM[Othello]PC[NBoard]DT[2014-02-21]PB[a]PW[b]RE[?]TI[15:00]TY[8]{START}B[F5]W[F6]B[D3//1.5]W[C5/-2/3.1];)");
    assert!(e.handle(&game).is_empty());
    let rules = Reversi::new(8, 2).unwrap();
    assert_eq!(
        rules.format_state(e.state()),
        "......../......../...1..../...11.../..2221../.....2../......../........ 1"
    );
    assert_eq!(e.handle("ping 7"), ["pong 7"]);
    // The last legal move of Black here is e6... whatever it is, `go` names it and does not
    // play it.
    let mut moves = MoveList::new();
    rules.generate_moves(e.state(), &mut moves);
    let expected = rules.format_move(e.state(), *moves.last().unwrap()).to_uppercase();
    let reply = e.handle("go");
    assert_eq!(reply.len(), 1);
    assert!(reply[0].starts_with(&format!("=== {expected}/5.00/")), "{reply:?}");
    assert_eq!(rules.to_move(e.state()).index(), 0);
    assert!(e.handle(&format!("move {expected}/5.00/0.1")).is_empty());
    assert_eq!(rules.to_move(e.state()).index(), 1);
    let hint = e.handle("hint 1");
    assert!(hint.iter().any(|l| l.starts_with("search ") && l.ends_with(" 5.00 0 5")), "{hint:?}");
    assert!(e.handle("set contempt 0").is_empty());
    assert!(e.handle("unknown command").is_empty());
    assert_eq!(e.handle("learn"), ["learned"]);
    assert!(e.handle("quit").is_empty());
    assert!(e.quit_requested());
}

#[test]
fn bad_input_is_reported_not_played() {
    let mut e = engine();
    e.handle("nboard 2");
    let before = *e.state();
    let reply = e.handle("move A1");
    assert!(reply[0].starts_with("status bad move: illegal move"), "{reply:?}");
    assert_eq!(*e.state(), before);
    assert!(e.handle("set depth x")[0].contains("bad depth"));
    assert!(e.handle("set game (;GM[Othello]TY[10]BO[10 -- *];)")[0].contains("this game is 8x8"));
    assert!(e.handle("set game (;GM[Othello];)")[0].contains("no BO"));
    let out_of_turn = format!("set game (;{START}W[F5];)");
    assert!(e.handle(&out_of_turn)[0].contains("out of turn"));
    assert_eq!(*e.state(), before);
    // Bare moves, as NBoard 1.1 sends them.
    assert!(e.handle("F5").is_empty());
    assert_ne!(*e.state(), before);
}

#[test]
fn passes_are_read_and_answered_as_pa() {
    let rules = Reversi::new(8, 2).unwrap();
    // White (O) to move: b1 is its only disc, c1..h1 are Black's, so White has no
    // placement while Black has a1.
    let board = format!("-O{}{}", "*".repeat(6), "-".repeat(56));
    let (state, moves) = ply_reversi::ggf::read(&rules, &format!("(;BO[8 {board} O];)")).unwrap();
    assert!(moves.is_empty());
    let mut moves = MoveList::new();
    rules.generate_moves(&state, &mut moves);
    assert_eq!(moves.as_slice(), [ReversiMove::Pass]);
    let mut e = engine();
    e.handle(&format!("set game (;BO[8 {board} O];)"));
    assert!(e.handle("go")[0].starts_with("=== PA"));
    assert!(e.handle("move PA").is_empty());
    assert_eq!(rules.to_move(e.state()).index(), 0);
}
