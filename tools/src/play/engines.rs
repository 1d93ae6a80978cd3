//! The engines of a session: an [`Engine`] per engine seat (its agent, budget, spec and
//! book), built from the seats' specs, told of every move, replayed into a record, re-budgeted
//! by `time` and `depth`; the one-off engine of `hint` and `go` ([`assist`]); and a search
//! shown on a status line while it runs ([`search_showing_time`]).

use std::io::{self, Write};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use ply::book::Book;
use ply::search::{Agent, Budget, Position, Progress, SearchError, SearchReport};
use ply::zobrist::mix64;
use ply::{Game, MoveList, Notation, Record};

use super::search_handle::SearchHandle;
use super::{status_line, terminal_width, BudgetChange, PlayLoopError, Seat};
use crate::agents::AgentKit;
use crate::error::{ToolError, ToolResult};
use crate::spec::AgentSpec;

/// An engine seat: the agent that plays it, its budget a move, the spec it was built from and
/// the opening book it plays from (to tell book moves in its lines).
pub struct Engine<G: Game> {
    /// The agent.
    pub agent: Box<dyn Agent<G> + Send>,
    /// What it may spend on a move.
    pub budget: Budget,
    /// The spec it was built from.
    pub spec: AgentSpec,
    /// Its opening book, if it plays from one.
    pub book: Option<Arc<Book<G>>>,
}

impl<G: Game> std::fmt::Debug for Engine<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("spec", &self.spec.to_string()).finish_non_exhaustive()
    }
}

/// The engines of `seats` (none for a human seat), each seeded from `seed` and its seat
/// (unless its spec pins a seed), its tables allocated and its program started before the
/// first move.
///
/// # Errors
/// [`PlayLoopError::Spec`] for a spec that does not build for this game;
/// [`PlayLoopError::Search`] for an external engine that cannot start, with the operating
/// system's reason.
pub fn build_engines<G: Notation + Sync + 'static>(
    seats: &[Seat],
    seed: u64,
    kit: &AgentKit<G>,
) -> Result<Vec<Option<Engine<G>>>, PlayLoopError> {
    seats
        .iter()
        .enumerate()
        .map(|(s, seat)| match seat {
            Seat::Human => Ok(None),
            Seat::Engine(spec) => {
                let fail = |source| PlayLoopError::Spec { spec: spec.to_string(), source };
                let book = kit.book_for(spec).map_err(fail)?;
                let mut agent = kit.build(spec, mix64(seed ^ s as u64)).map_err(fail)?;
                agent
                    .ready()
                    .map_err(|source| PlayLoopError::Search { spec: spec.to_string(), source })?;
                // Tables are allocated now, before the first move's clock starts.
                agent.new_game();
                Ok(Some(Engine { agent, budget: spec.budget(), spec: spec.clone(), book }))
            }
        })
        .collect()
}

/// Tells every engine but the one of seat `skip` that `mv` was played.
pub(crate) fn observe_all<G: Game>(
    game: &G,
    engines: &mut [Option<Engine<G>>],
    before: &G::State,
    mv: G::Move,
    skip: Option<usize>,
) {
    for (s, engine) in engines.iter_mut().enumerate() {
        if let Some(engine) = engine.as_mut().filter(|_| Some(s) != skip) {
            engine.agent.observe(game, before, mv);
        }
    }
}

/// `record` from its start again with `moves`, every engine told of a new game and of each
/// move. Returns the index of the first move that cannot be played instead.
pub(crate) fn replay<G: Game>(
    record: &Record<'static, G>,
    moves: &[G::Move],
    engines: &mut [Option<Engine<G>>],
) -> Result<Record<'static, G>, usize> {
    replay_from(record, record.start(), moves, engines)
}

/// [`replay`] from the position `start` instead of the record's.
pub(crate) fn replay_from<G: Game>(
    record: &Record<'static, G>,
    start: &G::State,
    moves: &[G::Move],
    engines: &mut [Option<Engine<G>>],
) -> Result<Record<'static, G>, usize> {
    let mut fresh = record.clone();
    fresh.restart(start.clone());
    for engine in engines.iter_mut().flatten() {
        engine.agent.new_game();
    }
    for (i, &mv) in moves.iter().enumerate() {
        let before = fresh.state().clone();
        fresh.play(mv).map_err(|_| i)?;
        observe_all(record.game(), engines, &before, mv, None);
    }
    Ok(fresh)
}

/// Seed salt of the engine that answers `hint` and `go`, so it does not share the seed of
/// the engine seat it may replace.
const ASSIST_SALT: u64 = 0x6869_6e74;

/// The move an engine built from `spec` suggests for the side to move (`hint`, `go`): the
/// only legal move at once, else a search from a fresh engine seeded from `seed` and the
/// seat, so the same game gives the same suggestion. With `live`, a status line on its
/// writer while it thinks; with `watch`, the search publishes there and stops with its flag.
///
/// # Errors
/// A spec that does not build ([`ToolError::Spec`]), a search that fails, or failed output.
pub(crate) fn assist<G: Notation + Sync + 'static>(
    record: &Record<'_, G>,
    spec: &AgentSpec,
    seed: u64,
    kit: &AgentKit<G>,
    live: Option<(&str, &mut dyn Write)>,
    watch: Option<&SearchHandle>,
) -> ToolResult<SearchReport<G::Move>> {
    let game = record.game();
    let mut legal = MoveList::new();
    game.generate_moves(record.state(), &mut legal);
    if let [only] = legal.as_slice() {
        return Ok(SearchReport::instant(*only, Duration::ZERO));
    }
    let seat = game.to_move(record.state()).index() as u64;
    let mut agent = kit.build(spec, mix64(seed ^ seat ^ ASSIST_SALT))?;
    agent.new_game();
    let position = Position::with_history(record.state(), record.hashes());
    let budget = match watch {
        Some(watch) => watch.arm(spec.budget()),
        None => spec.budget(),
    };
    let searched = match live {
        Some((who, mut out)) => {
            search_showing_time(game, position, &mut agent, &budget, who, &mut out)
                .map_err(|e| ToolError::output(&e))?
        }
        None => agent.choose(game, position, &budget),
    };
    searched.map_err(|e| ToolError::search(spec, e))
}

/// How often the status line of a search is redrawn.
const STATUS_EVERY: Duration = Duration::from_millis(100);

/// Runs `agent`'s search on a thread of its own while a status line on `out` shows the time
/// it has taken and what the search has found so far ([`status_line`]: `White thinking 1.4s
/// depth 9  score +35  nps 1.2M  pv 11-15 23-19 ...`); the line is cleared when the search
/// ends.
pub(crate) fn search_showing_time<G: Notation + Sync + 'static>(
    game: &G,
    position: Position<'_, G::State>,
    agent: &mut Box<dyn Agent<G> + Send>,
    budget: &Budget,
    who: &str,
    out: &mut impl Write,
) -> Result<Result<SearchReport<G::Move>, SearchError>, io::Error> {
    let begun = std::time::Instant::now();
    let (done, finished) = mpsc::channel();
    let progress = Arc::new(Progress::new());
    let budget = budget.clone().with_progress(progress.clone());
    // One column spare: a line that fills the terminal would wrap before the `\r`.
    let columns = terminal_width().saturating_sub(1);
    let state = position.state;
    std::thread::scope(|scope| {
        let search = scope.spawn(move || {
            let result = agent.choose(game, position, &budget);
            let _ = done.send(());
            result
        });
        let mut width: usize = 0;
        let mut shown = Ok(());
        while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(STATUS_EVERY) {
            let info = progress.latest::<G::Move>();
            let status = status_line(game, state, who, begun.elapsed(), info.as_ref(), columns);
            let len = status.chars().count();
            let pad = width.saturating_sub(len);
            width = width.max(len);
            if shown.is_ok() {
                shown = write!(out, "\r{status}{:pad$}", "").and_then(|()| out.flush());
            }
        }
        let result = search.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        if width > 0 && shown.is_ok() {
            shown = write!(out, "\r{:width$}\r", "").and_then(|()| out.flush());
        }
        shown.map(|()| result)
    })
}

/// Applies `change` to `spec` if its algorithm takes that limit; false if it does not.
pub(crate) fn rebudget(spec: &mut AgentSpec, change: BudgetChange) -> bool {
    let key = match change {
        BudgetChange::Time(_) => "time",
        BudgetChange::Depth(_) => "depth",
    };
    if !spec.algorithm.accepts(key) {
        return false;
    }
    spec.time = None;
    spec.depth = None;
    spec.nodes = None;
    spec.iters = None;
    match change {
        BudgetChange::Time(t) => spec.time = Some(t),
        BudgetChange::Depth(d) => spec.depth = Some(d),
    }
    true
}

/// Applies `change` to every engine seat and to the specs of `hint` and `go`; returns a line
/// saying what the engines are now (and which ones kept their budget).
pub(crate) fn change_budgets<G: Game>(
    seats: &mut [Seat],
    engines: &mut [Option<Engine<G>>],
    helpers: &mut [AgentSpec],
    change: BudgetChange,
) -> String {
    for spec in helpers.iter_mut() {
        rebudget(spec, change);
    }
    let mut now = Vec::new();
    let mut kept = Vec::new();
    for (seat, engine) in seats.iter_mut().zip(engines.iter_mut()) {
        let (Seat::Engine(spec), Some(engine)) = (seat, engine.as_mut()) else {
            continue;
        };
        if rebudget(spec, change) {
            engine.budget = spec.budget();
            engine.spec = spec.clone();
            now.push(spec.to_string());
        } else {
            kept.push(spec.to_string());
        }
    }
    let mut text = match now.is_empty() {
        true => "no engine takes that limit".to_string(),
        false => format!("engines now: {}", now.join(", ")),
    };
    if !kept.is_empty() {
        text += &format!(" (unchanged: {})", kept.join(", "));
    }
    text
}
