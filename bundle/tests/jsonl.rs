//! The JSON-lines server of `ply_tools::engines::jsonl` with English checkers' codec: the
//! moves mode, the play mode, one game across requests, and the end of the input.

use std::io;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use ply::search::{Agent, Budget, Position};
use ply::{Game, MoveList};
use ply_bundle::checkers_jsonl_codec;
use ply_checkers::{seed, CheckersState, EnglishCheckers, Rules};
use ply_tools::engines::jsonl::server::{MAX_LINE, MAX_TIME_MS};
use ply_tools::engines::jsonl::{answer_moves, serve_moves, EngineBuilder, PlayServer};

/// The 8x8 game of `rules`, whose rules the server reads boards in.
fn checkers(rules: Rules) -> EnglishCheckers {
    EnglishCheckers::new(8, rules).unwrap()
}

/// The shipped engine, as `ply_checkers::engine` builds it.
fn shipped() -> EngineBuilder<EnglishCheckers> {
    Box::new(|_: &EnglishCheckers| {
        let engine: Box<dyn Agent<EnglishCheckers> + Send> =
            Box::new(ply_checkers::engine::engine());
        Ok(engine)
    })
}

/// A server of the shipped engine, thinking `time` a move.
fn server(rules: Rules, time: Duration) -> PlayServer<EnglishCheckers> {
    PlayServer::new(checkers(rules), checkers_jsonl_codec(), time, shipped())
}

/// The answer to one line: the legal moves (`time` is `None`) or the engine's move, by a
/// fresh server (no game before this line).
fn answer(line: &str, rules: Rules, time: Option<Duration>) -> String {
    match time {
        None => answer_moves(line, &checkers(rules), checkers_jsonl_codec()),
        Some(time) => server(rules, time).answer(line),
    }
}

/// A server over `build`'s engines.
fn with_engine(
    rules: Rules,
    time: Duration,
    build: EngineBuilder<EnglishCheckers>,
) -> PlayServer<EnglishCheckers> {
    PlayServer::new(checkers(rules), checkers_jsonl_codec(), time, build)
}

const EXAMPLE_2: &str = r#"{"board": ["________", "__b_b___", "_w______", "______b_", "_______b", "________", "________", "________"], "color": "w"}"#;

#[test]
fn lines_that_are_not_text_or_too_long_get_an_error_and_processing_goes_on() {
    let mut input = b"\xff\xfe\n".to_vec();
    input.extend_from_slice(&vec![b'x'; MAX_LINE + 10]);
    input.push(b'\n');
    input.extend_from_slice(EXAMPLE_2.as_bytes());
    input.push(b'\n');
    let mut out = Vec::new();
    let game = checkers(Rules::Deepomatic);
    serve_moves(&game, checkers_jsonl_codec(), io::Cursor::new(input), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("not UTF-8"), "{}", lines[0]);
    assert!(lines[1].contains("longer than"), "{}", lines[1]);
    assert_eq!(lines[2], "[[[2,1],[0,3],[2,5]]]");
}

#[test]
fn play_refuses_times_out_of_range() {
    for t in ["0", "3600001", "18446744073709551615"] {
        let line = format!(
            r#"{{"board": ["_b__", "____", "__w_", "____"], "color": "w", "time_ms": {t}}}"#
        );
        let reply = answer(&line, Rules::Deepomatic, Some(Duration::from_millis(10)));
        assert!(reply.contains("time_ms must be from 1 to 3600000"), "{t}: {reply}");
    }
}

#[test]
fn moves_answers_the_seed_example() {
    let reply = answer(EXAMPLE_2, Rules::Deepomatic, None);
    assert_eq!(reply, "[[[2,1],[0,3],[2,5]]]");
    let standard = answer(EXAMPLE_2, Rules::Standard, None);
    assert_eq!(standard, "[[[2,1],[0,3]]]");
}

/// Random and mutated request lines (of the `moves` mode): always one JSON answer, an
/// array of moves or an error object, never a panic.
#[test]
fn random_and_mutated_requests_get_a_json_answer() {
    let requests = [
        r#"{"board": ["_b__", "____", "__w_", "____"], "color": "w"}"#,
        r#"{"board": ["________", "__b_b___", "_w______", "______b_", "_______b", "________", "________", "________"], "color": "w"}"#,
    ];
    let answer_of = |line: &str| -> Result<serde_json::Value, String> {
        let reply = answer(line, Rules::Deepomatic, None);
        let value: serde_json::Value = serde_json::from_str(&reply).map_err(|e| e.to_string())?;
        if value.is_array() || value.get("error").is_some() {
            Ok(value)
        } else {
            Err(format!("{line:?} answered {reply}"))
        }
    };
    for r in requests {
        assert!(answer_of(r).unwrap().is_array(), "{r}");
    }
    // The answers are not requests: only the absence of panics and of other answers is
    // checked, through a parser that always reads its own output back.
    let values: Vec<String> = requests.iter().map(|r| r.to_string()).collect();
    let parse = |line: &str| answer_of(line).map(|_| line.to_string());
    ply::testing::check_parser(&values, |v: &String| v.clone(), parse, 2_000, 26)
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn play_answers_a_legal_move() {
    let line = r#"{"board": ["_b__", "____", "__w_", "____"], "color": "w", "time_ms": 50}"#;
    let reply = answer(line, Rules::Deepomatic, Some(Duration::from_millis(1000)));
    let moves = answer(line.replace(", \"time_ms\": 50", "").as_str(), Rules::Deepomatic, None);
    let chosen: serde_json::Value = serde_json::from_str(&reply).unwrap();
    let legal: serde_json::Value = serde_json::from_str(&moves).unwrap();
    assert!(legal.as_array().unwrap().contains(&chosen), "{reply} not in {moves}");
}

/// An engine that plays the first legal move and records the history it is given.
struct Recorder(std::sync::Arc<std::sync::Mutex<Vec<usize>>>);

impl Agent<EnglishCheckers> for Recorder {
    fn name(&self) -> String {
        "recorder".into()
    }

    fn choose(
        &mut self,
        game: &EnglishCheckers,
        position: Position<'_, CheckersState>,
        _: &Budget,
    ) -> Result<ply::search::SearchReport<ply_checkers::Move>, ply::search::SearchError> {
        self.0.lock().unwrap().push(position.history.len());
        let mut moves = MoveList::new();
        game.generate_moves(position.state, &mut moves);
        Ok(ply::search::SearchReport::instant(moves[0], Duration::ZERO))
    }
}

/// What a [`Recorder`] shares with its test.
type Shared<T> = Arc<Mutex<T>>;

/// A server over [`Recorder`]s: the histories seen and the number of engines built.
fn recording_server() -> (PlayServer<EnglishCheckers>, Shared<Vec<usize>>, Shared<usize>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let built = Arc::new(Mutex::new(0));
    let (s, b) = (seen.clone(), built.clone());
    let build: EngineBuilder<EnglishCheckers> = Box::new(move |_| {
        *b.lock().unwrap() += 1;
        Ok(Box::new(Recorder(s.clone())))
    });
    (with_engine(Rules::Standard, Duration::from_millis(5), build), seen, built)
}

/// The request line for `state`, with `extra` fields.
fn request(game: &EnglishCheckers, state: &CheckersState, extra: &str) -> String {
    let color = if game.to_move(state) == ply::Player::FIRST { "b" } else { "w" };
    let board = serde_json::to_string(&seed::board_rows(game, state)).unwrap();
    format!(r#"{{"board": {board}, "color": "{color}"{extra}}}"#)
}

/// Plays a reply path onto `state`.
fn play_path(game: &EnglishCheckers, state: &mut CheckersState, reply: &str) {
    let path: Vec<[usize; 2]> = serde_json::from_str(reply).unwrap_or_else(|_| panic!("{reply}"));
    let mut legal = MoveList::new();
    game.generate_moves(state, &mut legal);
    let mv = legal
        .iter()
        .copied()
        .find(|&mv| {
            let squares: Vec<[usize; 2]> = game
                .path(state, mv)
                .into_iter()
                .map(|sq| game.coords(sq))
                .map(|(r, c)| [r, c])
                .collect();
            squares == path
        })
        .unwrap();
    game.apply(state, mv);
}

/// An engine that plays the first legal move and records the deadline it is given.
struct Deadlines(Shared<Vec<Option<Instant>>>);

impl Agent<EnglishCheckers> for Deadlines {
    fn name(&self) -> String {
        "deadlines".into()
    }

    fn choose(
        &mut self,
        game: &EnglishCheckers,
        position: Position<'_, CheckersState>,
        budget: &Budget,
    ) -> Result<ply::search::SearchReport<ply_checkers::Move>, ply::search::SearchError> {
        self.0.lock().unwrap().push(budget.deadline);
        let mut moves = MoveList::new();
        game.generate_moves(position.state, &mut moves);
        Ok(ply::search::SearchReport::instant(moves[0], Duration::ZERO))
    }
}

/// Building an engine (loading its networks) counts against the request's `time_ms`:
/// the search's deadline runs from the request, not from the end of the set-up.
#[test]
fn setting_up_an_engine_counts_against_the_answer_time() {
    let deadlines = Arc::new(Mutex::new(Vec::new()));
    let d = deadlines.clone();
    let build: EngineBuilder<EnglishCheckers> = Box::new(move |_| {
        std::thread::sleep(Duration::from_millis(150));
        Ok(Box::new(Deadlines(d.clone())))
    });
    let mut server = with_engine(Rules::Standard, Duration::from_secs(1), build);
    let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
    let asked = Instant::now();
    let reply = server.answer(&request(&game, &game.initial_state(), r#", "time_ms": 100"#));
    assert!(reply.starts_with("[["), "{reply}");
    let deadline = deadlines.lock().unwrap()[0].expect("a deadline");
    assert!(deadline <= asked + Duration::from_millis(100));
}

#[test]
fn the_engine_and_the_game_carry_across_requests() {
    let (mut server, seen, built) = recording_server();
    let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
    let mut state = game.initial_state();
    for _ in 0..3 {
        let reply = server.answer(&request(&game, &state, ""));
        play_path(&game, &mut state, &reply);
        let mut legal = MoveList::new();
        game.generate_moves(&state, &mut legal);
        game.apply(&mut state, legal[legal.len() - 1]);
    }
    // One engine; the game's history grew by two positions a request.
    assert_eq!(*built.lock().unwrap(), 1);
    assert_eq!(*seen.lock().unwrap(), vec![1, 3, 5]);
    // A board that does not follow starts the history afresh, with the same engine.
    server.answer(&request(&game, &game.initial_state(), ""));
    assert_eq!(seen.lock().unwrap().last(), Some(&1));
    assert_eq!(*built.lock().unwrap(), 1);
    // A new game builds a new engine.
    server.answer(&request(&game, &game.initial_state(), r#", "new_game": true"#));
    assert_eq!(*built.lock().unwrap(), 2);
}

#[test]
fn the_moves_so_far_give_the_history_and_must_lead_to_the_board() {
    let (mut server, seen, _) = recording_server();
    let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
    let mut state = game.initial_state();
    let mut paths = Vec::new();
    for _ in 0..4 {
        let mut legal = MoveList::new();
        game.generate_moves(&state, &mut legal);
        let mv = legal[0];
        let path: Vec<[usize; 2]> = game
            .path(&state, mv)
            .into_iter()
            .map(|sq| game.coords(sq))
            .map(|(r, c)| [r, c])
            .collect();
        paths.push(path);
        game.apply(&mut state, mv);
    }
    let moves = serde_json::to_string(&paths).unwrap();
    let reply = server.answer(&request(&game, &state, &format!(r#", "moves": {moves}"#)));
    assert!(!reply.contains("error"), "{reply}");
    assert_eq!(*seen.lock().unwrap(), vec![5]);
    // Three of the four moves do not reach the board.
    let three = serde_json::to_string(&paths[..3]).unwrap();
    let reply = server.answer(&request(&game, &state, &format!(r#", "moves": {three}"#)));
    assert!(reply.contains("do not lead to the board"), "{reply}");
    // An illegal move is named.
    let reply = server.answer(&request(&game, &state, r#", "moves": [[[5,0],[3,0]]]"#));
    assert!(reply.contains("moves[0] [[5,0],[3,0]] is not a legal move"), "{reply}");
    // The moves mode refuses the play mode's fields.
    let reply = answer(&request(&game, &state, r#", "moves": []"#), Rules::Standard, None);
    assert!(reply.contains("moves is only read by the play mode"), "{reply}");
}

#[test]
fn bad_lines_get_an_error_object() {
    for line in [
        "not json",
        "{}",
        r#"{"board": "________", "color": "b"}"#,
        r#"{"board": ["_b__", "___", "____", "w___"], "color": "b"}"#,
        r#"{"board": ["_b__", "____", "____", "w___"], "color": "black"}"#,
        r#"{"board": ["_x__", "____", "____", "w___"], "color": "b"}"#,
        r#"{"board": ["_b__", "____", "____", "w___"], "color": "b", "extra": 1}"#,
    ] {
        let reply = answer(line, Rules::Deepomatic, None);
        let v: serde_json::Value = serde_json::from_str(&reply).unwrap();
        assert!(v.get("error").and_then(|e| e.as_str()).is_some(), "{line}: {reply}");
    }
    let over = r#"{"board": ["____", "____", "____", "w___"], "color": "b"}"#;
    assert_eq!(answer(over, Rules::Deepomatic, None), "[]");
    let reply = answer(over, Rules::Deepomatic, Some(Duration::from_millis(10)));
    assert!(reply.contains("error"), "{reply}");
}

/// An input the test feeds chunk by chunk; it ends when the sender is dropped.
struct Fed {
    chunks: mpsc::Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl io::Read for Fed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            match self.chunks.recv() {
                Ok(chunk) => self.pending = chunk,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// The end of the input stops an hour-long search at once: the search answers with its
/// best move so far, a request still waiting is answered too, and the server returns.
#[test]
fn the_end_of_the_input_stops_the_search_and_the_server() {
    let (tx, chunks) = mpsc::channel();
    let input = io::BufReader::new(Fed { chunks, pending: Vec::new() });
    let start = r#"["_b_b_b_b","b_b_b_b_","_b_b_b_b","________","________","w_w_w_w_","_w_w_w_w","w_w_w_w_"]"#;
    let request = format!("{{\"board\": {start}, \"color\": \"b\", \"time_ms\": {MAX_TIME_MS}}}\n");
    tx.send(request.clone().into_bytes()).unwrap();
    tx.send(request.replace("\"b\"", "\"w\"").into_bytes()).unwrap();
    let (done, ended) = mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let result = server(Rules::Standard, Duration::from_secs(3600)).serve(input, &mut out);
        let _ = done.send((result.is_ok(), out));
    });
    std::thread::sleep(Duration::from_millis(300));
    drop(tx);
    // Without the stop, the search would run for an hour.
    let (ok, out) = ended.recv_timeout(Duration::from_secs(20)).expect("the server ended");
    assert!(ok);
    let text = String::from_utf8(out).unwrap();
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), 2, "{text}");
    let position = format!("{{\"board\": {start}, \"color\": \"b\"}}");
    let moves = answer(&position, Rules::Standard, None);
    let legal: serde_json::Value = serde_json::from_str(&moves).unwrap();
    let first: serde_json::Value = serde_json::from_str(answers[0]).unwrap();
    assert!(legal.as_array().unwrap().contains(&first), "{} not in {moves}", answers[0]);
}

/// The seed's first example has pieces on both colours of square: both modes answer it as
/// two boards, outside any game; with `"moves"` it must be one position.
#[test]
fn boards_on_both_colours_of_square_are_answered_as_two_boards() {
    let board = r#"["________","__b_____","_w_w____","________","_w______","_____b__","____w___","___w____"]"#;
    let line = format!(r#"{{"board": {board}, "color": "b"}}"#);
    let moves = answer(&line, Rules::Deepomatic, None);
    let legal: serde_json::Value = serde_json::from_str(&moves).unwrap();
    assert_eq!(legal.as_array().map(Vec::len), Some(2), "{moves}");
    let reply = answer(&line, Rules::Deepomatic, Some(Duration::from_millis(20)));
    let chosen: serde_json::Value = serde_json::from_str(&reply).unwrap();
    assert!(legal.as_array().unwrap().contains(&chosen), "{reply} not in {moves}");
    let with_moves = format!(r#"{{"board": {board}, "color": "b", "moves": []}}"#);
    let reply = answer(&with_moves, Rules::Deepomatic, Some(Duration::from_millis(20)));
    assert!(reply.contains("light square"), "{reply}");
}

/// A request from the starting position with no moves so far: the engine's first move.
#[test]
fn play_answers_from_the_start_with_no_moves_so_far() {
    let mut server = server(Rules::Deepomatic, Duration::from_millis(20));
    let start = r#"["_b_b_b_b","b_b_b_b_","_b_b_b_b","________","________","w_w_w_w_","_w_w_w_w","w_w_w_w_"]"#;
    let line = format!(r#"{{"board": {start}, "color": "b", "moves": [], "time_ms": 20}}"#);
    let reply: Vec<[usize; 2]> = serde_json::from_str(&server.answer(&line)).unwrap();
    assert_eq!(reply.len(), 2);
}
