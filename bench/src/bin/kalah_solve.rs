//! Kalah solved from the start by ply's generic exact solver (`ply::solve`), with a seed table
//! (the exact gain of every position with few seeds in the houses) answering the endgame:
//! the table's build time and the proof's time side by side, one markdown line per size.
//!
//! ```text
//! cargo run --release -p ply-bench --bin kalah_solve -- --sizes 4x3,6x3,6x4 --table-seeds 20
//! ```
//!
//! `--table-seeds 0` proves without a table (the store bound alone); `--dir` keeps the tables
//! as files, so that a later run reads them instead of building them (its build column then
//! gives the time to read them). `--runs N` proves each size `N` times on the table read once
//! (the median time and the range), for machines whose timing varies from run to run.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::Parser;

use ply::solve::{SolveOptions, Solver};
use ply::Game;
use ply_kalah::{Capture, Kalah, SeedTable};

/// Kalah(m,n) proved by ply's generic solver with a seed table.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// The sizes, `PITSxSEEDS` (houses a side, seeds a house), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "4x3,6x3,6x4")]
    sizes: Vec<String>,
    /// The seed table's size: every position with at most this many seeds in the houses.
    #[arg(long, default_value_t = 16)]
    table_seeds: u32,
    /// Keep the seed tables in this directory (one checksummed file per number of seeds,
    /// read back by later runs instead of computed again).
    #[arg(long, value_name = "DIR")]
    dir: Option<std::path::PathBuf>,
    /// Threads that build the table and prove.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The proof table, in MiB.
    #[arg(long, default_value_t = 256)]
    memory: usize,
    /// The empty-capture rule (the mover always takes the last seed that lands in an empty
    /// own house), under which Kalah's published values hold; `false`: the standard rule.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    empty_capture: bool,
    /// Proves each size this many times with the table read once, each with a fresh proof
    /// table; the proof column gives the median time and the range.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kalah_solve: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    println!("| Kalah | value | nodes | table (seeds, entries, build) | proof |");
    println!("|---|---|---|---|---|");
    let mut table: Option<Arc<SeedTable>> = None;
    for size in &args.sizes {
        let (pits, seeds) = size
            .split_once('x')
            .and_then(|(m, n)| Some((m.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
            .ok_or_else(|| format!("size {size:?} is not PITSxSEEDS (say 6x4)"))?;
        let capture = if args.empty_capture { Capture::Empty } else { Capture::Standard };
        let mut game = Kalah::new(pits, seeds, capture)?.with_exact_seeds(Some(0));
        let mut built = String::from("none");
        if args.table_seeds > 0 {
            let reuse =
                table.as_ref().filter(|t| t.fits(&game) && t.max_seeds() == args.table_seeds);
            let t = match reuse {
                Some(t) => {
                    built = format!("{}, {}, the one above", args.table_seeds, t.entries());
                    t.clone()
                }
                None => {
                    let started = Instant::now();
                    let (seeds, threads) = (args.table_seeds, args.threads);
                    let mut progress = |k: u32, entries: u64| {
                        let s = started.elapsed().as_secs_f64();
                        eprintln!("  seed table: {k:>3} seeds, {entries:>12} entries, {s:>8.2} s");
                    };
                    let t = match &args.dir {
                        Some(dir) => {
                            SeedTable::build_in(&game, seeds, threads, dir, &mut progress)?
                        }
                        None => SeedTable::build_with(&game, seeds, threads, &mut progress)?,
                    };
                    built = format!(
                        "{}, {}, {:.2} s",
                        args.table_seeds,
                        t.entries(),
                        started.elapsed().as_secs_f64()
                    );
                    Arc::new(t)
                }
            };
            game = game.with_table(t.clone())?;
            table = Some(t);
        }
        let options = SolveOptions {
            table_mib: args.memory,
            threads: args.threads,
            ..SolveOptions::default()
        };
        let state = game.initial_state();
        let mut times = Vec::new();
        let (mut value, mut nodes) = (None, 0);
        for run in 1..=args.runs {
            let mut solver = Solver::new(&game, options.clone())?;
            let started = Instant::now();
            let v = solver.value(&state, &|| false, &mut |step| {
                eprintln!(
                    "  {size}, run {run}: test {} bounds {:?}..{:?}, {} positions, {:.1} s",
                    step.tests,
                    step.lower,
                    step.upper,
                    step.nodes,
                    step.elapsed.as_secs_f64()
                );
            })?;
            times.push(started.elapsed().as_secs_f64());
            value = Some(v);
            nodes = solver.nodes();
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let proof = match times.len() {
            1 => format!("{median:.2} s"),
            n => format!("{median:.2} s ({:.2} to {:.2} s, {n} runs)", times[0], times[n - 1]),
        };
        let value = value.map_or_else(String::new, |v| v.to_string());
        println!("| ({pits},{seeds}) | {value} | {nodes} | {built} | {proof} |");
    }
    Ok(())
}
