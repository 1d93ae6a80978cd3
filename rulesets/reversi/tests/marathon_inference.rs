//! Inference of the opponents' weights, the single-agent search, and the contestant built on
//! them.

use ply::Game;
use ply_reversi::marathon::{
    plan, plan_with_values, Belief, Decision, GeneticConfig, InferenceConfig, InferenceContestant,
    Strategy, TestCase,
};
use ply_reversi::{Reversi, ReversiMove, ReversiState};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// ```text
///   a b c d
/// 1 1 2 A .     player 1 (3 players) can play A = c1 (flips b1)
/// 2 . 3 . .     or B = c3 (flips b2)
/// 3 . . B .
/// 4 . . . .
/// ```
fn board() -> (Reversi, ReversiState) {
    let game = Reversi::from_position("12../.3../..../.... 1", 3).unwrap();
    let state = game.initial_state();
    (game, state)
}

/// Weights on a1, b1, c1, b2, c3; zero elsewhere.
fn weights(a1: f64, b1: f64, c1: f64, b2: f64, c3: f64) -> Vec<f64> {
    let mut w = vec![0.0; 16];
    w[0] = a1;
    w[1] = b1;
    w[2] = c1;
    w[5] = b2;
    w[10] = c3;
    w
}

const C1: usize = 2;
const C3: usize = 10;

#[test]
fn a_decision_lists_one_condition_per_placement_not_played() {
    let (game, state) = board();
    let d = Decision::new(&game, &state, C3).unwrap();
    assert_eq!(d.squares().collect::<Vec<_>>(), [C1, C3]);
    // c1 comes first in reading order, so c3 must be strictly better.
    assert_eq!(d.conditions().collect::<Vec<_>>(), [(C3, C1, true)]);
    let d = Decision::new(&game, &state, C1).unwrap();
    assert_eq!(d.conditions().collect::<Vec<_>>(), [(C1, C3, false)]);
    // Not a placement: no decision.
    assert!(Decision::new(&game, &state, 0).is_none());
    assert!(Decision::new(&game, &state, 99).is_none());
}

#[test]
fn conditions_hold_exactly_for_weights_that_make_the_choice() {
    let (game, state) = board();
    let d = Decision::new(&game, &state, C3).unwrap();
    // c1: 16 / 20 = 0.8, c3: 28 / 5 = 5.6 -> c3.
    let w = weights(10.0, 5.0, 1.0, 20.0, -2.0);
    assert_eq!(d.totals(&w, C1), Some((16.0, 20.0, false)));
    assert_eq!(d.totals(&w, C3), Some((28.0, 5.0, false)));
    assert_eq!(d.violations(&w), 0);
    // c1: 16 / 2 = 8, c3: 10 / 5 = 2 -> c1, so playing c3 violates the condition.
    assert_eq!(d.violations(&weights(10.0, 5.0, 1.0, 2.0, -2.0)), 1);
    // A tie goes to c1, so c3 played on a tie is a violation, c1 played is not.
    let tie = vec![1.0; 16];
    assert_eq!(d.violations(&tie), 1);
    assert_eq!(Decision::new(&game, &state, C1).unwrap().violations(&tie), 0);
}

#[test]
fn the_true_weights_predict_every_move_with_full_confidence() {
    let (game, state) = board();
    let truth = Strategy::new(weights(10.0, 5.0, 1.0, 20.0, -2.0));
    let belief = Belief::from_particles(16, vec![truth.clone(), truth]);
    assert_eq!(belief.predict(&game, &state), Some((C3, 1.0)));
    // Split particles: the vote and its share.
    let other = Strategy::new(weights(10.0, 5.0, 1.0, 2.0, -2.0));
    let truth = Strategy::new(weights(10.0, 5.0, 1.0, 20.0, -2.0));
    let belief = Belief::from_particles(16, vec![truth.clone(), other.clone(), truth]);
    assert_eq!(belief.predict(&game, &state), Some((C3, 2.0 / 3.0)));
    let belief = Belief::from_particles(16, vec![other]);
    assert_eq!(belief.predict(&game, &state), Some((C1, 1.0)));
}

/// The decisions of seat 1 in the opening of a quick test case, with the weights that made
/// them.
fn opening(k: u64, moves: usize) -> (Reversi, Strategy, Vec<(ReversiState, usize)>) {
    let config =
        GeneticConfig { generations: 2..=2, games_per_generation: 4, ..Default::default() };
    let case = TestCase::generate_with(k, 3, &config);
    let game = case.game();
    let truth = case.opponents[0].clone();
    let mut state = game.initial_state();
    let mut seen = Vec::new();
    let ones = Strategy::new(vec![1.0; case.size * case.size]);
    while seen.len() < moves && !game.is_over(&state) {
        let p = state.to_move().index();
        let mv = match p {
            0 => ones.choose(&game, &state),
            _ => case.opponents[p - 1].choose(&game, &state),
        }
        .unwrap_or(ReversiMove::Pass);
        if p == 1 {
            if let Some(sq) = mv.square() {
                seen.push((state, sq));
            }
        }
        game.apply(&mut state, mv);
    }
    (game, truth, seen)
}

#[test]
fn the_solver_finds_weights_that_explain_every_observed_move() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for k in 0..3 {
        let (game, truth, seen) = opening(k, 5);
        let cells = game.size() * game.size();
        let mut belief = Belief::new(cells, 4, &mut rng);
        for (state, sq) in &seen {
            let d = Decision::new(&game, state, *sq).unwrap();
            assert_eq!(d.violations(&truth.weights), 0, "the truth explains its own moves");
            belief.push(d);
            belief.update(1, 1000, &mut rng);
        }
        assert_eq!(belief.consistent(), 4, "case {k}");
        // Recovered weights reproduce every observed choice.
        for (state, sq) in &seen {
            assert_eq!(belief.predict(&game, state), Some((*sq, 1.0)), "case {k}");
            assert_eq!(belief.best().choose(&game, state), Some(ReversiMove::Place(*sq as u8)));
        }
    }
}

#[test]
fn a_consistent_particle_stays_consistent_while_it_mixes() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (game, truth, seen) = opening(1, 8);
    let cells = game.size() * game.size();
    let mut belief = Belief::from_particles(cells, vec![truth.clone()]);
    for (state, sq) in &seen {
        belief.push(Decision::new(&game, state, *sq).unwrap());
    }
    belief.update(20, 0, &mut rng);
    assert_eq!(belief.consistent(), 1);
    assert_ne!(belief.particles()[0], truth, "the particle moved");
}

#[test]
fn adapting_shared_particles_explains_the_opponents_own_moves_with_small_changes() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (game, truth, seen) = opening(2, 6);
    let cells = game.size() * game.size();
    // The shared weights: the truth with some cells moved, as a sibling's would be.
    let mut sibling = truth.clone();
    for (i, x) in sibling.weights.iter_mut().enumerate().filter(|(i, _)| i % 3 == 0) {
        *x += if i % 2 == 0 { -8.0 } else { 8.0 };
    }
    let pooled = Belief::from_particles(cells, vec![sibling.clone(), sibling.clone()]);
    let mut own = Belief::from_particles(cells, Vec::new());
    for (state, sq) in &seen {
        own.push(Decision::new(&game, state, *sq).unwrap());
    }
    own.adapt_from(&pooled, 1000, &mut rng);
    assert_eq!(own.particles().len(), 2);
    let violated = |w: &[f64]| own.decisions().iter().map(|d| d.violations(w)).sum::<usize>();
    assert!(violated(&sibling.weights) > 0, "the shared weights do not explain every move");
    for p in own.particles() {
        assert!(violated(&p.weights) < violated(&sibling.weights));
    }
    // The least move: closer to the shared weights than a fresh draw from the prior.
    let dist = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>();
    let fresh = Belief::new(cells, 1, &mut rng);
    for p in own.particles() {
        assert!(
            dist(&p.weights, &sibling.weights)
                < dist(&fresh.particles()[0].weights, &sibling.weights)
        );
    }
}

#[test]
fn the_plan_values_every_placement_and_its_choice_is_the_best_of_them() {
    let config =
        GeneticConfig { generations: 2..=2, games_per_generation: 4, ..Default::default() };
    let case = TestCase::generate_with(4, 7, &config);
    let game = case.game();
    let ones = Strategy::new(vec![1.0; case.size * case.size]);
    let mut models = vec![ones];
    models.extend(case.opponents.iter().cloned());
    let refs: Vec<&Strategy> = models.iter().collect();
    let state = game.initial_state();
    let (found, values) = plan_with_values(&game, &state, &refs, 200).unwrap();
    assert_eq!(values.len() as u32, game.mobility(&state, ply::Player(0)));
    let best = values.iter().map(|&(_, v)| v).fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(found.value, best);
    assert!(values.contains(&(found.square, found.value)));
    assert_eq!(plan(&game, &state, &refs, 200), Some(found));
}

/// ```text
///   a b c d e
/// 1 . . . . .     player 1 to move, 3 players; a2 and d3 are player 1's
/// 2 1 2 3 2 .     e2 takes b2, c2 and d2, every other disc: the others own no cell after it
/// 3 . . . 1 .     d1 takes d2, b1 takes c2
/// 4 . . . . .
/// 5 . . . . .
/// ```
#[test]
fn a_move_taking_every_other_disc_has_a_zero_denominator_whatever_the_rounding() {
    let game = Reversi::from_position("...../1232./...1./...../..... 1", 3).unwrap();
    let state = game.initial_state();
    let (b2, c2, d2, e2) = (6, 7, 8, 9);
    let mut w = vec![0.0; 25];
    w[5] = 1.0; // a2
    w[18] = 1.0; // d3
    w[e2] = 1.0;
    // Weights whose running total (3.4 + 1.4) + 0.6 minus the flipped (3.4 + 0.6) + 1.4
    // rounds to -8.9e-16, and ones where it rounds to +1.1e-16.
    for (x, y, z) in [(3.4, 0.6, 1.4), (0.3, 0.6, 0.1), (1.0, 2.0, 3.0)] {
        w[b2] = x;
        w[c2] = y;
        w[d2] = z;
        let s = Strategy::new(w.clone());
        assert_eq!(s.choose(&game, &state), Some(ReversiMove::Place(e2 as u8)), "{x} {y} {z}");
        let d = Decision::new(&game, &state, e2).unwrap();
        let (m, o, wipes_out) = d.totals(&w, e2).unwrap();
        assert!(wipes_out && m > 0.0, "{m} {o}");
    }
    // With the mover's total negative, the wipe-out is -inf and loses to every finite value:
    // b1 gives (-9 + 0.6) / 4.8, d1 gives (-9 + 1.4) / 4.0.
    w[5] = -10.0;
    w[b2] = 3.4;
    w[c2] = 0.6;
    w[d2] = 1.4;
    assert_eq!(Strategy::new(w).choose(&game, &state), Some(ReversiMove::Place(1)));
}

#[test]
fn the_plan_is_exact_near_the_end_and_its_value_is_what_the_game_gives() {
    let config =
        GeneticConfig { generations: 2..=2, games_per_generation: 4, ..Default::default() };
    for k in 0..2 {
        let case = TestCase::generate_with(k, 8, &config);
        let game = case.game();
        let cells = case.size * case.size;
        let ones = Strategy::new(vec![1.0; cells]);
        let mut models = vec![ones.clone()];
        models.extend(case.opponents.iter().cloned());
        let refs: Vec<&Strategy> = models.iter().collect();
        // Everyone plays their weights until 9 cells are empty.
        let mut state = game.initial_state();
        while state.empties() > 9 && !game.is_over(&state) {
            let mv =
                refs[state.to_move().index()].choose(&game, &state).unwrap_or(ReversiMove::Pass);
            game.apply(&mut state, mv);
        }
        // Then player 1 follows the plan, which must be exact and keep its promise.
        let mut promised = None;
        while !game.is_over(&state) {
            let p = state.to_move().index();
            let mv = if p == 0 && game.mobility(&state, ply::Player(0)) > 0 {
                let found = plan(&game, &state, &refs, 1_000_000).unwrap();
                assert!(found.exact, "{found:?}");
                if let Some(v) = promised {
                    assert_eq!(found.value, v, "the plan's value holds along its line");
                }
                promised = Some(found.value);
                ReversiMove::Place(found.square as u8)
            } else {
                refs[p].choose(&game, &state).unwrap_or(ReversiMove::Pass)
            };
            game.apply(&mut state, mv);
        }
        if let Some(v) = promised {
            assert_eq!(f64::from(state.count(ply::Player(0))), v);
        }
    }
}

#[test]
fn the_inference_contestant_plays_legal_moves_and_counts_its_predictions() {
    let config =
        GeneticConfig { generations: 2..=2, games_per_generation: 4, ..Default::default() };
    let case = TestCase::generate_with(0, 21, &config);
    let mut contestant = InferenceContestant::new(InferenceConfig {
        particles: 3,
        nodes: 10,
        fallback_iterations: 20,
        ..Default::default()
    });
    let result = case.run(&mut contestant);
    assert!(result.error.is_none(), "{:?}", result.error);
    let stats = contestant.stats;
    assert_eq!(stats.unexplained, 0, "{stats:?}");
    assert!(stats.observed.iter().sum::<u32>() > 0, "{stats:?}");
    assert_eq!(stats.planned + stats.fallback, result.calls);
    assert!(contestant.belief(1).is_some() && contestant.belief(0).is_none());

    // Planning against an ensemble of particle sets instead of MCTS, without pooling.
    let mut contestant = InferenceContestant::new(InferenceConfig {
        particles: 2,
        nodes: 10,
        ensemble: 2,
        pool: false,
        ..Default::default()
    });
    let result = case.run(&mut contestant);
    assert!(result.error.is_none(), "{:?}", result.error);
    assert_eq!(contestant.stats.planned + contestant.stats.fallback, result.calls);
}
