//! The contest harness: the opponent's formula on hand-checked boards, reproducible
//! generation, scoring, and the contestants.

use ply::search::{Agent, Budget, Position, SearchError, SearchReport};
use ply::{Game, MoveList};
use ply_reversi::marathon::{
    evolve, AgentContestant, Contestant, GeneticConfig, ModellingContestant, Strategy, TestCase,
};
use ply_reversi::{Reversi, ReversiMove};
use rand::SeedableRng;

/// ```text
///   a b c d
/// 1 1 2 A .     player 1 (3 players) can play A = c1 (flips b1)
/// 2 . 3 . .     or B = c3 (flips b2)
/// 3 . . B .
/// 4 . . . .
/// ```
fn board() -> (Reversi, ply_reversi::ReversiState) {
    let game = Reversi::from_position("12../.3../..../.... 1", 3).unwrap();
    let state = game.initial_state();
    (game, state)
}

/// Weights on a1, b1, c1, b2, c3; zero elsewhere.
fn weights(a1: f64, b1: f64, c1: f64, b2: f64, c3: f64) -> Strategy {
    let mut w = vec![0.0; 16];
    w[0] = a1;
    w[1] = b1;
    w[2] = c1;
    w[5] = b2;
    w[10] = c3;
    Strategy::new(w)
}

fn choice(strategy: &Strategy) -> String {
    let (game, state) = board();
    let mv = strategy.choose(&game, &state).unwrap();
    ply::Notation::format_move(&game, &state, mv)
}

#[test]
fn opponent_plays_the_best_weight_ratio() {
    let (game, state) = board();
    let mut moves = MoveList::new();
    game.generate_moves(&state, &mut moves);
    assert_eq!(moves.len(), 2);
    // Totals before: mine 10, others 5 + 20.
    // c1: mine 10 + 1 + 5 = 16, others 25 - 5 = 20 -> 0.8
    // c3: mine 10 - 2 + 20 = 28, others 25 - 20 = 5 -> 5.6
    assert_eq!(choice(&weights(10.0, 5.0, 1.0, 20.0, -2.0)), "c3");
    // With b2 = 2: c1 16 / 2 = 8, c3 10 / 5 = 2.
    assert_eq!(choice(&weights(10.0, 5.0, 1.0, 2.0, -2.0)), "c1");
}

#[test]
fn zero_and_negative_denominators_follow_the_documented_rule() {
    // b2 = 0: c1 leaves the others 0 with mine 16 -> +inf beats c3's 8 / 5.
    assert_eq!(choice(&weights(10.0, 5.0, 1.0, 0.0, -2.0)), "c1");
    // Negative denominator divides as it is: c1 6 / 3 = 2, c3 14 / -5 = -2.8.
    assert_eq!(choice(&weights(10.0, -5.0, 1.0, 3.0, 1.0)), "c1");
    // A zero denominator with mine <= 0 is -inf: c1 gives (0 + 5 - 5) / (5 + 0 - 5) = 0 / 0,
    // c3 gives (0 - 3 + 0) / (5 + 0 - 0) = -0.6.
    assert_eq!(choice(&weights(0.0, 5.0, -5.0, 0.0, -3.0)), "c3");
    assert_eq!(ply_reversi::marathon::ratio(0.0, 0.0), f64::NEG_INFINITY);
    assert_eq!(ply_reversi::marathon::ratio(-1.0, -0.0), f64::NEG_INFINITY);
    assert_eq!(ply_reversi::marathon::ratio(2.0, -0.0), f64::INFINITY);
}

#[test]
fn ties_go_to_the_first_placement_in_reading_order() {
    // All weights 1: both moves give 3 / 1.
    assert_eq!(choice(&Strategy::new(vec![1.0; 16])), "c1");
    // All weights 0: both are 0 / 0.
    assert_eq!(choice(&Strategy::new(vec![0.0; 16])), "c1");
}

fn quick() -> GeneticConfig {
    GeneticConfig { generations: 3..=5, games_per_generation: 6, ..GeneticConfig::default() }
}

#[test]
fn generator_is_reproducible_from_its_seed() {
    let game = Reversi::new(7, 3).unwrap();
    let run = |seed| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        evolve(&game, &quick(), &mut rng)
    };
    let (a, ga) = run(7);
    let (b, gb) = run(7);
    assert_eq!(ga, gb);
    assert_eq!(a, b);
    assert_eq!(a.len(), 100);
    assert!((3..=5).contains(&ga));
    let (c, _) = run(8);
    assert_ne!(a, c);
    // Initial weights lie in [-50, 50]; a few generations add at most 0.5 each.
    let bound = 50.0 + 0.5 * ga as f64;
    assert!(a.iter().flat_map(|s| &s.weights).all(|w| w.abs() <= bound));
}

#[test]
fn a_test_case_is_the_same_for_the_same_k_and_seed() {
    let config = quick();
    let a = TestCase::generate_with(3, 99, &config);
    let b = TestCase::generate_with(3, 99, &config);
    assert_eq!((a.size, a.players, a.generations), (b.size, b.players, b.generations));
    assert_eq!(a.opponents, b.opponents);
    assert!((7..=12).contains(&a.size));
    assert_eq!(a.players, if a.size % 2 == 1 { 3 } else { 4 });
    assert_eq!(a.opponents.len(), a.players - 1);
    let sizes: Vec<usize> = (0..12).map(|k| TestCase::generate_with(k, 99, &config).size).collect();
    assert!(sizes.iter().any(|&s| s != sizes[0]), "{sizes:?}");
}

/// Answers (0, 0), which is never legal at the start.
struct Stubborn;
impl Contestant for Stubborn {
    fn name(&self) -> String {
        "stubborn".into()
    }
    fn choose_move(&mut self, _board: &[String]) -> (usize, usize) {
        (0, 0)
    }
}

#[test]
fn an_illegal_answer_scores_zero() {
    let case = TestCase::generate_with(0, 1, &quick());
    let result = case.run(&mut Stubborn);
    assert_eq!(result.score, 0.0);
    assert!(result.error.unwrap().contains("(0, 0)"));
}

/// An agent that plays the first listed move.
struct First;
impl Agent<Reversi> for First {
    fn name(&self) -> String {
        "first".into()
    }
    fn choose(
        &mut self,
        game: &Reversi,
        position: Position<'_, ply_reversi::ReversiState>,
        _budget: &Budget,
    ) -> Result<SearchReport<ReversiMove>, SearchError> {
        let mut moves = MoveList::new();
        game.generate_moves(position.state, &mut moves);
        let mv = *moves.first().ok_or(SearchError::NoLegalMoves)?;
        Ok(SearchReport::instant(mv, Default::default()))
    }
}

#[test]
fn any_agent_plays_through_the_adapter_and_is_scored_like_the_seed() {
    let case = TestCase::generate_with(1, 5, &quick());
    let mut contestant = AgentContestant::new(First, Budget::depth(1));
    let result = case.run(&mut contestant);
    assert!(result.error.is_none(), "{:?}", result.error);
    assert_eq!(contestant.failures, 0);
    assert!(result.calls > 0);
    let cells = (case.size * case.size) as f64;
    assert_eq!(result.score, result.discs[0] as f64 * case.players as f64 / cells);
    assert_eq!(result.discs.len(), case.players);
}

#[test]
fn the_modelling_contestant_reconstructs_every_opponent_move() {
    let config = quick();
    for k in 0..2 {
        let case = TestCase::generate_with(k, 11, &config);
        let mut contestant = ModellingContestant::new(ply_reversi::marathon::ModellingConfig {
            depth: 1,
            prior_runs: 1,
            prior_generations: 2,
            ..Default::default()
        });
        let result = case.run(&mut contestant);
        assert!(result.error.is_none(), "{:?}", result.error);
        assert_eq!(contestant.stats.unexplained, 0, "{:?}", contestant.stats);
        assert!(contestant.stats.observed >= result.calls, "{:?}", contestant.stats);
        assert!(contestant.model().is_some());
    }
}
