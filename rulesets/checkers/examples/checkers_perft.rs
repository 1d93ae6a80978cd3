//! Release-mode perft figures for English checkers: the specialised bulk-counting perft and
//! the generic `Game` path with every leaf move played, with their speeds.
//!
//! ```text
//! cargo run --release -p ply-checkers --example checkers_perft -- [max_depth] [standard|deepomatic] [size] [max_make_all_depth]
//! ```

use std::time::Instant;

use ply::{Game, Notation, PerftMode};
use ply_checkers::perft::perft_fast;
use ply_checkers::{EnglishCheckers, Rules};

/// CPU seconds used by this process so far (from `/proc/self/stat`, in clock ticks of
/// 1/100 s), or `None` where that file does not exist. On a machine shared with other jobs
/// it is a steadier measure than wall time.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// Runs `f`, returning its result with the wall and CPU seconds it took.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, Option<f64>) {
    let c = cpu_seconds();
    let t = Instant::now();
    let r = f();
    let wall = t.elapsed().as_secs_f64();
    let cpu = c.zip(cpu_seconds()).map(|(a, b)| b - a);
    (r, wall, cpu)
}

fn speed(n: u64, wall: f64, cpu: Option<f64>) -> String {
    let mut s = format!("{wall:.3}s wall {:.1}M/s", n as f64 / wall / 1e6);
    if let Some(c) = cpu.filter(|&c| c >= 0.5) {
        s += &format!(", {c:.2}s cpu {:.1}M/s", n as f64 / c / 1e6);
    }
    s
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = match args.first().map(|s| s.parse()) {
        None => 12,
        Some(Ok(d)) => d,
        Some(Err(_)) => {
            eprintln!("usage: checkers_perft [max_depth] [standard|deepomatic] [size] [max_make_all_depth]");
            std::process::exit(2);
        }
    };
    let rules: Rules = match args.get(1).map(|s| s.parse()).transpose() {
        Ok(r) => r.unwrap_or(Rules::Standard),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let size = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(8);
    let make_all_depth = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let game = match EnglishCheckers::new(size, rules) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let start = game.initial_state();
    println!("{size}x{size} {rules} rules, from {}", game.format_state(&start));
    for d in 1..=depth {
        let (n, wall, cpu) = timed(|| perft_fast(&game, &start, d));
        print!("perft({d}) = {n}  bulk: {}", speed(n, wall, cpu));
        if d <= make_all_depth {
            let (m, wall, cpu) = timed(|| ply::perft(&game, &start, d, PerftMode::MakeAll));
            assert_eq!(m, n, "generic path disagrees at depth {d}");
            print!("  make-all: {}", speed(m, wall, cpu));
        }
        println!();
    }
}
