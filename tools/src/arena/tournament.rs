//! Running a tournament on one game: the fair schedule of [`ply::arena::schedule`], seeded
//! openings, games in parallel on std threads, each finished game handed to the caller at
//! once (to be written to the results file), progress, and an SPRT stop.

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ply::arena::{
    play_game, random_opening, schedule, ArenaError, Fixture, Seat, Sprt, SprtDecision, Standings,
};
use ply::search::SearchError;
use ply::zobrist::mix64;

use super::results::{micros, GameRecord, GameResult, MoveRecord, SeatRecord, TournamentKey};
use crate::agents::{AgentKit, ToolGame};
use crate::error::ToolError;
use crate::play::format_line;
use crate::spec::AgentSpec;

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Openings {
    /// This many uniformly random plies from the start position, seeded per opening.
    RandomPlies(usize),
    /// Positions in the game's notation, used in turn (opening `i` is `positions[i % len]`).
    Positions(Vec<String>),
}

/// Everything that defines a tournament on one game (and so its results).
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The game's registry name.
    pub game: String,
    /// Its options as flags, for the records.
    pub options: String,
    /// The agents.
    pub agents: Vec<AgentSpec>,
    /// At least this many games; rounded up to whole openings so every opening is played
    /// from every seat.
    pub games: usize,
    /// The openings.
    pub openings: Openings,
    /// Every game's openings and agent seeds derive from it and the game's index.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Games longer than this are stopped and scored a draw.
    pub max_plies: usize,
    /// Play only the games with `index % n == k - 1` for `Some((k, n))`.
    pub shard: Option<(usize, usize)>,
    /// Stop as soon as this test decides between the first two agents (first agent's view).
    pub sprt: Option<Sprt>,
    /// Draw a progress bar (on stderr, when it is a terminal).
    pub progress: bool,
}

impl TournamentConfig {
    /// How the schedule's games are drawn and cut, as the records keep it: a resumed run must
    /// continue with the same terms, or its games would not pair with the ones played.
    pub fn terms(&self) -> String {
        let openings = match &self.openings {
            Openings::RandomPlies(k) => format!("openings of {k} random plies"),
            Openings::Positions(list) => {
                // FNV-1a over the positions: another file with as many positions differs.
                let hash = list
                    .iter()
                    .flat_map(|p| p.bytes().chain([b'\n']))
                    .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
                    });
                format!("{} opening positions (hash {hash:016x})", list.len())
            }
        };
        format!("{openings}, at most {} plies", self.max_plies)
    }

    /// The key that identifies this tournament's records.
    pub fn key(&self) -> TournamentKey {
        (
            self.game.clone(),
            self.options.clone(),
            self.agents.iter().map(|a| a.to_string()).collect(),
            self.seed,
        )
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct RunSummary {
    /// Games played by this run.
    pub played: usize,
    /// Games skipped because the results file had them.
    pub skipped: usize,
    /// The SPRT decision, if a test was set and reached one.
    pub sprt: Option<SprtDecision>,
}

/// Why a tournament stopped.
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("{error}")]
pub struct RunError {
    /// What went wrong.
    pub error: ToolError,
    /// True if an agent cannot play this game at all (e.g. two-player search on a
    /// three-player game), so a multi-game run can skip it.
    pub unsupported: bool,
}

impl RunError {
    /// A tournament that cannot be played as asked ([`ToolError::Input`]).
    fn new(message: impl std::fmt::Display) -> RunError {
        RunError { error: ToolError::input(message), unsupported: false }
    }
}

impl From<ToolError> for RunError {
    fn from(error: ToolError) -> RunError {
        RunError { error, unsupported: false }
    }
}

/// Refuses resumed games that another schedule played: another number of games, other
/// openings or another ply cap would pair games unequally or repeat openings. Records written
/// before the schedule's length or terms were kept pass.
fn check_resumed(
    cfg: &TournamentConfig,
    resumed: &[GameRecord],
    scheduled: usize,
) -> Result<(), RunError> {
    let terms = cfg.terms();
    for r in resumed {
        if r.scheduled != 0 && r.scheduled != scheduled {
            return Err(RunError::new(format!(
                "the results file's run scheduled {} games, this one {scheduled} (--games {}): \
                 resume with the run's --games",
                r.scheduled, cfg.games
            )));
        }
        if let Some(theirs) = r.terms.as_ref().filter(|t| **t != terms) {
            return Err(RunError::new(format!(
                "the results file's run played {theirs}, this one {terms}: resume with the \
                 run's --openings-plies, --openings and --max-plies"
            )));
        }
    }
    Ok(())
}

/// The per-game seed of game `index`.
pub(crate) fn game_seed(seed: u64, index: usize) -> u64 {
    mix64(seed ^ mix64(index as u64 + 1))
}

/// The seed of opening `opening` (shared by the games that differ only in seats).
pub(crate) fn opening_seed(seed: u64, opening: usize) -> u64 {
    mix64(seed ^ mix64(opening as u64 ^ 0x6f70_656e_696e_6700))
}

/// The fixtures of a tournament of `agents` agents on a `players`-player game, at least
/// `games` of them in whole openings.
pub(crate) fn fixtures(agents: usize, players: usize, games: usize) -> Vec<Fixture> {
    let per_opening = schedule(agents, players, 1).len().max(1);
    let openings = games.div_ceil(per_opening).max(1);
    schedule(agents, players, openings)
}

/// Plays the tournament on the visited game: every fixture of the schedule not in `done`
/// (and in this shard), handing each finished game to `sink` as it ends, with `standings`
/// (which may already hold resumed games) kept up to date.
pub struct Run<'a> {
    /// The tournament.
    pub config: &'a TournamentConfig,
    /// The games of this tournament already played (from a resumed results file): the run
    /// skips their indices and refuses them if they were scheduled under other terms.
    pub resumed: &'a [GameRecord],
    /// The standings so far; the run adds its games.
    pub standings: &'a mut Standings,
    /// Receives every finished game; an error stops the run.
    pub sink: &'a mut dyn FnMut(&GameRecord) -> crate::error::ToolResult<()>,
}

impl Run<'_> {
    /// Plays the tournament on `game`, building its agents with `kit`.
    ///
    /// # Errors
    /// A spec the game cannot build, a bad opening, an agent that fails, or the sink's error.
    pub fn play<G: ToolGame>(self, game: G, kit: &AgentKit<G>) -> Result<RunSummary, RunError> {
        run_on(&game, kit, self)
    }
}

fn run_on<G: ToolGame>(game: &G, kit: &AgentKit<G>, run: Run<'_>) -> Result<RunSummary, RunError> {
    let cfg = run.config;
    if cfg.agents.is_empty() {
        return Err(RunError::new("no agents"));
    }
    // Every agent builds, and every external engine starts, before any game is played: an
    // engine that cannot start is an error with its reason, not a forfeit in every game.
    for spec in &cfg.agents {
        let mut agent = kit
            .build(spec, 0)
            .map_err(|e| RunError { unsupported: true, error: ToolError::spec(spec, e) })?;
        agent.ready().map_err(|e| RunError::from(ToolError::search(spec, e)))?;
    }
    let players = game.num_players();
    let initial = game.initial_state();
    let positions: Vec<G::State> = match &cfg.openings {
        Openings::RandomPlies(_) => Vec::new(),
        Openings::Positions(list) => list
            .iter()
            .enumerate()
            .map(|(i, p)| {
                game.parse_state(p).map_err(|e| RunError::new(format!("opening {}: {e}", i + 1)))
            })
            .collect::<Result<_, _>>()?,
    };
    if matches!(cfg.openings, Openings::Positions(_)) && positions.is_empty() {
        return Err(RunError::new("the openings file holds no position"));
    }
    let all = fixtures(cfg.agents.len(), players, cfg.games);
    let scheduled = all.len();
    check_resumed(cfg, run.resumed, scheduled)?;
    let done: BTreeSet<usize> = run.resumed.iter().map(|r| r.index).collect();
    let todo: Vec<Fixture> = all
        .into_iter()
        .filter(|f| match cfg.shard {
            Some((k, n)) => f.index % n == k - 1,
            None => true,
        })
        .filter(|f| !done.contains(&f.index))
        .collect();
    let mut summary = RunSummary { skipped: done.len(), ..RunSummary::default() };
    if cfg.sprt.is_some() && cfg.agents.len() != 2 {
        return Err(RunError::new("--sprt needs exactly two agents"));
    }

    if let Openings::RandomPlies(k) = cfg.openings {
        let base = positions.first().cloned().unwrap_or_else(|| initial.clone());
        if k > 0 && random_opening(game, &base, k, opening_seed(cfg.seed, 0)).is_none() {
            return Err(RunError::new(format!(
                "no line of {k} random plies keeps {} going: use fewer --openings-plies",
                cfg.game
            )));
        }
    }

    // The start of a fixture: its opening position and the opening moves in notation.
    let opening_of = |f: &Fixture| -> Result<Opening<G>, RunError> {
        let base = if positions.is_empty() {
            initial.clone()
        } else {
            positions[f.opening % positions.len()].clone()
        };
        let line = match cfg.openings {
            Openings::RandomPlies(k) if k > 0 => {
                random_opening(game, &base, k, opening_seed(cfg.seed, f.opening)).ok_or_else(
                    || {
                        RunError::new(format!(
                            "opening {}: no line of {k} random plies keeps {} going: use \
                             fewer --openings-plies",
                            f.opening, cfg.game
                        ))
                    },
                )?
            }
            _ => Vec::new(),
        };
        let mut start = base.clone();
        for &mv in &line {
            game.apply(&mut start, mv);
        }
        Ok((base, line, start))
    };

    let bar = progress_bar(cfg, todo.len());
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let names: Vec<String> = cfg.agents.iter().map(|a| a.to_string()).collect();
    let mut failure: Option<RunError> = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Result<GameRecord, RunError>>();
        for _ in 0..cfg.threads.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (todo, next, stop, names, opening_of) = (&todo, &next, &stop, &names, &opening_of);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let Some(f) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                let result = opening_of(f).and_then(|(base, line, start)| {
                    play_fixture(game, kit, cfg, names, f, &base, &line, &start)
                        .map(|record| GameRecord { scheduled, ..record })
                });
                if tx.send(result).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for message in rx {
            let record = match message {
                Ok(r) => r,
                Err(e) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            if let Err(e) = (run.sink)(&record) {
                failure.get_or_insert(RunError::from(e));
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            run.standings.add_paired(
                &record.seats,
                &record.result.to_outcome(),
                &record.seat_stats(),
                record.opening as u64,
            );
            summary.played += 1;
            bar.set_message(running_score(run.standings));
            bar.inc(1);
            if let Some(sprt) = &cfg.sprt {
                if let Some(p) = run.standings.pair(0, 1) {
                    let decision = sprt.decide_llr(sprt_llr(sprt, &p));
                    if decision != SprtDecision::Continue && summary.sprt.is_none() {
                        summary.sprt = Some(decision);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    });
    bar.finish_and_clear();
    if cfg.progress {
        eprintln!(
            "{}: played {} games in {:.1}s{}",
            cfg.game,
            summary.played,
            started.elapsed().as_secs_f64(),
            if summary.skipped > 0 {
                format!(", {} resumed", summary.skipped)
            } else {
                String::new()
            }
        );
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// A fixture's start: the opening's base position, the random plies played from it, and the
/// position the agents take over.
type Opening<G> = (<G as ply::Game>::State, Vec<<G as ply::Game>::Move>, <G as ply::Game>::State);

#[allow(clippy::too_many_arguments)]
fn play_fixture<G: ToolGame>(
    game: &G,
    kit: &AgentKit<G>,
    cfg: &TournamentConfig,
    names: &[String],
    f: &Fixture,
    base: &G::State,
    line: &[G::Move],
    start: &G::State,
) -> Result<GameRecord, RunError> {
    let seed = game_seed(cfg.seed, f.index);
    let mut seats: Vec<Seat<G>> = f
        .seats
        .iter()
        .enumerate()
        .map(|(s, &a)| {
            let spec = &cfg.agents[a];
            let agent = kit
                .build(spec, mix64(seed ^ (s as u64 + 1)))
                .map_err(|e| RunError { unsupported: true, error: ToolError::spec(spec, e) })?;
            Ok(Seat::new(agent, spec.budget()).with_clock(spec.clock))
        })
        .collect::<Result<_, RunError>>()?;
    let played = play_game(game, start, &mut seats, cfg.max_plies).map_err(|e| {
        let unsupported =
            matches!(&e, ArenaError::Search { source: SearchError::Unsupported { .. }, .. });
        let message = format!("{} game {}: {e}", cfg.game, f.index);
        let error = match &e {
            ArenaError::Search { source: SearchError::Engine { engine, .. }, .. } => {
                ToolError::Engine { protocol: engine.to_string(), message }
            }
            _ => ToolError::Input(message),
        };
        RunError { unsupported, error }
    })?;
    Ok(GameRecord {
        game: cfg.game.clone(),
        options: cfg.options.clone(),
        seed: cfg.seed,
        agents: names.to_vec(),
        index: f.index,
        scheduled: 0,
        terms: Some(cfg.terms()),
        opening: f.opening,
        seats: f.seats.clone(),
        opening_moves: format_line(game, base, line),
        start: game.format_state(start),
        moves: format_line(game, start, &played.moves),
        result: GameResult::from_outcome(&played.outcome),
        adjudicated: played.adjudicated,
        forfeit: played.forfeit.as_ref().map(|x| {
            format!("seat {} ({}) forfeits: {}", x.seat, names[f.seats[x.seat]], x.reason)
        }),
        stats: played
            .seats
            .iter()
            .zip(&f.seats)
            .map(|(st, &a)| SeatRecord {
                agent: names[a].clone(),
                moves: st.moves,
                time_us: micros(st.time),
                max_time_us: micros(st.max_time),
                forced: st.forced,
                solved: st.solved,
                solved_time_us: micros(st.solved_time),
                nodes: st.nodes,
                depth: st.depth,
            })
            .collect(),
        searches: played.searches.iter().map(MoveRecord::new).collect(),
    })
}

/// The running score for the progress line: `A 12.5 - B 7.5` for two agents, mean scores
/// otherwise.
pub(crate) fn running_score(s: &Standings) -> String {
    let names = s.names();
    if names.len() == 2 {
        if let Some(p) = s.pair(0, 1) {
            let (a, b) =
                (p.wins as f64 + p.draws as f64 / 2.0, p.losses as f64 + p.draws as f64 / 2.0);
            return format!("{} {a} - {b} {}", names[0], names[1]);
        }
    }
    names
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{n} {:.2}", s.agent(i).mean_reward()))
        .collect::<Vec<_>>()
        .join("  ")
}

fn progress_bar(cfg: &TournamentConfig, len: usize) -> ProgressBar {
    if !cfg.progress || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    let style =
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games  {msg}  (eta {eta})")
            .expect("a valid template")
            .progress_chars("=> ");
    bar.set_style(style);
    bar.set_prefix(cfg.game.clone());
    bar
}

/// The SPRT's log-likelihood ratio for a pairing: on the pentanomial record of its completed
/// opening pairs when the schedule pairs openings, on wins, draws and losses otherwise.
pub(crate) fn sprt_llr(sprt: &ply::arena::Sprt, p: &ply::arena::PairTotals) -> f64 {
    if p.pentanomial.iter().sum::<u64>() > 0 {
        sprt.llr_pentanomial(p.pentanomial)
    } else {
        sprt.llr(p.wins, p.draws, p.losses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixtures_come_in_whole_openings() {
        // Two agents, two seats: two games per opening.
        assert_eq!(fixtures(2, 2, 5).len(), 6);
        assert_eq!(fixtures(2, 2, 6).len(), 6);
        // Three agents: three pairs, two colours each.
        assert_eq!(fixtures(3, 2, 1).len(), 6);
        // Two agents at a three-player table: three rotations.
        assert_eq!(fixtures(2, 3, 4).len(), 6);
    }

    #[test]
    fn seeds_differ_per_game_and_opening() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_ne!(opening_seed(1, 0), game_seed(1, 0));
        assert_eq!(opening_seed(5, 3), opening_seed(5, 3));
    }
}
