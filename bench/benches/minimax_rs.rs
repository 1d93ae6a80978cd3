//! ply's alpha-beta against minimax-rs (the `minimax` crate, a dev-dependency of this crate
//! only) on the same Connect Four code: ply's [`ConnectFour`] rules and [`OpenWindows`]
//! evaluation, wrapped in minimax-rs's `Game` and `Evaluator` traits. Both search with
//! iterative deepening, a transposition table of the same size and a null-window search, one
//! thread. Prints the nodes and the time of each engine:
//!
//! - to a fixed depth from the start position (depth 14, as minimax-rs's own example);
//! - to the end of the game (an exact solve) from four late positions (4 random plies, then
//!   ply's alpha-beta at depth 8 for both sides to ply 20, 22, 24 and 26), where both must
//!   find the same result (checked: a difference stops the run).
//!
//! ```text
//! cargo bench -p ply-bench --bench minimax_rs
//! ```
//!
//! minimax-rs shuffles its root moves with an unseeded generator, so its counts vary a little
//! from run to run; every search runs three times and the median is shown.

use std::sync::LazyLock;
use std::time::{Duration, Instant};

use minimax::{Evaluation, Strategy, Winner};
use ply::eval::Evaluator;
use ply::games::{ConnectFour, ConnectFourState, OpenWindows};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::{Agent, Budget, Position, Value};
use ply::{Game, MoveList, Notation, Outcome};

/// The rules, shared by the static functions minimax-rs's `Game` trait asks for.
static RULES: LazyLock<ConnectFour> = LazyLock::new(ConnectFour::standard);

/// Transposition table size for both engines.
const TABLE_MIB: usize = 16;

/// ply's Connect Four under minimax-rs's `Game` trait.
struct C4;

impl minimax::Game for C4 {
    type S = ConnectFourState;
    type M = u8;

    fn generate_moves(state: &ConnectFourState, moves: &mut Vec<u8>) -> Option<Winner> {
        if let Some(w) = Self::get_winner(state) {
            return Some(w);
        }
        let mut list = MoveList::new();
        RULES.generate_moves(state, &mut list);
        moves.extend(list.iter().copied());
        None
    }

    fn apply(state: &mut ConnectFourState, m: u8) -> Option<ConnectFourState> {
        let mut next = *state;
        RULES.apply(&mut next, m);
        Some(next)
    }

    fn get_winner(state: &ConnectFourState) -> Option<Winner> {
        let mover = RULES.to_move(state);
        RULES.outcome(state).map(|o| match o {
            Outcome::Draw => Winner::Draw,
            Outcome::Winner(p) if p == mover => Winner::PlayerToMove,
            _ => Winner::PlayerJustMoved,
        })
    }

    fn zobrist_hash(state: &ConnectFourState) -> u64 {
        RULES.hash(state).expect("Connect Four hashes every position")
    }
}

/// ply's [`OpenWindows`] under minimax-rs's `Evaluator` trait.
struct Eval;

impl minimax::Evaluator for Eval {
    type G = C4;

    fn evaluate(&self, state: &ConnectFourState) -> Evaluation {
        let v = OpenWindows.evaluate(&RULES, state, RULES.to_move(state));
        v.clamp(-30_000, 30_000) as Evaluation
    }
}

/// One engine's search: nodes, time, and the result when the search proved it.
struct Run {
    nodes: u64,
    time: Duration,
    result: Option<i32>,
}

/// ply's alpha-beta to `depth` with `options` (and the common table size).
fn ply_search(state: &ConnectFourState, depth: u32, options: &AlphaBetaOptions) -> Run {
    let mut engine =
        AlphaBeta::with_options(AlphaBetaOptions { tt_mb: TABLE_MIB, ..options.clone() });
    Agent::<ConnectFour>::new_game(&mut engine);
    let start = Instant::now();
    let report =
        engine.choose(&*RULES, Position::new(state), &Budget::depth(depth)).expect("a move");
    let result = match report.value {
        Value::Win(_) => Some(1),
        Value::Loss(_) => Some(-1),
        Value::Draw => Some(0),
        _ => None,
    };
    Run { nodes: report.nodes, time: start.elapsed(), result }
}

/// minimax-rs to `depth`; with `to_end` the depth reaches the end of the game.
fn minimax_search(state: &ConnectFourState, depth: u32, to_end: bool) -> Run {
    let options = minimax::IterativeOptions::new().with_table_byte_size(TABLE_MIB << 20);
    let mut engine = minimax::IterativeSearch::new(Eval, options);
    engine.set_max_depth(depth as u8);
    let start = Instant::now();
    engine.choose_move(state).expect("a move");
    let time = start.elapsed();
    let stats = engine.stats(&mut state.clone());
    let nodes = stats
        .split("Explored ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse::<u64>().ok())
        .expect("minimax-rs reports the nodes it explored");
    // To the end of the game every leaf is terminal, so the sign is the result.
    let result = to_end.then(|| i32::from(engine.root_value().signum()));
    Run { nodes, time, result }
}

/// The median run of three (by nodes).
fn median(mut f: impl FnMut() -> Run) -> Run {
    let mut runs = vec![f(), f(), f()];
    runs.sort_by_key(|r| r.nodes);
    runs.swap_remove(1)
}

fn row(label: &str, position: &str, depth: u32, run: &Run) {
    println!(
        "{label:<16} {position:<32} {depth:>5} {:>12} {:>10.1} ms",
        run.nodes,
        run.time.as_secs_f64() * 1000.0
    );
}

/// A late position: 4 random plies (seeded), then ply's alpha-beta at depth 8 for both sides
/// up to `plies` plies, with its moves as columns; `None` if that game ends sooner.
fn late_position(plies: usize, seed: u64) -> Option<(ConnectFourState, String)> {
    let start = RULES.initial_state();
    let line = ply::arena::random_opening(&*RULES, &start, 4, seed)?;
    let mut state = start;
    let mut text = String::new();
    let mut engine = AlphaBeta::new();
    for k in 0..plies {
        if RULES.outcome(&state).is_some() {
            return None;
        }
        let mv = match line.get(k) {
            Some(&mv) => mv,
            None => {
                let budget = Budget::depth(8);
                engine.choose(&*RULES, Position::new(&state), &budget).ok()?.best_move
            }
        };
        text.push_str(&RULES.format_move(&state, mv));
        RULES.apply(&mut state, mv);
    }
    RULES.outcome(&state).is_none().then_some((state, text))
}

fn main() {
    let no_pvs = AlphaBetaOptions { pvs: false, ..AlphaBetaOptions::default() };
    println!("{:<16} {:<32} {:>5} {:>12} {:>13}", "engine", "position", "depth", "nodes", "time");
    let start = RULES.initial_state();
    row("ply", "start", 14, &median(|| ply_search(&start, 14, &AlphaBetaOptions::default())));
    row("ply (pvs off)", "start", 14, &median(|| ply_search(&start, 14, &no_pvs)));
    row("minimax-rs", "start", 14, &median(|| minimax_search(&start, 14, false)));
    // Late positions (engine play from seeded random openings: the first seeds from 1 whose
    // games last that long), solved to the end.
    let mut seed = 0;
    for plies in [20, 22, 24, 26] {
        let (state, moves) = loop {
            seed += 1;
            if let Some(found) = late_position(plies, seed) {
                break found;
            }
        };
        let empties = 42 - plies as u32;
        let ply = median(|| ply_search(&state, empties, &AlphaBetaOptions::default()));
        let off = median(|| ply_search(&state, empties, &no_pvs));
        let mm = median(|| minimax_search(&state, empties, true));
        row("ply", &moves, empties, &ply);
        row("ply (pvs off)", &moves, empties, &off);
        row("minimax-rs", &moves, empties, &mm);
        assert!(ply.result.is_some(), "{moves}: ply solves the position");
        assert_eq!(ply.result, mm.result, "{moves}: the engines disagree");
    }
}
