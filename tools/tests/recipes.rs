//! The five common changes of docs/architecture.md ("Where a change goes"), each made here
//! from outside the crate, against the public API only: a new game, a new agent, a new option
//! value, a new engine protocol's codec on a game, and a new tool. None of them edits
//! `registry.rs` or any other file of the tools.

use std::sync::Arc;

use ply::arena::{play_game, Seat as ArenaSeat};
use ply::games::{ConnectFour, TicTacToe};
use ply::search::{Agent, Budget, Position, SearchError, SearchReport};
use ply::{Game, MoveList};
use ply_tools::dynamic::DynGame;
use ply_tools::error::ToolResult;
use ply_tools::play::Seat;
use ply_tools::registry::{GameEntry, GameOptions, Registry};
use ply_tools::spec::AgentSpec;

/// Recipe 1, a new game: an `impl Game + Notation` (here the core's Connect Four on a small
/// board) and a registration; every tool then plays it, through the registry alone.
#[test]
fn a_new_game_is_one_registration() {
    let mut registry = Registry::new();
    registry.add(
        GameEntry::new("small-connect", "Connect Four on 5x4, three in a row", |_| {
            Ok(ConnectFour::new(5, 4, 3).expect("a valid board"))
        })
        .seat_names(&["Red", "Yellow"]),
    );
    let game = registry.get("small-connect").unwrap().load(&GameOptions::default()).unwrap();
    assert_eq!(game.perft(&game.initial_state(), 3).unwrap(), 125);
    let mut session =
        game.session(vec![Seat::Human, Seat::Engine(spec("alphabeta:depth=4"))], 1, None).unwrap();
    session.play_text("3").unwrap();
    let report = session.engine_move().unwrap();
    assert_eq!(session.view(None).unwrap().moves[1].text, report.best);
    assert_eq!(session.view(None).unwrap().names, ["Red", "Yellow"]);
}

/// Recipe 2, a new agent: an `impl Agent<G>`; the arena, the terminal and every front end
/// play it through the one interface (a spec name for it is one line of `spec::Algorithm`).
#[test]
fn a_new_agent_plays_through_the_agent_interface() {
    /// Always the last legal move.
    struct Last;
    impl<G: Game> Agent<G> for Last {
        fn name(&self) -> String {
            "last".into()
        }
        fn choose(
            &mut self,
            game: &G,
            position: Position<'_, G::State>,
            _budget: &Budget,
        ) -> Result<SearchReport<G::Move>, SearchError> {
            let mut moves = MoveList::new();
            game.generate_moves(position.state, &mut moves);
            let mv = *moves.last().ok_or(SearchError::NoLegalMoves)?;
            Ok(SearchReport::instant(mv, std::time::Duration::ZERO))
        }
    }
    let game = TicTacToe;
    let ab = ply_tools::agents::AgentKit::<TicTacToe>::default()
        .build(&spec("alphabeta:depth=9"), 1)
        .unwrap();
    let mut seats = vec![
        ArenaSeat::new(Box::new(Last), Budget::depth(1)),
        ArenaSeat::new(ab, Budget::depth(9)),
    ];
    let played = play_game(&game, &game.initial_state(), &mut seats, 9).unwrap();
    assert!(played.outcome.reward(ply::Player::SECOND, 2) >= 0.5, "perfect play never loses");
}

/// Recipe 3, a new option value: a named evaluation is one `GameEntry::evaluator` line, and
/// every spec can name it (`eval=NAME`); new spec keys are one line of the key table
/// (`spec::KEYS`), from which parser, text and help follow.
#[test]
fn a_new_named_evaluation_is_one_line_of_the_registration() {
    let entry = GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe))
        .evaluator("zero", |_: &TicTacToe, _: &_, _: ply::Player| 0i32);
    let mut agent = entry.kit.build(&spec("alphabeta:depth=2,eval=zero"), 1).unwrap();
    let report = agent
        .choose(&TicTacToe, Position::new(&TicTacToe.initial_state()), &Budget::depth(2))
        .unwrap();
    assert_eq!(report.value, ply::search::Value::Heuristic(0.0));
    assert!(ply_tools::spec::KEYS.iter().all(|k| ply_tools::spec::accepted().contains(k.name)));
}

/// Recipe 4, a new engine protocol on a game: the game's codec for it, registered with
/// `GameEntry::engine`; specs of that protocol then build for the game (here the JSON-lines
/// codec on tic-tac-toe, over a command that is not there: refused before any game, with the
/// system's reason).
#[test]
fn an_engine_protocol_is_one_codec_in_the_registration() {
    let plain = GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe));
    assert!(plain.kit.build(&spec("jsonl:cmd=/nonexistent"), 1).is_err(), "no codec, no engine");
    use ply_tools::error::ToolError;
    // A codec whose conversions are never reached: the engine does not start.
    let codec = ply_tools::engines::jsonl::JsonlCodec::<TicTacToe> {
        request: |_, _| Err(ToolError::input("unused")),
        parse_path: |_, _, _| Err(ToolError::input("unused")),
        read_board: |_, _, _| Err(ToolError::input("unused")),
        legal_paths: |_, _| Err(ToolError::input("unused")),
        other_boards: None,
    };
    let spoken = GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe)).engine(codec);
    let mut agent = spoken.kit.build(&spec("jsonl:cmd=/nonexistent"), 1).unwrap();
    let e = agent.ready().unwrap_err();
    assert!(e.to_string().contains("No such file"), "{e}");
}

/// Recipe 5, a new tool: a function over the registry's games behind [`DynGame`]. This one
/// surveys every game's branching factor by random play; it needs no line of `registry.rs`.
fn branching_factors(registry: &Registry, plies: usize) -> ToolResult<Vec<(String, f64)>> {
    let mut out = Vec::new();
    for entry in registry.games() {
        let game: Arc<dyn DynGame> = entry.load(&GameOptions::default())?;
        let mut state = game.initial_state();
        let (mut total, mut seen) = (0usize, 0usize);
        for ply in 0..plies {
            let moves = game.legal_moves(&state)?;
            if moves.is_empty() {
                break;
            }
            total += moves.len();
            seen += 1;
            state = game.apply_index(&state, (ply * 7919) % moves.len())?;
        }
        out.push((game.name().to_string(), total as f64 / seen.max(1) as f64));
    }
    Ok(out)
}

#[test]
fn a_new_tool_needs_no_edit_to_the_registry() {
    let mut registry = Registry::new();
    registry.add(GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe)));
    registry.add(GameEntry::new("connect-four", "Connect Four", |_| Ok(ConnectFour::standard())));
    let survey = branching_factors(&registry, 6).unwrap();
    assert_eq!(survey.len(), 2);
    assert_eq!(survey[0].0, "tictactoe");
    assert!((survey[0].1 - 6.5).abs() < 1e-9, "{survey:?}"); // 9, 8, ..., 4
    assert!((survey[1].1 - 7.0).abs() < 1e-9, "{survey:?}");
}

fn spec(text: &str) -> AgentSpec {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}
