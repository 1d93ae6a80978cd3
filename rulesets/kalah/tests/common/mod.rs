//! What several test files share, written from the rules and not from the crate's code: a
//! plain-array Kalah board (the reference rules) and a memoised exact solver.

#![allow(dead_code)]

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use ply::{Game, MoveList, Outcome, Player};
use ply_kalah::{Capture, Kalah, KalahState};

/// A Kalah board as one ring of `2m + 2` pits in sowing order: South's houses `0..m`
/// (house 1 first), South's store `m`, North's houses `m + 1..=2m` (house 1 first), North's
/// store `2m + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub m: usize,
    pub capture: Capture,
    pub pits: Vec<u32>,
    pub south_to_move: bool,
}

impl Board {
    pub fn new(m: usize, n: u32, capture: Capture) -> Board {
        let mut pits = vec![n; 2 * m + 2];
        pits[m] = 0;
        pits[2 * m + 1] = 0;
        Board { m, capture, pits, south_to_move: true }
    }

    fn store(&self, south: bool) -> usize {
        if south {
            self.m
        } else {
            2 * self.m + 1
        }
    }

    /// The ring index of house `number` (1-based) of a side.
    fn house(&self, south: bool, number: usize) -> usize {
        if south {
            number - 1
        } else {
            self.m + number
        }
    }

    fn side_total(&self, south: bool) -> u32 {
        (1..=self.m).map(|h| self.pits[self.house(south, h)]).sum()
    }

    pub fn over(&self) -> bool {
        self.side_total(true) == 0 || self.side_total(false) == 0
    }

    /// The legal moves: the non-empty house numbers of the side to move, 1 to m.
    pub fn moves(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        (1..=self.m).filter(|&h| self.pits[self.house(self.south_to_move, h)] > 0).collect()
    }

    /// Sows house `number` of the side to move one seed at a time.
    pub fn play(&mut self, number: usize) {
        let me = self.south_to_move;
        let len = self.pits.len();
        let mut at = self.house(me, number);
        let mut seeds = std::mem::take(&mut self.pits[at]);
        while seeds > 0 {
            at = (at + 1) % len;
            if at == self.store(!me) {
                continue;
            }
            self.pits[at] += 1;
            seeds -= 1;
        }
        if at != self.store(me) {
            let own = if me { at < self.m } else { at > self.m && at < 2 * self.m + 1 };
            if own && self.pits[at] == 1 {
                let opposite = 2 * self.m - at;
                let take = match self.capture {
                    Capture::Standard => self.pits[opposite] > 0,
                    Capture::Empty => true,
                    Capture::None => false,
                };
                if take {
                    let store = self.store(me);
                    self.pits[store] += 1 + self.pits[opposite];
                    self.pits[at] = 0;
                    self.pits[opposite] = 0;
                }
            }
            self.south_to_move = !me;
        }
        if self.over() {
            for south in [true, false] {
                let store = self.store(south);
                for h in 1..=self.m {
                    let i = self.house(south, h);
                    self.pits[store] += std::mem::take(&mut self.pits[i]);
                }
            }
        }
    }

    /// The position in the crate's notation, written here from the ring.
    pub fn text(&self) -> String {
        let side = |south: bool| {
            let houses: Vec<String> =
                (1..=self.m).map(|h| self.pits[self.house(south, h)].to_string()).collect();
            format!("{}/{}", houses.join(","), self.pits[self.store(south)])
        };
        let turn = if self.south_to_move { 's' } else { 'n' };
        format!("{}/{} {turn}", side(true), side(false))
    }

    /// Perft: the move sequences of `depth` plies (a game that ends earlier counts nothing).
    pub fn perft(&self, depth: u32) -> u64 {
        let moves = self.moves();
        if depth == 0 {
            return 1;
        }
        moves
            .iter()
            .map(|&h| {
                let mut next = self.clone();
                next.play(h);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// A fast hasher for the solver's keys (one multiply per word), instead of SipHash.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_u128(&mut self, word: u128) {
        self.write_u64(word as u64);
        self.write_u64((word >> 64) as u64);
    }
}

/// Exact values by memoised minimax that follows the mover: South maximises and North
/// minimises the final store difference (South's minus North's), whoever moved last. The
/// memo is keyed by the houses and the side to move alone, since what the stores gain from
/// here on does not depend on what they already hold.
pub struct Solver<'a> {
    pub game: &'a Kalah,
    memo: HashMap<u128, i32, BuildHasherDefault<KeyHasher>>,
}

impl<'a> Solver<'a> {
    pub fn new(game: &'a Kalah) -> Self {
        Solver { game, memo: HashMap::default() }
    }

    /// Positions remembered so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    fn diff(state: &KalahState) -> i32 {
        i32::from(state.store(Player::FIRST)) - i32::from(state.store(Player::SECOND))
    }

    /// The houses, a byte each, and the side to move in the top bit (at most 7 houses a side).
    fn key(&self, state: &KalahState) -> u128 {
        assert!(self.game.pits() <= 7, "the solver's key holds 7 houses a side");
        let mut key = u128::from(state.side_to_move() == Player::FIRST) << 127;
        for p in [Player::FIRST, Player::SECOND] {
            for h in 1..=self.game.pits() {
                key |= u128::from(state.house(p, h)) << (8 * (p.index() * 7 + h - 1));
            }
        }
        key
    }

    /// What South's store difference still gains from `state` under perfect play.
    fn gain(&mut self, state: &KalahState) -> i32 {
        if let Some(o) = self.game.outcome(state) {
            let Outcome::Scores(s) = o else { panic!("Kalah ends with scores") };
            return s[0] - s[1] - Solver::diff(state);
        }
        let key = self.key(state);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut moves = MoveList::new();
        self.game.generate_moves(state, &mut moves);
        let south = state.side_to_move() == Player::FIRST;
        let mut best = if south { i32::MIN } else { i32::MAX };
        for &mv in &moves {
            let mut child = *state;
            self.game.apply(&mut child, mv);
            let v = Solver::diff(&child) - Solver::diff(state) + self.gain(&child);
            best = if south { best.max(v) } else { best.min(v) };
        }
        self.memo.insert(key, best);
        best
    }

    /// The final store difference, South's minus North's, under perfect play.
    pub fn south_margin(&mut self, state: &KalahState) -> i32 {
        Solver::diff(state) + self.gain(state)
    }

    /// The final margin for the player to move.
    pub fn margin(&mut self, state: &KalahState) -> i32 {
        let v = self.south_margin(state);
        if state.side_to_move() == Player::FIRST {
            v
        } else {
            -v
        }
    }

    /// The value of each legal move for the player to move, in generation order.
    pub fn move_values(&mut self, state: &KalahState) -> Vec<(ply_kalah::Move, i32)> {
        let mut moves = MoveList::new();
        self.game.generate_moves(state, &mut moves);
        let mover = state.side_to_move();
        moves
            .iter()
            .map(|&mv| {
                let mut child = *state;
                self.game.apply(&mut child, mv);
                let v = self.south_margin(&child);
                (mv, if mover == Player::FIRST { v } else { -v })
            })
            .collect()
    }
}
