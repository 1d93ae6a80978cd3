//! Engine measurements for English checkers, in release mode:
//!
//! ```text
//! cargo run --release -p ply-checkers --example checkers_match -- search [ms]
//! cargo run --release -p ply-checkers --example checkers_match -- weights [openings] [depth]
//! cargo run --release -p ply-checkers --example checkers_match -- agents [openings] [ms]
//! ```
//!
//! - `search`: alpha-beta from the start position for a fixed time: depth reached, nodes and
//!   nodes per second.
//! - `weights`: the default evaluation against variants, at a fixed depth, each opening (two
//!   random plies from the start) played once with each colour.
//! - `agents`: a round robin of alpha-beta, MCTS, greedy and random at a fixed time per move.

use std::time::{Duration, Instant};

use ply::arena::{play_game, random_opening, Seat};
use ply::search::alphabeta::AlphaBeta;
use ply::search::baseline::{Greedy, RandomAgent};
use ply::search::mcts::Mcts;
use ply::search::{Agent, Budget, Position, SearchError, SearchReport};
use ply::{Game, Outcome, Player};
use ply_checkers::{CheckersState, EnglishCheckers, Move, Rules, Weights};

/// Alpha-beta that evaluates with its own weights, whatever game object it is handed.
struct Weighted {
    game: EnglishCheckers,
    engine: AlphaBeta,
}

impl Agent<EnglishCheckers> for Weighted {
    fn name(&self) -> String {
        format!("alphabeta{:?}", self.game.weights())
    }

    fn choose(
        &mut self,
        _game: &EnglishCheckers,
        position: Position<'_, CheckersState>,
        budget: &Budget,
    ) -> Result<SearchReport<Move>, SearchError> {
        self.engine.choose(&self.game, position, budget)
    }

    fn new_game(&mut self) {
        Agent::<EnglishCheckers>::new_game(&mut self.engine);
    }
}

/// Score of `a` against `b` (wins, draws, losses) over `openings` openings, both colours.
fn duel(
    game: &EnglishCheckers,
    openings: usize,
    mut make: impl FnMut(usize) -> (Seat<EnglishCheckers>, Seat<EnglishCheckers>),
) -> (u32, u32, u32) {
    let start = game.initial_state();
    let (mut w, mut d, mut l) = (0, 0, 0);
    for i in 0..openings {
        let line = random_opening(game, &start, 2, i as u64).expect("openings exist");
        let mut s = start;
        for &m in &line {
            game.apply(&mut s, m);
        }
        for a_first in [true, false] {
            let (a, b) = make(i);
            let mut seats = if a_first { vec![a, b] } else { vec![b, a] };
            let played = play_game(game, &s, &mut seats, 400).expect("legal play");
            let a_seat = Player::new(if a_first { 0 } else { 1 });
            match played.outcome {
                Outcome::Winner(p) if p == a_seat => w += 1,
                Outcome::Winner(_) => l += 1,
                _ => d += 1,
            }
        }
    }
    (w, d, l)
}

fn search(ms: u64) {
    let game = EnglishCheckers::new(8, Rules::Deepomatic).expect("8x8");
    let start = game.initial_state();
    let mut engine = AlphaBeta::new();
    let t = Instant::now();
    let report = engine
        .choose(&game, Position::new(&start), &Budget::time(Duration::from_millis(ms)))
        .expect("the start has moves");
    let wall = t.elapsed().as_secs_f64();
    println!(
        "alpha-beta {ms} ms from the start: depth {} (seldepth {}), {} nodes in {:.3}s, {:.2}M nodes/s, best {} value {}",
        report.depth,
        report.seldepth,
        report.nodes,
        wall,
        report.nodes as f64 / wall / 1e6,
        report.best_move,
        report.value
    );
}

fn weights(openings: usize, depth: u32) {
    let game = EnglishCheckers::new(8, Rules::Deepomatic).expect("8x8");
    let base = Weights::default();
    let variants = [
        ("material only", Weights::material_only()),
        (
            "first guess",
            Weights {
                man: 100,
                king: 150,
                advance: 2,
                back_row: 6,
                centre: 4,
                mobility: 1,
                trade: 8,
            },
        ),
        (
            "second round",
            Weights {
                man: 100,
                king: 150,
                advance: 1,
                back_row: 12,
                centre: 4,
                mobility: 3,
                trade: 8,
            },
        ),
        ("no mobility", Weights { mobility: 0, ..base }),
        ("advance 1", Weights { advance: 1, ..base }),
        ("back row 12", Weights { back_row: 12, ..base }),
        ("king 140", Weights { king: 140, ..base }),
        ("centre 8", Weights { centre: 8, ..base }),
    ];
    println!("default {base:?} against each variant, depth {depth}, {openings} openings x 2");
    for (name, w) in variants {
        let budget = Budget::depth(depth);
        let seat = |weights: Weights| {
            let agent = Weighted {
                game: game.clone().with_weights(weights),
                engine: AlphaBeta::new().with_tt_mb(8),
            };
            Seat::new(Box::new(agent), budget.clone())
        };
        let (wins, draws, losses) = duel(&game, openings, |_| (seat(base), seat(w)));
        let score = (wins as f64 + draws as f64 / 2.0) / (wins + draws + losses) as f64;
        println!("default vs {name:<14} +{wins} ={draws} -{losses}  default scores {score:.3}");
    }
}

fn agents(openings: usize, ms: u64) {
    let game = EnglishCheckers::new(8, Rules::Deepomatic).expect("8x8");
    let names = ["alphabeta", "mcts", "greedy", "random"];
    let budget = Budget::time(Duration::from_millis(ms));
    let make = |k: usize, seed: u64| -> Box<dyn Agent<EnglishCheckers> + Send> {
        match k {
            0 => Box::new(AlphaBeta::new().with_tt_mb(16)),
            1 => Box::new(Mcts::new().with_seed(seed)),
            2 => Box::new(Greedy::with_seed(seed)),
            _ => Box::new(RandomAgent::new(seed)),
        }
    };
    println!("round robin, {ms} ms a move, {openings} openings x 2 colours");
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            let (w, d, l) = duel(&game, openings, |i| {
                (
                    Seat::new(make(a, i as u64), budget.clone()),
                    Seat::new(make(b, 1000 + i as u64), budget.clone()),
                )
            });
            println!("{:>9} vs {:<9} +{w} ={d} -{l}", names[a], names[b]);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: u64| -> u64 {
        args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default)
    };
    match args.first().map(String::as_str) {
        Some("search") => search(num(1, 1000)),
        Some("weights") => weights(num(1, 10) as usize, num(2, 6) as u32),
        Some("agents") => agents(num(1, 2) as usize, num(2, 100)),
        _ => {
            eprintln!("usage: checkers_match search [ms] | weights [openings] [depth] | agents [openings] [ms]");
            std::process::exit(2);
        }
    }
}
