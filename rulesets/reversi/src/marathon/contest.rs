//! Seeded test cases and the contestant's interface, as in the seed's contest.

use std::time::{Duration, Instant};

use ply::search::{Agent, Budget, Position};
use ply::{Game, MoveList, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::genetic::{evolve, GeneticConfig};
use super::strategy::Strategy;
use crate::{Reversi, ReversiMove, ReversiState};

/// A player of the contest: given the board as rows of `.` and `1`..`4` (top row first),
/// where it is always player `1`, return the `(column, row)` of its placement, (0, 0) being
/// the top-left cell. It is called only when it has a legal placement. As in the contest, a
/// fresh contestant plays each test case.
pub trait Contestant {
    /// A short name for tables.
    fn name(&self) -> String;

    /// The placement to play on `board`.
    fn choose_move(&mut self, board: &[String]) -> (usize, usize);
}

/// The contest's player count for a board size: 3 on odd sizes, 4 on even ones.
pub fn players_for_size(size: usize) -> usize {
    if size % 2 == 1 {
        3
    } else {
        4
    }
}

/// One test case: board size, player count and the opponents' strategies, all determined by
/// `(k, seed)`.
#[derive(Clone, Debug)]
pub struct TestCase {
    /// The test case's number.
    pub k: u64,
    /// The seed of the whole run.
    pub seed: u64,
    /// Board side, uniform in `7..=12`.
    pub size: usize,
    /// 3 on odd sizes, 4 on even ones.
    pub players: usize,
    /// Generations the strategy generator bred.
    pub generations: u32,
    /// The strategies of players 2.., drawn uniformly with replacement from the generator's
    /// final population.
    pub opponents: Vec<Strategy>,
}

/// How a contestant did on one test case.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseResult {
    /// The seed's score: cells owned by player 1 x players / cells on the board (0 after an
    /// illegal answer).
    pub score: f64,
    /// Final disc count of every player.
    pub discs: Vec<u32>,
    /// Times the contestant was asked for a move.
    pub calls: u32,
    /// Time the contestant spent answering.
    pub thinking: Duration,
    /// Why the test case was cut short, if it was (an illegal answer).
    pub error: Option<String>,
}

impl TestCase {
    /// Test case `k` of the run with `seed`, with the seed's generator settings.
    pub fn generate(k: u64, seed: u64) -> TestCase {
        TestCase::generate_with(k, seed, &GeneticConfig::default())
    }

    /// Test case `k` of the run with `seed` and these generator settings.
    pub fn generate_with(k: u64, seed: u64, config: &GeneticConfig) -> TestCase {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(k);
        let size = rng.gen_range(7..=12usize);
        let players = players_for_size(size);
        let game = Reversi::new(size, players).expect("contest sizes are valid");
        let (population, generations) = evolve(&game, config, &mut rng);
        let opponents =
            (1..players).map(|_| population[rng.gen_range(0..population.len())].clone()).collect();
        TestCase { k, seed, size, players, generations, opponents }
    }

    /// The rules of this test case (the standard layout, player 1 to move).
    pub fn game(&self) -> Reversi {
        Reversi::new(self.size, self.players).expect("contest sizes are valid")
    }

    /// Plays the test case with `contestant` as player 1 and scores it.
    pub fn run(&self, contestant: &mut dyn Contestant) -> CaseResult {
        let game = self.game();
        let mut state = game.initial_state();
        let mut moves = MoveList::new();
        let (mut calls, mut thinking, mut error) = (0, Duration::ZERO, None);
        loop {
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            let p = state.to_move as usize;
            let mv = if moves[0] == ReversiMove::Pass {
                ReversiMove::Pass
            } else if p == 0 {
                let board = state.rows();
                let t = Instant::now();
                let (c, r) = contestant.choose_move(&board);
                thinking += t.elapsed();
                calls += 1;
                let legal = c < self.size && r < self.size && moves.contains(&game.place(c, r));
                if !legal {
                    error = Some(format!("illegal answer ({c}, {r}) on {}", board.join("/")));
                    break;
                }
                game.place(c, r)
            } else {
                self.opponents[p - 1].choose(&game, &state).expect("a placement exists")
            };
            game.apply(&mut state, mv);
        }
        let discs: Vec<u32> = (0..self.players).map(|p| state.count(Player::new(p))).collect();
        let score = if error.is_some() {
            0.0
        } else {
            f64::from(discs[0]) * self.players as f64 / (self.size * self.size) as f64
        };
        CaseResult { score, discs, calls, thinking, error }
    }
}

/// Lets any agent of the search library play the contest: it rebuilds the position from the
/// board (player 1 to move; 3 players on odd sizes, 4 on even ones, unless set) and asks the
/// agent with a fixed budget.
pub struct AgentContestant<A> {
    agent: A,
    budget: Budget,
    players: Option<usize>,
    game: Option<Reversi>,
    /// Searches that failed (the first legal placement was played instead).
    pub failures: u32,
}

impl<A: Agent<Reversi>> AgentContestant<A> {
    /// `agent` playing with `budget` per move.
    pub fn new(agent: A, budget: Budget) -> Self {
        AgentContestant { agent, budget, players: None, game: None, failures: 0 }
    }

    /// Plays with this player count instead of the contest's rule.
    pub fn with_players(mut self, players: usize) -> Self {
        self.players = Some(players);
        self
    }

    fn game_for(&mut self, size: usize) -> Option<&Reversi> {
        let players = self.players.unwrap_or_else(|| players_for_size(size));
        let fits = self.game.as_ref().is_some_and(|g| g.size() == size && g.players() == players);
        if !fits {
            self.game = Reversi::new(size, players).ok();
        }
        self.game.as_ref()
    }
}

/// The position of a contest board: `board` with player 1 to move.
pub fn board_state(game: &Reversi, board: &[String]) -> Option<ReversiState> {
    game.state_from_rows(board, Player(0)).ok()
}

impl<A: Agent<Reversi>> Contestant for AgentContestant<A> {
    fn name(&self) -> String {
        self.agent.name()
    }

    fn choose_move(&mut self, board: &[String]) -> (usize, usize) {
        let Some(game) = self.game_for(board.len()).cloned() else {
            self.failures += 1;
            return (usize::MAX, usize::MAX);
        };
        let Some(state) = board_state(&game, board) else {
            self.failures += 1;
            return (usize::MAX, usize::MAX);
        };
        let chosen = match self.agent.choose(&game, Position::new(&state), &self.budget) {
            Ok(report) => Some(report.best_move),
            Err(_) => None,
        };
        let mv = match chosen {
            Some(mv @ ReversiMove::Place(_)) => mv,
            _ => {
                self.failures += 1;
                let mut moves = MoveList::new();
                game.generate_moves(&state, &mut moves);
                moves[0]
            }
        };
        game.coordinates(mv).unwrap_or((usize::MAX, usize::MAX))
    }
}
