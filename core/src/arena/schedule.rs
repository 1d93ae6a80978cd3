//! Fair schedules: which agent sits in which seat of which game.

/// One game of a tournament: its index, the opening it starts from and the agent in each
/// seat (indices into the tournament's agent list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// Position of this game in the schedule; with the tournament seed it makes the game
    /// reproducible.
    pub index: usize,
    /// Which opening the game starts from (games that share it differ only in seats).
    pub opening: usize,
    /// `seats[s]` is the agent playing seat `s`.
    pub seats: Vec<usize>,
}

/// The games of a tournament between `agents` agents on a game of `players` seats, over
/// `openings` openings. Fair by construction: every opening is played with the seats rotated
/// through every position, so each agent meets each opening from each side.
///
/// - Two players: every pair of agents, each opening twice with colours swapped.
/// - N players, at most N agents: the agents fill the seats in turn (agent `s % agents` in
///   seat `s`) and each opening is played in all N rotations of that table.
/// - N players, more than N agents: every group of N agents forms a table, played in all N
///   rotations for each opening.
///
/// ```
/// use ply::arena::schedule;
/// let games = schedule(3, 2, 4);
/// assert_eq!(games.len(), 3 * 4 * 2); // 3 pairs, 4 openings, 2 colours
/// assert_eq!(games[0].seats, vec![0, 1]);
/// assert_eq!(games[1].seats, vec![1, 0]);
/// ```
pub fn schedule(agents: usize, players: usize, openings: usize) -> Vec<Fixture> {
    let tables: Vec<Vec<usize>> = if agents <= players {
        vec![(0..players).map(|s| s % agents.max(1)).collect()]
    } else {
        combinations(agents, players)
    };
    let mut fixtures = Vec::new();
    for table in &tables {
        for opening in 0..openings {
            for rotation in 0..players {
                let seats = (0..players).map(|s| table[(s + rotation) % players]).collect();
                fixtures.push(Fixture { index: fixtures.len(), opening, seats });
            }
        }
    }
    fixtures
}

/// Every `k`-element subset of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn rec(start: usize, n: usize, k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            current.push(i);
            rec(i + 1, n, k, current, out);
            current.pop();
        }
    }
    rec(0, n, k, &mut current, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_plays_every_seat_equally() {
        for (agents, players) in [(2, 2), (4, 2), (3, 3), (2, 4), (5, 3)] {
            let games = schedule(agents, players, 3);
            let mut seat_counts = vec![vec![0usize; players]; agents];
            for g in &games {
                for (seat, &a) in g.seats.iter().enumerate() {
                    seat_counts[a][seat] += 1;
                }
            }
            for counts in &seat_counts {
                assert!(counts.iter().all(|&c| c == counts[0]), "{agents}/{players}: {counts:?}");
            }
            assert!(games.iter().enumerate().all(|(i, g)| g.index == i));
        }
    }

    #[test]
    fn round_robin_pairs() {
        let games = schedule(4, 2, 1);
        assert_eq!(games.len(), 12);
        assert!(games.iter().all(|g| g.seats[0] != g.seats[1]));
    }
}
