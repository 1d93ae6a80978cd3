//! Every game program driven through its standard input, as a player would drive it: the
//! shared options, every in-game command, watching engines play, and bad input.
//!
//! The programs are the example binaries that `cargo test --workspace` builds next to this
//! test (`target/<profile>/examples/`); run `cargo build -p ply-examples --examples` first when
//! running this file alone.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The path of the example program `name`, built by cargo beside this test.
fn program(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>/deps");
    let path = profile_dir.join("examples").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: `cargo test --workspace` builds it, or `cargo build -p ply-examples --examples`",
        path.display()
    );
    path
}

/// What a run printed and how it ended.
struct Run {
    success: bool,
    stdout: String,
    stderr: String,
}

/// Runs `name` with `args`, typing `input` on its standard input, and fails the test if it
/// takes more than a minute.
fn run(name: &str, args: &[&str], input: &str) -> Run {
    let mut child = spawn(name, args);
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        // The program may stop reading (quit, resign) before the end of the script.
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).map(|_| text)
    });
    let begun = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the program") {
            break status;
        }
        if begun.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{name} {args:?} ran for more than a minute");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    writer.join().expect("the writer thread");
    Run {
        success: status.success(),
        stdout: out.join().expect("stdout thread").expect("utf-8 stdout"),
        stderr: err.join().expect("stderr thread").expect("utf-8 stderr"),
    }
}

/// Starts `name` with `args`, its standard input, output and error piped.
fn spawn(name: &str, args: &[&str]) -> std::process::Child {
    Command::new(program(name))
        .args(args)
        .env_remove("NO_COLOR")
        .env("COLUMNS", "80")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts")
}

/// One game program: its name, the options that pick the game, a legal first move for the
/// human, and how a saved game starts.
struct Program {
    name: &'static str,
    args: &'static [&'static str],
    first_move: &'static str,
    record_starts: &'static str,
}

const PROGRAMS: &[Program] = &[
    Program { name: "english_checkers", args: &[], first_move: "11-15", record_starts: "[Event " },
    Program {
        name: "international_draughts",
        args: &[],
        first_move: "32-28",
        record_starts: "[Event ",
    },
    Program { name: "reversi", args: &[], first_move: "d3", record_starts: "(;GM[Othello]" },
    Program {
        name: "reversi",
        args: &["--players", "4", "--size", "10"],
        first_move: "",
        record_starts: "",
    },
    Program { name: "impasse", args: &[], first_move: "d2h6", record_starts: "" },
    Program { name: "kalah", args: &[], first_move: "1", record_starts: "" },
    Program { name: "connect_four", args: &[], first_move: "4", record_starts: "" },
    Program { name: "tictactoe", args: &[], first_move: "b2", record_starts: "" },
    Program {
        name: "play",
        args: &["--game", "breakthrough"],
        first_move: "d2-e3",
        record_starts: "",
    },
];

/// The end of a transcript, for failure messages.
fn tail(text: &str) -> &str {
    let mut start = text.len().saturating_sub(2000);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// The words of `text` with single spaces, so that wrapped lines read as one.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The score sheet at the end of a transcript, unwrapped.
fn final_moves(text: &str) -> String {
    let at = text.rfind("moves: ").expect("a score sheet");
    words(&text[at..])
}

fn args<'a>(p: &'a Program, more: &[&'a str]) -> Vec<&'a str> {
    p.args.iter().chain(more).copied().collect()
}

/// The first legal move listed after the last prompt's board: `1. MOVE`.
fn listed_first_move(out: &str) -> String {
    let line = out.lines().rev().find(|l| l.starts_with("1. ")).expect("a list of moves");
    line.split_whitespace().nth(1).expect("a move after 1.").to_string()
}

#[test]
fn every_program_takes_every_command() {
    for p in PROGRAMS {
        let file = std::env::temp_dir().join(format!("ply-{}-{}.game", p.name, std::process::id()));
        let file = file.to_str().expect("a UTF-8 temp path").to_string();
        // The first move: the given one, or the first one the program lists.
        let first = if p.first_move.is_empty() {
            let probe = run(p.name, &args(p, &["--human", "first", "--depth", "1"]), "quit\n");
            listed_first_move(&probe.stdout)
        } else {
            p.first_move.to_string()
        };
        let script = [
            "help",
            "bogus-move",
            &first,
            "hint",
            "undo",
            "redo",
            "list",
            "time 20ms",
            "depth 2",
            "go",
            &format!("save {file}"),
            "new",
            "list",
            &format!("load {file}"),
            "list",
            "swap",
            "resign",
        ]
        .join("\n");
        let r =
            run(p.name, &args(p, &["--human", "first", "--depth", "2", "--seed", "7"]), &script);
        let out = &r.stdout;
        let what = format!("{} {:?}\n{}\n{}", p.name, p.args, tail(out), r.stderr);
        assert!(r.success, "{what}");
        let flat = words(out);
        assert!(flat.contains("(seed 7; the same seed replays this game)"), "{what}");
        for expected in [
            "hint show the engine's move for your side",
            "legal moves: 1. ",
            "hint: ",
            "took back ",
            "played again ",
            &format!("moves: 1. {first}"),
            "engines now: ",
            "time=20ms",
            "depth=2",
            "(engine) plays ",
            "new game",
            "no moves yet",
            "you now play ",
            " resigns after ",
        ] {
            assert!(flat.contains(expected), "{expected:?} missing from {what}");
        }
        let saved = out.lines().find_map(|l| l.strip_prefix("saved ")).expect("a save line");
        let count = saved.split_whitespace().next().expect("a count");
        assert!(out.contains(&format!("loaded {count} moves from {file}")), "{what}");
        let text = std::fs::read_to_string(&file).expect("the saved game");
        assert!(text.starts_with(p.record_starts), "{}: {text}", p.name);
        std::fs::remove_file(&file).expect("the saved game is removed");
        // No line of the transcript is wider than the terminal.
        for line in out.lines() {
            assert!(line.chars().count() <= 80, "{} wraps: {line:?}", p.name);
        }
    }
}

#[test]
fn every_program_can_be_watched_and_replays_from_its_seed() {
    for p in PROGRAMS {
        let watch = args(p, &["--human", "none", "--depth", "1", "--seed", "3", "--watch", "0ms"]);
        let a = run(p.name, &watch, "");
        let what = format!("{} {:?}\n{}\n{}", p.name, p.args, tail(&a.stdout), a.stderr);
        assert!(a.success && a.stdout.contains("result: "), "{what}");
        let plies = a.stdout.lines().filter(|l| l.contains(" plays ")).count();
        assert!(plies > 0, "{what}");
        // A picture after every move: the starting one and one per move.
        let b = run(p.name, &args(p, &["--human", "none", "--depth", "1", "--seed", "3"]), "");
        let pictures = |text: &str| text.split("\n\n").count();
        assert!(pictures(&a.stdout) > pictures(&b.stdout) + plies / 2, "{what}");
        // Depth budgets replay the same game from the same seed.
        let c = run(p.name, &watch, "");
        assert_eq!(final_moves(&a.stdout), final_moves(&c.stdout), "{} replays", p.name);
        assert!(!a.stdout.contains('\x1b'), "no colours when stdout is not a terminal");
    }
}

#[test]
fn bad_options_are_errors_with_a_nonzero_exit() {
    for p in PROGRAMS {
        for bad in [
            &["--time", "soon"][..],
            &["--depth", "-1"],
            &["--engine", "nosuchengine"],
            &["--color", "purple"],
            &["--position", "not a position"],
            &["--seat", "9=human"],
        ] {
            let r = run(p.name, &args(p, bad), "");
            assert!(!r.success, "{} {bad:?} succeeded: {}", p.name, r.stdout);
            assert!(r.stderr.contains("error"), "{} {bad:?}: {}", p.name, r.stderr);
            assert!(!r.stderr.contains("panicked"), "{} {bad:?}: {}", p.name, r.stderr);
        }
    }
}

/// Files named in a spec are read through the bounded reader: a device, a FIFO and a
/// network file whose header asks for tens of gigabytes are clear errors before the game,
/// never a read that fills memory or waits for a writer.
#[test]
fn files_a_spec_names_are_refused_when_they_cannot_be_what_they_claim() {
    let dir = std::env::temp_dir().join(format!("ply-programs-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let huge = dir.join("huge.net");
    let mut bytes = b"PLYNET1\0".to_vec();
    for n in [1u32 << 24, 1024, 64] {
        bytes.extend_from_slice(&n.to_le_bytes());
    }
    std::fs::write(&huge, bytes).unwrap();
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    let mut cases = vec![
        ("alphabeta:book=/dev/zero".to_string(), "/dev/zero is not a regular file (a device)"),
        ("alphabeta:net=/dev/zero".to_string(), "/dev/zero is not a regular file (a device)"),
        (format!("alphabeta:net={}", huge.display()), "expected 68"),
    ];
    if made {
        cases
            .push((format!("alphabeta:book={}", fifo.display()), "is not a regular file (a FIFO)"));
    }
    for (spec, says) in cases {
        let r = run("english_checkers", &["--engine", &spec], "");
        assert!(!r.success, "{spec}: {}", r.stdout);
        assert!(r.stderr.contains(says), "{spec}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{spec}: {}", r.stderr);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Enter alone plays the only legal move (a forced capture in checkers here), and end of input
/// leaves the game cleanly.
#[test]
fn enter_plays_a_forced_move_and_end_of_input_ends_the_game() {
    let r = run(
        "english_checkers",
        // Out of the book: the hand-set evaluation's depth-2 reply leads to the forced capture.
        &[
            "--human",
            "first",
            "--engine",
            "alphabeta:depth=2,eval=classic",
            "--seed",
            "1",
            "--no-book",
        ],
        "11-15\n\nlist\n",
    );
    assert!(r.success, "{}", tail(&r.stdout));
    assert!(r.stdout.contains("moves: 1. 11-15 24-19 2. 15x24"), "{}", tail(&r.stdout));
    assert!(r.stdout.contains("end of input: game left after"), "{}", tail(&r.stdout));
}

/// The engines of checkers and draughts play from the game's own opening book by default
/// (their lines say `book`), not with `--no-book`; `--book FILE` gives another book, and a
/// file that is not a book is an error.
#[test]
fn engines_play_from_the_book_unless_told_no_book() {
    for name in ["english_checkers", "international_draughts"] {
        let base = ["--human", "none", "--depth", "1", "--seed", "5"];
        let with = run(name, &base, "");
        let what = format!("{name}\n{}\n{}", tail(&with.stdout), with.stderr);
        assert!(with.success && with.stdout.contains("result: "), "{what}");
        let first = with.stdout.lines().find(|l| l.contains(" plays ")).expect("a move");
        assert!(first.contains("   book  score "), "{name}: {first}");
        let off: Vec<&str> = base.iter().copied().chain(["--no-book"]).collect();
        let without = run(name, &off, "");
        let what = format!("{name} --no-book\n{}\n{}", tail(&without.stdout), without.stderr);
        assert!(without.success && without.stdout.contains("result: "), "{what}");
        assert!(!without.stdout.contains("   book  "), "{what}");
        // The same with the spec's own switch.
        let spec = ["--human", "none", "--engine", "alphabeta:depth=1,book=off", "--seed", "5"];
        let r = run(name, &spec, "");
        assert!(r.success && !r.stdout.contains("   book  "), "{name}: {}", tail(&r.stdout));
    }
    // Another book from a file: tic-tac-toe has none of its own.
    let dir = std::env::temp_dir().join(format!("ply-programs-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let book = dir.join("ttt.txt");
    std::fs::write(&book, "ply-book 1\ngame: tictactoe\n\n| a1=+1\n").expect("a book file");
    let book = book.to_str().expect("a UTF-8 path");
    let r = run("tictactoe", &["--human", "none", "--book", book, "--seed", "1"], "");
    let first = r.stdout.lines().find(|l| l.contains(" plays ")).unwrap_or_default().to_string();
    assert!(r.success && first.contains("plays a1   book"), "{first}\n{}", r.stderr);
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "ply-book 1\n| z9=1\n").expect("a book file");
    let bad = bad.to_str().expect("a UTF-8 path");
    let r = run("tictactoe", &["--human", "none", "--book", bad], "");
    assert!(!r.success && r.stderr.contains("line 2"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    let r = run("tictactoe", &["--human", "none", "--book", bad, "--no-book"], "");
    assert!(!r.success && r.stderr.contains("cannot be used with"), "{}", r.stderr);
    std::fs::remove_dir_all(&dir).expect("removing the temporary directory");
}

/// `reversi --eval` picks the evaluation of engine specs without `eval=`: disc counts with
/// `discs` (3 discs ahead after d3), the learned one by default; an unknown name is refused
/// with the list.
#[test]
fn reversi_eval_chooses_the_engines_evaluation() {
    let game = |eval: &str| {
        let args = ["--eval", eval, "--human", "none", "--engine", "alphabeta:depth=3"];
        run("reversi", &args, "")
    };
    let discs = game("discs");
    assert!(discs.success, "{}", discs.stderr);
    let first = discs.stdout.lines().find(|l| l.contains("1. Black plays")).unwrap_or("");
    assert!(first.contains("score +3 "), "{}", discs.stdout);
    let learned = game("learned");
    let first = learned.stdout.lines().find(|l| l.contains("1. Black plays")).unwrap_or("");
    assert!(learned.success && !first.contains("score +3 "), "{}", learned.stdout);
    let bad = game("nope");
    assert!(!bad.success);
    assert!(bad
        .stderr
        .contains("unknown evaluation \"nope\"; this game has: standard, discs, learned"));
}

/// The contest replay scores the oracle benchmark, which predicts every opponent move from
/// the true weights, and refuses a bad contestant option.
#[test]
fn reversi_marathon_scores_the_oracle_and_refuses_bad_options() {
    let r = run(
        "reversi_marathon",
        &["--cases", "1", "--seed", "3", "--threads", "1", "--agent", "oracle:nodes=20"],
        "",
    );
    assert!(r.success, "{}", r.stderr);
    let row = r.stdout.lines().find(|l| l.starts_with("| oracle:nodes=20 |")).expect("a row");
    assert!(row.ends_with("| 100.0% |"), "{row}");
    for bad in ["oracle:noise=-1", "oracle:depth=3", "oracle:other=x"] {
        let r = run("reversi_marathon", &["--cases", "1", "--agent", bad], "");
        assert!(!r.success, "{bad} succeeded");
        assert!(r.stderr.contains("error: bad --agent"), "{bad}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{bad}: {}", r.stderr);
    }
}

#[test]
fn the_json_play_mode_answers_with_the_games_engine_and_checks_the_moves_so_far() {
    let start = r#"["_b_b_b_b","b_b_b_b_","_b_b_b_b","________","________","w_w_w_w_","_w_w_w_w","w_w_w_w_"]"#;
    let input = format!(
        "{{\"board\": {start}, \"color\": \"b\", \"time_ms\": 50}}\n\
         {{\"board\": {start}, \"color\": \"b\", \"moves\": [[[2,1],[3,0]]]}}\n"
    );
    // The first answer is a move of Black; the second line's moves do not lead to its board.
    let out = run("english_checkers", &["play", "--time-ms", "50"], &input);
    assert!(out.success, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    let first: Vec<[usize; 2]> = serde_json::from_str(lines[0]).expect(lines[0]);
    assert_eq!(first.len(), 2, "{}", lines[0]);
    assert!(first[0][0] == 2 && first[1][0] == 3, "a first move of Black: {}", lines[0]);
    assert!(lines[1].contains("do not lead to the board"), "{}", lines[1]);
    let bad = run("english_checkers", &["play", "--engine", "alphabeta:eval=nothing"], &input);
    assert!(bad.stdout.contains("unknown evaluation"), "{}", bad.stdout);
}

/// The end of the input means quit for the CodinGame Impasse bot: given a minute for its
/// first answer, it answers and exits as soon as the input ends.
#[test]
fn the_codingame_bot_quits_at_the_end_of_its_input() {
    use ply::Game;
    let game = ply_impasse::Impasse::new();
    let state = game.initial_state();
    let mut moves = ply::MoveList::new();
    game.generate_moves(&state, &mut moves);
    let actions: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let board = ply_impasse::board_lines(&state).join("\n");
    let input = format!("w\n{board}\nnull\n{}\n{}\n", actions.len(), actions.join("\n"));
    let begun = Instant::now();
    let minute = ["--first-ms", "60000", "--first-limit-ms", "60000", "--quiet"];
    let out = run("impasse_codingame", &minute, &input);
    assert!(begun.elapsed() < Duration::from_secs(20), "ran {:?}", begun.elapsed());
    assert!(out.success, "{}", out.stderr);
    let answer = out.stdout.lines().next().unwrap_or_default().to_string();
    assert!(actions.contains(&answer), "{answer:?} is not one of the actions");
}

/// A program whose reader went away (`program | head`) ends quietly with success, as `cat`
/// does, instead of panicking at its next line of output.
#[test]
fn programs_end_quietly_when_their_output_pipe_closes() {
    let cases: &[(&str, &[&str])] = &[
        ("book", &["--game", "english-checkers", "probe"]),
        ("english_checkers", &["--human", "none", "--depth", "1"]),
        ("reversi_marathon", &["--cases", "1", "--threads", "1", "--agent", "oracle:nodes=20"]),
        ("perft", &["tictactoe", "3", "--divide"]),
    ];
    for (name, args) in cases {
        // Standard output is a pipe whose reading end is already closed.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = Command::new(program(name))
            .args(*args)
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("the program runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{name} {args:?}: {stderr}");
        assert!(out.status.success(), "{name} {args:?}: {:?}\n{stderr}", out.status);
    }
}

/// An external engine that cannot start is an error before the match, with the operating
/// system's reason, as cutechess-cli refuses such a match: in the arena and in a game program.
#[test]
fn an_engine_that_cannot_start_is_an_error_before_the_match() {
    let arena = run(
        "arena",
        &[
            "--game",
            "english-checkers",
            "jsonl:time=100ms,cmd=/nonexistent/engine",
            "random",
            "--games",
            "2",
            "--quiet",
        ],
        "",
    );
    assert!(!arena.success, "{}", arena.stdout);
    assert!(arena.stderr.contains("No such file"), "{}", arena.stderr);
    assert!(!arena.stdout.contains("2-0"), "{}", arena.stdout);
    let game = run("english_checkers", &["--engine", "jsonl:cmd=/nonexistent/engine"], "");
    assert!(!game.success, "{}", game.stdout);
    assert!(
        game.stderr.contains("cannot start") && game.stderr.contains("No such file"),
        "{}",
        game.stderr
    );
}

/// The arena plays under a game clock (`clock=` in an agent spec): a search that manages its
/// clock finishes its games without losing on time.
#[test]
fn the_arena_plays_under_a_game_clock() {
    let arena = run(
        "arena",
        &["--game", "connect-four", "alphabeta:clock=2s+10ms", "random", "--games", "2"],
        "",
    );
    assert!(arena.success, "{}\n{}", arena.stdout, arena.stderr);
    assert!(arena.stdout.contains("alphabeta:clock=2s+10ms"), "{}", arena.stdout);
    assert!(!(arena.stdout + &arena.stderr).contains("on time"), "no flag falls");
    let both =
        run("arena", &["--game", "connect-four", "alphabeta:time=1s,clock=2m", "random"], "");
    assert!(!both.success && both.stderr.contains("cannot both be set"), "{}", both.stderr);
}

/// A game between engines stops as soon as its output goes away (`english_checkers </dev/null |
/// head -3`), not after playing to the end: at a second a move the whole game would take
/// minutes.
#[test]
fn an_engine_game_stops_when_its_reader_leaves() {
    use std::io::BufRead;
    let mut child = Command::new(program("english_checkers"))
        .args(["--engine", "alphabeta:time=1s,book=off"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = std::io::BufReader::new(stdout).lines();
    for _ in 0..3 {
        lines.next().expect("a line").expect("text");
    }
    drop(lines);
    let begun = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(begun.elapsed() < Duration::from_secs(20), "the game goes on without a reader");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(status.success() && !err.contains("panicked"), "{status:?}: {err}");
}

/// `international_draughts dxp --listen` serves DamExchange: it prints where it listens,
/// accepts a game request, plays the first move as White and ends the game when asked.
#[test]
fn the_draughts_program_serves_damexchange() {
    use std::io::BufRead;
    use std::net::TcpStream;
    let mut child = Command::new(program("international_draughts"))
        .args(["dxp", "--listen", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the program starts");
    let mut out = std::io::BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut first = String::new();
    out.read_line(&mut first).expect("a first line");
    let addr = first.trim().strip_prefix("dxp: listening on ").unwrap_or_else(|| panic!("{first}"));
    let mut socket = TcpStream::connect(addr).expect("the server accepts");
    socket.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut socket2 = socket.try_clone().expect("a second handle");
    let mut read_message = || {
        let mut message = Vec::new();
        let mut byte = [0u8];
        loop {
            socket.read_exact(&mut byte).expect("a whole message");
            if byte[0] == 0 {
                return String::from_utf8(message).expect("ASCII");
            }
            message.push(byte[0]);
        }
    };
    // Version 1, our name, the server (the follower) plays White, 1 minute for 150 moves,
    // the initial position.
    let request = format!("R01{:<32}W001150A\0", "ply test");
    socket2.write_all(request.as_bytes()).unwrap();
    let accepted = read_message();
    assert!(accepted.starts_with('A') && accepted.ends_with('0'), "{accepted:?}");
    let first_move = read_message();
    assert!(first_move.starts_with('M') && first_move.len() >= 11, "{first_move:?}");
    socket2.write_all(b"E01\0").unwrap();
    let ended = read_message();
    assert!(ended.starts_with('E'), "{ended:?}");
    let _ = child.kill();
    let _ = child.wait();
}

/// An arena run killed with SIGKILL in the middle (its results file may end in part of a
/// line) resumes with `--resume` and ends with every scheduled game recorded exactly once.
#[test]
fn an_arena_run_killed_in_the_middle_resumes_to_every_game_once() {
    let dir = std::env::temp_dir().join(format!("ply-programs-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let out = dir.join("run.jsonl");
    let out_text = out.to_str().expect("a UTF-8 path");
    let args = [
        "--game",
        "connect-four",
        "--games",
        "24",
        "--threads",
        "2",
        "--seed",
        "3",
        "--quiet",
        "alphabeta:depth=5",
        "mcts:iters=400",
        "--out",
        out_text,
    ];
    let mut child = Command::new(program("arena"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the arena starts");
    let begun = Instant::now();
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 3 {
        assert!(begun.elapsed() < Duration::from_secs(60), "no game finished in a minute");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    let resumed: Vec<&str> = args.iter().copied().chain(["--resume"]).collect();
    let r = run("arena", &resumed, "");
    assert!(r.success, "{}", r.stderr);
    let text = std::fs::read_to_string(&out).expect("the results file");
    let mut indices: Vec<u64> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            v["index"].as_u64().expect("an index")
        })
        .collect();
    indices.sort_unstable();
    let scheduled = indices.len() as u64;
    assert_eq!(indices, (0..scheduled).collect::<Vec<_>>(), "every game exactly once");
    assert!(scheduled >= 24);
    std::fs::remove_dir_all(&dir).expect("removing the temporary directory");
}

/// Ctrl-C leaves the game as `quit` does: the moves so far are printed (on stderr, while an
/// engine may be thinking) and the program ends with status 130.
#[test]
fn ctrl_c_prints_the_moves_and_ends_the_game() {
    let mut child = spawn("tictactoe", &["--human", "first", "--engine", "alphabeta:depth=3"]);
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(b"b2\n").unwrap();
    stdin.flush().unwrap();
    let mut stdout = child.stdout.take().expect("piped stdout");
    // Wait for the engine's reply, then interrupt with the human to move (stdin still open).
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !String::from_utf8_lossy(&seen).contains("O plays") {
        assert_eq!(stdout.read(&mut byte).unwrap(), 1, "{}", String::from_utf8_lossy(&seen));
        seen.push(byte[0]);
    }
    std::thread::sleep(Duration::from_millis(200));
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("game left after 2 moves"), "{err}");
    assert!(err.contains("moves: 1. b2 "), "{err}");
}

/// `serve` starts each program's web board on 127.0.0.1 and prints its address; the page and
/// the game list answer; options the game refuses are an error before anything listens.
#[test]
fn every_game_program_serves_its_web_board() {
    for (name, game) in [
        ("english_checkers", "english-checkers"),
        ("international_draughts", "international-draughts"),
        ("reversi", "reversi"),
        ("impasse", "impasse"),
        ("kalah", "kalah"),
        ("connect_four", "connect-four"),
        ("tictactoe", "tictactoe"),
        ("play", "breakthrough"),
    ] {
        let mut args = vec!["serve"];
        if name == "play" {
            args.extend(["--game", game]);
        }
        let mut child = spawn(name, &args);
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut line = Vec::new();
        let mut byte = [0u8; 1];
        while byte[0] != b'\n' {
            assert_eq!(stdout.read(&mut byte).unwrap(), 1, "{name}: no address printed");
            line.push(byte[0]);
        }
        let line = String::from_utf8(line).unwrap();
        let (address, token) = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .and_then(|w| w.split_once("/?token="))
            .unwrap_or_else(|| panic!("{name}: {line}"));
        let get = |path: &str| {
            let mut stream = std::net::TcpStream::connect(address).unwrap();
            write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n")
                .unwrap();
            let mut text = String::new();
            stream.read_to_string(&mut text).unwrap();
            text
        };
        // Without the printed token nothing is served.
        let refused = get("/");
        assert!(refused.starts_with("HTTP/1.1 403") && refused.contains("token"), "{refused}");
        let page = get(&format!("/?token={token}"));
        assert!(page.starts_with("HTTP/1.1 200") && page.contains("board.js"), "{name}: {page}");
        assert!(page.contains("Set-Cookie: ply-token-"), "{name}: {page}");
        let games = get(&format!("/api/games?token={token}"));
        assert!(games.contains(&format!("\"name\":\"{game}\"")), "{name}: {games}");
        let missing = get(&format!("/api/view?session=nope&token={token}"));
        assert!(missing.starts_with("HTTP/1.1 404") && missing.contains("\"error\""), "{missing}");
        let _ = child.kill();
        let _ = child.wait();
    }
    let refused = run("english_checkers", &["serve", "--size", "7"], "");
    assert!(!refused.success);
    assert!(refused.stderr.contains("error:"), "{}", refused.stderr);
}

/// Each program's `--help` lists the game options and external engines of its own game only.
#[test]
fn each_programs_help_lists_only_what_applies_to_it() {
    let help = |name: &str| run(name, &["--help"], "").stdout;
    let tictactoe = help("tictactoe");
    for absent in
        ["--rules", "--size", "--players", "--variant", "hub:", "nboard:", "jsonl:", "dxp:"]
    {
        assert!(!tictactoe.contains(absent), "tictactoe --help lists {absent}");
    }
    assert!(tictactoe.contains("alphabeta[:") && tictactoe.contains("--engine"), "{tictactoe}");
    let checkers = help("english_checkers");
    assert!(checkers.contains("--rules") && checkers.contains("--size"), "{checkers}");
    assert!(checkers.contains("jsonl:") && !checkers.contains("nboard:"), "{checkers}");
    let reversi = help("reversi");
    assert!(reversi.contains("--players") && reversi.contains("nboard:"), "{reversi}");
    assert!(!reversi.contains("--rules") && !reversi.contains("addr=HOST"), "{reversi}");
    let draughts = help("international_draughts");
    assert!(!draughts.contains("--size") && draughts.contains("hub:"), "{draughts}");
    assert!(help("connect_four").contains("--variant"), "connect-four takes connect=K");
    let serve = run("english_checkers", &["serve", "--help"], "").stdout;
    assert!(serve.contains("--port") && serve.contains("--rules") && !serve.contains("--players"));
    // Kalah's `solve` help shows Kalah's options alone.
    let kalah = help("kalah");
    assert!(kalah.contains("solve "), "{kalah}");
    let solve = run("kalah", &["solve", "--help"], "").stdout;
    assert!(solve.contains("--variant") && solve.contains("--analyse"), "{solve}");
    for absent in ["--rules", "--size", "--players"] {
        assert!(!solve.contains(absent), "kalah solve --help lists {absent}: {solve}");
    }
    // The marathon lists the agents it takes (its contestants, ply's searches), no engines.
    let marathon = help("reversi_marathon");
    assert!(marathon.contains("modelling[:") && marathon.contains("oracle[:"), "{marathon}");
    assert!(
        marathon.contains("mcts[:") && !marathon.contains("hub:") && !marathon.contains("cmd=")
    );
    // The endgame tables' program offers the games that have tables.
    let egdb = help("egdb");
    assert!(egdb.contains("english-checkers") && egdb.contains("kalah"), "{egdb}");
    assert!(!egdb.contains("breakthrough") && !egdb.contains("impasse"), "{egdb}");
    // MCTS keeps its tree by default, and the help says so.
    assert!(checkers.contains("default: true for MCTS"), "{checkers}");
    for program in
        ["english_checkers", "kalah", "arena", "tune", "egdb", "book", "perft", "play", "oracle"]
    {
        let version = run(program, &["--version"], "");
        assert!(version.success && version.stdout.contains("0."), "{program}: {}", version.stdout);
    }
}

/// The board shows the side of the person playing at the bottom; `--flip` turns it round.
#[test]
fn the_players_side_is_at_the_bottom_unless_flipped() {
    // The board's lines: the 8 after the first line of column numbers.
    let rows = |args: &[&str]| -> Vec<String> {
        let out = run("english_checkers", args, "quit\n").stdout;
        let lines: Vec<&str> = out.lines().collect();
        let header = lines
            .iter()
            .position(|l| {
                l.split_whitespace().count() == 8
                    && l.split_whitespace().all(|w| w.parse::<u8>().is_ok())
            })
            .unwrap_or_else(|| panic!("no board in {out}"));
        lines[header + 1..header + 9].iter().map(|l| l.to_string()).collect()
    };
    let has = |line: &str, square: &str| line.split_whitespace().any(|w| w == square);
    let black = rows(&["--human", "first", "--no-color", "--seed", "1"]);
    assert!(has(&black[7], "b1") && has(&black[0], "w32"), "{black:#?}");
    let flipped = rows(&["--human", "first", "--no-color", "--seed", "1", "--flip"]);
    assert!(has(&flipped[0], "b1") && has(&flipped[7], "w32"), "{flipped:#?}");
    let white = rows(&["--human", "second", "--no-color", "--seed", "1", "--depth", "1"]);
    assert!(has(&white[0], "b1") && has(&white[7], "w32"), "{white:#?}");
}

/// `solve` from every kind of program: a game's own (with its subcommands), a game's generic
/// one and `play`, as text and as JSON; bad input is an error, not a panic.
#[test]
fn solve_answers_exactly_and_refuses_bad_input() {
    // Pons' solver scores this Connect Four position -2: lost, the 24th ply ends the game.
    let moves = "1 2 3 4 5 6 7 1 2 3 4 5 6 7 1 2";
    let json = run("connect_four", &["solve", "--moves", moves, "--json", "--threads", "1"], "");
    assert!(json.success, "{}", json.stderr);
    let answer: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!((answer["value"].as_i64(), answer["result"].as_str()), (Some(-1), Some("loss")));
    assert_eq!(answer["plies"].as_u64(), Some(24));
    assert!(answer["best"].is_array() && answer["nodes"].is_u64() && answer["time_ms"].is_u64());
    let text = run("tictactoe", &["solve", "--analyse", "--quiet"], "");
    assert!(text.success, "{}", text.stderr);
    assert!(
        text.stdout.contains("value: draw") && text.stdout.contains("b2       draw"),
        "{}",
        text.stdout
    );
    let kalah = run(
        "play",
        &["solve", "--game", "kalah", "--variant", "pits=3", "--variant", "seeds=2"],
        "",
    );
    assert!(kalah.success && kalah.stdout.contains("value: "), "{}", kalah.stderr);
    let checkers = run("english_checkers", &["solve", "--fen", "W:W32:B1", "--quiet"], "");
    assert!(!checkers.success && checkers.stderr.contains("--fen"), "{}", checkers.stderr);
    let checkers = run("english_checkers", &["solve", "--position", "W:WK14:B1", "--quiet"], "");
    let won = "value: win in 5 plies";
    assert!(checkers.success && checkers.stdout.contains(won), "{}", checkers.stderr);
    for (args, message) in [
        (&["solve", "--moves", "4 8"][..], "--moves: move 2 (8): "),
        (&["solve", "--position", "nonsense"][..], "bad --position: "),
        (&["solve", "--threads", "0"][..], "--threads: expected at least 1"),
        (&["solve", "--time", "soon"][..], "--time"),
    ] {
        let bad = run("connect_four", args, "");
        assert!(!bad.success && bad.stderr.contains(message), "{args:?}: {}", bad.stderr);
        assert!(!bad.stderr.contains("panicked"), "{args:?}: {}", bad.stderr);
    }
    let three = run("play", &["solve", "--game", "reversi", "--players", "3"], "");
    assert!(!three.success && three.stderr.contains("one- and two-player"), "{}", three.stderr);
}

/// `solve` for Kalah reads the seed tables of its rules from the endgame directory
/// (`$PLY_EGDB`): the same value with far fewer positions, and a damaged table is an error.
#[test]
fn kalah_solve_reads_seed_tables_and_refuses_damaged_ones() {
    use ply_kalah::{Capture, Kalah, SeedTable};
    let root = std::env::temp_dir().join(format!("ply-kalah-solve-{}", std::process::id()));
    let (tables, empty) = (root.join("tables"), root.join("empty"));
    let _ = std::fs::remove_dir_all(&root);
    let game = Kalah::new(4, 2, Capture::Empty).unwrap();
    SeedTable::build_in(&game, 10, 1, &tables, &mut |_, _| {}).unwrap();
    let solve = |dir: &PathBuf| {
        let out = Command::new(program("play"))
            .args(["solve", "--game", "kalah", "--variant", "pits=4", "--variant", "seeds=2"])
            .args(["--json", "--quiet", "--threads", "1"])
            .env("PLY_EGDB", dir)
            .output()
            .expect("play runs");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let error = String::from_utf8_lossy(&out.stderr).to_string();
        (out.status.success(), serde_json::from_str::<serde_json::Value>(text.trim()).ok(), error)
    };
    let (ok, bare, error) = solve(&empty);
    let bare = bare.filter(|_| ok).unwrap_or_else(|| panic!("{error}"));
    let (ok, with, error) = solve(&tables);
    let with = with.filter(|_| ok).unwrap_or_else(|| panic!("{error}"));
    assert_eq!(with["value"], bare["value"]);
    assert!(with["nodes"].as_u64() < bare["nodes"].as_u64(), "{with} against {bare}");

    let file = std::fs::read_dir(tables.join("kalah-4-empty-capture"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("count-10.plyegdb"))
        .expect("the table of 10 seeds");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x5a;
    std::fs::write(&file, bytes).unwrap();
    let (ok, _, error) = solve(&tables);
    assert!(!ok && error.contains("endgame tables"), "{error}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// A game outside the bundle gets every tool from one program (`examples/hex`): each tool
/// runs under its name, and a missing or unknown tool, bad options and a bad position are
/// errors with a non-zero exit.
#[test]
fn a_program_over_its_own_registry_offers_every_tool() {
    let perft = run("hex", &["perft", "hex", "2", "--size", "5"], "");
    assert!(perft.success && perft.stdout.contains("perft(2) = 600"), "{}", perft.stdout);
    let watched = run(
        "hex",
        &["play", "--game", "hex", "--size", "4", "--human", "none", "--depth", "3"],
        "",
    );
    assert!(watched.success && watched.stdout.contains("wins"), "{}", watched.stdout);
    // The program's own network plays on 7x7, and only there.
    let learned = ["play", "--game", "hex", "--human", "none", "--engine", "puct:iters=32"];
    let r = run("hex", &learned, "");
    assert!(r.success && r.stdout.contains("wins"), "{}{}", r.stdout, r.stderr);
    let r = run("hex", &[&learned[..], &["--size", "5"]].concat(), "");
    assert!(!r.success && r.stderr.contains("tune zero"), "{}", r.stderr);
    let solved = run("hex", &["play", "solve", "--game", "hex", "--size", "3", "--json"], "");
    assert!(solved.success && solved.stdout.contains("\"result\":\"win\""), "{}", solved.stdout);
    for (args, says) in [
        (&[][..], "a tool is needed"),
        (&["referee"], "no tool `referee`"),
        (&["perft", "hex", "2", "--size", "12"], "no Hex board of side 12"),
        (&["play", "--game", "hex", "--position", "x.. o"], "not a Hex position"),
    ] {
        let r = run("hex", args, "");
        assert!(!r.success, "{args:?} succeeded: {}", r.stdout);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
    }
    let help = run("hex", &["--help"], "");
    assert!(help.success && help.stdout.contains("oracle") && help.stdout.contains("Hex on"));
}
