//! The arena program: the command line of `arena` over a [`Registry`], planning the
//! tournaments (one game or every game), running them with results, resume, shards and SPRT,
//! and merging result files ([`crate::arena`] holds the tournaments themselves).
//!
//! ```text
//! cargo run --release --example arena -- --game connect-four alphabeta:time=100ms mcts:time=100ms greedy --games 40
//! cargo run --release --example arena -- --game all alphabeta:depth=4 mcts:iters=2000 --out results.jsonl
//! cargo run --release --example arena -- --game tictactoe mcts:iters=300 mcts:iters=100 --sprt elo0=0,elo1=50
//! cargo run --release --example arena -- merge shard-*.jsonl --svg chart.svg
//! ```

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use ply::arena::{Sprt, SprtDecision, Standings};

use crate::arena::results::{
    drop_incomplete_line, group, read_records, GameRecord, ResultsWriter, Tournament,
};
use crate::arena::tournament::{sprt_llr, Openings, Run, TournamentConfig};
use crate::error::{ToolError, ToolResult};
use crate::registry::{GameOptions, Registry};
use crate::shard::parse_shard;
use crate::spec::{accepted, AgentSpec};

/// Tournaments between agents on ply's games.
#[derive(Parser, Debug)]
#[command(version, name = "arena", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Combine results files (e.g. from the shards of a job array) into one table.
    Merge(MergeArgs),
}

/// Options of a tournament run.
#[derive(Args, Debug, Clone)]
struct RunArgs {
    /// The agents, as specs (see the list below); one agent plays itself.
    #[arg(value_name = "AGENT")]
    agents: Vec<AgentSpec>,
    /// The game, or `all` for every registered game in turn.
    #[arg(long, default_value = "connect-four")]
    game: String,
    #[command(flatten)]
    options: GameOptions,
    /// At least this many games per game (rounded up so every opening is played from every
    /// seat).
    #[arg(long, default_value_t = 20, value_parser = count_parser(1, MAX_GAMES))]
    games: usize,
    /// Random plies from the start that make each opening (seeded); a game too short for them
    /// is an error, not a silent change.
    #[arg(long, default_value_t = 4, conflicts_with = "openings", value_parser = count_parser(0, 1000))]
    openings_plies: usize,
    /// A file of start positions in the game's notation, one per line (# comments allowed).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The tournament seed: every game is reproducible from it and the game's index.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: the number of cores).
    #[arg(long, value_parser = count_parser(1, 1024))]
    threads: Option<usize>,
    /// Games longer than this many plies are stopped and scored a draw.
    #[arg(long, default_value_t = 1000, value_parser = count_parser(1, 1_000_000))]
    max_plies: usize,
    /// Append every finished game to this JSON-lines file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Continue the run recorded in --out: games already there are not played again.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Play only shard K of N (games with index % N == K - 1), for job arrays; combine the
    /// shards' files with `arena merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// Sequential test between the first two agents: stop once decided.
    #[arg(long, value_name = "elo0=0,elo1=10,alpha=0.05,beta=0.05", value_parser = parse_sprt)]
    sprt: Option<Sprt>,
    /// Write the standings and the score-over-games curves to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Options of `arena merge`.
#[derive(Args, Debug)]
struct MergeArgs {
    /// The results files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Write the chart to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Also print each agent's moves by stretches of this many plies (counted from the end of
    /// the opening): moves, proven moves, mean depth, deepest ply, nodes and time.
    #[arg(long, value_name = "PLIES", value_parser = count_parser(1, 1_000_000))]
    by_plies: Option<usize>,
}

/// The most games one run may schedule.
const MAX_GAMES: usize = 10_000_000;

/// A parser of whole numbers from `min` to `max`, with a message that says the range.
fn count_parser(min: usize, max: usize) -> impl Fn(&str) -> ToolResult<usize> + Clone {
    move |text: &str| match text.trim().parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(ToolError::Input(format!(
            "expected a whole number from {min} to {max}, got {text:?}"
        ))),
    }
}

/// Reads `elo0=0,elo1=10,alpha=0.05,beta=0.05` (alpha and beta default to 0.05).
fn parse_sprt(text: &str) -> ToolResult<Sprt> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| ToolError::Input(format!("expected key=value, got {item:?}")))?;
        let v: f64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| ToolError::Input(format!("bad number {value:?} for {key}")))?;
        match key.trim() {
            "elo0" => elo0 = Some(v),
            "elo1" => elo1 = Some(v),
            "alpha" => alpha = v,
            "beta" => beta = v,
            other => {
                return Err(ToolError::Input(format!(
                    "unknown key {other:?}: expected elo0, elo1, alpha, beta"
                )))
            }
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err(ToolError::input("elo0 and elo1 are required, e.g. elo0=0,elo1=10"));
    };
    if elo0 >= elo1 {
        return Err(ToolError::Input(format!("elo0 ({elo0}) must be below elo1 ({elo1})")));
    }
    if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
        return Err(ToolError::input("alpha and beta must be between 0 and 0.5"));
    }
    Ok(Sprt::new(elo0, elo1, alpha, beta))
}

/// Reads an openings file: one position per line, blank lines and `#` comments skipped.
fn read_openings(path: &std::path::Path) -> ToolResult<Vec<String>> {
    let text = crate::files::read_text(path, crate::files::MAX_TEXT)?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect())
}

/// The tournaments a run asks for, one per game.
fn plan(registry: &Registry, args: &RunArgs) -> ToolResult<Vec<TournamentConfig>> {
    if args.agents.is_empty() {
        return Err(ToolError::Input(format!(
            "give at least one agent; accepted agents:\n{}",
            accepted()
        )));
    }
    let names: Vec<&str> = if args.game == "all" {
        if args.options != GameOptions::default() {
            return Err(ToolError::input("game options need a single --game, not all"));
        }
        if args.openings.is_some() {
            return Err(ToolError::input(
                "an --openings file holds positions of one game: use a single --game",
            ));
        }
        registry.names()
    } else {
        vec![args.game.as_str()]
    };
    let openings = match &args.openings {
        Some(path) => Openings::Positions(read_openings(path)?),
        None => Openings::RandomPlies(args.openings_plies),
    };
    let threads =
        args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    Ok(names
        .into_iter()
        .map(|game| TournamentConfig {
            game: game.to_string(),
            options: args.options.to_args(),
            agents: args.agents.clone(),
            games: args.games,
            openings: openings.clone(),
            seed: args.seed,
            threads,
            max_plies: args.max_plies,
            shard: args.shard,
            sprt: args.sprt,
            progress: !args.quiet,
        })
        .collect())
}

/// What [`play`] did for one game.
struct Played {
    game: String,
    skipped: Option<String>,
    sprt: Option<SprtDecision>,
}

/// Plays every tournament of `configs`, skipping the games in `existing`, and hands each new
/// record to `sink`. With several games (`--game all`), a game that an agent cannot play is
/// skipped with a note instead of stopping the run.
fn play(
    registry: &Registry,
    configs: &[TournamentConfig],
    options: &GameOptions,
    existing: &[GameRecord],
    sink: &mut dyn FnMut(&GameRecord) -> ToolResult<()>,
) -> ToolResult<Vec<Played>> {
    let mut report = Vec::new();
    for cfg in configs {
        let key = cfg.key();
        let resumed: Vec<GameRecord> =
            existing.iter().filter(|r| r.tournament() == key).cloned().collect();
        let mut standings = Standings::new(key.2.clone());
        for r in &resumed {
            standings.add_paired(
                &r.seats,
                &r.result.to_outcome(),
                &r.seat_stats(),
                r.opening as u64,
            );
        }
        let run =
            Run { config: cfg, resumed: &resumed, standings: &mut standings, sink: &mut *sink };
        let entry = registry.get(&cfg.game).map_err(ToolError::input)?;
        let result = entry.tournament(options, run).map_err(ToolError::input)?;
        match result {
            Ok(summary) => {
                report.push(Played { game: cfg.game.clone(), skipped: None, sprt: summary.sprt })
            }
            Err(e) if configs.len() > 1 && e.unsupported => {
                let skipped = Some(e.error.to_string());
                report.push(Played { game: cfg.game.clone(), skipped, sprt: None })
            }
            Err(e) => return Err(e.error),
        }
    }
    Ok(report)
}

/// The part of the results file a run continues from (empty without --resume).
fn existing_records(args: &RunArgs, configs: &[TournamentConfig]) -> ToolResult<Vec<GameRecord>> {
    let Some(out) = &args.out else { return Ok(Vec::new()) };
    let exists = out.metadata().is_ok_and(|m| m.len() > 0);
    if !exists {
        return Ok(Vec::new());
    }
    if !args.resume {
        return Err(ToolError::Input(format!(
            "{} already holds results: add --resume to continue that run, or choose another --out",
            out.display()
        )));
    }
    let (records, truncated) = read_records(out).map_err(ToolError::input)?;
    let keys: Vec<_> = configs.iter().map(TournamentConfig::key).collect();
    if let Some(other) = records.iter().find(|r| !keys.contains(&r.tournament())) {
        let (game, options, agents, seed) = other.tournament();
        return Err(ToolError::Input(format!(
            "{} holds another run (game {game}{}, agents {}, seed {seed}): --resume continues \
             a run with the same game, options, agents and --seed; choose another --out",
            out.display(),
            if options.is_empty() { String::new() } else { format!(" {options}") },
            agents.join(" "),
        )));
    }
    if truncated {
        eprintln!("note: {}: dropping an incomplete last line", out.display());
        drop_incomplete_line(out).map_err(ToolError::input)?;
    }
    Ok(records)
}

fn write_svg(path: &PathBuf, tournaments: &[Tournament]) -> ToolResult<()> {
    std::fs::write(path, crate::arena::chart::render(tournaments))
        .map_err(|e| ToolError::Input(format!("{}: {e}", path.display())))
}

fn sprt_line(sprt: &Sprt, t: &Tournament, decision: Option<SprtDecision>) -> String {
    let s = t.standings();
    let p = s.pair(0, 1).unwrap_or_default();
    let llr = sprt_llr(sprt, &p);
    let (lo, hi) = sprt.bounds();
    let verdict = match decision {
        Some(SprtDecision::AcceptH1) => format!("H1 accepted: {} is stronger", t.agents[0]),
        Some(SprtDecision::AcceptH0) => format!("H0 accepted: {} is not stronger", t.agents[0]),
        _ => "undecided".to_string(),
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} in [{lo:.2}, {hi:.2}]: {verdict}",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    )
}

fn run(registry: &Registry, args: &RunArgs) -> ToolResult<()> {
    let configs = plan(registry, args)?;
    let existing = existing_records(args, &configs)?;
    let mut writer = match &args.out {
        Some(path) => Some(ResultsWriter::append(path).map_err(ToolError::input)?),
        None => None,
    };
    let mut new_records: Vec<GameRecord> = Vec::new();
    let mut sink = |r: &GameRecord| -> ToolResult<()> {
        if let Some(w) = writer.as_mut() {
            w.write(r).map_err(ToolError::input)?;
        }
        new_records.push(r.clone());
        Ok(())
    };
    eprintln!(
        "agents: {}  seed {}",
        args.agents.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", "),
        args.seed
    );
    let played = play(registry, &configs, &args.options, &existing, &mut sink);
    // The match is over: DamExchange servers are told no more games follow.
    for addr in args.agents.iter().filter_map(|a| a.addr.as_deref()) {
        crate::engines::dxp::client::close_parked(addr);
    }
    let played = played?;
    let keys: Vec<_> = configs.iter().map(TournamentConfig::key).collect();
    let tournaments: Vec<Tournament> = group(existing.into_iter().chain(new_records))
        .into_iter()
        .filter(|t| keys.iter().any(|k| k.0 == t.game && k.1 == t.options && k.2 == t.agents))
        .collect();
    let mut text = String::new();
    for p in &played {
        if let Some(why) = &p.skipped {
            text += &format!("== {}: skipped: {why}\n\n", p.game);
        }
    }
    for t in &tournaments {
        text += &format!("{}\n", t.table());
        if let Some(sprt) = &args.sprt {
            let decision = played.iter().find(|p| p.game == t.game).and_then(|p| p.sprt);
            text += &format!("{}\n\n", sprt_line(sprt, t, decision));
        }
    }
    if let Some(path) = &args.svg {
        write_svg(path, &tournaments)?;
    }
    print_out(&text)
}

/// Writes to stdout; a closed pipe (`arena ... | head`) is not an error.
fn print_out(text: &str) -> ToolResult<()> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(ToolError::Input(format!("stdout: {e}")))
        }
        _ => Ok(()),
    }
}

fn merge(args: &MergeArgs) -> ToolResult<()> {
    let mut all = Vec::new();
    for path in &args.files {
        let (records, truncated) = read_records(path).map_err(ToolError::input)?;
        if truncated {
            eprintln!("note: {}: ignoring an incomplete last line", path.display());
        }
        all.extend(records);
    }
    let tournaments = group(all);
    if tournaments.is_empty() {
        return Err(ToolError::input("no game records in the given files"));
    }
    for t in &tournaments {
        let (missing, first) = t.missing(8);
        if missing > 0 {
            let shown: Vec<String> = first.iter().map(|i| i.to_string()).collect();
            eprintln!(
                "warning: {}: {} of {} scheduled games are missing (indices {}{}): a shard is \
                 missing or unfinished",
                t.game,
                missing,
                t.records.len() + missing,
                shown.join(", "),
                if missing > shown.len() { ", ..." } else { "" }
            );
        }
    }
    if let Some(path) = &args.svg {
        write_svg(path, &tournaments)?;
    }
    let mut text: String = tournaments.iter().map(|t| format!("{}\n", t.table())).collect();
    if let Some(span) = args.by_plies {
        for t in &tournaments {
            match t.by_plies(span) {
                Some(table) => text += &format!("{table}\n"),
                None => eprintln!(
                    "note: {}: no game keeps its moves' searches (a file written before they \
                     were kept)",
                    t.title()
                ),
            }
        }
    }
    print_out(&text)
}

/// The parser of the arena's command line, with the agents and `registry`'s games in its help.
fn command(registry: &Registry) -> clap::Command {
    Cli::command().after_help(format!("Agents:\n{}\n\n{}", accepted(), registry.help()))
}

/// The arena program for the games of `registry`: parses the command line, runs the
/// tournaments or merges result files, prints the tables; errors go to stderr with a non-zero
/// exit code.
pub fn main(registry: &Registry) -> ExitCode {
    super::end_quietly_on_closed_stdout();
    main_with(registry, std::env::args_os().collect())
}

/// [`main`] on the command line `args` (the program's name first).
pub(super) fn main_with(registry: &Registry, args: super::ArgList) -> ExitCode {
    let matches = command(registry).get_matches_from(args);
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let result = match &cli.command {
        Some(Command::Merge(m)) => merge(m),
        None => run(registry, &cli.run),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::GameEntry;
    use ply::games::{ThreeHeaps, TicTacToe};

    /// Two small games, as a program would register them.
    fn registry() -> Registry {
        let mut r = Registry::new();
        r.add(GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe)).engine(
            crate::engines::nboard::NBoardCodec {
                game_record: |g, s| Ok(ply::Notation::format_state(g, s)),
                read_game: |_, _| Err(crate::error::ToolError::input("no game records")),
                format_move: |g, s, m| ply::Notation::format_move(g, s, m),
                parse_move: |g, s, t| {
                    ply::Notation::parse_move(g, s, t).map_err(crate::error::ToolError::input)
                },
            },
        ));
        r.add(GameEntry::new("three-heaps", "three heaps", |_| {
            Ok(ThreeHeaps::new([3, 4, 5]).unwrap())
        }));
        r
    }

    fn args(line: &str) -> RunArgs {
        let argv = std::iter::once("arena").chain(line.split_whitespace());
        let cli = Cli::try_parse_from(argv).unwrap_or_else(|e| panic!("{line}: {e}"));
        cli.run
    }

    /// Plays the run of `line` (results go to memory) after `existing`; returns new records.
    fn play_line(line: &str, existing: &[GameRecord]) -> Vec<GameRecord> {
        let a = args(line);
        let configs = plan(&registry(), &a).unwrap();
        let mut out = Vec::new();
        let mut sink = |r: &GameRecord| -> ToolResult<()> {
            out.push(r.clone());
            Ok(())
        };
        play(&registry(), &configs, &a.options, existing, &mut sink).unwrap();
        out
    }

    /// The tables with thinking times zeroed (they are the only thing that differs between
    /// two runs of the same seeded tournament).
    fn tables(records: Vec<GameRecord>) -> String {
        let timeless = records.into_iter().map(|mut r| {
            r.stats
                .iter_mut()
                .for_each(|s| (s.time_us, s.max_time_us, s.solved_time_us) = (0, 0, 0));
            r
        });
        group(timeless).iter().map(Tournament::table).collect()
    }

    const MATCH: &str = "--game tictactoe --games 8 --threads 2 --seed 7 --quiet \
                         alphabeta:depth=9 mcts:iters=40 random";

    #[test]
    fn cli_parses_specs_and_options() {
        let a = args("--game connect-four --size 6x5 --games 4 --shard 2/3 greedy mcts:c=2");
        assert_eq!(a.agents.len(), 2);
        assert_eq!(a.shard, Some((2, 3)));
        assert_eq!(a.options.size.as_deref(), Some("6x5"));
        let e = Cli::try_parse_from(["arena", "alphabta:depth=2"]).unwrap_err().to_string();
        assert!(e.contains("unknown agent \"alphabta\"") && e.contains("mcts[:iters=N"), "{e}");
        assert!(Cli::try_parse_from(["arena", "greedy", "--shard", "4/3"]).is_err());
        for bad in [
            ["--games", "0"],
            ["--games", "18446744073709551615"],
            ["--threads", "0"],
            ["--openings-plies", "18446744073709551615"],
            ["--max-plies", "0"],
        ] {
            let e = Cli::try_parse_from(["arena", "greedy", bad[0], bad[1]]).unwrap_err();
            assert!(e.to_string().contains("expected a whole number from"), "{bad:?}: {e}");
        }
        assert!(Cli::try_parse_from(["arena", "greedy", "--resume"]).is_err(), "needs --out");
        let cli = Cli::try_parse_from(["arena", "merge", "a.jsonl", "b.jsonl"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Merge(m)) if m.files.len() == 2));
    }

    #[test]
    fn sprt_and_shard_values() {
        let s = parse_sprt("elo0=0,elo1=10").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.05, 0.05));
        assert!(parse_sprt("elo0=10,elo1=0").is_err());
        assert!(parse_sprt("elo1=10").is_err());
        assert!(parse_sprt("elo0=0,elo1=5,gamma=1").unwrap_err().to_string().contains("gamma"));
        assert_eq!(parse_shard("1/1"), Ok((1, 1)));
        assert!(parse_shard("0/4").is_err() && parse_shard("x").is_err());
    }

    #[test]
    fn short_tournament_is_fair_and_reproducible() {
        let records = play_line(MATCH, &[]);
        // Three agents: three pairs, both colours, whole openings: at least 8 games.
        assert_eq!(records.len() % 6, 0);
        assert!(records.len() >= 8);
        let t = &group(records.clone())[0];
        let s = t.standings();
        // A random opening may already be lost for one side, but perfect play wins every won
        // position and holds every drawn one, so over colour-swapped pairs it scores at least
        // half against anyone.
        for other in [1, 2] {
            let p = s.pair(0, other).unwrap();
            assert!(p.wins >= p.losses, "{}", t.table());
        }
        // Every agent played both colours equally often.
        for a in 0..3 {
            let first = t.records.iter().filter(|r| r.seats[0] == a).count();
            let second = t.records.iter().filter(|r| r.seats[1] == a).count();
            assert_eq!(first, second);
        }
        // Colour-swapped games share their opening.
        for pair in t.records.chunks(2) {
            assert_eq!(pair[0].opening_moves, pair[1].opening_moves);
            assert_eq!(pair[0].seats, vec![pair[1].seats[1], pair[1].seats[0]]);
        }
        assert_eq!(tables(records), tables(play_line(MATCH, &[])));
    }

    #[test]
    fn resume_and_shards_give_the_same_table() {
        let full = play_line(MATCH, &[]);
        let expected = tables(full.clone());

        // Interrupted after a few games, then resumed.
        let mut first: Vec<GameRecord> = full.clone();
        first.sort_by_key(|r| r.index);
        first.truncate(5);
        let rest = play_line(MATCH, &first);
        assert_eq!(rest.len(), full.len() - 5);
        assert_eq!(tables(first.into_iter().chain(rest).collect()), expected);

        // Three shards, merged.
        let shards: Vec<GameRecord> =
            (1..=3).flat_map(|k| play_line(&format!("{MATCH} --shard {k}/3"), &[])).collect();
        assert_eq!(shards.len(), full.len());
        assert_eq!(tables(shards), expected);
    }

    #[test]
    fn openings_from_a_file_are_used_in_turn() {
        let dir = std::env::temp_dir().join(format!("ply-arena-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("openings.txt");
        std::fs::write(&path, "# two tic-tac-toe positions\nx........\n\n....x...o\n").unwrap();
        let line = format!(
            "--game tictactoe --games 4 --quiet --openings {} greedy random",
            path.display()
        );
        let records = play_line(&line, &[]);
        let starts: Vec<&str> = records.iter().map(|r| r.start.as_str()).collect();
        assert_eq!(starts.iter().filter(|&&s| s == "x........").count(), 2);
        assert_eq!(starts.iter().filter(|&&s| s == "....x...o").count(), 2);
        assert!(records.iter().all(|r| r.opening_moves.is_empty()));
        std::fs::write(&path, "not a position\n").unwrap();
        let a = args(&line);
        let mut sink = |_: &GameRecord| -> ToolResult<()> { Ok(()) };
        let e = play(&registry(), &plan(&registry(), &a).unwrap(), &a.options, &[], &mut sink)
            .err()
            .unwrap();
        assert!(e.to_string().contains("opening 1"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sprt_stops_a_decided_match() {
        let line = "--game tictactoe --games 400 --threads 1 --quiet \
                    --sprt elo0=0,elo1=100,alpha=0.1,beta=0.1 alphabeta:depth=9 random";
        let a = args(line);
        let configs = plan(&registry(), &a).unwrap();
        let mut n = 0;
        let mut sink = |_: &GameRecord| -> ToolResult<()> {
            n += 1;
            Ok(())
        };
        let played = play(&registry(), &configs, &a.options, &[], &mut sink).unwrap();
        assert_eq!(played[0].sprt, Some(SprtDecision::AcceptH1));
        assert!(n < 400, "stopped after {n} games");
    }

    #[test]
    fn unsupported_agents_are_reported_or_skipped() {
        let mut sink = |_: &GameRecord| -> ToolResult<()> { Ok(()) };
        // Alpha-beta is two-player only: on a single game the run fails with the reason...
        let a = args("--game three-heaps --games 3 --quiet alphabeta:depth=2 random");
        let e = play(&registry(), &plan(&registry(), &a).unwrap(), &a.options, &[], &mut sink)
            .err()
            .unwrap();
        assert!(e.to_string().contains("does not support"), "{e}");
        // ...and with --game all that game is skipped while the others are played.
        let a = args("--game all --games 2 --quiet alphabeta:depth=2 random");
        let played =
            play(&registry(), &plan(&registry(), &a).unwrap(), &a.options, &[], &mut sink).unwrap();
        assert_eq!(played.len(), 2);
        let skipped: Vec<&str> =
            played.iter().filter(|p| p.skipped.is_some()).map(|p| p.game.as_str()).collect();
        assert_eq!(skipped, vec!["three-heaps"]);
        let a = args("--game all --size 5 greedy");
        assert!(plan(&registry(), &a).unwrap_err().to_string().contains("single --game"));
        let a = args("--game all --openings some.txt greedy");
        assert!(plan(&registry(), &a).unwrap_err().to_string().contains("single --game"));
    }

    #[test]
    fn resume_refuses_another_run_and_merge_sees_missing_shards() {
        let dir = std::env::temp_dir().join(format!("ply-arena-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("run.jsonl");
        let mut records = play_line(MATCH, &[]);
        records.sort_by_key(|r| r.index);
        let mut w = ResultsWriter::append(&out).unwrap();
        for r in &records[..records.len() - 1] {
            w.write(r).unwrap();
        }
        let line = |seed: u64, agents: &str| {
            args(&format!(
                "--game tictactoe --games 8 --threads 2 --seed {seed} --quiet {agents} --out {} \
                 --resume",
                out.display()
            ))
        };
        let same = line(7, "alphabeta:depth=9 mcts:iters=40 random");
        let resumed = existing_records(&same, &plan(&registry(), &same).unwrap()).unwrap();
        assert_eq!(resumed.len(), records.len() - 1);
        for other in [line(8, "alphabeta:depth=9 mcts:iters=40 random"), line(7, "greedy random")] {
            let e = existing_records(&other, &plan(&registry(), &other).unwrap()).unwrap_err();
            assert!(e.to_string().contains("holds another run"), "{e}");
        }
        let t = &group(read_records(&out).unwrap().0)[0];
        assert_eq!(t.missing(8), (1, vec![records.iter().map(|r| r.index).max().unwrap()]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn records_keep_every_moves_search_and_merge_tables_them_by_plies() {
        let records = play_line(
            "--game tictactoe --games 4 --threads 1 --seed 3 --quiet --openings-plies 0 \
             alphabeta:depth=2 random",
            &[],
        );
        for r in &records {
            assert_eq!(r.searches.len(), r.moves.len());
            for (seat, st) in r.stats.iter().enumerate() {
                let mine: Vec<_> = r.searches.iter().filter(|m| m.seat == seat).collect();
                assert_eq!(mine.len(), st.moves as usize);
                assert_eq!(mine.iter().map(|m| m.nodes).sum::<u64>(), st.nodes);
                assert_eq!(mine.iter().filter(|m| m.solved()).count(), st.solved as usize);
            }
            let line = serde_json::to_string(r).unwrap();
            assert_eq!(&serde_json::from_str::<GameRecord>(&line).unwrap(), r);
        }
        let t = &group(records.clone())[0];
        let table = t.by_plies(2).unwrap();
        assert!(table.contains("moves by stretches of 2 plies"), "{table}");
        // Alpha-beta's first move of each game, in plies 1-2, is searched to depth 2.
        let ab = table.split("alphabeta:depth=2").nth(1).unwrap().split("random").next().unwrap();
        let first = ab.lines().nth(2).unwrap();
        assert!(first.trim_start().starts_with("1-2") && first.contains("   2.0  "), "{table}");
        // Records of files written before the moves were kept give no table.
        let old: Vec<GameRecord> =
            records.into_iter().map(|r| GameRecord { searches: Vec::new(), ..r }).collect();
        assert!(group(old)[0].by_plies(2).is_none());
    }

    #[test]
    fn resume_refuses_another_schedule_length_openings_or_ply_cap() {
        let played = play_line(MATCH, &[]);
        let resumed = &played[..3];
        for other in [
            MATCH.replace("--games 8", "--games 30"),
            format!("{MATCH} --openings-plies 3"),
            format!("{MATCH} --max-plies 5"),
        ] {
            let a = args(&other);
            let configs = plan(&registry(), &a).unwrap();
            let mut sink = |_: &GameRecord| -> ToolResult<()> { Ok(()) };
            let Err(e) = play(&registry(), &configs, &a.options, resumed, &mut sink) else {
                panic!("{other}: resumed under other terms");
            };
            assert!(e.to_string().contains("the results file's run"), "{other}: {e}");
        }
        // The same terms resume.
        let rest = play_line(MATCH, resumed);
        assert_eq!(rest.len(), played.len() - resumed.len());
    }

    #[test]
    fn a_last_line_without_its_newline_is_not_glued_to_the_next_record() {
        let dir = std::env::temp_dir().join(format!("ply-arena-newline-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("run.jsonl");
        let records = play_line(MATCH, &[]);
        let text: Vec<String> =
            records[..2].iter().map(|r| serde_json::to_string(r).unwrap()).collect();
        std::fs::write(&out, text.join("\n")).unwrap();
        let mut w = ResultsWriter::append(&out).unwrap();
        w.write(&records[2]).unwrap();
        let (read, truncated) = read_records(&out).unwrap();
        assert!(!truncated);
        assert_eq!(read, records[..3].to_vec());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_games_are_counted_without_listing_a_forged_schedule() {
        let mut records = play_line(MATCH, &[]);
        records[0].scheduled = 400_000_000;
        let t = &group(records.clone())[0];
        let (count, first) = t.missing(8);
        assert_eq!(count, 400_000_000 - records.len());
        assert_eq!(first.len(), 8);
        assert!(first.iter().all(|i| !records.iter().any(|r| r.index == *i)));
    }

    #[test]
    fn a_failing_engine_forfeits_its_games_and_the_run_goes_on() {
        let records = play_line("--game tictactoe --games 4 --quiet nboard:cmd=false random", &[]);
        assert_eq!(records.len(), 4);
        for r in &records {
            let reason = r.forfeit.as_deref().unwrap_or_else(|| panic!("{r:?}"));
            assert!(reason.contains("nboard:cmd=false") && reason.contains("forfeits"), "{reason}");
            let random_seat = r.seats.iter().position(|&a| a == 1).unwrap();
            assert_eq!(r.result, crate::arena::results::GameResult::Winner(random_seat));
        }
        let line = serde_json::to_string(&records[0]).unwrap();
        assert!(line.contains("\"forfeit\""), "{line}");
    }

    #[test]
    fn openings_longer_than_the_game_are_refused() {
        let a = args("--game tictactoe --games 2 --quiet --openings-plies 9 greedy random");
        let mut sink = |_: &GameRecord| -> ToolResult<()> { Ok(()) };
        let e = play(&registry(), &plan(&registry(), &a).unwrap(), &a.options, &[], &mut sink)
            .err()
            .unwrap();
        assert!(e.to_string().contains("use fewer --openings-plies"), "{e}");
    }

    #[test]
    fn three_player_tournament_ranks_agents() {
        let records = play_line(
            "--game three-heaps --games 6 --openings-plies 0 --quiet maxn:depth=6 random",
            &[],
        );
        // Two agents at a three-seat table: three rotations per opening.
        assert_eq!(records.len(), 6);
        let t = &group(records)[0];
        let s = t.standings();
        assert!(s.agent(0).mean_rank() < s.agent(1).mean_rank(), "{}", t.table());
        assert!(t.table().contains("mean rank"));
    }

    /// DamExchange engines through the tournament: ply's own server plays whole games with
    /// either colour and no forfeit; a server that answers garbage, or an illegal move,
    /// forfeits each of its games and the run goes on.
    #[test]
    fn dxp_engines_play_through_the_arena_and_a_broken_one_forfeits() {
        use crate::engines::dxp::testing::{codec, ply_server, scripted_server};
        use ply::search::baseline::Greedy;
        use std::io::Write;
        use std::time::Duration;

        let mut r = Registry::new();
        r.add(
            GameEntry::new("international-draughts", "international draughts", |_| {
                Ok(ply_draughts::InternationalDraughts::new())
            })
            .engine(codec()),
        );
        let run = |server: std::net::SocketAddr| {
            let a = args(&format!(
                "--game international-draughts --games 4 --threads 1 --seed 3 --quiet \
                 --max-plies 300 dxp:addr={server},time=20ms random"
            ));
            let configs = plan(&r, &a).unwrap();
            let mut out = Vec::new();
            let mut sink = |rec: &GameRecord| -> ToolResult<()> {
                out.push(rec.clone());
                Ok(())
            };
            play(&r, &configs, &a.options, &[], &mut sink).unwrap();
            out
        };
        let records = run(ply_server(Greedy::with_seed(1), Duration::from_secs(60)));
        assert_eq!(records.len(), 4);
        for rec in &records {
            assert!(rec.forfeit.is_none(), "{rec:?}");
            assert!(rec.moves.len() > 10, "{rec:?}");
        }
        // A server that serves one connection, as Scan's does: every game of the match is
        // played on it, one game request each.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let single = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut server = crate::engines::dxp::server::DxpServer::new(
                ply_draughts::InternationalDraughts::new(),
                codec(),
                Greedy::with_seed(2),
            );
            let _ = server.serve(stream);
            // No second connection is ever served.
            drop(listener);
        });
        let records = run(single);
        assert_eq!(records.len(), 4);
        for rec in &records {
            assert!(rec.forfeit.is_none(), "one connection for the whole match: {rec:?}");
        }
        for reply in ["garbage", "M0000322300"] {
            let broken = scripted_server(move |mut rd, mut w| {
                // Accept, then answer the first move asked for with the broken reply.
                if rd.read(None).is_ok() {
                    let _ = w.write_all(format!("A{:<32}0\0{reply}\0", "broken").as_bytes());
                }
                while rd.read(None).is_ok_and(|m| m.is_some()) {}
            });
            let records = run(broken);
            assert_eq!(records.len(), 4, "{reply}");
            for rec in &records {
                let reason = rec.forfeit.as_deref().unwrap_or_else(|| panic!("{rec:?}"));
                assert!(reason.contains("dxp") && reason.contains("forfeits"), "{reason}");
                let random_seat = rec.seats.iter().position(|&a| a == 1).unwrap();
                assert_eq!(
                    rec.result,
                    crate::arena::results::GameResult::Winner(random_seat),
                    "{reason}"
                );
            }
        }
    }
}
