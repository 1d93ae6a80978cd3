//! The `egdb` command and the agents' use of endgame tables, on tic-tac-toe (whose index
//! counts empty squares: the whole game fits in its tables).

use std::path::PathBuf;

use clap::Parser;
use ply::games::TicTacToe;
use ply::search::{Agent, Budget, Position, Value};
use ply::{Game, Solved};
use ply_tools::egdb::{run, EgdbArgs};
use ply_tools::error::ToolError;
use ply_tools::registry::{GameEntry, GameOptions, Registry};
use ply_tools::spec::{AgentSpec, SpecError};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    egdb: EgdbArgs,
}

fn egdb(dir: &std::path::Path, args: &[&str]) -> Result<String, ToolError> {
    let mut argv = vec!["egdb", "--dir", dir.to_str().unwrap()];
    argv.extend_from_slice(args);
    let cli = Cli::try_parse_from(argv).map_err(ToolError::input)?;
    let mut out = Vec::new();
    run(&TicTacToe, &cli.egdb, &mut out)?;
    Ok(String::from_utf8(out).unwrap())
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ply-egdb-{name}-{}", std::process::id()))
}

#[test]
fn the_command_builds_lists_probes_and_verifies() {
    let dir = temp("command");
    let built = egdb(&dir, &["build", "--pieces", "9", "--threads", "2"]).unwrap();
    assert!(built.contains("10 slices, 5478 positions"), "{built}");
    // Run again: every slice is read back, nothing is solved twice.
    let again = egdb(&dir, &["build", "--pieces", "9"]).unwrap();
    assert!(again.contains("5478 positions"), "{again}");
    let info = egdb(&dir, &["info"]).unwrap();
    assert!(info.contains("up to 9 pieces"), "{info}");
    // X to move with two in the top row: a win in one ply, by c3 (the third square).
    let probe = egdb(&dir, &["probe", "xx..o.o.."]).unwrap();
    assert!(probe.contains("the side to move: win in 1 ply"), "{probe}");
    assert!(probe.lines().nth(2).unwrap().contains("win in 1"), "{probe}");
    let probe = egdb(&dir, &["probe", "........."]).unwrap();
    assert!(probe.contains("the side to move: draw"), "{probe}");
    let verify = egdb(&dir, &["verify", "--samples", "2000"]).unwrap();
    assert!(verify.contains("2000 positions checked"), "{verify}");
    // Bad input: a position that does not read, a directory without tables, no pieces.
    let e = egdb(&dir, &["probe", "xxxx"]).unwrap_err().to_string();
    assert!(e.contains("bad position"), "{e}");
    let e = egdb(&temp("empty"), &["info"]).unwrap_err().to_string();
    assert!(e.contains("no endgame tables of tictactoe"), "{e}");
    let e = egdb(&dir, &["build", "--pieces", "0"]).unwrap_err().to_string();
    assert!(e.contains("at least 1"), "{e}");
    // A damaged file is reported by verify, with its name.
    let file = dir.join("tictactoe").join("empty5.egdb");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let e = egdb(&dir, &["verify"]).unwrap_err().to_string();
    assert!(e.contains("empty5.egdb") && e.contains("cut short"), "{e}");
    // One changed byte in the data: an error naming the file, never other verdicts.
    let mut damaged = bytes.clone();
    let at = bytes.len() - 3;
    damaged[at] ^= 0x40;
    std::fs::write(&file, &damaged).unwrap();
    let e = egdb(&dir, &["verify"]).unwrap_err().to_string();
    assert!(e.contains("empty5.egdb") && e.contains("damaged"), "{e}");
    // A flipped bit anywhere in the compressed data: a short message, never the decoder's
    // whole output.
    let data = bytes.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
    for at in (data..bytes.len()).step_by(7) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x10;
        std::fs::write(&file, &flipped).unwrap();
        if let Err(e) = egdb(&dir, &["verify"]) {
            let e = e.to_string();
            assert!(
                e.len() < 400 && e.contains("empty5.egdb"),
                "byte {at}: {} bytes: {e}",
                e.len()
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The tables line a program prints names the tables its engines use: those of their
/// `egdb=DIR`, none for `egdb=off`, for an agent that does not search with them, or for a
/// directory without tables.
#[test]
fn the_tables_line_names_the_tables_the_engines_use() {
    let dir = temp("banner");
    egdb(&dir, &["build", "--pieces", "9"]).unwrap();
    let entry = GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe)).endgame();
    let with = format!("alphabeta:depth=2,egdb={}", dir.display());
    let described = |specs: &[&str]| {
        let specs: Vec<AgentSpec> = specs.iter().map(|t| t.parse().unwrap()).collect();
        entry.kit.tables_description(&TicTacToe, &specs)
    };
    let line = described(&[&with, "random"]).expect("a tables line");
    assert!(line.contains("up to 9 pieces") && line.contains(&dir.display().to_string()), "{line}");
    assert_eq!(described(&[&with, &with]).unwrap().lines().count(), 1, "each directory once");
    assert_eq!(described(&["alphabeta:depth=2,egdb=off", "random"]), None);
    assert_eq!(described(&["mcts:iters=10"]), None);
    assert_eq!(described(&[]), None);
    let empty = temp("banner-empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert_eq!(described(&[&format!("alphabeta:egdb={}", empty.display())]), None);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
}

#[test]
fn searches_use_the_tables_unless_told_not_to() {
    let dir = temp("agents");
    egdb(&dir, &["build", "--pieces", "9"]).unwrap();
    let entry = GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe)).endgame();
    let game = entry.build(&GameOptions::default()).unwrap();
    let state = game.initial_state();
    let spec = |text: &str| text.parse::<AgentSpec>().unwrap();
    // One ply deep, every reply is looked up: the search knows the game is a draw.
    let with = format!("alphabeta:depth=1,egdb={}", dir.display());
    let mut agent = entry.kit.build(&spec(&with), 1).unwrap();
    let report = agent.choose(&game, Position::new(&state), &Budget::depth(1)).unwrap();
    assert_eq!(report.value, Value::Draw);
    let mut agent = entry.kit.build(&spec("alphabeta:depth=1,egdb=off"), 1).unwrap();
    let report = agent.choose(&game, Position::new(&state), &Budget::depth(1)).unwrap();
    assert!(matches!(report.value, Value::Heuristic(_)), "{:?}", report.value);
    // The solver the kit keeps answers for a terminal too.
    let solver = entry.kit.solver_for(&spec(&with)).unwrap().unwrap();
    assert_eq!(solver.solve(&game, &state), Some(Solved::Draw));
    assert!(solver.describe(&game).unwrap().contains("up to 9 pieces"));
    // Tables of the format before checksums are not used, and the solver says why.
    let old_dir = temp("old-format");
    egdb(&old_dir, &["build", "--pieces", "9"]).unwrap();
    let file = old_dir.join("tictactoe").join("empty9.egdb");
    let text = std::fs::read(&file).unwrap();
    let old = [b"PLYEGDB 1".as_slice(), &text[b"PLYEGDB 2".len()..]].concat();
    std::fs::write(&file, old).unwrap();
    let stale = entry.kit.solver_for(&spec(&format!("alphabeta:egdb={}", old_dir.display())));
    let stale = stale.unwrap().unwrap();
    assert_eq!(stale.solve(&game, &state), None);
    let said = stale.describe(&game).unwrap();
    assert!(said.contains("not used") && said.contains("builds it again"), "{said}");
    // And the build solves that slice again, after which the tables serve.
    let rebuilt = egdb(&old_dir, &["build", "--pieces", "9"]).unwrap();
    assert!(rebuilt.contains("5478 positions"), "{rebuilt}");
    assert!(egdb(&old_dir, &["verify", "--samples", "200"]).is_ok());
    std::fs::remove_dir_all(&old_dir).unwrap();
    // A directory that is not there, and tables for a game without an index.
    let e = entry.kit.build(&spec("alphabeta:egdb=/no/such/dir"), 1).err().unwrap();
    assert!(matches!(e, SpecError::Egdb { .. }), "{e}");
    let plain = GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe));
    let e = plain.kit.build(&spec(&with), 1).err().unwrap();
    assert!(e.to_string().contains("no endgame tables"), "{e}");
    assert!(plain.kit.build(&spec("alphabeta:depth=1"), 1).is_ok());
    // The registry runs the command for a game that registers its index.
    let mut registry = Registry::new();
    registry.add(GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe)).endgame());
    let cli = Cli::try_parse_from(["egdb", "--dir", dir.to_str().unwrap(), "info"]).unwrap();
    let mut out = Vec::new();
    registry.get("tictactoe").unwrap().egdb(&GameOptions::default(), &cli.egdb, &mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().contains("up to 9 pieces"));
    std::fs::remove_dir_all(&dir).unwrap();
}
