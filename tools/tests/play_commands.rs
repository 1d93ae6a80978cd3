//! The in-game commands of the terminal loop, each driven through the loop's input as a
//! player would type it, with assertions on what the terminal shows.

use std::sync::Arc;

use ply::games::{ConnectFour, TicTacToe};
use ply::{Game, Notation, Player};
use ply_tools::error::ToolError;
use ply_tools::play::{
    play_engines, play_engines_watched, play_terminal, seats_line, wants_color, Ending, PlayArgs,
    Seat, Session, SessionConfig, TerminalConfig, Watch, HELP,
};
use ply_tools::registry::AgentKit;
use ply_tools::spec::AgentSpec;

fn spec(text: &str) -> AgentSpec {
    text.parse().unwrap()
}

fn human() -> Seat {
    Seat::Human
}

fn engine(text: &str) -> Seat {
    Seat::Engine(spec(text))
}

/// Plays tic-tac-toe from `start` (the initial position when `None`) with `script` as the
/// typed input; returns how it ended, the moves of the game at the end, and the transcript.
fn play(start: Option<&str>, script: &str, seats: Vec<Seat>) -> (Ending, Vec<u8>, String) {
    let g = TicTacToe;
    let start = start.map_or_else(|| g.initial_state(), |s| g.parse_state(s).unwrap());
    let (ending, moves, out) = terminal(g, start, seats, "alphabeta:depth=9", false, script);
    (ending, moves, out)
}

/// Plays `game` from `start` at the terminal with `script` as the typed input (the status
/// line shown when `live`): how it ended, the moves and the transcript.
fn terminal<G: Notation + Send + Sync + 'static>(
    game: G,
    start: G::State,
    seats: Vec<Seat>,
    assistant: &str,
    live: bool,
    script: &str,
) -> (Ending, Vec<G::Move>, String) {
    let config = SessionConfig { seats, seed: 1, names: vec![], assistant: spec(assistant) };
    let mut session = Session::new(Arc::new(game), start, &config, &AgentKit::default()).unwrap();
    let shown = TerminalConfig { echo: true, live, ..TerminalConfig::plain() };
    let mut out = Vec::new();
    let ending = play_terminal(&mut session, &shown, &mut script.as_bytes(), &mut out).unwrap();
    (ending, session.record().moves().to_vec(), String::from_utf8(out).unwrap())
}

/// x to move can win at c3 (`xx.` on the top row).
const X_WINS_AT_C3: &str = "xx.oo....";

/// x to move with only c1 empty, and no line made.
const ONE_SQUARE_LEFT: &str = "xoxxooox.";

#[test]
fn help_lists_every_command() {
    let (ending, _, out) = play(None, "help\nquit\n", vec![human(), human()]);
    assert_eq!(ending, Ending::Quit);
    for command in [
        "moves",
        "list",
        "hint",
        "go",
        "swap",
        "undo",
        "redo",
        "time T",
        "depth N",
        "new",
        "save FILE",
        "load FILE",
        "resign",
        "help",
        "quit",
    ] {
        assert!(HELP.lines().any(|l| l.trim_start().starts_with(command)), "{command}");
    }
    assert!(out.contains(HELP), "{out}");
}

#[test]
fn hint_shows_the_engines_move_without_playing_it() {
    let (ending, moves, out) = play(Some(X_WINS_AT_C3), "hint\nquit\n", vec![human(), human()]);
    assert_eq!(ending, Ending::Quit);
    assert!(moves.is_empty(), "{out}");
    assert!(out.contains("hint: c3   depth "), "{out}");
    assert!(out.contains("game left after 0 moves"), "{out}");
}

#[test]
fn go_lets_the_engine_play_the_humans_side() {
    let (ending, moves, out) = play(Some(X_WINS_AT_C3), "go\n", vec![human(), human()]);
    assert_eq!(ending, Ending::Finished(ply::Outcome::Winner(Player(0))));
    assert_eq!(moves, vec![2]);
    assert!(out.contains("player 1 (engine) plays c3"), "{out}");
}

#[test]
fn swap_exchanges_sides_with_the_engine() {
    let (ending, moves, out) =
        play(None, "swap\nswap\nquit\n", vec![human(), engine("alphabeta:depth=9")]);
    assert_eq!(ending, Ending::Quit);
    // The engine takes the first seat and moves; the human, now second, swaps back and the
    // engine moves for the second seat.
    assert_eq!(moves.len(), 2, "{out}");
    assert!(out.contains("you now play player 2; the engine plays player 1"), "{out}");
    assert!(out.contains("player 1 plays "), "{out}");
    assert!(out.contains("player 2 to move> swap"), "{out}");
    assert!(out.contains("you now play player 1; the engine plays player 2"), "{out}");
    assert!(out.contains("player 2 plays "), "{out}");
    let (_, _, out) = play(None, "swap\nquit\n", vec![human(), human()]);
    assert!(out.contains("swap: no engine plays in this game"), "{out}");
}

#[test]
fn resign_ends_the_game_for_the_other_side() {
    let (ending, moves, out) = play(None, "b2\nresign\n", vec![human(), human()]);
    assert_eq!(ending, Ending::Resigned(Player(1)));
    assert_eq!(moves, vec![4]);
    assert!(out.contains("player 2 resigns after 1 moves"), "{out}");
    assert!(out.contains("result: player 1 wins"), "{out}");
}

#[test]
fn redo_plays_again_what_undo_took_back() {
    let seats = || vec![human(), engine("alphabeta:depth=9")];
    let (_, moves, out) = play(None, "redo\nb2\nundo\nredo\nlist\nquit\n", seats());
    assert!(out.contains("nothing to redo"), "{out}");
    assert!(out.contains("took back 2 moves"), "{out}");
    assert!(out.contains("played again 2 moves"), "{out}");
    assert_eq!(moves.len(), 2, "{out}");
    assert_eq!(moves[0], 4);
    // A different move after undo drops what was taken back.
    let (_, moves, out) = play(None, "b2\nundo\na1\nredo\nquit\n", seats());
    assert_eq!(moves[0], 6, "{out}");
    assert_eq!(moves.len(), 2, "{out}");
    assert!(out.contains("nothing to redo"), "{out}");
}

#[test]
fn list_shows_the_moves_so_far() {
    let (_, _, out) = play(None, "list\na3\nb3\nlist\nquit\n", vec![human(), human()]);
    assert!(out.contains("to move> list\nno moves yet"), "{out}");
    assert!(out.contains("to move> list\nmoves: 1. a3 b3\n"), "{out}");
}

#[test]
fn time_and_depth_change_the_engines_budget() {
    let script = "depth 0\ndepth x\ntime\ntime 0\ntime 20ms\ndepth 1\nb2\nquit\n";
    let (_, moves, out) = play(None, script, vec![human(), engine("alphabeta:time=5s")]);
    assert!(out.contains("depth: \"0\" is not a depth from 1 to 200"), "{out}");
    assert!(out.contains("depth: \"x\" is not a depth from 1 to 200"), "{out}");
    assert!(out.contains("time: give a time per move, e.g. time 2s"), "{out}");
    assert!(out.contains("time: a duration such as 100ms, 2s"), "{out}");
    assert!(out.contains("engines now: alphabeta:time=20ms"), "{out}");
    assert!(out.contains("engines now: alphabeta:depth=1"), "{out}");
    assert_eq!(moves.len(), 2, "{out}");
    let engine_line = out.lines().find(|l| l.starts_with("player 2 plays")).unwrap();
    assert!(engine_line.contains("depth 1 "), "{engine_line}");
    // Engines without a depth keep their budget.
    let (_, _, out) = play(None, "depth 3\nquit\n", vec![human(), engine("random:seed=2")]);
    assert!(out.contains("no engine takes that limit (unchanged: random:seed=2)"), "{out}");
}

#[test]
fn new_starts_again_from_the_start_position() {
    let (ending, moves, out) =
        play(Some(X_WINS_AT_C3), "a1\nb1\nnew\nlist\nquit\n", vec![human(), human()]);
    assert_eq!(ending, Ending::Quit);
    assert!(moves.is_empty(), "{out}");
    assert!(out.contains("new game\n"), "{out}");
    assert!(out.contains("no moves yet"), "{out}");
}

#[test]
fn enter_plays_a_forced_move_and_only_a_forced_move() {
    let (ending, moves, out) = play(None, "\nquit\n", vec![human(), human()]);
    assert_eq!(ending, Ending::Quit);
    assert!(moves.is_empty());
    assert!(out.contains("Enter alone plays only a forced move: type a move"), "{out}");
    let (ending, moves, out) = play(Some(ONE_SQUARE_LEFT), "\n", vec![human(), human()]);
    assert_eq!(moves, vec![8], "{out}");
    assert!(matches!(ending, Ending::Finished(_)), "{out}");
}

#[test]
fn forced_engine_moves_say_forced() {
    let (_, moves, out) =
        play(Some(ONE_SQUARE_LEFT), "", vec![engine("alphabeta:depth=3"), human()]);
    assert_eq!(moves, vec![8]);
    let line = out.lines().find(|l| l.contains(" plays ")).unwrap();
    assert_eq!(line, "player 1 plays c1   forced");
}

#[test]
fn save_and_load_a_game() {
    let path = std::env::temp_dir().join(format!("ply-save-{}.txt", std::process::id()));
    let path = path.to_str().unwrap();
    let script = format!("a3\nb3\nsave {path}\nnew\nload {path}\nlist\nquit\n");
    let (_, moves, out) = play(None, &script, vec![human(), human()]);
    assert_eq!(moves, vec![0, 1], "{out}");
    assert!(out.contains(&format!("saved 2 moves to {path}")), "{out}");
    assert!(out.contains(&format!("loaded 2 moves from {path}")), "{out}");
    assert!(out.contains("moves: 1. a3 b3\n"), "{out}");
    assert_eq!(std::fs::read_to_string(path).unwrap(), ".........\na3\nb3\n");
    // A move that cannot be played, and a missing file: the game goes on unchanged.
    std::fs::write(path, ".........\na3\na3\n").unwrap();
    let script = format!("b2\nload {path}\nload {path}.missing\nload\nlist\nquit\n");
    let (_, moves, out) = play(None, &script, vec![human(), human()]);
    assert_eq!(moves, vec![4], "{out}");
    assert!(out.contains("load: line 3: "), "{out}");
    assert!(out.contains("load: cannot read "), "{out}");
    assert!(out.contains("load: give a file name"), "{out}");
    std::fs::remove_file(path).unwrap();
}

#[test]
fn saved_games_read_back() {
    let g = ConnectFour::standard();
    let mut record = ply::Record::new(&g, g.initial_state());
    for mv in [3, 3, 2, 4] {
        record.play(mv).unwrap();
    }
    let text = g.write_record(record.start(), record.moves());
    let (start, moves) = g.read_record(&text).unwrap();
    assert_eq!(g.format_state(&start), g.format_state(&g.initial_state()));
    assert_eq!(moves, vec![3, 3, 2, 4]);
    assert_eq!(g.read_record("").unwrap_err().to_string(), "the file is empty");
    assert!(g.read_record("not a position\n").unwrap_err().to_string().starts_with("line 1: "));
    let column = format!("{}\n1\n1\n1\n1\n1\n1\n1\n", g.format_state(&g.initial_state()));
    let over = g.read_record(&column).unwrap_err();
    assert_eq!(over.line, 8, "{over}");
}

/// Engine-vs-engine games on depth or iteration budgets replay from their seed.
#[test]
fn the_same_seed_replays_the_same_game() {
    let g = ConnectFour::standard();
    let game = |seed: u64| {
        let specs = [spec("alphabeta:depth=4"), spec("mcts:iters=300")];
        let mut out = Vec::new();
        let record =
            play_engines(&g, g.initial_state(), &specs, seed, &[], &AgentKit::default(), &mut out)
                .unwrap();
        (record.moves().to_vec(), String::from_utf8(out).unwrap())
    };
    let (first, text) = game(11);
    let (second, _) = game(11);
    assert!(first.len() > 4, "{text}");
    assert_eq!(first, second);
    let sheet = |t: &str| t.lines().find(|l| l.starts_with("moves: ")).unwrap().to_string();
    assert_eq!(sheet(&text), sheet(&game(11).1));
}

#[test]
fn colour_is_off_with_the_flag_or_no_color() {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        play: PlayArgs,
    }
    assert!(Cli::try_parse_from(["t", "--no-color"]).unwrap().play.no_color);
    assert!(!Cli::try_parse_from(["t"]).unwrap().play.no_color);
    let set = Some(std::ffi::OsStr::new("1"));
    let empty = Some(std::ffi::OsStr::new(""));
    assert!(wants_color(false, None, true));
    assert!(wants_color(false, empty, true));
    assert!(!wants_color(true, None, true));
    assert!(!wants_color(false, set, true));
    assert!(!wants_color(false, None, false));
}

#[test]
fn the_first_line_says_whether_the_seed_replays_the_game() {
    let names = ["Black".to_string(), "White".to_string()];
    let line = seats_line(&[human(), engine("alphabeta:depth=6")], &names, 4);
    assert_eq!(
        line,
        "Black: human, White: alphabeta:depth=6  (seed 4; the same seed replays this game)"
    );
    for varying in ["alphabeta:time=1s", "mcts:iters=100,threads=2"] {
        let line = seats_line(&[engine("mcts:iters=100"), engine(varying)], &names, 4);
        assert!(
            line.ends_with("engines on time or threads: games vary from run to run)"),
            "{line}"
        );
    }
}

#[test]
fn watch_shows_every_position_of_an_engine_game() {
    let g = TicTacToe;
    let specs = [spec("alphabeta:depth=9"), spec("random:seed=5")];
    let watch = Watch {
        delay: std::time::Duration::from_millis(1),
        color: false,
        viewer: ply::Player::FIRST,
    };
    let mut out = Vec::new();
    let record = play_engines_watched(
        &g,
        g.initial_state(),
        &specs,
        7,
        &[],
        &AgentKit::default(),
        Some(watch),
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    let pictures = text.matches("   a b c").count();
    // The start, one per move, and the final picture with the result.
    assert_eq!(pictures, record.moves().len() + 2, "{text}");
    assert!(!text.contains('\x1b'), "{text}");
    let mut plain = Vec::new();
    play_engines(&g, g.initial_state(), &specs, 7, &[], &AgentKit::default(), &mut plain).unwrap();
    assert_eq!(String::from_utf8(plain).unwrap().matches("   a b c").count(), 1);
}

#[test]
fn watch_takes_an_optional_delay() {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        play: PlayArgs,
    }
    let watch = |args: &[&str]| Cli::try_parse_from(args).unwrap().play.watch;
    assert_eq!(watch(&["t"]), None);
    assert_eq!(watch(&["t", "--watch"]), Some(std::time::Duration::from_secs(1)));
    assert_eq!(watch(&["t", "--watch", "200ms"]), Some(std::time::Duration::from_millis(200)));
    assert!(Cli::try_parse_from(["t", "--watch", "soon"]).is_err());
}

#[test]
fn color_names_the_humans_side() {
    use ply_tools::play::side_index;
    let names = ["Black".to_string(), "White".to_string()];
    assert_eq!(side_index("white", &names, 2), Ok(1));
    assert_eq!(side_index("BLACK", &names, 2), Ok(0));
    assert_eq!(side_index("2", &names, 2), Ok(1));
    assert_eq!(side_index("3", &[], 4), Ok(2));
    assert_eq!(
        side_index("red", &names, 2),
        Err(ToolError::input("bad --color \"red\": the sides are black, white, 1 to 2"))
    );
    let five = Err(ToolError::input("bad --color \"5\": the sides are 1 to 4"));
    assert_eq!(side_index("5", &[], 4), five);
}

#[test]
fn a_human_with_only_a_pass_passes_without_being_asked() {
    let g = ply_reversi::Reversi::new(4, 2).unwrap();
    // Player 1 (to move) cannot flank anything; player 2 can take b1 by playing c1.
    let start = g.parse_state("21../..../..../.... 1").unwrap();
    let seats = vec![human(), human()];
    let (ending, moves, out) = terminal(g, start, seats, "alphabeta:depth=3", false, "quit\n");
    assert_eq!(ending, Ending::Quit);
    assert_eq!(moves.len(), 1, "{out}");
    assert!(out.starts_with("player 1 passes (no other move)\n"), "{out}");
    assert!(out.contains("player 2 to move> quit"), "{out}");
    assert!(!out.contains("player 1 to move>"), "{out}");
}

#[test]
fn a_status_line_shows_the_search_while_an_engine_thinks() {
    let g = ConnectFour::standard();
    let start = g.initial_state();
    let seats = vec![engine("alphabeta:time=350ms"), human()];
    let (_, _, out) = terminal(g, start, seats, "alphabeta:depth=3", true, "quit\n");
    assert!(out.starts_with("\rplayer 1 thinking 0.1"), "{out}");
    // Cleared before the engine's line.
    let (status, rest) = out.split_once("\rplayer 1 plays ").expect("the engine's line");
    let blank = status.rsplit('\r').next().unwrap();
    let last = status.rsplit('\r').nth(1).unwrap();
    assert!(last.starts_with("player 1 thinking 0."), "{out}");
    assert!(blank.trim().is_empty() && blank.len() >= last.trim_end().len(), "{out}");
    assert!(!rest.contains("thinking"), "{out}");
    // Once an iteration is done the line shows the search: depth, score, speed, best line.
    assert!(last.contains("  depth ") && last.contains("  score "), "{out}");
    assert!(last.contains("  nps ") && last.contains("  pv "), "{out}");
    assert!(status.split('\r').all(|l| l.chars().count() < 80), "{out}");
}
