//! The seed's generator of opponent strategies: a genetic algorithm over weight-greedy
//! strategies.

use std::ops::RangeInclusive;

use rand::seq::index::sample;
use rand::Rng;

use super::strategy::{disc_counts, play_out, Strategy};
use crate::Reversi;

/// The generator's settings. [`GeneticConfig::default`] is the seed's process.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneticConfig {
    /// Strategies per generation (the seed: 100).
    pub population: usize,
    /// Generations bred after the first, drawn uniformly from this range (the seed: "50 to
    /// 100").
    pub generations: RangeInclusive<u32>,
    /// Simulated games per generation, each between distinct strategies drawn uniformly.
    /// The seed says "several"; 40 lets every strategy play about once or twice.
    pub games_per_generation: usize,
    /// Initial weights are uniform in `[-initial_weight, initial_weight]` (the seed: 50).
    pub initial_weight: f64,
    /// Each child cell gets uniform noise in `[-noise, noise]` (the seed: 0.5).
    pub noise: f64,
}

impl Default for GeneticConfig {
    fn default() -> Self {
        GeneticConfig {
            population: 100,
            generations: 50..=100,
            games_per_generation: 40,
            initial_weight: 50.0,
            noise: 0.5,
        }
    }
}

/// Points for each place: 4/1/0 with 3 players, 9/4/1/0 with 4 (the seed), 1/0 with 2.
pub fn place_points(players: usize) -> &'static [f64] {
    match players {
        2 => &[1.0, 0.0],
        3 => &[4.0, 1.0, 0.0],
        _ => &[9.0, 4.0, 1.0, 0.0],
    }
}

/// Points for each seat of a finished game with these disc counts: players ranked by discs,
/// tied players sharing the points of the places they span equally.
pub fn game_points(discs: &[u32]) -> Vec<f64> {
    let table = place_points(discs.len());
    discs
        .iter()
        .map(|&d| {
            let better = discs.iter().filter(|&&x| x > d).count();
            let tied = discs.iter().filter(|&&x| x == d).count();
            table[better..better + tied].iter().sum::<f64>() / tied as f64
        })
        .collect()
}

/// One index drawn with probability proportional to `points` (uniformly if all are zero).
fn pick(points: &[f64], total: f64, rng: &mut impl Rng) -> usize {
    if total <= 0.0 {
        return rng.gen_range(0..points.len());
    }
    let mut x = rng.gen::<f64>() * total;
    for (i, &p) in points.iter().enumerate() {
        if x < p {
            return i;
        }
        x -= p;
    }
    // Rounding at the top end: the last strategy with points.
    points.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

/// Runs the generator for `game` (its size, player count and start layout) and returns the
/// final population and the number of generations bred.
///
/// The first population has weights uniform in `[-w, w]`; each generation plays
/// `games_per_generation` games between distinct strategies drawn uniformly (seat order as
/// drawn), scores them with [`game_points`], and breeds the next population: each child has
/// two parents drawn independently with probability proportional to their points (uniformly
/// if nobody scored), takes each cell's weight from either parent with equal chance and adds
/// uniform noise.
pub fn evolve(game: &Reversi, config: &GeneticConfig, rng: &mut impl Rng) -> (Vec<Strategy>, u32) {
    let cells = game.size() * game.size();
    let players = game.players();
    let w = config.initial_weight;
    let mut population: Vec<Strategy> = (0..config.population)
        .map(|_| Strategy::new((0..cells).map(|_| rng.gen_range(-w..=w)).collect()))
        .collect();
    let generations = rng.gen_range(config.generations.clone());
    let mut points = vec![0.0; config.population];
    for _ in 0..generations {
        points.iter_mut().for_each(|p| *p = 0.0);
        for _ in 0..config.games_per_generation {
            let seats = sample(rng, config.population, players);
            let strategies: Vec<&Strategy> = seats.iter().map(|i| &population[i]).collect();
            let end = play_out(game, &strategies);
            for (seat, pts) in seats.iter().zip(game_points(&disc_counts(game, &end))) {
                points[seat] += pts;
            }
        }
        let total: f64 = points.iter().sum();
        let next: Vec<Strategy> = (0..config.population)
            .map(|_| {
                let a = &population[pick(&points, total, rng)].weights;
                let b = &population[pick(&points, total, rng)].weights;
                let weights = (0..cells)
                    .map(|i| {
                        let parent = if rng.gen::<bool>() { a[i] } else { b[i] };
                        parent + rng.gen_range(-config.noise..=config.noise)
                    })
                    .collect();
                Strategy::new(weights)
            })
            .collect();
        population = next;
    }
    (population, generations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_follow_the_seed_and_share_ties() {
        assert_eq!(game_points(&[10, 30, 20]), [0.0, 4.0, 1.0]);
        assert_eq!(game_points(&[5, 40, 20, 35]), [0.0, 9.0, 1.0, 4.0]);
        // Two tied for first in 3 players share 4 + 1.
        assert_eq!(game_points(&[20, 20, 9]), [2.5, 2.5, 0.0]);
        assert_eq!(game_points(&[7, 7, 7, 7]), [3.5, 3.5, 3.5, 3.5]);
    }

    #[test]
    fn parents_are_drawn_in_proportion_to_points() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let points = [0.0, 3.0, 1.0, 0.0];
        let mut hits = [0; 4];
        for _ in 0..4000 {
            hits[pick(&points, 4.0, &mut rng)] += 1;
        }
        assert_eq!(hits[0] + hits[3], 0);
        assert!((2800..3200).contains(&hits[1]), "{hits:?}");
    }
}
