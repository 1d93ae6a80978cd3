//! Measures the standard evaluation against the disc-count baseline: the same search plays
//! both, from seeded random openings, every seat rotation.
//!
//! ```text
//! cargo run --release -p ply-reversi --example reversi_eval -- [games]
//! ```

use ply::search::alphabeta::AlphaBeta;
use ply::search::multiplayer::{MultiplayerSearch, OpponentModel};
use ply::search::{Agent, Budget, Position};
use ply::{Game, MoveList, Outcome, Player};
use ply_reversi::{Evaluation, Reversi, ReversiState};

/// A seeded random opening of `plies` moves.
fn opening(game: &Reversi, plies: usize, seed: u64) -> ReversiState {
    let mut state = game.initial_state();
    let mut moves = MoveList::new();
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for _ in 0..plies {
        game.generate_moves(&state, &mut moves);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        game.apply(&mut state, moves[(x % moves.len() as u64) as usize]);
    }
    state
}

/// Plays one game from `start`; seat `s` searches with `games[s]`'s evaluation.
fn play(
    games: &[Reversi],
    agents: &mut [Box<dyn Agent<Reversi>>],
    start: ReversiState,
    budget: &Budget,
) -> Outcome {
    let rules = &games[0];
    let mut state = start;
    loop {
        if let Some(outcome) = rules.outcome(&state) {
            return outcome;
        }
        let seat = rules.to_move(&state).index();
        let report =
            agents[seat].choose(&games[seat], Position::new(&state), budget).expect("a legal move");
        rules.apply(&mut state, report.best_move);
    }
}

fn main() {
    let games_per_setting: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(8);
    for (size, players, depth) in [(8usize, 2usize, 4u32), (9, 3, 2), (10, 4, 2)] {
        let standard = Reversi::new(size, players).expect("size");
        let discs = standard.clone().with_evaluation(Evaluation::Discs);
        let (mut rank_sum, mut share_sum, mut n) = (0.0, 0.0, 0.0);
        let (mut wins, mut draws) = (0, 0);
        for g in 0..games_per_setting {
            // The standard evaluation takes seat `g % players`; the others count discs.
            let seat = (g as usize) % players;
            let games: Vec<Reversi> = (0..players)
                .map(|s| if s == seat { standard.clone() } else { discs.clone() })
                .collect();
            let mut agents: Vec<Box<dyn Agent<Reversi>>> = (0..players)
                .map(|_| -> Box<dyn Agent<Reversi>> {
                    if players == 2 {
                        Box::new(AlphaBeta::new())
                    } else {
                        Box::new(MultiplayerSearch::new(OpponentModel::Paranoid))
                    }
                })
                .collect();
            let start = opening(&standard, 4, g / players as u64 + 1);
            let outcome = play(&games, &mut agents, start, &Budget::depth(depth));
            let rank = outcome.rank(Player::new(seat), players);
            if let Outcome::Scores(s) = &outcome {
                let total: i32 = s.iter().sum();
                share_sum += f64::from(s[seat]) / f64::from(total);
            }
            if rank == 1.0 {
                wins += 1;
            } else if rank < 1.0 + (players as f64 - 1.0) / 2.0
                && outcome.margin(Player::new(seat)) == 0
            {
                draws += 1;
            }
            rank_sum += rank;
            n += 1.0;
        }
        println!(
            "{size}x{size} {players} players, depth {depth}, {n} games: standard evaluation won {wins} (drew {draws}), mean rank {:.2} (even: {:.2}), mean disc share {:.3} (even: {:.3})",
            rank_sum / n,
            (1.0 + players as f64) / 2.0,
            share_sum / n,
            1.0 / players as f64
        );
    }
}
