//! Scripted Hub protocol sessions with international draughts (the registration's codec),
//! through the state machine and through the threaded driver.

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

use ply::search::alphabeta::AlphaBeta;
use ply::{Game, Notation};
use ply_draughts::{hub, InternationalDraughts};
use ply_tools::engines::hub::protocol::Flow;
use ply_tools::engines::hub::{serve, HubEngine, Level};

/// An engine searching with alpha-beta and a 1 MiB table.
fn engine() -> HubEngine<InternationalDraughts, AlphaBeta> {
    HubEngine::new(
        InternationalDraughts::new(),
        ply_bundle::draughts_hub_codec(),
        AlphaBeta::new().with_tt_mb(1),
    )
}

const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

fn session(lines: &[&str]) -> Vec<String> {
    let mut engine = engine();
    let mut out = Vec::new();
    for line in lines {
        if engine.handle(line, &mut out) == Flow::Quit {
            out.push("<quit>".into());
            break;
        }
    }
    out
}

fn done_move(out: &[String]) -> String {
    let done = out.iter().find(|l| l.starts_with("done ")).expect("a done line");
    done.split_whitespace().nth(1).unwrap().trim_start_matches("move=").to_string()
}

#[test]
fn initialisation_declares_id_params_and_readiness() {
    let out = session(&["hub", "set-param name=variant value=normal", "init", "quit", "ping"]);
    assert!(out[0].starts_with("id name=ply version="), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("param name=variant")));
    let wait = out.iter().position(|l| l == "wait").unwrap();
    assert_eq!(out[wait + 1], "ready");
    assert_eq!(out.last().unwrap(), "<quit>", "nothing is read after quit");
}

#[test]
fn think_from_the_start_plays_a_legal_first_move() {
    let out = session(&["init", &format!("pos pos={START}"), "level depth=3", "go think"]);
    let info = out.iter().find(|l| l.starts_with("info ")).expect("an info line");
    assert!(info.contains("depth=3") && info.contains("pv=\""), "{info}");
    let mv = done_move(&out);
    let game = InternationalDraughts::new();
    let state = hub::parse_position(START).unwrap();
    assert!(game.parse_move(&state, &mv).is_ok(), "{mv}");
    assert!(out.last().unwrap().contains(" ponder="), "{out:?}");
}

#[test]
fn moves_after_the_position_are_played_and_captures_use_hub_format() {
    // After 32-28 19-23 White must take: 28x19, written with the captured square.
    let out =
        session(&[&format!("pos pos={START} moves=\"32-28 19-23\""), "level depth=2", "go think"]);
    assert_eq!(done_move(&out), "28x19x23");
}

#[test]
fn errors_are_reported_and_the_session_goes_on() {
    let out = session(&[
        "frobnicate now",
        "pos pos=Wxyz",
        &format!("pos pos={START} moves=\"32-29\""),
        "level depth=zero",
        "set-param name=colour value=blue",
        "pos pos=\"unterminated",
        "level move-time=0.05",
        "go think",
    ]);
    let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("error message=")).collect();
    assert_eq!(errors.len(), 6, "{out:?}");
    assert!(errors[0].contains("unknown command frobnicate"));
    assert!(errors[1].contains("Wxyz"));
    assert!(errors[2].contains("32-29"));
    // The position stayed at the start, so the move is a legal first move.
    let mv = done_move(&out);
    assert!(["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
        .contains(&mv.as_str()));
}

#[test]
fn level_forms_are_understood() {
    let mut engine = engine();
    let mut out = Vec::new();
    engine.handle("level depth=7", &mut out);
    assert_eq!(engine.level(), Level::Depth(7));
    engine.handle("level moves=40 time=120 inc=1.5", &mut out);
    let Level::Clock(c) = engine.level() else { panic!("{:?}", engine.level()) };
    assert_eq!(
        (c.moves_to_go, c.remaining.as_secs(), c.increment.as_millis()),
        (Some(40), 120, 1500)
    );
    engine.handle("level infinite", &mut out);
    assert_eq!(engine.level(), Level::Infinite);
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn new_game_resets_the_position() {
    let mut engine = engine();
    let mut out = Vec::new();
    engine.handle("pos moves=\"32-28\"", &mut out);
    assert!(!engine.state().white_to_move());
    assert_eq!(engine.state(), &{
        let game = InternationalDraughts::new();
        let mut s = game.initial_state();
        let mv = game.parse_move(&s, "32-28").unwrap();
        game.apply(&mut s, mv);
        s
    });
    engine.handle("new-game", &mut out);
    assert_eq!(hub::format_position(engine.state()), START);
}

/// A writer the test can read back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn threaded_driver_stops_an_infinite_search() {
    let script =
        format!("hub\ninit\npos pos={START}\nlevel infinite\ngo analyze\nping\nstop\nquit\n");
    let out = Shared::default();
    serve(engine(), Cursor::new(script.into_bytes()), out.clone()).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("ready\n"), "{text}");
    assert!(text.contains("pong\n"), "{text}");
    assert!(text.contains("done move="), "{text}");
}

#[test]
fn threaded_driver_answers_pending_searches_after_end_of_input() {
    let script = format!("pos pos={START}\nlevel depth=2\ngo think\n");
    let out = Shared::default();
    serve(engine(), Cursor::new(script), out.clone()).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(text.lines().any(|l| l.starts_with("done move=")), "{text}");
}
