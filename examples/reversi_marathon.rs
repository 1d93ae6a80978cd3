//! The TopCoder MultiplayerReversi contest, replayed: K seeded test cases (board 7..=12, 3
//! players on odd sizes and 4 on even, opponents from the seed's genetic generator), played by
//! several agents in parallel, with the mean score per agent and per board size.
//!
//! ```text
//! cargo run --release --example reversi_marathon -- --cases 100 --seed 1
//! cargo run --release --example reversi_marathon -- --cases 20 --agent greedy --agent modelling:depth=2
//! ```
//!
//! An agent is a spec of the search library (`random`, `greedy`, `paranoid:depth=2`,
//! `maxn:depth=2`, `mcts:iters=300,cutoff=8`, ...) playing through the contest's interface,
//! or `modelling[:depth=N,prior=RUNS]`, the contestant that learns the opponents' weights from
//! their moves (starting from the mean of RUNS evolved populations, or equal weights for 0),
//! or `inference[:particles=N,nodes=N,mixing=N,moves=N,fallback=ITERS,trust=F,exact=EMPTIES,pool=0|1,ensemble=N]`,
//! the contestant that keeps a set of weight vectors consistent with every observed opponent
//! move and plans against their predicted replies (MCTS with ITERS iterations while fewer
//! than the share F of its recent predictions held and more than EMPTIES cells are empty;
//! `fallback=0` always plans), or `oracle[:noise=W,other=0|1,nodes=N]`, a benchmark that is
//! told the opponents' true weights (plus uniform noise in `[-W, W]`, or each opponent's
//! neighbour's weights with `other=1`) and plans against them. Contestants that predict opponent moves show the share
//! predicted beside their score, and `inference` also per game phase. Test cases start from
//! the ruleset's standard layout for their player count.
//! The score of a test case is (cells owned) x (players) / (cells on the board); the table
//! shows the mean with a 95% confidence interval (normal approximation).

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use ply_reversi::marathon::{
    AgentContestant, CaseResult, Contestant, InferenceConfig, InferenceContestant, InferenceStats,
    ModellingConfig, ModellingContestant, ModellingStats, OracleConfig, OracleContestant, TestCase,
    PHASES,
};
use ply_reversi::Reversi;

use ply_tools::spec::AgentSpec;

const DEFAULT_AGENTS: [&str; 7] = [
    "random",
    "greedy",
    "paranoid:depth=2",
    "maxn:depth=2",
    "mcts:iters=300,cutoff=8",
    "modelling:depth=2",
    "inference",
];

/// Replay the MultiplayerReversi contest with several agents.
#[derive(Parser, Debug)]
#[command(version, name = "reversi_marathon")]
struct Cli {
    /// Number of test cases (k = 0..K).
    #[arg(long, default_value_t = 100, value_name = "K")]
    cases: u64,
    /// Seed of the run: test case k of seed S is always the same.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// An agent to evaluate (repeatable); default: random, greedy, paranoid, max^n, MCTS and
    /// the opponent-modelling contestant.
    #[arg(long = "agent", value_name = "SPEC")]
    agents: Vec<String>,
    /// Worker threads (default: the machine's parallelism).
    #[arg(long)]
    threads: Option<usize>,
}

/// An agent of the run.
#[derive(Clone, Debug)]
enum Entry {
    Library(Box<AgentSpec>),
    Modelling(ModellingConfig),
    Inference(InferenceConfig),
    Oracle(OracleConfig),
}

/// Reads `key=value` options of a contestant spec, handing each to `set`.
fn options(
    text: &str,
    rest: &str,
    mut set: impl FnMut(&str, &str) -> Option<()>,
    expected: &str,
) -> Result<(), String> {
    for opt in rest.trim_start_matches(':').split(',').filter(|s| !s.is_empty()) {
        let ok = opt.split_once('=').and_then(|(k, v)| set(k, v));
        if ok.is_none() {
            return Err(format!("bad option {opt:?} in {text:?}: expected {expected}"));
        }
    }
    Ok(())
}

impl Entry {
    fn parse(text: &str) -> Result<Entry, String> {
        if let Some(rest) = text.strip_prefix("inference") {
            let mut c = InferenceConfig::default();
            options(
                text,
                rest,
                |k, v| {
                    match k {
                        "particles" => c.particles = v.parse().ok().filter(|&n| n > 0)?,
                        "nodes" => c.nodes = v.parse().ok()?,
                        "mixing" => c.mixing = v.parse().ok()?,
                        "moves" => c.max_moves = v.parse().ok()?,
                        "fallback" => c.fallback_iterations = v.parse().ok()?,
                        "trust" => c.min_trust = v.parse().ok()?,
                        "exact" => c.exact_empties = v.parse().ok()?,
                        "pool" => c.pool = v.parse::<u8>().ok()? != 0,
                        "ensemble" => c.ensemble = v.parse().ok()?,
                        _ => return None,
                    }
                    Some(())
                },
                "particles=N, nodes=N, mixing=N, moves=N, fallback=ITERS, trust=F, exact=EMPTIES, pool=0|1 or ensemble=N",
            )?;
            return Ok(Entry::Inference(c));
        }
        if let Some(rest) = text.strip_prefix("oracle") {
            let mut c = OracleConfig::default();
            options(
                text,
                rest,
                |k, v| {
                    match k {
                        "noise" => c.noise = v.parse().ok().filter(|x: &f64| *x >= 0.0)?,
                        "other" => c.other = v.parse::<u8>().ok()? != 0,
                        "nodes" => c.nodes = v.parse().ok()?,
                        _ => return None,
                    }
                    Some(())
                },
                "noise=W, other=0|1 or nodes=N",
            )?;
            return Ok(Entry::Oracle(c));
        }
        if let Some(rest) = text.strip_prefix("modelling") {
            let mut config = ModellingConfig::default();
            for opt in rest.trim_start_matches(':').split(',').filter(|s| !s.is_empty()) {
                match opt.split_once('=') {
                    Some(("depth", v)) => {
                        config.depth =
                            v.parse().map_err(|_| format!("bad depth {v:?} in {text:?}"))?
                    }
                    Some(("prior", v)) => {
                        config.prior_runs =
                            v.parse().map_err(|_| format!("bad prior {v:?} in {text:?}"))?
                    }
                    _ => {
                        return Err(format!(
                            "bad option {opt:?} in {text:?}: expected depth=N or prior=RUNS"
                        ))
                    }
                }
            }
            return Ok(Entry::Modelling(config));
        }
        let spec = text.parse::<AgentSpec>().map_err(|e| e.to_string())?;
        if spec.algorithm.is_external() {
            return Err(format!("{text:?}: external engines do not play the contest"));
        }
        Ok(Entry::Library(Box::new(spec)))
    }

    fn contestant(&self, case: &TestCase, seed: u64) -> Box<dyn Contestant> {
        match self {
            Entry::Library(spec) => {
                let agent = spec
                    .build_search::<Reversi, _>(ply::eval::GameEval, seed)
                    .expect("external engines are refused when the spec is read");
                Box::new(AgentContestant::new(agent, spec.budget()))
            }
            Entry::Modelling(config) => Box::new(ModellingContestant::new(config.clone())),
            Entry::Inference(config) => {
                Box::new(InferenceContestant::new(InferenceConfig { seed, ..config.clone() }))
            }
            Entry::Oracle(config) => {
                Box::new(OracleContestant::new(case, OracleConfig { seed, ..config.clone() }))
            }
        }
    }
}

/// One finished (test case, agent) pair.
struct Outcome {
    case: usize,
    agent: usize,
    result: CaseResult,
    stats: Option<ModellingStats>,
    inference: Option<InferenceStats>,
}

type JobResult = (CaseResult, Option<ModellingStats>, Option<InferenceStats>);

fn run_job(entry: &Entry, case: &TestCase, seed: u64) -> JobResult {
    match entry {
        Entry::Modelling(config) => {
            let mut c = ModellingContestant::new(config.clone());
            let result = case.run(&mut c);
            (result, Some(c.stats), None)
        }
        Entry::Inference(config) => {
            let mut c = InferenceContestant::new(InferenceConfig { seed, ..config.clone() });
            let result = case.run(&mut c);
            (result, None, Some(c.stats))
        }
        Entry::Oracle(config) => {
            let mut c = OracleContestant::new(case, OracleConfig { seed, ..config.clone() });
            let result = case.run(&mut c);
            (result, None, Some(c.stats))
        }
        other => {
            let mut c = other.contestant(case, seed);
            (case.run(c.as_mut()), None, None)
        }
    }
}

fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

fn bar(len: u64, what: &str) -> ProgressBar {
    let pb = ProgressBar::new(len);
    let style = ProgressStyle::with_template(
        "{msg:>12} [{bar:40}] {pos}/{len} {elapsed_precise} eta {eta}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ");
    pb.set_style(style);
    pb.set_message(what.to_string());
    pb
}

/// Runs `jobs` closures on `threads` workers, sending each result down the channel.
fn parallel<T: Send>(
    jobs: usize,
    threads: usize,
    pb: &ProgressBar,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let next = &next;
            let work = &work;
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= jobs {
                    break;
                }
                let out = work(i);
                if tx.send((i, out)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut results: Vec<Option<T>> = (0..jobs).map(|_| None).collect();
        for (i, out) in rx {
            results[i] = Some(out);
            pb.inc(1);
        }
        pb.finish();
        results.into_iter().map(|r| r.expect("every job reports")).collect()
    })
}

/// The agents the contest takes, for `--help`: its own contestants, then ply's searches
/// (external engines do not play it).
fn agents_help() -> String {
    let own = ply_tools::spec::accepted_by(|a| !a.is_external());
    format!(
        "Agents:\n  modelling[:depth=N,prior=RUNS]\n      learns the opponents' weights from their \
         moves\n  inference[:particles=N,nodes=N,mixing=N,moves=N,fallback=ITERS,trust=F,\
         exact=EMPTIES,pool=0|1,ensemble=N]\n      plans against the replies of weight vectors \
         consistent with every opponent move\n  oracle[:noise=W,other=0|1,nodes=N]\n      a \
         benchmark told the opponents' true weights\n{own}"
    )
}

fn main() -> ExitCode {
    ply_tools::cli::end_quietly_on_closed_stdout();
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().after_help(agents_help()).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let texts: Vec<String> = if cli.agents.is_empty() {
        DEFAULT_AGENTS.iter().map(|s| s.to_string()).collect()
    } else {
        cli.agents.clone()
    };
    let mut entries = Vec::new();
    for t in &texts {
        match Entry::parse(t) {
            Ok(e) => entries.push(e),
            Err(e) => {
                eprintln!("error: bad --agent {t:?}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if cli.cases == 0 {
        eprintln!("error: --cases must be at least 1");
        return ExitCode::FAILURE;
    }
    let threads = cli
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    println!(
        "{} test cases, seed {}, {} agents, {threads} threads",
        cli.cases,
        cli.seed,
        entries.len()
    );
    let start = Instant::now();
    let pb = bar(cli.cases, "generating");
    let cases: Vec<TestCase> =
        parallel(cli.cases as usize, threads, &pb, |k| TestCase::generate(k as u64, cli.seed));
    let generation = start.elapsed();
    let jobs = cases.len() * entries.len();
    let pb = bar(jobs as u64, "playing");
    let outcomes: Vec<Outcome> = parallel(jobs, threads, &pb, |j| {
        // Interleave agents so the bar's rate is representative from the start.
        let (case, agent) = (j / entries.len(), j % entries.len());
        let seed = ply::zobrist::mix64(cli.seed ^ (case as u64) << 8 ^ agent as u64);
        let (result, stats, inference) = run_job(&entries[agent], &cases[case], seed);
        Outcome { case, agent, result, stats, inference }
    });
    let total = start.elapsed();
    report(&cli, &texts, &cases, &outcomes, generation, total);
    ExitCode::SUCCESS
}

fn report(
    cli: &Cli,
    names: &[String],
    cases: &[TestCase],
    outcomes: &[Outcome],
    generation: Duration,
    total: Duration,
) {
    println!();
    println!(
        "{} test cases, seed {}: strategy generation {:.1}s, total {:.1}s (wall clock)",
        cases.len(),
        cli.seed,
        generation.as_secs_f64(),
        total.as_secs_f64()
    );
    let sizes: Vec<usize> = {
        let mut s: Vec<usize> = cases.iter().map(|c| c.size).collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    println!();
    println!(
        "| agent | mean score | 95% CI | total | errors | ms per move | opponent moves predicted |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (a, name) in names.iter().enumerate() {
        let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.agent == a).collect();
        let scores: Vec<f64> = mine.iter().map(|o| o.result.score).collect();
        let (mean, ci) = mean_ci(&scores);
        let errors = mine.iter().filter(|o| o.result.error.is_some()).count();
        let calls: u32 = mine.iter().map(|o| o.result.calls).sum();
        let think: f64 = mine.iter().map(|o| o.result.thinking.as_secs_f64()).sum();
        let predicted = accuracy_of(&mine);
        println!(
            "| {name} | {mean:.3} | ±{ci:.3} | {:.1} | {errors} | {:.1} | {predicted} |",
            scores.iter().sum::<f64>(),
            1000.0 * think / f64::from(calls.max(1))
        );
    }
    println!();
    let header: Vec<String> = sizes
        .iter()
        .map(|&s| {
            format!(
                "{s}x{s} ({}p, n={})",
                if s % 2 == 1 { 3 } else { 4 },
                cases.iter().filter(|c| c.size == s).count()
            )
        })
        .collect();
    println!("| agent | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(sizes.len()));
    for (a, name) in names.iter().enumerate() {
        let mut by_size: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
        for o in outcomes.iter().filter(|o| o.agent == a) {
            by_size.entry(cases[o.case].size).or_default().push(o.result.score);
        }
        let cells: Vec<String> = sizes
            .iter()
            .map(|s| {
                let (m, ci) = mean_ci(by_size.get(s).map_or(&[][..], |v| v.as_slice()));
                format!("{m:.3} ±{ci:.3}")
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
    for (a, name) in names.iter().enumerate() {
        let mut total = InferenceStats::default();
        let mut any = false;
        for o in outcomes.iter().filter(|o| o.agent == a) {
            if let Some(s) = &o.inference {
                total.add(s);
                any = true;
            }
        }
        if !any {
            continue;
        }
        println!();
        println!(
            "{name}: opponent moves predicted before they were seen, by share of the board filled"
        );
        println!();
        let heads: Vec<String> = (0..PHASES)
            .map(|p| format!("{}-{}%", 100 * p / PHASES, 100 * (p + 1) / PHASES))
            .collect();
        println!("| {} | all |", heads.join(" | "));
        println!("|{}---|", "---|".repeat(PHASES));
        let cells: Vec<String> = (0..PHASES)
            .map(|p| {
                format!(
                    "{:.1}% of {}",
                    100.0 * f64::from(total.predicted[p]) / f64::from(total.observed[p].max(1)),
                    total.observed[p]
                )
            })
            .collect();
        println!("| {} | {:.1}% |", cells.join(" | "), 100.0 * total.accuracy());
        println!();
        println!(
            "own moves: {} by the single-agent search, {} by the N-player fallback; {} board changes unexplained",
            total.planned, total.fallback, total.unexplained
        );
    }
    let stats: Vec<&ModellingStats> = outcomes.iter().filter_map(|o| o.stats.as_ref()).collect();
    if !stats.is_empty() {
        let observed: u32 = stats.iter().map(|s| s.observed).sum();
        let predicted: u32 = stats.iter().map(|s| s.predicted).sum();
        let unexplained: u32 = stats.iter().map(|s| s.unexplained).sum();
        println!();
        println!(
            "opponent model: {predicted} of {observed} opponent moves predicted before learning from them ({:.1}%), {unexplained} board changes unexplained",
            100.0 * f64::from(predicted) / f64::from(observed.max(1))
        );
    }
}

/// The share of opponent moves an agent predicted, as table text ("-" for agents that do not
/// predict).
fn accuracy_of(outcomes: &[&Outcome]) -> String {
    let (mut seen, mut hit) = (0u32, 0u32);
    for o in outcomes {
        if let Some(s) = &o.stats {
            seen += s.observed;
            hit += s.predicted;
        }
        if let Some(s) = &o.inference {
            seen += s.observed.iter().sum::<u32>();
            hit += s.predicted.iter().sum::<u32>();
        }
    }
    if seen == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * f64::from(hit) / f64::from(seen))
    }
}
