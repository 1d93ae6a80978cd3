//! Playing one game between agents, and seeded random openings.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, MoveList, Outcome, Player};
use crate::record::Record;
use crate::search::{
    Agent, Budget, Clock, Position, SearchError, SearchReport, TimeControl, Value,
};

/// An agent in a seat, with the budget it gets for every move and, under a time control, its
/// game clock.
pub struct Seat<G: Game> {
    /// The player.
    pub agent: Box<dyn Agent<G> + Send>,
    /// What it may spend per move.
    pub budget: Budget,
    /// The game clock it plays under: each move's budget gets the clock as it stands (and the
    /// moment it runs out as the deadline) in place of a time per move, and a seat whose
    /// clock runs out loses the game on time.
    pub clock: Option<TimeControl>,
}

impl<G: Game> Seat<G> {
    /// A seat for `agent` with `budget` per move.
    pub fn new(agent: Box<dyn Agent<G> + Send>, budget: Budget) -> Self {
        Seat { agent, budget, clock: None }
    }

    /// This seat playing under the game clock `control` (`None`: no clock).
    pub fn with_clock(mut self, control: Option<TimeControl>) -> Self {
        self.clock = control;
        self
    }

    /// The budget of a move for a seat whose clock shows `clock`.
    fn budget_on(&self, clock: Option<Clock>) -> Budget {
        let Some(clock) = clock else { return self.budget.clone() };
        let deadline = Instant::now().checked_add(clock.remaining);
        Budget { time: None, clock: Some(clock), deadline, ..self.budget.clone() }
    }
}

/// What one seat spent over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeatStats {
    /// Moves the seat chose.
    pub moves: u32,
    /// Total thinking time.
    pub time: Duration,
    /// The longest time spent on one move.
    pub max_time: Duration,
    /// Moves answered without a search (the only legal move): they take no time, so time per
    /// move is measured over the others.
    pub forced: u32,
    /// Moves whose search proved the result (a win, loss or draw), which may end before the
    /// budget does: time per move is measured over the others too.
    pub solved: u32,
    /// Time spent on the solved moves.
    pub solved_time: Duration,
    /// Total nodes searched.
    pub nodes: u64,
    /// The nominal depths (completed iterations) of the moves searched to the end of their
    /// budget (neither forced nor solved), summed.
    pub depth: u64,
}

/// What one move of a game cost its agent, and what the agent said of it: the game's record
/// move by move, where [`SeatStats`] sums a seat's moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveSearch {
    /// The seat that moved.
    pub seat: usize,
    /// True if the move was the only legal one (no search was asked for its choice).
    pub forced: bool,
    /// The nominal depth the agent reported (0 where it reports none).
    pub depth: u32,
    /// The deepest ply it reported, quiescence included (0 where it reports none).
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Thinking time.
    pub time: Duration,
    /// The move's value for the seat that played it.
    pub value: Value,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame<M> {
    /// Every move from the start position.
    pub moves: Vec<M>,
    /// What each answer cost its agent: one entry per move of `moves`, then, where a seat
    /// forfeited by an illegal move, that answer's (as [`SeatStats`] counts it).
    pub searches: Vec<MoveSearch>,
    /// The result (a draw when the ply cap ended the game).
    pub outcome: Outcome,
    /// What each seat spent.
    pub seats: Vec<SeatStats>,
    /// True if the game was stopped at the ply cap and scored as a draw.
    pub adjudicated: bool,
    /// Set when a seat lost by forfeit: its external engine failed (crashed, hung, broke the
    /// protocol), its agent answered an illegal move or its clock ran out.
    pub forfeit: Option<Forfeit>,
}

/// A game lost by one seat's failure, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The seat that lost.
    pub seat: usize,
    /// What went wrong.
    pub reason: String,
}

/// The outcome when `seat` forfeits a game of `players` players: the other player wins a
/// two-player game; with more players the forfeiting seat scores 0 and the others 1.
fn forfeited(seat: usize, players: usize) -> Outcome {
    if players == 2 {
        Outcome::Winner(Player::new(1 - seat))
    } else {
        let scores: Vec<i32> = (0..players).map(|s| i32::from(s != seat)).collect();
        Outcome::from_scores(&scores)
    }
}

/// Why a game could not be played to the end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// An agent could not choose a move.
    #[error("seat {seat}: {source}")]
    Search {
        /// The seat whose agent failed.
        seat: usize,
        /// What went wrong.
        source: SearchError,
    },
    /// The caller stopped the game after `plies` moves (its output went away).
    #[error("stopped after {plies} moves")]
    Stopped {
        /// The moves played.
        plies: usize,
    },
}

/// Plays a game from `start` with `seats[s]` playing seat `s`, until it ends or `max_plies`
/// moves have been played (then it is scored a draw and marked adjudicated). Every agent is
/// told of every move ([`Agent::observe`]) and sees the position history, so repetition rules
/// apply.
///
/// # Errors
/// If an agent fails or answers an illegal move.
///
/// # Panics
/// If `seats.len()` differs from `game.num_players()`.
pub fn play_game<G: Game>(
    game: &G,
    start: &G::State,
    seats: &mut [Seat<G>],
    max_plies: usize,
) -> Result<PlayedGame<G::Move>, ArenaError> {
    play_game_with(game, start, seats, max_plies, |_| ControlFlow::Continue(()))
}

/// What [`play_game_with`] reports after each move.
#[derive(Debug)]
pub struct MovePlayed<'a, G: Game> {
    /// The ply of the move, 0 for the first.
    pub ply: usize,
    /// The seat that moved.
    pub seat: usize,
    /// The position before the move.
    pub before: &'a G::State,
    /// The agent's report; its `best_move` was played.
    pub report: &'a SearchReport<G::Move>,
}

/// [`play_game`], calling `on_move` after every move (a terminal prints it, a GUI shows it):
/// the one game loop of every program that lets agents play. `on_move` returns
/// [`ControlFlow::Break`] to end the game there (a program whose output was closed).
///
/// A seat whose external engine fails ([`SearchError::Engine`]), whose agent answers an
/// illegal move or whose clock runs out ([`Seat::clock`]; the time is the wall time from
/// asking to the answer) loses the game by forfeit, recorded in [`PlayedGame::forfeit`]; the
/// caller goes on with its next game.
///
/// # Errors
/// If an agent cannot play this game or budget at all ([`SearchError::Unsupported`],
/// [`SearchError::BadBudget`]): a mistake in the set-up, not in one game;
/// [`ArenaError::Stopped`] when `on_move` stopped the game.
///
/// # Panics
/// If `seats.len()` differs from `game.num_players()`.
pub fn play_game_with<G: Game>(
    game: &G,
    start: &G::State,
    seats: &mut [Seat<G>],
    max_plies: usize,
    mut on_move: impl FnMut(MovePlayed<'_, G>) -> ControlFlow<()>,
) -> Result<PlayedGame<G::Move>, ArenaError> {
    assert_eq!(seats.len(), game.num_players(), "one seat per player");
    for seat in seats.iter_mut() {
        seat.agent.new_game();
    }
    let mut record = Record::new(game, start.clone());
    let mut stats = vec![SeatStats::default(); seats.len()];
    let mut searches = Vec::new();
    let mut adjudicated = false;
    let mut forfeit: Option<Forfeit> = None;
    let mut clocks: Vec<Option<Clock>> =
        seats.iter().map(|seat| seat.clock.map(|c| c.start())).collect();
    while record.outcome().is_none() {
        if record.moves().len() >= max_plies {
            adjudicated = true;
            break;
        }
        let s = game.to_move(record.state()).index();
        let position = Position::with_history(record.state(), record.hashes());
        let budget = seats[s].budget_on(clocks[s]);
        let asked = Instant::now();
        let report = match seats[s].agent.choose(game, position, &budget) {
            Ok(r) => r,
            Err(e @ SearchError::Engine { .. }) => {
                forfeit = Some(Forfeit { seat: s, reason: e.to_string() });
                break;
            }
            Err(source) => return Err(ArenaError::Search { seat: s, source }),
        };
        if let (Some(clock), Some(control)) = (clocks[s].as_mut(), seats[s].clock.as_ref()) {
            let (left, took) = (clock.remaining, asked.elapsed());
            if !clock.spend(control, took) {
                let reason = format!(
                    "lost on time: the move took {:.3} s with {:.3} s left",
                    took.as_secs_f64(),
                    left.as_secs_f64()
                );
                forfeit = Some(Forfeit { seat: s, reason });
                break;
            }
        }
        stats[s].moves += 1;
        stats[s].time += report.elapsed;
        stats[s].max_time = stats[s].max_time.max(report.elapsed);
        let forced = game.count_moves(record.state()) == 1;
        if forced {
            stats[s].forced += 1;
        } else if matches!(report.value, Value::Win(_) | Value::Loss(_) | Value::Draw) {
            stats[s].solved += 1;
            stats[s].solved_time += report.elapsed;
        } else {
            stats[s].depth += u64::from(report.depth);
        }
        stats[s].nodes += report.nodes;
        searches.push(MoveSearch {
            seat: s,
            forced,
            depth: report.depth,
            seldepth: report.seldepth,
            nodes: report.nodes,
            time: report.elapsed,
            value: report.value,
        });
        let before = record.state().clone();
        if record.play(report.best_move).is_err() {
            let reason = format!("illegal move {:?}", report.best_move);
            forfeit = Some(Forfeit { seat: s, reason });
            break;
        }
        for seat in seats.iter_mut() {
            seat.agent.observe(game, &before, report.best_move);
        }
        let ply = record.moves().len() - 1;
        if on_move(MovePlayed { ply, seat: s, before: &before, report: &report }).is_break() {
            return Err(ArenaError::Stopped { plies: ply + 1 });
        }
    }
    let outcome = match &forfeit {
        Some(f) => forfeited(f.seat, seats.len()),
        None => record.outcome().unwrap_or(Outcome::Draw),
    };
    let moves = record.moves().to_vec();
    Ok(PlayedGame { moves, searches, outcome, seats: stats, adjudicated, forfeit })
}

/// `plies` uniformly random moves from `start`, reproducible from `seed`, that do not end the
/// game; `None` if no such line was found in 100 tries (the game is too short for it).
///
/// ```
/// use ply::arena::random_opening;
/// use ply::games::TicTacToe;
/// use ply::Game;
///
/// let game = TicTacToe;
/// let a = random_opening(&game, &game.initial_state(), 2, 42).unwrap();
/// assert_eq!(a.len(), 2);
/// assert_eq!(a, random_opening(&game, &game.initial_state(), 2, 42).unwrap());
/// ```
pub fn random_opening<G: Game>(
    game: &G,
    start: &G::State,
    plies: usize,
    seed: u64,
) -> Option<Vec<G::Move>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = MoveList::new();
    'attempt: for _ in 0..100 {
        let mut state = start.clone();
        let mut line = Vec::with_capacity(plies);
        for _ in 0..plies {
            game.generate_moves(&state, &mut moves);
            let Some(&mv) = moves.choose(&mut rng) else { continue 'attempt };
            game.apply(&mut state, mv);
            line.push(mv);
        }
        if game.outcome(&state).is_none() {
            return Some(line);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ConnectFour;
    use crate::search::alphabeta::AlphaBeta;
    use crate::search::baseline::RandomAgent;

    #[test]
    fn searched_moves_add_their_depth() {
        let game = ConnectFour::standard();
        let mut seats: Vec<Seat<ConnectFour>> = vec![
            Seat::new(Box::new(AlphaBeta::new()), Budget::depth(3)),
            Seat::new(Box::new(RandomAgent::new(7)), Budget::default()),
        ];
        let played = play_game(&game, &game.initial_state(), &mut seats, 200).unwrap();
        let st = &played.seats[0];
        let searched = st.moves - st.forced - st.solved;
        assert!(searched > 0);
        assert_eq!(st.depth, 3 * u64::from(searched));
        assert_eq!(played.seats[1].depth, 0);
        // The moves' own record adds up to the seats' sums.
        assert_eq!(played.searches.len(), played.moves.len());
        for (seat, st) in played.seats.iter().enumerate() {
            let mine: Vec<&MoveSearch> =
                played.searches.iter().filter(|m| m.seat == seat).collect();
            assert_eq!(mine.len(), st.moves as usize);
            assert_eq!(mine.iter().map(|m| m.nodes).sum::<u64>(), st.nodes);
            assert_eq!(mine.iter().map(|m| m.time).sum::<Duration>(), st.time);
            assert_eq!(mine.iter().filter(|m| m.forced).count(), st.forced as usize);
        }
        assert!(played.searches.iter().filter(|m| m.seat == 0 && !m.forced).all(
            |m| m.depth == 3 || matches!(m.value, Value::Win(_) | Value::Loss(_) | Value::Draw)
        ));
    }

    /// The clock and time per move of every budget an agent got.
    type Budgets = std::sync::Arc<std::sync::Mutex<Vec<(Option<Clock>, Option<Duration>)>>>;

    /// Plays the first legal move after `delay`, keeping the clock of every budget it gets.
    struct Slow {
        delay: Duration,
        clocks: Budgets,
    }

    impl Agent<ConnectFour> for Slow {
        fn name(&self) -> String {
            "slow".into()
        }

        fn choose(
            &mut self,
            game: &ConnectFour,
            position: Position<'_, <ConnectFour as Game>::State>,
            budget: &Budget,
        ) -> Result<SearchReport<u8>, SearchError> {
            self.clocks.lock().unwrap().push((budget.clock, budget.time));
            std::thread::sleep(self.delay);
            let mut moves = MoveList::new();
            game.generate_moves(position.state, &mut moves);
            Ok(SearchReport::instant(moves[0], self.delay))
        }
    }

    fn slow(delay_ms: u64) -> (Slow, Budgets) {
        let clocks = std::sync::Arc::default();
        (
            Slow { delay: Duration::from_millis(delay_ms), clocks: std::sync::Arc::clone(&clocks) },
            clocks,
        )
    }

    #[test]
    fn a_clock_that_runs_out_loses_the_game() {
        let game = ConnectFour::standard();
        let control = TimeControl {
            base: Duration::from_millis(200),
            increment: Duration::ZERO,
            moves: None,
        };
        let (agent, _) = slow(120);
        let mut seats: Vec<Seat<ConnectFour>> = vec![
            Seat::new(Box::new(RandomAgent::new(7)), Budget::default()),
            Seat::new(Box::new(agent), Budget::time(Duration::from_secs(1)))
                .with_clock(Some(control)),
        ];
        let played = play_game(&game, &game.initial_state(), &mut seats, 200).unwrap();
        let forfeit = played.forfeit.expect("the slow seat runs out of time");
        assert_eq!(forfeit.seat, 1);
        assert!(forfeit.reason.starts_with("lost on time"), "{}", forfeit.reason);
        assert_eq!(played.outcome, Outcome::Winner(Player::new(0)));
        assert_eq!(
            (played.moves.len(), played.seats[1].moves),
            (3, 1),
            "flagged on its second move"
        );
    }

    #[test]
    fn each_move_gets_the_clock_as_it_stands() {
        let game = ConnectFour::standard();
        let control = TimeControl {
            base: Duration::from_secs(60),
            increment: Duration::from_secs(1),
            moves: Some(2),
        };
        let (agent, clocks) = slow(5);
        let mut seats: Vec<Seat<ConnectFour>> = vec![
            Seat::new(Box::new(agent), Budget::time(Duration::from_secs(1)))
                .with_clock(Some(control)),
            Seat::new(Box::new(RandomAgent::new(7)), Budget::default()),
        ];
        let played = play_game(&game, &game.initial_state(), &mut seats, 12).unwrap();
        assert!(played.forfeit.is_none());
        let clocks = clocks.lock().unwrap();
        assert_eq!(clocks.len(), played.seats[0].moves as usize);
        assert!(clocks.len() >= 4, "{} moves", clocks.len());
        assert!(clocks.iter().all(|(_, time)| time.is_none()), "the clock replaces time per move");
        let clocks: Vec<Clock> = clocks.iter().map(|(c, _)| c.unwrap()).collect();
        assert_eq!(clocks[0], control.start());
        let to_go: Vec<Option<u32>> = clocks.iter().map(|c| c.moves_to_go).collect();
        let periods: Vec<Option<u32>> = (0..clocks.len()).map(|i| Some(2 - i as u32 % 2)).collect();
        assert_eq!(to_go, periods);
        for pair in clocks.windows(2) {
            let gained = control.increment
                + if pair[1].moves_to_go == Some(2) { control.base } else { Duration::ZERO };
            let spent = (pair[0].remaining + gained).checked_sub(pair[1].remaining).unwrap();
            assert!(
                spent >= Duration::from_millis(5) && spent < Duration::from_millis(500),
                "{spent:?}"
            );
        }
    }
}
