//! Opening books for any registered two-player game: `book build` grows a book by drop-out
//! expansion ([`ply::book::DropOut`]) with alpha-beta at the leaves and writes it as a text
//! file ([`ply::book`] describes the format); `book probe` prints a position's book moves.
//!
//! ```text
//! book --game english-checkers build --nodes 2000 --time 300ms --out book.txt
//! book --game english-checkers probe --book book.txt --moves "11-15 23-19"
//! ```
//!
//! A build saves its file every `--save-every` and when it ends; run again with the same
//! `--out`, it goes on from the positions already there. Engines use a book with the agent
//! spec's `book=FILE`; a game's registration can embed its own
//! ([`crate::registry::GameEntry::opening_book`]), which searches use unless told `book=off`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Subcommand;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use ply::book::{format_value, leaf_value, Book, DropOut, DEFAULT_WEIGHT};
use ply::{MoveList, Notation};

use crate::agents::{AgentKit, ToolGame};
use crate::error::{ToolError, ToolResult};
use crate::options::{GameInfo, GameOptions};
use crate::spec::{parse_duration, AgentSpec, BookChoice};

/// What `book` does.
#[derive(Subcommand, Clone, Debug)]
pub enum BookCommand {
    /// Build (or extend) a book by drop-out expansion over alpha-beta leaf values.
    Build(Box<BuildArgs>),
    /// Print the book moves of a position (the start, or after --moves, or --position).
    #[command(alias = "show")]
    Probe(ProbeArgs),
}

/// The options of `book build`.
#[derive(clap::Args, Clone, Debug)]
pub struct BuildArgs {
    /// Positions to have in the tree (book positions and their evaluated leaves); a run
    /// stops at the first expansion that reaches it.
    #[arg(long, value_name = "N")]
    pub nodes: usize,
    /// The search that evaluates each new position (its book is always off).
    #[arg(long, value_name = "SPEC", default_value = "alphabeta:depth=8")]
    pub engine: AgentSpec,
    /// Search depth per new position (replaces the engine's limits).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Search time per new position, e.g. 300ms (replaces the engine's limits).
    #[arg(long, value_name = "T", value_parser = parse_time)]
    pub time: Option<Duration>,
    /// The drop-out weight: what one ply deeper costs against the value lost by a move that
    /// is not the best, in the evaluation's units (higher: broader, shallower books).
    #[arg(long, value_name = "W", default_value_t = DEFAULT_WEIGHT)]
    pub weight: f64,
    /// The margin the book suggests to its players: they choose among the moves within it
    /// of the best (in the evaluation's units; 0 plays the best only).
    #[arg(long, value_name = "M", default_value_t = 5.0)]
    pub margin: f64,
    /// Seed of the searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the file this often while building (and at the end).
    #[arg(long, value_name = "T", default_value = "60s", value_parser = parse_time)]
    pub save_every: Duration,
    /// The book file; an existing book of the same game is extended.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// The options of `book probe`.
#[derive(clap::Args, Clone, Debug)]
pub struct ProbeArgs {
    /// The book file (default: the game's own book).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Moves from the start, in the game's notation, separated by spaces.
    #[arg(long, value_name = "MOVES", conflicts_with = "position")]
    pub moves: Option<String>,
    /// The position, in the game's position notation.
    #[arg(long, value_name = "P", visible_alias = "fen")]
    pub position: Option<String>,
}

fn parse_time(text: &str) -> ToolResult<Duration> {
    parse_duration(text).map_err(ToolError::input)
}

/// Runs `command` on `game` (registered as `info`, built from `options`) with `kit`'s
/// searches and books.
///
/// # Errors
/// Bad arguments, a book file that cannot be read or written, or a failed search.
pub fn run<G: ToolGame>(
    game: &G,
    kit: &AgentKit<G>,
    info: &GameInfo,
    options: &GameOptions,
    command: &BookCommand,
) -> ToolResult<()> {
    match command {
        BookCommand::Build(args) => Ok(build(game, kit, info, options, args)?),
        BookCommand::Probe(args) => Ok(probe(game, kit, info, args)?),
    }
}

/// The rules line of a book's header: the game options, or `default`.
fn rules_text(options: &GameOptions) -> String {
    let args = options.to_args();
    if args.is_empty() {
        "default".to_string()
    } else {
        args
    }
}

/// Reads a book file of `game`.
fn read_book<G: ToolGame>(game: &G, path: &Path) -> ToolResult<Book<G>> {
    let text = crate::files::read_text(path, crate::files::MAX_TEXT)?;
    Book::parse(game, &text).map_err(|e| ToolError::Input(format!("{}: {e}", path.display())))
}

/// Writes `book` to `path` through a temporary file, so a stop never leaves half a book.
fn write_book<G: ToolGame>(game: &G, book: &Book<G>, path: &Path) -> ToolResult<()> {
    let text = book.write(game).map_err(ToolError::input)?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| ToolError::Input(format!("cannot write {}: {e}", path.display())))
}

/// `book build`.
fn build<G: ToolGame>(
    game: &G,
    kit: &AgentKit<G>,
    info: &GameInfo,
    options: &GameOptions,
    args: &BuildArgs,
) -> ToolResult<()> {
    if args.nodes == 0 {
        return Err(ToolError::input("--nodes must be at least 1"));
    }
    if !args.weight.is_finite() || args.weight < 0.0 {
        return Err(ToolError::Input(format!(
            "--weight {}: expected a number from 0 up",
            args.weight
        )));
    }
    if !args.margin.is_finite() || args.margin < 0.0 {
        return Err(ToolError::Input(format!(
            "--margin {}: expected a number from 0 up",
            args.margin
        )));
    }
    if game.num_players() != 2 {
        return Err(ToolError::Input(format!(
            "opening books are for two-player games; {} has {} players here",
            info.name,
            game.num_players()
        )));
    }
    let mut spec = args.engine.clone();
    if args.depth.is_some() || args.time.is_some() {
        spec.depth = args.depth;
        spec.time = args.time;
        spec.nodes = None;
        spec.iters = None;
    }
    spec.book = Some(BookChoice::Off);
    if spec.algorithm.is_external() {
        return Err(ToolError::Input(format!(
            "--engine {spec}: books are built with ply's own searches"
        )));
    }
    let mut agent = kit
        .build(&spec, args.seed)
        .map_err(|e| ToolError::Input(format!("--engine {spec}: {e}")))?;
    agent.new_game();
    let budget = spec.budget();
    let mut tree = if args.out.exists() {
        let old = read_book(game, &args.out)?;
        if let Some(other) = old.header_value("game").filter(|g| *g != info.name) {
            return Err(ToolError::Input(format!(
                "{} is a book of {other}, not of {}; choose another --out",
                args.out.display(),
                info.name
            )));
        }
        let tree = DropOut::from_book(game, &old, args.weight).map_err(ToolError::input)?;
        eprintln!(
            "{}: going on from {} book positions ({} in the tree)",
            args.out.display(),
            old.len(),
            tree.positions()
        );
        tree
    } else {
        DropOut::new(game, args.weight).map_err(ToolError::input)?
    };
    let command: Vec<String> = std::env::args().skip(1).collect();
    let header = |tree: &DropOut<'_, G>| {
        let mut book = tree.book();
        book.set_header("game", &info.name);
        book.set_header("rules", &rules_text(options));
        book.set_header("built", &format!("book {}", command.join(" ")));
        book.set_header("method", "drop-out expansion (Lincke 2001)");
        book.set_header("engine", &spec.to_string());
        book.set_header("weight", &format_number(args.weight));
        book.set_header("margin", &format_number(args.margin));
        book.set_header("positions", &format!("{} (tree {})", book.len(), tree.positions()));
        book
    };
    let bar = progress_bar(args.nodes as u64);
    bar.set_position(tree.positions().min(args.nodes) as u64);
    let started = Instant::now();
    let mut saved = Instant::now();
    let mut complete = false;
    while tree.positions() < args.nodes {
        let expanded = tree
            .expand_next(|state| leaf_value(game, &mut agent, &budget, state))
            .map_err(|e| ToolError::Input(format!("--engine {spec}: {e}")))?;
        if expanded.is_none() {
            complete = true;
            break;
        }
        bar.set_position(tree.positions().min(args.nodes) as u64);
        bar.set_message(format!("value {}", format_value(tree.value())));
        if saved.elapsed() >= args.save_every {
            write_book(game, &header(&tree), &args.out)?;
            saved = Instant::now();
        }
    }
    bar.finish_and_clear();
    let book = header(&tree);
    write_book(game, &book, &args.out)?;
    let start = game.initial_state();
    let line: Vec<String> = format_moves(game, &start, &book.line(game, &start, 12));
    eprintln!(
        "{}: {} book positions, {} in the tree{}, start value {} ({:.0?})\nmain line: {}",
        args.out.display(),
        book.len(),
        tree.positions(),
        if complete { " (the whole game tree)" } else { "" },
        format_value(tree.value()),
        started.elapsed(),
        line.join(" ")
    );
    Ok(())
}

fn format_number(v: f64) -> String {
    format!("{v}")
}

/// The moves of `line` from `state` in the game's notation.
fn format_moves<G: Notation>(game: &G, state: &G::State, line: &[G::Move]) -> Vec<String> {
    let mut state = state.clone();
    line.iter()
        .map(|&mv| {
            let text = game.format_move(&state, mv);
            game.apply(&mut state, mv);
            text
        })
        .collect()
}

/// `book probe`.
fn probe<G: ToolGame>(
    game: &G,
    kit: &AgentKit<G>,
    info: &GameInfo,
    args: &ProbeArgs,
) -> ToolResult<()> {
    let (book, name) = match &args.book {
        Some(path) => {
            let text = crate::files::read_text(path, crate::files::MAX_TEXT)?;
            // The header names the game: say so before any move fails to read.
            let other =
                text.lines().map(str::trim).take_while(|l| !l.contains('|')).find_map(|l| {
                    l.strip_prefix("game:").map(str::trim).filter(|g| *g != info.name)
                });
            if let Some(other) = other {
                return Err(ToolError::Input(format!(
                    "{} is a book of {other}, not of {}",
                    path.display(),
                    info.name
                )));
            }
            (std::sync::Arc::new(read_book(game, path)?), path.display().to_string())
        }
        None => match &kit.book {
            Some(book) => (book.clone(), "the game's own book".to_string()),
            None => {
                return Err(ToolError::input(
                    "this game has no book of its own here; give --book FILE",
                ))
            }
        },
    };
    let mut state = match &args.position {
        Some(text) => {
            game.parse_state(text).map_err(|e| ToolError::Input(format!("bad --position: {e}")))?
        }
        None => game.initial_state(),
    };
    if let Some(moves) = &args.moves {
        for (i, token) in moves.split_whitespace().enumerate() {
            if game.outcome(&state).is_some() {
                return Err(ToolError::Input(format!(
                    "--moves: move {} ({token}) comes after the end",
                    i + 1
                )));
            }
            let mv = game
                .parse_move(&state, token)
                .map_err(|e| ToolError::Input(format!("--moves: move {} ({token}): {e}", i + 1)))?;
            game.apply(&mut state, mv);
        }
    }
    println!("{name}: {} positions", book.len());
    for (k, v) in book.header() {
        println!("  {k}: {v}");
    }
    println!("position: {}", game.format_state(&state));
    let moves = book.moves(game, &state);
    if moves.is_empty() {
        let mut legal = MoveList::new();
        game.generate_moves(&state, &mut legal);
        println!("not in the book ({} legal moves)", legal.len());
        return Ok(());
    }
    let margin = book.margin();
    let best = moves[0].value;
    println!("book moves (value for the side to move; * within the margin {margin} of the best):");
    for m in &moves {
        let mark = if m.value >= best - margin { '*' } else { ' ' };
        let mut after = state.clone();
        game.apply(&mut after, m.mv);
        let reply = format_moves(game, &after, &book.line(game, &after, 8)).join(" ");
        println!(
            "  {mark} {:<12} {:>8}   {}",
            game.format_move(&state, m.mv),
            format_value(m.value),
            reply
        );
    }
    Ok(())
}

fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style =
        ProgressStyle::with_template("[{bar:30}] {pos}/{len} positions  {msg}  (eta {eta})")
            .expect("a valid template")
            .progress_chars("=> ");
    bar.set_style(style);
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::GameEntry;
    use ply::games::TicTacToe;

    fn args(nodes: usize, out: &Path) -> BuildArgs {
        BuildArgs {
            nodes,
            engine: "alphabeta:depth=2".parse().unwrap(),
            depth: None,
            time: None,
            weight: 1.0,
            margin: 0.0,
            seed: 1,
            save_every: Duration::from_secs(60),
            out: out.to_path_buf(),
        }
    }

    #[test]
    fn build_writes_a_book_that_reads_back_and_resumes() {
        let entry = GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe));
        let game = TicTacToe;
        let options = GameOptions::default();
        let kit = entry.kit_for(&game, &options);
        let dir = std::env::temp_dir().join(format!("ply-book-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("ttt.txt");
        let _ = std::fs::remove_file(&out);
        let info = entry.info().clone();
        build(&game, &kit, &info, &options, &args(40, &out)).unwrap();
        let first = read_book(&game, &out).unwrap();
        assert_eq!(first.header_value("game"), Some("tictactoe"));
        assert_eq!(first.header_value("rules"), Some("default"));
        assert_eq!(first.header_value("engine"), Some("alphabeta:depth=2,book=off"));
        assert!(first.len() >= 4, "{}", first.len());
        // Again with a larger size: the book grows from where it was.
        build(&game, &kit, &info, &options, &args(120, &out)).unwrap();
        let second = read_book(&game, &out).unwrap();
        assert!(second.len() > first.len());
        for e in first.entries() {
            assert!(second.entries().iter().any(|f| f.hash == e.hash), "{:?}", e.path);
        }
        // A spec can play from the file.
        let spec: AgentSpec = format!("alphabeta:depth=1,book={}", out.display()).parse().unwrap();
        assert!(kit.book_for(&spec).unwrap().is_some());
        // A book of another game is not extended.
        let text = std::fs::read_to_string(&out).unwrap().replace("game: tictactoe", "game: x");
        std::fs::write(&out, text).unwrap();
        let e = build(&game, &kit, &info, &options, &args(200, &out)).unwrap_err();
        assert!(e.to_string().contains("a book of x"), "{e}");
        let missing: AgentSpec = "alphabeta:book=/no/such/book.txt".parse().unwrap();
        let e = kit.build(&missing, 0).err().unwrap().to_string();
        assert!(e.starts_with("book: cannot read /no/such/book.txt:"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn searches_use_the_games_book_unless_told_otherwise() {
        use ply::search::{Budget, Position};
        use ply::Game;
        let text = "ply-book 1\ngame: tictactoe\n\n| a1=+1\n";
        let entry = GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe))
            .opening_book(move |g| Book::parse(g, text).ok());
        let game = TicTacToe;
        let kit = entry.kit_for(&game, &GameOptions::default());
        assert!(kit.book.is_some() && entry.kit.book.is_some());
        let start = game.initial_state();
        let a1 = game.parse_move(&start, "a1").unwrap();
        let play = |spec: &str| {
            let spec: AgentSpec = spec.parse().unwrap();
            let mut agent = kit.build(&spec, 3).unwrap();
            agent.choose(&game, Position::new(&start), &Budget::depth(9)).unwrap()
        };
        let booked = play("alphabeta:depth=9");
        assert_eq!((booked.best_move, booked.nodes), (a1, 0));
        let searched = play("alphabeta:depth=9,book=off");
        assert!(searched.nodes > 0);
        // The baselines play from a book only when given one.
        assert!(kit.book_for(&"random".parse().unwrap()).unwrap().is_none());
        assert!(kit.book_for(&"mcts".parse().unwrap()).unwrap().is_some());
        // A file of another game is refused, naming both.
        let path = std::env::temp_dir().join(format!("ply-book-other-{}.txt", std::process::id()));
        std::fs::write(&path, "ply-book 1\ngame: connect-four\n").unwrap();
        let spec: AgentSpec = format!("random:book={}", path.display()).parse().unwrap();
        let e = kit.book_for(&spec).unwrap_err().to_string();
        assert!(e.contains("a book of connect-four, not of tictactoe"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn bad_arguments_are_refused() {
        let entry = GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe));
        let game = TicTacToe;
        let options = GameOptions::default();
        let kit = entry.kit_for(&game, &options);
        let info = entry.info().clone();
        let out = std::env::temp_dir().join("ply-book-never-written.txt");
        let mut a = args(0, &out);
        assert!(build(&game, &kit, &info, &options, &a)
            .unwrap_err()
            .to_string()
            .contains("--nodes"));
        a.nodes = 10;
        a.weight = -1.0;
        assert!(build(&game, &kit, &info, &options, &a)
            .unwrap_err()
            .to_string()
            .contains("--weight"));
        a.weight = 1.0;
        a.engine = "alphabeta:eval=nope".parse().unwrap();
        assert!(build(&game, &kit, &info, &options, &a).unwrap_err().to_string().contains("nope"));
        assert!(!out.exists());
        let probe_args = ProbeArgs { book: None, moves: None, position: None };
        let e = probe(&game, &kit, &info, &probe_args).unwrap_err();
        assert!(e.to_string().contains("no book of its own"), "{e}");
    }
}
