//! Engine measurements for international draughts, in release mode:
//!
//! - `draughts_engine search [secs]`: alpha-beta from the start for a fixed time (default 1 s),
//!   one line per completed iteration: the depth reached and the nodes per second.
//! - `draughts_engine match [pairs] [depth]`: the full evaluation against material only, at
//!   the same fixed depth, over pairs of games from seeded random two-ply openings with
//!   colours swapped; prints wins, draws and losses of the full evaluation.

use std::process::ExitCode;
use std::time::Duration;

use ply::search::alphabeta::AlphaBeta;
use ply::search::{Agent, Budget, Position};
use ply::{Game, MoveList, Outcome, Player};
use ply_draughts::{DraughtsState, InternationalDraughts, Move};

/// The same rules with an evaluation that counts material only (man 100, king 300).
#[derive(Clone, Copy)]
struct MaterialOnly(InternationalDraughts);

impl Game for MaterialOnly {
    type State = DraughtsState;
    type Move = Move;
    type Score = i32;
    fn initial_state(&self) -> DraughtsState {
        self.0.initial_state()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn to_move(&self, s: &DraughtsState) -> Player {
        self.0.to_move(s)
    }
    fn generate_moves(&self, s: &DraughtsState, moves: &mut MoveList<Move>) {
        self.0.generate_moves(s, moves)
    }
    fn apply(&self, s: &mut DraughtsState, mv: Move) {
        self.0.apply(s, mv)
    }
    fn outcome(&self, s: &DraughtsState) -> Option<Outcome> {
        self.0.outcome(s)
    }
    fn evaluate(&self, s: &DraughtsState, player: Player) -> i32 {
        let [wm, wk, bm, bk] = s.piece_counts().map(|n| n as i32);
        let white = 100 * (wm - bm) + 300 * (wk - bk);
        if player == Player::FIRST {
            white
        } else {
            -white
        }
    }
    fn hash(&self, s: &DraughtsState) -> Option<u64> {
        self.0.hash(s)
    }
    fn is_quiet(&self, s: &DraughtsState) -> bool {
        self.0.is_quiet(s)
    }
    fn repetition_limit(&self) -> Option<u32> {
        self.0.repetition_limit()
    }
}

fn search(secs: f64) {
    let game = InternationalDraughts::new();
    let start = game.initial_state();
    let mut agent = AlphaBeta::new().with_tt_mb(64).with_info(Box::new(|info| {
        println!(
            "depth {:2}  seldepth {:2}  value {}  nodes {:>10}  time {:.3}s  {:.2} M nodes/s",
            info.depth,
            info.seldepth,
            info.value,
            info.nodes,
            info.elapsed.as_secs_f64(),
            info.nps() / 1e6
        );
    }));
    let budget = Budget::time(Duration::from_secs_f64(secs));
    match agent.choose(&game, Position::new(&start), &budget) {
        Ok(r) => println!(
            "best {:?}  depth {}  nodes {}  {:.2} M nodes/s in {:.3}s",
            r.best_move,
            r.depth,
            r.nodes,
            r.nps() / 1e6,
            r.elapsed.as_secs_f64()
        ),
        Err(e) => eprintln!("error: {e}"),
    }
}

/// Plays one game; returns the outcome for the full evaluation (1 win, 0 draw, -1 loss).
fn play(opening: &[Move], full_is_white: bool, depth: u32) -> i32 {
    let full = InternationalDraughts::new();
    let material = MaterialOnly(full);
    let mut a = AlphaBeta::new().with_tt_mb(16);
    let mut b = AlphaBeta::new().with_tt_mb(16);
    let mut state = full.initial_state();
    let mut hashes = vec![full.hash(&state).unwrap_or(0)];
    for &mv in opening {
        full.apply(&mut state, mv);
        hashes.push(full.hash(&state).unwrap_or(0));
    }
    let budget = Budget::depth(depth);
    loop {
        if let Some(outcome) = full.outcome(&state) {
            return match outcome {
                Outcome::Winner(w) => {
                    if (w == Player::FIRST) == full_is_white {
                        1
                    } else {
                        -1
                    }
                }
                _ => 0,
            };
        }
        let h = *hashes.last().unwrap_or(&0);
        if hashes.iter().filter(|&&x| x == h).count() >= 3 {
            return 0;
        }
        let full_to_move = state.white_to_move() == full_is_white;
        let position = Position::with_history(&state, &hashes);
        let report = if full_to_move {
            a.choose(&full, position, &budget)
        } else {
            b.choose(&material, position, &budget)
        };
        let Ok(report) = report else { return 0 };
        full.apply(&mut state, report.best_move);
        hashes.push(full.hash(&state).unwrap_or(0));
    }
}

fn run_match(pairs: u32, depth: u32) {
    let game = InternationalDraughts::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut list = MoveList::new();
    for i in 0..pairs {
        let mut state = game.initial_state();
        let mut opening = Vec::new();
        for _ in 0..2 {
            game.generate_moves(&state, &mut list);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = list[(seed % list.len() as u64) as usize];
            game.apply(&mut state, mv);
            opening.push(mv);
        }
        for full_is_white in [true, false] {
            match play(&opening, full_is_white, depth) {
                1 => wins += 1,
                0 => draws += 1,
                _ => losses += 1,
            }
        }
        println!("after {} pairs: full evaluation +{wins} ={draws} -{losses}", i + 1);
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: f64| -> Option<f64> {
        args.get(i).map_or(Some(default), |a| a.parse::<f64>().ok())
    };
    match args.first().map(String::as_str) {
        Some("search") => match num(1, 1.0) {
            Some(secs) if secs > 0.0 => search(secs),
            _ => {
                eprintln!("error: search takes a time in seconds");
                return ExitCode::FAILURE;
            }
        },
        Some("match") => match (num(1, 10.0), num(2, 6.0)) {
            (Some(p), Some(d)) if p >= 1.0 && d >= 1.0 => run_match(p as u32, d as u32),
            _ => {
                eprintln!("error: match takes a number of game pairs and a depth");
                return ExitCode::FAILURE;
            }
        },
        _ => {
            eprintln!("usage: draughts_engine search [secs] | match [pairs] [depth]");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
