//! The game programs' command line: [`PlayArgs`] (who plays, the engines, the start, the
//! seed), read into a [`Session`] and played at the terminal, or engine against engine when
//! no human plays ([`run_program`]).

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ply::zobrist::mix64;
use ply::{Notation, Player};

use super::engine_game::{play_engines_watched, Watch};
use super::session::{Session, SessionConfig};
use super::terminal::{play_terminal, TerminalConfig};
use super::{interrupt, terminal_width, wrap, PlayLoopError, Seat};
use crate::agents::AgentKit;
use crate::error::{ToolError, ToolResult};
use crate::options::Defaults;
use crate::spec::{parse_duration, AgentSpec, BookChoice};

/// Which seats the humans take (`--human`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HumanSide {
    /// The first player (moves first).
    First,
    /// The second player.
    Second,
    /// Every seat: humans play each other.
    Both,
    /// No seat: engines play each other.
    None,
}

impl HumanSide {
    /// The seats of a `players`-player game: humans where this says, engines elsewhere, the
    /// engines taking `engines` in turn (the last one repeated when there are fewer).
    ///
    /// # Panics
    /// If an engine seat is needed and `engines` is empty.
    pub fn seats(self, players: usize, engines: &[AgentSpec]) -> Vec<Seat> {
        let mut next_engine = 0;
        (0..players)
            .map(|s| {
                let human = match self {
                    HumanSide::First => s == 0,
                    HumanSide::Second => s == 1,
                    HumanSide::Both => true,
                    HumanSide::None => false,
                };
                if human {
                    Seat::Human
                } else {
                    let i = next_engine.min(engines.len() - 1);
                    next_engine += 1;
                    Seat::Engine(engines[i].clone())
                }
            })
            .collect()
    }
}

/// The command-line options every game program shares; flatten them into its clap parser.
#[derive(clap::Args, Clone, Debug)]
pub struct PlayArgs {
    /// Engine spec, e.g. alphabeta:time=1s or mcts:iters=20000 (repeat to give each engine
    /// seat its own, in seat order).
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<AgentSpec>,
    /// Seats played by humans. Default: first when stdin is a terminal, none otherwise.
    #[arg(long, value_enum, conflicts_with = "seats")]
    pub human: Option<HumanSide>,
    /// The side you play against the engines: its name (black, white, x, o...) or its number
    /// from 1 (the same as --seat N=human).
    #[arg(long, value_name = "SIDE", conflicts_with_all = ["human", "seats"])]
    pub color: Option<String>,
    /// Who plays a seat: N=human or N=SPEC (e.g. 2=mcts:time=200ms); repeatable. Seats not
    /// given are played by the engine.
    #[arg(long = "seat", value_name = "N=WHO")]
    pub seats: Vec<String>,
    /// Seed for the engines (default: from the clock; printed). With depth, node or
    /// iteration budgets the same seed replays the same game; engines on time (the default
    /// engines, --time) or on several threads search differently from run to run, so those
    /// games vary (use save to keep one).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start from this position, in the game's position notation (PDN FEN for checkers and
    /// draughts).
    #[arg(long, visible_alias = "fen", value_name = "P")]
    pub position: Option<String>,
    /// Time per engine move, e.g. 500ms or 2s (sets the time of every engine). Games on time
    /// vary from run to run, even with the same --seed.
    #[arg(long, value_name = "T", value_parser = parse_time)]
    pub time: Option<Duration>,
    /// Search depth of every engine, in plies (1 to 200, as an engine spec's depth=).
    #[arg(long, value_name = "N", value_parser = parse_depth)]
    pub depth: Option<u32>,
    /// Let engines think while you type: the engine searches the position after the move it
    /// expects from you, and answers sooner (or deeper) when you play it. Off by default,
    /// so that a game replays from its seed (pondering makes engine moves depend on how long
    /// you think).
    #[arg(long)]
    pub ponder: bool,
    /// No colours in the terminal (the NO_COLOR environment variable does the same).
    #[arg(long)]
    pub no_color: bool,
    /// Turn the board round: by default the side of the first person playing is at the
    /// bottom (the first player's when engines play each other); --flip shows the other.
    #[arg(long)]
    pub flip: bool,
    /// The engines play without an opening book (by default, searches play from the game's
    /// own book while the game is in it, where the game has one).
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,
    /// The engines play from this opening book (a file written by the book program)
    /// instead of the game's own.
    #[arg(long, value_name = "FILE")]
    pub book: Option<String>,
    /// Watch engines play each other: every position is shown, with DELAY between moves
    /// (default 1s). Engines play every seat unless --human or --seat says otherwise.
    #[arg(long, value_name = "DELAY", num_args = 0..=1, default_missing_value = "1s",
          value_parser = parse_time)]
    pub watch: Option<Duration>,
}

/// The seat `--color` names: a seat name of `names` (any case) or a number from 1.
///
/// # Errors
/// If `text` is neither, with the sides there are.
pub fn side_index(text: &str, names: &[String], players: usize) -> ToolResult<usize> {
    let text = text.trim();
    if let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(text)) {
        return Ok(i);
    }
    match text.parse::<usize>() {
        Ok(n) if (1..=players).contains(&n) => Ok(n - 1),
        _ => {
            let mut sides: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
            if names.len() != players {
                sides = Vec::new();
            }
            sides.push(format!("1 to {players}"));
            Err(ToolError::Input(format!(
                "bad --color {text:?}: the sides are {}",
                sides.join(", ")
            )))
        }
    }
}

/// Reads `--seat N=WHO` options into one seat per player; seats not given get `default`.
///
/// # Errors
/// A malformed option, a seat outside `1..=players`, a bad spec, or a seat given twice.
pub(crate) fn parse_seats(
    texts: &[String],
    players: usize,
    default: &AgentSpec,
) -> ToolResult<Vec<Seat>> {
    let mut seats: Vec<Option<Seat>> = vec![None; players];
    for text in texts {
        let (n, who) = text.split_once('=').ok_or_else(|| {
            ToolError::Input(format!("bad --seat {text:?}: expected N=human or N=SPEC"))
        })?;
        let n: usize =
            n.trim().parse().ok().filter(|n| (1..=players).contains(n)).ok_or_else(|| {
                ToolError::Input(format!("bad --seat {text:?}: seat must be 1..={players}"))
            })?;
        let seat = match who.trim() {
            "human" => Seat::Human,
            spec => Seat::Engine(
                spec.parse::<AgentSpec>()
                    .map_err(|e| ToolError::Input(format!("bad --seat {text:?}: {e}")))?,
            ),
        };
        if seats[n - 1].replace(seat).is_some() {
            return Err(ToolError::Input(format!("seat {n} is given twice")));
        }
    }
    Ok(seats.into_iter().map(|s| s.unwrap_or_else(|| Seat::Engine(default.clone()))).collect())
}

/// A depth as `--depth` and a spec's `depth=` take it.
fn parse_depth(text: &str) -> ToolResult<u32> {
    crate::spec::parse_plies(text).ok_or_else(|| {
        ToolError::Input(format!("{text:?} is not a depth from 1 to {}", ply::search::MAX_DEPTH))
    })
}

fn parse_time(text: &str) -> ToolResult<Duration> {
    parse_duration(text).map_err(ToolError::input)
}

impl PlayArgs {
    /// The engine specs for a game of `players` players: `--engine`s, else `default`, with
    /// `--time`/`--depth` applied to every one that takes them (`--depth` alone drops the
    /// spec's time limit), and `--no-book`/`--book`; a default alpha-beta becomes paranoid
    /// search when there are not two players.
    ///
    /// # Errors
    /// If `default` is not a spec.
    pub(crate) fn engine_specs_for(
        &self,
        default: &str,
        players: usize,
    ) -> ToolResult<Vec<AgentSpec>> {
        let mut specs = self.engines.clone();
        if specs.is_empty() {
            let spec: AgentSpec = default.parse()?;
            specs.push(spec.for_players(players));
        }
        for spec in &mut specs {
            let takes = |key: &str| spec.algorithm.accepts(key);
            let (time, depth) = (takes("time"), takes("depth"));
            if self.time.is_some() && time {
                spec.time = self.time;
            }
            if self.depth.is_some() && depth {
                spec.depth = self.depth;
                if self.time.is_none() {
                    spec.time = None;
                }
            }
            if !spec.algorithm.accepts("book") {
                continue;
            }
            if self.no_book {
                spec.book = Some(BookChoice::Off);
            } else if let Some(file) = &self.book {
                spec.book = Some(BookChoice::File(file.clone()));
            }
        }
        Ok(specs)
    }
}

/// The start position: `text` read in the game's position notation, or the initial state
/// when there is none.
///
/// # Errors
/// The notation's message, prefixed with the option the text came from (`bad --fen: ...`).
pub(crate) fn start_state<G: Notation>(
    game: &G,
    text: Option<&str>,
    option: &str,
) -> ToolResult<G::State> {
    match text {
        Some(t) => game.parse_state(t).map_err(|e| ToolError::Input(format!("bad {option}: {e}"))),
        None => Ok(game.initial_state()),
    }
}

/// The player whose side the pictures put at the bottom: the first human seat's (the first
/// player's when engines play each other), or with `flip` the next player's.
fn viewer_of(seats: &[Seat], flip: bool) -> Player {
    let first = seats.iter().position(|s| *s == Seat::Human).unwrap_or(0);
    Player::new(if flip { (first + 1) % seats.len().max(1) } else { first })
}

/// True if stdout takes colours: a terminal, and `NO_COLOR` unset or empty.
pub(crate) fn color_enabled() -> bool {
    wants_color(false, std::env::var_os("NO_COLOR").as_deref(), io::stdout().is_terminal())
}

/// Whether to print colours: not with `--no-color` (`no_color_flag`), not when the
/// `NO_COLOR` environment variable is set to anything but the empty string
/// (<https://no-color.org>), and only to a terminal.
pub fn wants_color(
    no_color_flag: bool,
    no_color_env: Option<&std::ffi::OsStr>,
    terminal: bool,
) -> bool {
    let env_off = no_color_env.is_some_and(|v| !v.is_empty());
    terminal && !no_color_flag && !env_off
}

/// The first line of a game: who plays each seat and the seed, and whether the seed replays
/// the game (it does not when an engine searches on time or on more than one thread).
pub fn seats_line(seats: &[Seat], names: &[String], seed: u64) -> String {
    let describe: Vec<String> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = names.get(i).cloned().unwrap_or_else(|| Player::new(i).to_string());
            match s {
                Seat::Human => format!("{name}: human"),
                Seat::Engine(spec) => format!("{name}: {spec}"),
            }
        })
        .collect();
    let varies = seats.iter().any(|s| match s {
        Seat::Engine(spec) => spec.budget().time.is_some() || spec.threads.is_some_and(|t| t > 1),
        Seat::Human => false,
    });
    let replay = match varies {
        true => "; engines on time or threads: games vary from run to run",
        false => "; the same seed replays this game",
    };
    format!("{}  (seed {seed}{replay})", describe.join(", "))
}

/// A seed from the clock, for games that were not given one.
pub fn clock_seed() -> u64 {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    mix64(nanos as u64) % 1_000_000
}

/// The whole program for a game: reads who plays from `args`, prints the seed, then plays at
/// the terminal (or engine against engine when no human plays) and returns the exit code.
/// Errors are printed to stderr with a non-zero code; end of input is a clean exit.
pub fn run<G: Notation + Send + Sync + 'static>(
    game: G,
    start: G::State,
    args: &PlayArgs,
    defaults: Defaults<'_>,
    kit: &AgentKit<G>,
) -> ExitCode {
    let stdin_is_terminal = io::stdin().is_terminal();
    let human = args.human.unwrap_or(if stdin_is_terminal && args.watch.is_none() {
        HumanSide::First
    } else {
        HumanSide::None
    });
    let side =
        match args.color.as_deref().map(|c| side_index(c, defaults.names, game.num_players())) {
            None => None,
            Some(Ok(i)) => Some(i),
            Some(Err(e)) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
    let humans_play = if side.is_some() {
        true
    } else if args.seats.is_empty() {
        human != HumanSide::None
    } else {
        args.seats.iter().any(|s| s.split_once('=').is_some_and(|(_, w)| w.trim() == "human"))
    };
    let default_spec = if humans_play { defaults.engine } else { defaults.batch_engine };
    let seats = args.engine_specs_for(default_spec, game.num_players()).and_then(|engines| {
        let seats = if let Some(i) = side {
            let mut next_engine = 0;
            (0..game.num_players())
                .map(|s| match s == i {
                    true => Seat::Human,
                    false => {
                        next_engine += 1;
                        Seat::Engine(engines[(next_engine - 1).min(engines.len() - 1)].clone())
                    }
                })
                .collect()
        } else if args.seats.is_empty() {
            human.seats(game.num_players(), &engines)
        } else {
            parse_seats(&args.seats, game.num_players(), &engines[0])?
        };
        Ok((seats, engines[0].clone()))
    });
    let (seats, assistant) = match seats {
        Ok(_) if humans_play && args.watch.is_some() => {
            eprintln!("error: --watch shows engines playing each other; no seat may be human");
            return ExitCode::FAILURE;
        }
        Ok(seats) => seats,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if game.outcome(&start).is_some() {
        eprintln!("error: the start position is already over");
        return ExitCode::FAILURE;
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    // Seat names fit one player count (Black and White): other counts number the players.
    let names: Vec<String> = if defaults.names.len() == game.num_players() {
        defaults.names.to_vec()
    } else {
        Vec::new()
    };
    let color = !args.no_color && color_enabled();
    let viewer = viewer_of(&seats, args.flip);
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{}", wrap(&seats_line(&seats, &names, seed), terminal_width(), "  "));
    let engines: Vec<AgentSpec> = seats
        .iter()
        .filter_map(|s| match s {
            Seat::Engine(spec) => Some(spec.clone()),
            Seat::Human => None,
        })
        .collect();
    if let Some(tables) = kit.tables_description(&game, &engines) {
        let _ = writeln!(out, "{}", wrap(&tables, terminal_width(), "  "));
    }
    let result = if !humans_play {
        let specs: Vec<AgentSpec> = seats
            .into_iter()
            .filter_map(|s| match s {
                Seat::Engine(spec) => Some(spec),
                Seat::Human => None,
            })
            .collect();
        let watch = args.watch.map(|delay| Watch { delay, color, viewer });
        play_engines_watched(&game, start, &specs, seed, &names, kit, watch, &mut out).map(|_| ())
    } else {
        let config = SessionConfig { seats, seed, names, assistant };
        let terminal = TerminalConfig {
            color,
            echo: !stdin_is_terminal,
            ponder: args.ponder,
            live: io::stdout().is_terminal(),
            viewer,
        };
        match Session::new(Arc::new(game), start, &config, kit) {
            Err(e) => Err(PlayLoopError::from(e)),
            Ok(mut session) => {
                let mut input = io::stdin().lock();
                interrupt::install();
                if stdin_is_terminal {
                    let _ = writeln!(out, "type help for the commands");
                }
                play_terminal(&mut session, &terminal, &mut input, &mut out).map(|_| ())
            }
        }
    };
    // The game is over: DamExchange servers are told no more games follow.
    for addr in engines.iter().filter_map(|spec| spec.addr.as_deref()) {
        crate::engines::dxp::client::close_parked(addr);
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(PlayLoopError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// [`run`] from the start position of `--position` (or the game's initial state).
pub fn run_program<G: Notation + Send + Sync + 'static>(
    game: G,
    args: &PlayArgs,
    defaults: Defaults<'_>,
    kit: &AgentKit<G>,
) -> ExitCode {
    match start_state(&game, args.position.as_deref(), "--position") {
        Ok(start) => run(game, start, args, defaults, kit),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> AgentSpec {
        text.parse().unwrap()
    }

    #[test]
    fn book_switches_reach_every_engine() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            play: PlayArgs,
        }
        let parse = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("play").chain(args.iter().copied())).map(|c| c.play)
        };
        let specs =
            |args: &[&str]| parse(args).unwrap().engine_specs_for("alphabeta:time=1s", 2).unwrap();
        assert_eq!(specs(&[])[0].book, None);
        let off = specs(&["--no-book", "--engine", "mcts", "--engine", "alphabeta:book=x"]);
        assert!(off.iter().all(|s| s.book == Some(BookChoice::Off)), "{off:?}");
        let file = specs(&["--book", "my.txt"]);
        assert_eq!(file[0].book, Some(BookChoice::File("my.txt".into())));
        assert!(parse(&["--book", "x", "--no-book"]).is_err());
    }

    /// Every spec a program derives and prints (the default engine for any player count,
    /// with `--time`, `--depth`, `--book` or `--no-book` applied, and after the terminal's
    /// `time` and `depth` commands) parses back to the same spec; out-of-range depths are
    /// refused where they are typed.
    #[test]
    fn every_printed_spec_parses_back_to_the_same_agent() {
        use clap::Parser;
        use proptest::prelude::*;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            play: PlayArgs,
        }
        let parse = |args: &[String]| {
            Cli::try_parse_from(std::iter::once("play".to_string()).chain(args.iter().cloned()))
                .map(|c| c.play)
        };
        for bad in ["0", "201", "-1", "x"] {
            assert!(parse(&["--depth".into(), bad.into()]).is_err(), "--depth {bad}");
        }
        assert!(parse(&["--depth".into(), "200".into()]).is_ok());
        let defaults = [
            "alphabeta:time=1s,probcut=50,lmr=true,reuse=true,egdb=off",
            "alphabeta:depth=6,plain=true,null=true",
            "mcts:iters=500,c=2,reuse=false",
            "paranoid:depth=2",
            "greedy",
            "random:seed=3",
        ];
        let strategy = (
            0..defaults.len(),
            2..5usize,
            proptest::option::of(1..=200u32),
            proptest::option::of(1..5000u64),
            0..3u8,
            proptest::option::of((any::<bool>(), 1..=200u32)),
        );
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
            cases: 400,
            failure_persistence: None,
            ..ProptestConfig::default()
        });
        runner
            .run(&strategy, |(d, players, depth, millis, book, change)| {
                let mut args = Vec::new();
                if let Some(depth) = depth {
                    args.extend(["--depth".to_string(), depth.to_string()]);
                }
                if let Some(ms) = millis {
                    args.extend(["--time".to_string(), format!("{ms}ms")]);
                }
                match book {
                    1 => args.push("--no-book".into()),
                    2 => args.extend(["--book".to_string(), "my.book".to_string()]),
                    _ => {}
                }
                let play = parse(&args).expect("valid options");
                let specs = play.engine_specs_for(defaults[d], players).expect("a default spec");
                for mut spec in specs {
                    let text = spec.to_string();
                    let back = text.parse::<AgentSpec>();
                    prop_assert_eq!(back.as_ref(), Ok(&spec), "{}", text);
                    if let Some((time, depth)) = change {
                        let change = match time {
                            true => crate::play::BudgetChange::Time(Duration::from_millis(250)),
                            false => crate::play::BudgetChange::Depth(depth),
                        };
                        crate::play::engines::rebudget(&mut spec, change);
                        let text = spec.to_string();
                        let back = text.parse::<AgentSpec>();
                        prop_assert_eq!(back.as_ref(), Ok(&spec), "{}", text);
                    }
                }
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn seats_from_human_side() {
        let e = [spec("greedy"), spec("random")];
        assert_eq!(HumanSide::First.seats(2, &e), vec![Seat::Human, Seat::Engine(e[0].clone())]);
        assert_eq!(HumanSide::None.seats(3, &e)[2], Seat::Engine(e[1].clone()));
        assert_eq!(HumanSide::Second.seats(2, &e)[1], Seat::Human);
    }
}
