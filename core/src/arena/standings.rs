//! Standings: totals per agent and per pairing, and the table the arena prints.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use super::elo::EloEstimate;
use super::play::SeatStats;
use crate::game::{Outcome, Player};

/// One agent's totals over a tournament.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentTotals {
    /// Games played (a game where it holds two seats counts once per seat).
    pub games: u64,
    /// Sum of rewards ([`Outcome::reward`]: 1 win, 0.5 draw, 0 loss for two players).
    pub reward: f64,
    /// Sum of ranks (1 is best).
    pub rank: f64,
    /// Moves chosen.
    pub moves: u64,
    /// Thinking time.
    pub time: Duration,
    /// The longest time spent on one move.
    pub max_time: Duration,
    /// Moves answered without a search (a single legal move).
    pub forced: u64,
    /// Moves whose search proved the result ([`SeatStats::solved`]).
    pub solved: u64,
    /// Time spent on the solved moves.
    pub solved_time: Duration,
    /// Nodes searched.
    pub nodes: u64,
    /// Nominal depths of the searched moves, summed.
    pub depth: u64,
}

impl AgentTotals {
    /// Mean reward per game.
    pub fn mean_reward(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.reward / self.games as f64
        }
    }

    /// Mean rank per game.
    pub fn mean_rank(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.rank / self.games as f64
        }
    }

    /// Mean thinking time per searched move: over the moves with a choice (forced moves take
    /// none) whose search did not prove the result (a proof may end it before the budget).
    pub fn time_per_move(&self) -> Duration {
        let searched = self.moves.saturating_sub(self.forced).saturating_sub(self.solved);
        if searched == 0 {
            Duration::ZERO
        } else {
            self.time.saturating_sub(self.solved_time).div_f64(searched as f64)
        }
    }

    /// Mean nominal depth per searched move (as [`AgentTotals::time_per_move`] counts
    /// them); 0 for an engine that reports none.
    pub fn depth_per_move(&self) -> f64 {
        let searched = self.moves.saturating_sub(self.forced).saturating_sub(self.solved);
        if searched == 0 {
            0.0
        } else {
            self.depth as f64 / searched as f64
        }
    }

    /// Mean nodes per move.
    pub fn nodes_per_move(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.nodes as f64 / self.moves as f64
        }
    }
}

/// The record of agent `a` against agent `b` (`a < b`) in two-player games, from `a`'s side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairTotals {
    /// Games `a` won.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Games `a` lost.
    pub losses: u64,
    /// The pentanomial record of the games added as pairs ([`Standings::add_paired`]):
    /// `pentanomial[k]` pairs in which `a` scored `k / 2` points over the opening's two games.
    pub pentanomial: [u64; 5],
}

impl PairTotals {
    /// `a`'s Elo advantage over `b` with its 95% interval: from the pentanomial record when
    /// every game belongs to a completed pair (the paired openings' variance is the honest
    /// one), from wins, draws and losses otherwise.
    pub fn elo(&self) -> Option<EloEstimate> {
        if self.is_paired() {
            EloEstimate::from_pentanomial(self.pentanomial)
        } else {
            EloEstimate::new(self.wins, self.draws, self.losses)
        }
    }

    /// True when there is at least one game and every game belongs to a completed pair.
    pub fn is_paired(&self) -> bool {
        let pairs: u64 = self.pentanomial.iter().sum();
        pairs > 0 && 2 * pairs == self.games()
    }

    /// The record seen from the other agent's side.
    pub fn reversed(&self) -> PairTotals {
        let mut pentanomial = self.pentanomial;
        pentanomial.reverse();
        PairTotals { wins: self.losses, draws: self.draws, losses: self.wins, pentanomial }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// Totals of a tournament, added one game at a time.
///
/// ```
/// use ply::arena::{Standings, SeatStats};
/// use ply::{Outcome, Player};
///
/// let mut s = Standings::new(vec!["a".into(), "b".into()]);
/// s.add(&[0, 1], &Outcome::Winner(Player::new(0)), &[SeatStats::default(); 2]);
/// s.add(&[1, 0], &Outcome::Draw, &[SeatStats::default(); 2]);
/// let pair = s.pair(0, 1).unwrap();
/// assert_eq!((pair.wins, pair.draws, pair.losses), (1, 1, 0));
/// assert_eq!(s.agent(0).mean_reward(), 0.75);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    names: Vec<String>,
    agents: Vec<AgentTotals>,
    pairs: BTreeMap<(usize, usize), PairTotals>,
    /// The first game of a pair whose second game has not been added: `a`'s score, by the
    /// agents `(a, b)` and the opening.
    half_pairs: BTreeMap<((usize, usize), u64), f64>,
    players: usize,
}

impl Standings {
    /// Empty standings for agents with these names.
    pub fn new(names: Vec<String>) -> Self {
        let agents = vec![AgentTotals::default(); names.len()];
        Standings { names, agents, pairs: BTreeMap::new(), half_pairs: BTreeMap::new(), players: 0 }
    }

    /// Adds a finished game: `seats[s]` is the agent in seat `s`, `stats[s]` what it spent.
    ///
    /// # Panics
    /// If an agent index is out of range or `stats` is shorter than `seats`.
    pub fn add(&mut self, seats: &[usize], outcome: &Outcome, stats: &[SeatStats]) {
        let n = seats.len();
        self.players = self.players.max(n);
        for (s, &a) in seats.iter().enumerate() {
            let t = &mut self.agents[a];
            let p = Player::new(s);
            t.games += 1;
            t.reward += outcome.reward(p, n);
            t.rank += outcome.rank(p, n);
            t.moves += u64::from(stats[s].moves);
            t.time += stats[s].time;
            t.max_time = t.max_time.max(stats[s].max_time);
            t.forced += u64::from(stats[s].forced);
            t.solved += u64::from(stats[s].solved);
            t.solved_time += stats[s].solved_time;
            t.nodes += stats[s].nodes;
            t.depth += stats[s].depth;
        }
        if n == 2 && seats[0] != seats[1] {
            let (a, b) = (seats[0].min(seats[1]), seats[0].max(seats[1]));
            let seat_of_a = if seats[0] == a { 0 } else { 1 };
            let r = outcome.reward(Player::new(seat_of_a), 2);
            let pair = self.pairs.entry((a, b)).or_default();
            if r > 0.5 {
                pair.wins += 1;
            } else if r < 0.5 {
                pair.losses += 1;
            } else {
                pair.draws += 1;
            }
        }
    }

    /// [`Standings::add`] for a game of a paired schedule: two-player games with the same
    /// `opening` and the same two agents in swapped seats form a pair, whose total score goes
    /// into the pairing's pentanomial record once both are added (in either order).
    ///
    /// ```
    /// use ply::arena::{SeatStats, Standings};
    /// use ply::{Outcome, Player};
    ///
    /// let mut s = Standings::new(vec!["a".into(), "b".into()]);
    /// let st = [SeatStats::default(); 2];
    /// s.add_paired(&[0, 1], &Outcome::Winner(Player::new(0)), &st, 7);
    /// s.add_paired(&[1, 0], &Outcome::Draw, &st, 7);
    /// assert_eq!(s.pair(0, 1).unwrap().pentanomial, [0, 0, 0, 1, 0]); // 1.5 points of 2
    /// ```
    ///
    /// # Panics
    /// As [`Standings::add`].
    pub fn add_paired(
        &mut self,
        seats: &[usize],
        outcome: &Outcome,
        stats: &[SeatStats],
        opening: u64,
    ) {
        self.add(seats, outcome, stats);
        if seats.len() != 2 || seats[0] == seats[1] {
            return;
        }
        let (a, b) = (seats[0].min(seats[1]), seats[0].max(seats[1]));
        let seat_of_a = if seats[0] == a { 0 } else { 1 };
        let score = outcome.reward(Player::new(seat_of_a), 2);
        match self.half_pairs.remove(&((a, b), opening)) {
            Some(first) => {
                let k = ((first + score) * 2.0).round().clamp(0.0, 4.0) as usize;
                self.pairs.entry((a, b)).or_default().pentanomial[k] += 1;
            }
            None => {
                self.half_pairs.insert(((a, b), opening), score);
            }
        }
    }

    /// The agents' names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Agent `a`'s totals.
    pub fn agent(&self, a: usize) -> &AgentTotals {
        &self.agents[a]
    }

    /// The record of `a` against `b` (from `a`'s side), if they met in two-player games.
    pub fn pair(&self, a: usize, b: usize) -> Option<PairTotals> {
        if a <= b {
            self.pairs.get(&(a, b)).copied()
        } else {
            self.pairs.get(&(b, a)).map(PairTotals::reversed)
        }
    }

    /// Every pairing that played, `(a, b, record from a's side)`.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize, PairTotals)> + '_ {
        self.pairs.iter().map(|(&(a, b), &p)| (a, b, p))
    }

    /// Total games added (counting each game once).
    pub fn games(&self) -> u64 {
        let seats: u64 = self.agents.iter().map(|a| a.games).sum();
        seats.checked_div(self.players as u64).unwrap_or(0)
    }

    /// The standings as a text table: per pairing W/D/L, score and Elo ±95% (two-player
    /// games), then per agent mean score, mean rank, time and nodes per move.
    pub fn table(&self) -> String {
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(5).max(5);
        let mut out = String::new();
        if !self.pairs.is_empty() {
            let _ = writeln!(
                out,
                "{:<width$}  {:<width$}  {:>5} {:>5} {:>5}  {:>6}  {:>20}  pairs 0-.5-1-1.5-2",
                "agent", "opponent", "W", "D", "L", "score", "Elo (95% CI)"
            );
            for (a, b, p) in self.pairs() {
                let elo = p.elo().map_or_else(String::new, |e| {
                    format!("{:+.0} [{:+.0}, {:+.0}]", e.elo, e.low, e.high)
                });
                let score = p.elo().map_or(0.0, |e| e.score * 100.0);
                let pairs = if p.pentanomial.iter().sum::<u64>() > 0 {
                    p.pentanomial.map(|c| c.to_string()).join("-")
                } else {
                    "-".to_string()
                };
                let _ = writeln!(
                    out,
                    "{:<width$}  {:<width$}  {:>5} {:>5} {:>5}  {:>5.1}%  {:>20}  {pairs}",
                    self.names[a], self.names[b], p.wins, p.draws, p.losses, score, elo
                );
            }
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {:>10}  {:>9}  {:>12}  {:>12}  {:>7}  {:>14}  {:>6}",
            "agent",
            "games",
            "mean score",
            "mean rank",
            "time/move",
            "max time",
            "solved",
            "nodes/move",
            "depth"
        );
        for (name, t) in self.names.iter().zip(&self.agents) {
            let _ = writeln!(
                out,
                "{:<width$}  {:>6}  {:>10.3}  {:>9.2}  {:>10.1}ms  {:>10.1}ms  {:>7}  {:>14.0}  {:>6.1}",
                name,
                t.games,
                t.mean_reward(),
                t.mean_rank(),
                t.time_per_move().as_secs_f64() * 1000.0,
                t.max_time.as_secs_f64() * 1000.0,
                t.solved,
                t.nodes_per_move(),
                t.depth_per_move()
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_records_follow_seats() {
        let mut s = Standings::new(vec!["x".into(), "y".into(), "z".into()]);
        let st = [SeatStats::default(); 2];
        s.add(&[2, 0], &Outcome::Winner(Player::new(0)), &st); // z beats x
        s.add(&[0, 2], &Outcome::Winner(Player::new(0)), &st); // x beats z
        s.add(&[0, 2], &Outcome::Winner(Player::new(1)), &st); // z beats x
        let xz = s.pair(0, 2).unwrap();
        assert_eq!((xz.wins, xz.draws, xz.losses), (1, 0, 2));
        let zx = s.pair(2, 0).unwrap();
        assert_eq!((zx.wins, zx.losses), (2, 1));
        assert_eq!(s.games(), 3);
        assert!(s.pair(0, 1).is_none());
        assert!(s.table().contains("x"));
    }

    #[test]
    fn pairs_give_a_pentanomial_record_in_either_order() {
        let mut s = Standings::new(vec!["x".into(), "y".into()]);
        let st = [SeatStats::default(); 2];
        let win = |p| Outcome::Winner(Player::new(p));
        // Opening 1: x wins both; opening 2: x wins once, loses once; opening 3 is half played.
        s.add_paired(&[0, 1], &win(0), &st, 1);
        s.add_paired(&[1, 0], &win(1), &st, 1);
        s.add_paired(&[1, 0], &win(0), &st, 2);
        s.add_paired(&[0, 1], &win(0), &st, 2);
        let p = s.pair(0, 1).unwrap();
        assert_eq!(p.pentanomial, [0, 0, 1, 0, 1]);
        assert!(p.is_paired());
        assert_eq!(s.pair(1, 0).unwrap().pentanomial, [1, 0, 1, 0, 0]);
        s.add_paired(&[0, 1], &Outcome::Draw, &st, 3);
        assert!(!s.pair(0, 1).unwrap().is_paired(), "an odd game uses the game record");
        assert!(s.table().contains("0-0-1-0-1"), "{}", s.table());
    }

    #[test]
    fn multiplayer_ranks() {
        let mut s = Standings::new(vec!["a".into(), "b".into(), "c".into()]);
        let st = [SeatStats::default(); 3];
        s.add(&[0, 1, 2], &Outcome::from_scores(&[30, 20, 10]), &st);
        s.add(&[1, 2, 0], &Outcome::from_scores(&[10, 20, 30]), &st);
        assert_eq!(s.agent(0).mean_rank(), 1.0);
        assert_eq!(s.agent(1).mean_rank(), 2.5);
        assert_eq!(s.agent(0).mean_reward(), 1.0);
        assert_eq!(s.pairs().count(), 0);
    }
}
