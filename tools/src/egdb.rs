//! Endgame databases for any game with an endgame index ([`ply::endgame::EndgameIndex`]):
//! `egdb build` solves and writes the tables (resumable, with a progress bar), `egdb info`
//! lists what a directory holds, `egdb probe` gives a position's verdict and its moves', and
//! `egdb verify` checks sampled positions move by move.
//!
//! A game gets the command by registering its index ([`crate::registry::GameEntry::endgame`]);
//! the engines then take `egdb=on|off|DIR` in their spec, and find the tables through
//! [`crate::agents::tables`]. [`crate::cli::egdb_main`] is the whole program
//! over a registry.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ply::endgame::{
    build, default_dir, read_table_header, BuildEvent, EndgameIndex, SliceStats, Tables, Verdict,
};
use ply::{MoveList, Notation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::{ToolError, ToolResult};
use crate::units::{hms, si};

/// What `egdb` does.
#[derive(Subcommand, Clone, Debug)]
pub enum EgdbCommand {
    /// Solve every position with up to N pieces and write the tables (a build that stops is
    /// resumed by running it again).
    Build {
        /// The most pieces.
        #[arg(long)]
        pieces: u32,
        /// Threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// List the tables in the directory: slices, positions, wins, draws and losses.
    Info,
    /// The verdict of a position and of each of its moves.
    Probe {
        /// The position, in the game's notation.
        position: String,
    },
    /// Check sampled positions against their moves: each verdict must be what its moves
    /// imply.
    Verify {
        /// Positions to check.
        #[arg(long, default_value_t = 100_000)]
        samples: u64,
        /// Seed of the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// The arguments of `egdb`: the directory and the command.
#[derive(Args, Clone, Debug)]
pub struct EgdbArgs {
    /// The directory of the tables (each game's set in a subdirectory); default `$PLY_EGDB`,
    /// else `~/.cache/ply/egdb`.
    #[arg(long, global = true)]
    pub dir: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: EgdbCommand,
}

impl EgdbArgs {
    /// The directory given, or the default one.
    ///
    /// # Errors
    /// When no directory is given and neither `$PLY_EGDB` nor `$HOME` is set.
    pub fn dir(&self) -> ToolResult<PathBuf> {
        self.dir
            .clone()
            .or_else(default_dir)
            .ok_or_else(|| ToolError::input("no directory: give --dir, or set PLY_EGDB or HOME"))
    }
}

/// Runs `args` on `game`, writing reports to `out` (progress goes to stderr).
///
/// # Errors
/// A message for a build that fails, tables that are missing or damaged, a position that
/// does not read or a verification that finds a wrong verdict.
pub fn run<G: EndgameIndex + Notation>(
    game: &G,
    args: &EgdbArgs,
    out: &mut dyn Write,
) -> ToolResult<()> {
    let dir = args.dir()?;
    let w = |e: std::io::Error| ToolError::output(&e);
    match &args.command {
        EgdbCommand::Build { pieces, threads } => {
            Ok(run_build(game, *pieces, *threads, &dir, out)?)
        }
        EgdbCommand::Info => Ok(info(game, &dir, out)?),
        EgdbCommand::Probe { position } => {
            let tables = Tables::open(game, &dir)?;
            let state = game
                .parse_state(position)
                .map_err(|e| ToolError::Input(format!("bad position: {e}")))?;
            writeln!(out, "{}", probe_report(game, &tables, &state)?).map_err(w)
        }
        EgdbCommand::Verify { samples, seed } => Ok(verify(game, &dir, *samples, *seed, out)?),
    }
}

fn run_build<G: EndgameIndex + Notation>(
    game: &G,
    pieces: u32,
    threads: usize,
    dir: &Path,
    out: &mut dyn Write,
) -> ToolResult<()> {
    if pieces == 0 {
        return Err(ToolError::input("--pieces must be at least 1"));
    }
    if threads == 0 {
        return Err(ToolError::input("--threads must be at least 1"));
    }
    let started = Instant::now();
    let bar = Mutex::new(None::<ProgressBar>);
    let report = |event: BuildEvent| {
        let Ok(mut bar) = bar.lock() else { return };
        match event {
            BuildEvent::Start { slices, indices } => {
                eprintln!(
                    "building {} up to {pieces} pieces in {}: {slices} slices, {} indices",
                    game.table_set(),
                    dir.display(),
                    si(indices as f64)
                );
                *bar = Some(progress_bar(indices));
            }
            BuildEvent::Progress(n) => {
                if let Some(b) = bar.as_ref() {
                    b.inc(n);
                }
            }
            BuildEvent::Slice { name, stats, resumed, seconds } => {
                let line = slice_line(
                    &name,
                    &stats,
                    if resumed { "read back".into() } else { format!("{seconds:.1}s") },
                );
                match bar.as_ref() {
                    Some(b) if !b.is_hidden() => b.println(line),
                    _ => eprintln!("{line}"),
                }
            }
        }
    };
    let summary = build(game, pieces, dir, threads, &report).map_err(ToolError::input)?;
    if let Some(b) = bar.lock().ok().and_then(|mut b| b.take()) {
        b.finish_and_clear();
    }
    let s = &summary.stats;
    writeln!(
        out,
        "{}: {} slices, {} positions ({} wins, {} draws, {} losses), longest win {} plies, {} on disk, {}",
        summary.dir.display(),
        summary.slices,
        s.positions(),
        s.wins,
        s.draws,
        s.losses,
        s.longest_win,
        bytes(summary.bytes),
        hms(started.elapsed())
    )
    .map_err(ToolError::input)
}

fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style =
        ProgressStyle::with_template("[{bar:30}] {human_pos}/{human_len} indices  (eta {eta})")
            .expect("a valid template")
            .progress_chars("=> ");
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// One slice's line: its name, positions and shares of results.
fn slice_line(name: &str, s: &SliceStats, time: String) -> String {
    let n = s.positions().max(1) as f64;
    format!(
        "  {name:<16} {:>8} positions  win {:>5.1}%  draw {:>5.1}%  loss {:>5.1}%  longest {:>3}  {time}",
        si(s.positions() as f64),
        100.0 * s.wins as f64 / n,
        100.0 * s.draws as f64 / n,
        100.0 * s.losses as f64 / n,
        s.longest_win.max(s.longest_loss)
    )
}

fn bytes(n: u64) -> String {
    format!("{}B", si(n as f64))
}

fn info<G: EndgameIndex>(game: &G, dir: &Path, out: &mut dyn Write) -> ToolResult<()> {
    let tables = Tables::open(game, dir)?;
    let w = |e: std::io::Error| ToolError::output(&e);
    writeln!(
        out,
        "{}: every position with up to {} pieces",
        tables.dir().display(),
        tables.pieces()
    )
    .map_err(w)?;
    let mut total = SliceStats::default();
    let mut disk = 0;
    for pieces in 1..=tables.pieces() {
        let mut level = SliceStats::default();
        let mut slices = 0;
        let fewer = if pieces == 1 { Vec::new() } else { game.slices(pieces - 1) };
        for slice in game.slices(pieces).into_iter().filter(|s| !fewer.contains(s)) {
            let path = tables.dir().join(format!("{}.egdb", game.slice_name(slice)));
            let header = read_table_header(&path)?;
            disk += std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            level.add(&header.stats);
            slices += 1;
        }
        writeln!(
            out,
            "{}",
            slice_line(&format!("{pieces} pieces ({slices})"), &level, String::new())
        )
        .map_err(w)?;
        total.add(&level);
    }
    writeln!(
        out,
        "{}",
        slice_line(
            &format!("all ({})", tables.slices()),
            &total,
            format!("{} on disk", bytes(disk))
        )
    )
    .map_err(w)
}

/// A position's verdict and each move's, as `egdb probe` prints them.
///
/// # Errors
/// When the position has more pieces than the tables hold.
pub(crate) fn probe_report<G: EndgameIndex + Notation>(
    game: &G,
    tables: &Tables<G::Slice>,
    state: &G::State,
) -> ToolResult<String> {
    let verdict = tables.probe(game, state).ok_or_else(|| {
        ToolError::Input(format!(
            "{} pieces: the tables hold positions with up to {}",
            game.pieces(state),
            tables.pieces()
        ))
    })?;
    let mover = game.to_move(state);
    let mut text = format!("{}\nthe side to move: {verdict}", game.format_state(state));
    if let Some(n) = verdict.plies() {
        text.push_str(if n == 1 { " ply" } else { " plies" });
    }
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let mut lines: Vec<(Verdict, String)> = moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            let v = match game.outcome(&child) {
                Some(o) if o.margin(mover) > 0 => Verdict::Win(1),
                Some(o) if o.margin(mover) < 0 => Verdict::Loss(1),
                Some(_) => Verdict::Draw,
                None => tables.probe(game, &child).map_or(Verdict::Draw, Verdict::parent),
            };
            (v, game.format_move(state, mv))
        })
        .collect();
    // Best first: short wins, draws, long losses.
    lines.sort_by_key(|(v, _)| match v {
        Verdict::Win(n) => i64::from(*n),
        Verdict::Draw => 100_000,
        Verdict::Loss(n) => 200_000 - i64::from(*n),
    });
    for (v, mv) in lines {
        text.push_str(&format!("\n  {mv:<12} {v}"));
    }
    Ok(text)
}

fn verify<G: EndgameIndex + Notation>(
    game: &G,
    dir: &Path,
    samples: u64,
    seed: u64,
    out: &mut dyn Write,
) -> ToolResult<()> {
    let tables = Tables::open(game, dir).map_err(ToolError::input)?;
    tables.load_all().map_err(ToolError::input)?;
    let slices = game.slices(tables.pieces());
    let sizes: Vec<u64> = slices.iter().map(|&s| game.slice_size(s)).collect();
    let total: u64 = sizes.iter().sum();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut checked, mut tries) = (0u64, 0u64);
    while checked < samples && tries < samples.saturating_mul(100) {
        tries += 1;
        let mut at = rng.gen_range(0..total);
        let k = sizes.iter().position(|&n| {
            at < n || {
                at -= n;
                false
            }
        });
        let Some(slice) = k.map(|k| slices[k]) else { continue };
        let Some(state) = game.position_of(slice, at) else { continue };
        let stored = tables.probe(game, &state);
        let implied = tables.implied(game, &state);
        if stored != implied {
            return Err(ToolError::Input(format!(
                "{}: the tables say {}, its moves say {}",
                game.format_state(&state),
                stored.map_or("nothing".into(), |v| v.to_string()),
                implied.map_or("nothing".into(), |v| v.to_string())
            )));
        }
        checked += 1;
    }
    writeln!(out, "{checked} positions checked move by move: every verdict agrees with its moves")
        .map_err(ToolError::input)
}
