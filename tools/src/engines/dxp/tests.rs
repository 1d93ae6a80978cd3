//! The client against ply's server and against scripted servers, over 127.0.0.1.

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use ply::arena::{play_game, random_opening, Seat};
use ply::search::baseline::{Greedy, RandomAgent};
use ply::search::{Agent, Budget, Position, SearchError};
use ply::{Game, MoveList, Notation};
use ply_draughts::InternationalDraughts;

use super::protocol::*;
use super::testing::{codec, ply_server, scripted_server};
use super::DxpClient;

const ANSWER: Duration = Duration::from_secs(10);

fn send(w: &mut TcpStream, text: &str) {
    w.write_all(text.as_bytes()).unwrap();
    w.write_all(b"\0").unwrap();
}

fn recv(r: &mut MessageReader<TcpStream>) -> Message {
    r.read(Some(Instant::now() + ANSWER)).unwrap().expect("a message")
}

fn accept(name: &str) -> String {
    format!("A{name:<32}0")
}

fn request(follower: char, position: Option<&str>) -> String {
    match position {
        None => format!("R01{:<32}{follower}001600A", "test"),
        Some(p) => format!("R01{:<32}{follower}001600B{p}", "test"),
    }
}

fn budget() -> Budget {
    Budget::time(Duration::from_millis(20))
}

#[test]
fn the_client_plays_whole_games_against_plys_server_with_either_colour() {
    let game = InternationalDraughts::new();
    let addr = ply_server(Greedy::with_seed(2), Duration::from_secs(60));
    let client = DxpClient::new(&addr.to_string(), None, codec());
    let mut seats = vec![
        Seat::new(Box::new(client), budget()),
        Seat::new(Box::new(RandomAgent::new(5)), budget()),
    ];
    let opening = random_opening(&game, &game.initial_state(), 4, 9).unwrap();
    let mut from_opening = game.initial_state();
    for &mv in &opening {
        game.apply(&mut from_opening, mv);
    }
    // Four games on one connection: the initial position ('A') and another ('B'), the
    // engine first and second (then the opponent's first move follows the request).
    for (start, swap) in [
        (game.initial_state(), false),
        (game.initial_state(), true),
        (from_opening, false),
        (from_opening, true),
    ] {
        if swap {
            seats.swap(0, 1);
        }
        let played = play_game(&game, &start, &mut seats, 300).unwrap();
        assert!(played.forfeit.is_none(), "{:?}", played.forfeit);
        assert!(played.moves.len() > 10, "{} moves", played.moves.len());
        if swap {
            seats.swap(0, 1);
        }
    }
    assert!(seats[0].agent.name().starts_with("dxp(ply"), "{}", seats[0].agent.name());
}

/// What the scripted server received, shared with the test.
type Log = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

#[test]
fn the_request_carries_the_engines_colour_the_position_and_the_opponents_moves() {
    let log = Log::default();
    let seen = log.clone();
    let addr = scripted_server(move |mut r, mut w| {
        while let Ok(Some(text)) = r.read_text(Some(Instant::now() + ANSWER)) {
            seen.lock().unwrap().push(text.clone());
            match text.chars().next() {
                Some('R') => {
                    send(&mut w, &accept("scripted"));
                    send(&mut w, "Chello");
                }
                // Black answers 32-28 with 19-23.
                Some('M') => send(&mut w, "M0001192300"),
                _ => {}
            }
        }
    });
    let game = InternationalDraughts::new();
    let mut client = DxpClient::new(&addr.to_string(), None, codec());
    let mut state = game.initial_state();
    let white = game.parse_move(&state, "32-28").unwrap();
    client.new_game();
    client.observe(&game, &state, white);
    game.apply(&mut state, white);
    let report = client.choose(&game, Position::new(&state), &budget()).unwrap();
    assert_eq!(game.format_move(&state, report.best_move), "19-23");
    assert_eq!(client.name(), "dxp(scripted)");
    drop(client);
    let begun = Instant::now();
    while log.lock().unwrap().len() < 3 && begun.elapsed() < ANSWER {
        std::thread::sleep(Duration::from_millis(5));
    }
    let sent = log.lock().unwrap().clone();
    // 20 ms a move: 1 minute for 999 moves.
    assert_eq!(sent[0], format!("R01{:<32}Z001999A", "ply"));
    assert_eq!(sent[1], "M0000322800");
    // Dropped mid-game: the game ends, and the connection waits for the match's next game;
    // closing the parked connections (the end of a match) says no more games follow.
    assert_eq!(sent[2], "E00");
    crate::engines::dxp::client::close_parked(&addr.to_string());
    let begun = Instant::now();
    while log.lock().unwrap().len() < 4 && begun.elapsed() < ANSWER {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(log.lock().unwrap()[3], "E01");
}

#[test]
fn refusals_chat_take_back_requests_and_the_engines_game_end_are_handled() {
    // Refused: the error names the code.
    let refuse = scripted_server(|mut r, mut w| {
        let _ = recv(&mut r);
        send(&mut w, &format!("A{:<32}3", "picky"));
    });
    let game = InternationalDraughts::new();
    let state = game.initial_state();
    let mut client = DxpClient::new(&refuse.to_string(), None, codec());
    let e = client.choose(&game, Position::new(&state), &budget()).unwrap_err();
    assert!(matches!(e, SearchError::Engine { engine: "dxp", .. }), "{e}");
    assert!(e.to_string().contains("refused: '3'"), "{e}");

    // Chat is ignored and a take-back request answered K1; then a GAMEEND mid-game is an
    // error naming its reason.
    let log = Log::default();
    let seen = log.clone();
    let talk = scripted_server(move |mut r, mut w| {
        let _ = recv(&mut r);
        send(&mut w, &accept("talker"));
        send(&mut w, "Cgood luck");
        send(&mut w, "B001W");
        seen.lock().unwrap().push(recv(&mut r).encode().unwrap());
        send(&mut w, "M0000322800");
        let _ = recv(&mut r); // black's move
        send(&mut w, "E30");
        while r.read(Some(Instant::now() + ANSWER)).is_ok_and(|m| m.is_some()) {}
    });
    let mut client = DxpClient::new(&talk.to_string(), None, codec());
    let mut state = game.initial_state();
    let report = client.choose(&game, Position::new(&state), &budget()).unwrap();
    assert_eq!(game.format_move(&state, report.best_move), "32-28");
    assert_eq!(log.lock().unwrap().as_slice(), ["K1"]);
    client.observe(&game, &state, report.best_move);
    game.apply(&mut state, report.best_move);
    let black = game.parse_move(&state, "19-23").unwrap();
    client.observe(&game, &state, black);
    game.apply(&mut state, black);
    let e = client.choose(&game, Position::new(&state), &budget()).unwrap_err();
    assert!(e.to_string().contains("ended the game: reason '3' (it wins)"), "{e}");
}

#[test]
fn garbage_an_illegal_move_silence_or_a_closed_connection_are_engine_errors() {
    let game = InternationalDraughts::new();
    let state = game.initial_state();
    for (reply, expected) in [
        ("garbage", "unknown message type 'g'"),
        ("M0000322300", "illegal move 32-23"),
        ("M00003228", "MOVE of 9 characters"),
        ("A", "instead of a move"),
        ("close", "closed the connection"),
    ] {
        let addr = scripted_server(move |mut r, mut w| {
            let _ = recv(&mut r);
            send(&mut w, &accept("broken"));
            match reply {
                "close" => {}
                "A" => send(&mut w, &accept("again")),
                text => send(&mut w, text),
            }
        });
        let mut client = DxpClient::new(&addr.to_string(), None, codec());
        let e = client.choose(&game, Position::new(&state), &budget()).unwrap_err();
        assert!(matches!(e, SearchError::Engine { engine: "dxp", .. }), "{e}");
        assert!(e.to_string().contains(expected), "{reply:?}: {e}");
        // The client starts afresh on the next move: the scripted server fails it again.
        let e = client.choose(&game, Position::new(&state), &budget()).unwrap_err();
        assert!(e.to_string().contains(expected), "{reply:?} again: {e}");
    }
    // Nobody listening.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let mut client = DxpClient::new(&free.to_string(), None, codec());
    let e = client.choose(&game, Position::new(&state), &budget()).unwrap_err();
    assert!(e.to_string().contains("cannot connect"), "{e}");
}

#[test]
fn a_server_program_that_ends_at_once_is_an_error_and_one_left_running_dies_with_the_client() {
    let game = InternationalDraughts::new();
    let state = game.initial_state();
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let mut client = DxpClient::new(&free.to_string(), Some("exit 3"), codec());
    let e = client.choose(&game, Position::new(&state), &budget()).unwrap_err();
    assert!(e.to_string().contains("ended (exit status: 3) before accepting"), "{e}");

    // A command that leaves a process behind (here one that never serves: the port is
    // served by a scripted server) is killed with its group when the match ends: the client
    // parks it with its connection for the next game, and closing the parked connections
    // stops it.
    let addr = scripted_server(|mut r, mut w| {
        let _ = recv(&mut r);
        send(&mut w, &accept("scripted"));
        send(&mut w, "M0000322800");
        while r.read(Some(Instant::now() + ANSWER)).is_ok_and(|m| m.is_some()) {}
    });
    let marker = format!("sleep 301.{}", std::process::id());
    let mut client = DxpClient::new(&addr.to_string(), Some(&format!("sh -c '{marker}'")), codec());
    client.choose(&game, Position::new(&state), &budget()).unwrap();
    let running = || {
        std::process::Command::new("pgrep")
            .args(["-f", &marker])
            .output()
            .map(|o| o.status.success())
    };
    if running().is_err() {
        return; // no pgrep here to look with
    }
    assert!(running().unwrap(), "the server program runs");
    drop(client);
    crate::engines::dxp::client::close_parked(&addr.to_string());
    let begun = Instant::now();
    while running().unwrap() {
        assert!(begun.elapsed() < Duration::from_secs(5), "the server program outlived the client");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A connection to ply's server.
fn connect(addr: std::net::SocketAddr) -> (MessageReader<TcpStream>, TcpStream) {
    let w = TcpStream::connect(addr).unwrap();
    (MessageReader::new(w.try_clone().unwrap()), w)
}

#[test]
fn the_server_refuses_other_versions_and_unreadable_positions_and_plays_its_colour() {
    let addr = ply_server(Greedy::with_seed(1), Duration::from_secs(60));
    let (mut r, mut w) = connect(addr);
    send(&mut w, &request('W', None).replacen("R01", "R02", 1));
    assert!(matches!(recv(&mut r), Message::GameAcc { code: Acceptance::Version, .. }));
    // Squares 1..=5 hold a white man: no such position.
    let bad = format!("W{}{}", "w".repeat(5), "e".repeat(45));
    send(&mut w, &request('W', Some(&bad)));
    assert!(matches!(recv(&mut r), Message::GameAcc { code: Acceptance::Terms, .. }));
    // Accepted as white: the server moves at once; then as black it waits.
    send(&mut w, &request('W', None));
    match recv(&mut r) {
        Message::GameAcc { code: Acceptance::Accepted, name } => assert!(name.starts_with("ply")),
        other => panic!("{other}"),
    }
    let game = InternationalDraughts::new();
    let Message::Move(first) = recv(&mut r) else { panic!("no move") };
    codec().find_move(&game, &game.initial_state(), &first).unwrap();
    // A GAMEEND is answered with one; then a new game with the server black.
    send(&mut w, "E00");
    assert_eq!(
        recv(&mut r),
        Message::GameEnd { reason: EndReason::Unknown, stop: StopCode::NextGame }
    );
    send(&mut w, &request('Z', None));
    assert!(matches!(recv(&mut r), Message::GameAcc { code: Acceptance::Accepted, .. }));
    send(&mut w, "M0000322800");
    let Message::Move(reply) = recv(&mut r) else { panic!("no reply") };
    let mut state = game.initial_state();
    let opening = game.parse_move(&state, "32-28").unwrap();
    game.apply(&mut state, opening);
    codec().find_move(&game, &state, &reply).unwrap();
    // Take back to move 1, white to move: accepted, and it is white's (the initiator's) turn.
    send(&mut w, "B001W");
    assert_eq!(recv(&mut r), Message::BackAcc(BackAnswer::Accepted));
    send(&mut w, "M0000312700");
    let Message::Move(reply) = recv(&mut r) else { panic!("no reply after the take-back") };
    let mut state = game.initial_state();
    let opening = game.parse_move(&state, "31-27").unwrap();
    game.apply(&mut state, opening);
    codec().find_move(&game, &state, &reply).unwrap();
    // A move not yet reached is declined.
    send(&mut w, "B050W");
    assert_eq!(recv(&mut r), Message::BackAcc(BackAnswer::Declined));
    // Stop code 1: the answer, then the end of the connection.
    send(&mut w, "E01");
    assert_eq!(
        recv(&mut r),
        Message::GameEnd { reason: EndReason::Unknown, stop: StopCode::NoMoreGames }
    );
    assert!(r.read(Some(Instant::now() + ANSWER)).unwrap().is_none());
}

#[test]
fn the_server_ends_a_game_its_opponent_finished() {
    let game = InternationalDraughts::new();
    // White takes black's last piece: 32x23.
    let start = game.parse_state("W:W32:B28").unwrap();
    let mut legal = MoveList::new();
    game.generate_moves(&start, &mut legal);
    let capture = codec().move_message(&game, legal[0], 0);
    assert_eq!(capture.to_string(), "32x23x28");
    let addr = ply_server(Greedy::with_seed(1), Duration::from_secs(60));
    let (mut r, mut w) = connect(addr);
    send(&mut w, &request('Z', Some(&(codec().position)(&game, &start))));
    assert!(matches!(recv(&mut r), Message::GameAcc { code: Acceptance::Accepted, .. }));
    send(&mut w, &Message::Move(capture).encode().unwrap());
    assert_eq!(
        recv(&mut r),
        Message::GameEnd { reason: EndReason::Lose, stop: StopCode::NextGame }
    );
}

#[test]
fn the_server_ends_a_connection_on_bad_input_or_silence_and_serves_the_next() {
    let addr = ply_server(Greedy::with_seed(1), Duration::from_millis(300));
    let bye = Message::GameEnd { reason: EndReason::Unknown, stop: StopCode::NoMoreGames };
    for input in ["garbage", "M0000322800", "R01", "", "long", "illegal", "GAMEACC"] {
        let (mut r, mut w) = connect(addr);
        match input {
            "" => {} // silence past the idle limit
            // 128 characters and no end: all read (so the close is clean), one too many.
            "long" => w.write_all(&[b'C'; 128]).unwrap(),
            "illegal" => {
                send(&mut w, &request('Z', None));
                let _ = recv(&mut r);
                send(&mut w, "M0000282300");
            }
            "GAMEACC" => send(&mut w, &accept("nobody asked")),
            text => send(&mut w, text),
        }
        assert_eq!(recv(&mut r), bye, "{input:?}");
        assert!(r.read(Some(Instant::now() + ANSWER)).unwrap().is_none(), "{input:?}");
    }
}

#[test]
fn a_dropped_client_ends_its_game_and_the_next_connection_plays() {
    let game = InternationalDraughts::new();
    let addr = ply_server(Greedy::with_seed(4), Duration::from_secs(60));
    let state = game.initial_state();
    for _ in 0..2 {
        let mut client = DxpClient::new(&addr.to_string(), None, codec());
        client.choose(&game, Position::new(&state), &budget()).unwrap();
    }
}
