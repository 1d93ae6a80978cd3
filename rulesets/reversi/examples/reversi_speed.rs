//! Speed figures for the Reversi ruleset, single thread; run in release:
//!
//! ```text
//! cargo run --release -p ply-reversi --example reversi_speed -- [perft-depth] [empties]
//! ```
//!
//! Prints Othello perft from the start (the crate's bitboard perft and the generic
//! `ply::perft` through `Game`), the exact solve of a position with `empties` empty squares
//! by the library's alpha-beta (margin scores), checked against a bare bitboard solver, and
//! nodes per second of paranoid and max^n search on 9x9 3-player and 10x10 4-player starts.

use std::time::Instant;

use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::multiplayer::{MultiplayerSearch, OpponentModel};
use ply::search::{Agent, Budget, Position};
use ply::{Game, MoveList, Notation, PerftMode};
use ply_reversi::{Reversi, ReversiState};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(11);
    let empties: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let game = Reversi::new(8, 2).expect("8x8");
    let start = game.initial_state();

    let t = Instant::now();
    let leaves = ply_reversi::perft(&game, &start, depth);
    let s = t.elapsed().as_secs_f64();
    println!("perft {depth} (ply_reversi::perft, bitboards, bulk): {leaves} leaves, {s:.3}s, {:.1}M leaves/s", leaves as f64 / s / 1e6);
    let d = depth.min(10);
    let t = Instant::now();
    let leaves = ply::perft(&game, &start, d, PerftMode::Bulk);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft {d} (ply::perft through Game, bulk): {leaves} leaves, {s:.3}s, {:.1}M leaves/s",
        leaves as f64 / s / 1e6
    );

    let position = endgame_position(&game, empties);
    println!("endgame: {} ({} empties)", game.format_state(&position), position.empties());
    let t = Instant::now();
    let expected = solve(&game, &position);
    println!("  bare bitboard solver: margin {expected:+} in {:.3}s", t.elapsed().as_secs_f64());
    let options = AlphaBetaOptions {
        margin_scores: true,
        quiescence: false,
        tt_mb: 64,
        ..AlphaBetaOptions::default()
    };
    let mut engine = AlphaBeta::with_options(options);
    let t = Instant::now();
    let report = engine
        .choose(&game, Position::new(&position), &Budget::depth(empties + 4))
        .expect("a move");
    let s = t.elapsed().as_secs_f64();
    println!(
        "  AlphaBeta (margin scores, depth {}): {} value {} in {s:.3}s, {} nodes, {:.2}M nodes/s",
        empties + 4,
        game.format_move(&position, report.best_move),
        report.value,
        report.nodes,
        report.nodes as f64 / s / 1e6
    );

    for (size, players, depth) in [(9, 3, 7), (10, 4, 9)] {
        let game = Reversi::new(size, players).expect("size");
        let state = game.initial_state();
        for model in [OpponentModel::Paranoid, OpponentModel::MaxN] {
            let mut search = MultiplayerSearch::new(model);
            let t = Instant::now();
            let report =
                search.choose(&game, Position::new(&state), &Budget::depth(depth)).expect("a move");
            let s = t.elapsed().as_secs_f64();
            println!(
                "{model} {size}x{size} {players} players, depth {depth}: {} nodes in {s:.3}s, {:.0}k nodes/s",
                report.nodes,
                report.nodes as f64 / s / 1e3
            );
        }
    }
}

/// The position after a seeded random line from the start that leaves `empties` squares.
fn endgame_position(game: &Reversi, empties: u32) -> ReversiState {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    'retry: loop {
        let mut state = game.initial_state();
        let mut moves = MoveList::new();
        while state.empties() > empties {
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                continue 'retry;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            game.apply(&mut state, moves[(seed % moves.len() as u64) as usize]);
        }
        game.generate_moves(&state, &mut moves);
        if moves.len() > 1 {
            return state;
        }
    }
}

/// Exact disc margin for the player to move, by plain alpha-beta on the position's discs.
fn solve(game: &Reversi, state: &ReversiState) -> i32 {
    let rows = state.rows();
    let (mut p, mut o) = (0u64, 0u64);
    let me = (b'1' + state.to_move().0) as char;
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let bit = 1u64 << (r * 8 + c);
            match ch {
                '.' => {}
                x if x == me => p |= bit,
                _ => o |= bit,
            }
        }
    }
    let _ = game;
    negamax(p, o, -65, 65, false)
}

fn moves_of(p: u64, o: u64) -> u64 {
    let empty = !(p | o);
    let mut moves = 0;
    for (s, mask) in [
        (1, 0x7e7e_7e7e_7e7e_7e7eu64),
        (7, 0x7e7e_7e7e_7e7e_7e7e),
        (9, 0x7e7e_7e7e_7e7e_7e7e),
        (8, !0),
    ] {
        let m = o & mask;
        let mut l = m & (p << s);
        let mut r = m & (p >> s);
        for _ in 0..5 {
            l |= m & (l << s);
            r |= m & (r >> s);
        }
        moves |= (l << s) | (r >> s);
    }
    moves & empty
}

fn flips_of(p: u64, o: u64, sq: u32) -> u64 {
    let mut f = 0;
    for (dr, dc) in [(-1i32, -1i32), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] {
        let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
        let mut line = 0u64;
        while (0..8).contains(&r) && (0..8).contains(&c) && o >> (r * 8 + c) & 1 == 1 {
            line |= 1 << (r * 8 + c);
            r += dr;
            c += dc;
        }
        if (0..8).contains(&r) && (0..8).contains(&c) && p >> (r * 8 + c) & 1 == 1 {
            f |= line;
        }
    }
    f
}

fn negamax(p: u64, o: u64, mut alpha: i32, beta: i32, passed: bool) -> i32 {
    let mut moves = moves_of(p, o);
    if moves == 0 {
        if passed {
            return p.count_ones() as i32 - o.count_ones() as i32;
        }
        return -negamax(o, p, -beta, -alpha, true);
    }
    let mut best = -65;
    while moves != 0 {
        let sq = moves.trailing_zeros();
        moves &= moves - 1;
        let f = flips_of(p, o, sq);
        let v = -negamax(o & !f, p | f | 1 << sq, -beta, -alpha, false);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}
