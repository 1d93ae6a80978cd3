//! Search agreement checks: every enhancement of a search must give the root value of a plain
//! brute-force search of the same model at the same depth, and a best move among the moves
//! that reach it.
//!
//! - [`check_agreement`]: two-player [`AlphaBeta`] against plain minimax; [`check_search`]
//!   any other two-player searcher against the same reference.
//! - [`check_multiplayer_agreement`]: [`MultiplayerSearch`] with the paranoid, max^n and
//!   best-reply opponent models against a brute-force search of each model, for any number of
//!   players.
//!
//! A ruleset calls them from its tests on positions from [`random_positions`].
//!
//! # The references do not share the code they check
//!
//! The references are written out in this module, with no pruning, no table and no move
//! ordering, and they compute their leaf values themselves from the game's rules
//! ([`Game::outcome`], [`Game::evaluate`]) and the documented definitions: nothing of the
//! searches' own scoring is called. A finished game `ply` plies from the root scores
//! `Score::win_in(ply)` for the sole best player, its negation for a player someone else beats,
//! and zero for a shared first place; with margin scores it scores the player's score minus the
//! best other score (±1 for a win or loss, 0 for a draw). Max^n leaves are the players' shares
//! of the rank rewards of a finished game (1 for sole first place, 0 for sole last place, linear
//! in the rank, ties sharing the mean of their places), or the softmax of the players'
//! evaluations at the search's temperature.
//!
//! # Two players
//!
//! The reference is plain minimax from the root player's point of view with the search's leaf
//! rule: the root player maximises and its opponent minimises, read from each position's
//! player to move (so a game with extra turns, where a player moves twice in a row, is
//! judged by what it is and not by alternation); a terminal position scores as above, a
//! position at the horizon is evaluated if it is quiet, and with quiescence a non-quiet one is
//! searched one more ply, up to [`QUIESCENCE_DEPTH`] plies beyond the horizon. The
//! checked option sets are: plain alpha-beta, PVS alone, the transposition table alone (with
//! [`AlphaBetaOptions::tt_exact_depth`], since a deeper stored result legitimately changes a
//! fixed-depth value), aspiration windows alone (with a narrow window, so that re-searches
//! happen), killers plus history alone, internal iterative deepening (with the table),
//! quiescence alone, all of them together, and margin scores (plain, and with everything on).
//! Late-move reductions, null-move pruning and extensions are left out: they change the tree
//! searched, so they are judged by play. Repetition draws are off throughout: they depend on
//! the path, which plain minimax does not share with a transposition table.
//!
//! ```
//! use ply::games::TicTacToe;
//! use ply::testing::agreement::{check_agreement, random_positions};
//!
//! let game = TicTacToe;
//! let positions = random_positions(&game, 20, 6, 7);
//! check_agreement(&game, &positions, 3).unwrap();
//! ```
//!
//! # N players
//!
//! The references follow the model definitions of [`crate::search::multiplayer`]:
//!
//! - paranoid: the root player maximises its own value, every other player minimises it; one
//!   ply is one move;
//! - max^n: the player to move takes the child with the largest own share, the first such
//!   child in generation order on ties;
//! - best-reply (BRS+): between two turns of the root player, one opponent replies with any
//!   of its moves while the others play their first generated move; the root player takes the
//!   maximum, the opponents' layer the minimum over every replier and reply; a root move and the
//!   opponents' layer after it each count one unit of depth.
//!
//! Each model is checked with every enhancement on, without the table and move ordering,
//! without max^n's shallow pruning, and (paranoid and best-reply) with margin scores. Values
//! are compared, and the best move must be one whose reference value is the root value (ties
//! may break differently).
//!
//! ```
//! use ply::games::ThreeHeaps;
//! use ply::testing::agreement::{check_multiplayer_agreement, random_positions};
//!
//! let game = ThreeHeaps::new([3, 4, 5]).unwrap();
//! let positions = random_positions(&game, 6, 6, 1);
//! check_multiplayer_agreement(&game, &positions, 3).unwrap();
//! ```

use std::cmp::Ordering;
use std::fmt;

use num_traits::Zero;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, MoveList, Outcome, Player, Score};
use crate::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use crate::search::multiplayer::{MultiplayerOptions, MultiplayerSearch, OpponentModel};
use crate::search::{Agent, Budget, Position, Value};

/// The quiescence depth limit used by the check (and by its reference).
pub const QUIESCENCE_DEPTH: u32 = 4;

/// Max^n shares may differ from the reference's by this much (rounding).
pub const SHARE_TOLERANCE: f64 = 1e-9;

/// A search result that differs from the brute-force reference.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("position {position} ({state}), depth {depth}, options {options}: {problem}")]
pub struct Disagreement {
    /// Index of the position in the list given.
    pub position: usize,
    /// The position, debug-formatted.
    pub state: String,
    /// The search depth.
    pub depth: u32,
    /// The name of the option set that disagreed (for the multiplayer check, the opponent
    /// model and the option set, e.g. `paranoid/all`).
    pub options: &'static str,
    /// What differed.
    pub problem: String,
}

/// How the two-player reference scores: with quiescence (up to [`QUIESCENCE_DEPTH`] plies),
/// and with margin scores at finished games.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Mode {
    quiescence: bool,
    margin: bool,
}

/// Checks every enhancement option set of [`AlphaBeta`] against plain minimax at `depth` on
/// each of `positions` (terminal positions and positions with a single move are skipped).
///
/// # Errors
/// The first [`Disagreement`] found: a different root value, a best move whose reference value
/// is not the best, or a search error.
pub fn check_agreement<G: Game>(
    game: &G,
    positions: &[G::State],
    depth: u32,
) -> Result<(), Disagreement> {
    let base = AlphaBetaOptions { tt_mb: 1, ..AlphaBetaOptions::plain() };
    let all = AlphaBetaOptions {
        tt_mb: 1,
        tt_exact_depth: true,
        repetition: false,
        max_quiescence_depth: QUIESCENCE_DEPTH,
        iid: true,
        // Reductions, null moves and extensions change the searched tree: judged by play.
        lmr: false,
        null_move: false,
        extensions: false,
        ..AlphaBetaOptions::default()
    };
    let sets: [(&'static str, AlphaBetaOptions); 10] = [
        ("plain", base.clone()),
        ("pvs", AlphaBetaOptions { pvs: true, ..base.clone() }),
        ("tt", AlphaBetaOptions { tt: true, tt_exact_depth: true, ..base.clone() }),
        (
            "aspiration",
            AlphaBetaOptions { aspiration: true, aspiration_window: 1.0, ..base.clone() },
        ),
        ("ordering", AlphaBetaOptions { killers: true, history: true, ..base.clone() }),
        ("iid", AlphaBetaOptions { iid: true, tt: true, tt_exact_depth: true, ..base.clone() }),
        (
            "quiescence",
            AlphaBetaOptions {
                quiescence: true,
                max_quiescence_depth: QUIESCENCE_DEPTH,
                ..base.clone()
            },
        ),
        ("all", all.clone()),
        ("margin", AlphaBetaOptions { margin_scores: true, ..base.clone() }),
        ("all-margin", AlphaBetaOptions { margin_scores: true, ..all }),
    ];
    let mut agents: Vec<AlphaBeta> =
        sets.iter().map(|(_, o)| AlphaBeta::with_options(o.clone())).collect();
    let mut reference = Reference::new(game, Mode { quiescence: false, margin: false });
    let mut moves = MoveList::new();
    let budget = Budget::depth(depth);
    for (index, state) in positions.iter().enumerate() {
        game.generate_moves(state, &mut moves);
        if moves.len() < 2 || depth == 0 {
            continue;
        }
        // The reference values of the root moves, per scoring mode, computed when first needed.
        let mut computed: Vec<(Mode, Vec<G::Score>)> = Vec::new();
        for ((name, options), agent) in sets.iter().zip(agents.iter_mut()) {
            let mode = Mode { quiescence: options.quiescence, margin: options.margin_scores };
            let values = match computed.iter().find(|(m, _)| *m == mode) {
                Some((_, v)) => v.clone(),
                None => {
                    reference.mode = mode;
                    let v = reference.root_values(state, &moves, depth);
                    computed.push((mode, v.clone()));
                    v
                }
            };
            let searched = agent.run(game, Position::new(state), &budget).map_err(|e| {
                disagreement(index, state, depth, name, format!("search failed: {e}"))
            })?;
            let found = Found {
                raw: searched.score,
                value: Some(searched.report.value),
                best_move: searched.report.best_move,
            };
            judge::<G>(index, state, depth, name, &moves, &values, found)?;
        }
    }
    Ok(())
}

/// What a searcher under test answers for one position: its raw root score (for the player
/// to move, `None` when it has none), the value it reports (`None` to leave it unchecked) and
/// its best move.
struct Found<M, S> {
    raw: Option<S>,
    value: Option<Value>,
    best_move: M,
}

fn disagreement<S: fmt::Debug>(
    position: usize,
    state: &S,
    depth: u32,
    options: &'static str,
    problem: String,
) -> Disagreement {
    Disagreement { position, state: format!("{state:?}"), depth, options, problem }
}

/// Compares what a search found at one position with the reference values of its moves.
fn judge<G: Game>(
    index: usize,
    state: &G::State,
    depth: u32,
    name: &'static str,
    moves: &[G::Move],
    values: &[G::Score],
    found: Found<G::Move, G::Score>,
) -> Result<(), Disagreement> {
    let best = values.iter().copied().fold(values[0], |a, b| if b > a { b } else { a });
    let fail = |problem: String| disagreement(index, state, depth, name, problem);
    if found.raw != Some(best) {
        return Err(fail(format!("root value {:?}, reference {best:?}", found.raw)));
    }
    if let Some(value) = found.value {
        if !value_matches(value, best) {
            return Err(fail(format!("reported value {value:?} for the root value {best:?}")));
        }
    }
    let i = moves.iter().position(|&m| m == found.best_move);
    if i.map(|i| values[i]) != Some(best) {
        return Err(fail(format!(
            "best move {:?} has reference value {:?}, the best is {best:?}",
            found.best_move,
            i.map(|i| values[i])
        )));
    }
    Ok(())
}

/// Checks any two-player searcher against the plain reference at `depth` on each of
/// `positions` (terminal positions and positions with a single move are skipped), the way
/// [`check_agreement`] checks [`AlphaBeta`]: `search` answers a position with its root value
/// for the player to move and its best move, from a search to `depth` plies without
/// quiescence, with win/draw/loss scores (a win `n` plies away is `Score::win_in(n)`). `name`
/// names the searcher in a [`Disagreement`].
///
/// A searcher of one's own is checked this way, and so is the check itself: a negamax that
/// negates every child's value, whatever the player to move there, fails it on a game with
/// extra turns ([`crate::games::CoinRow`]).
///
/// ```
/// use ply::games::{TicTacToe, TicTacToeState};
/// use ply::testing::agreement::{check_search, random_positions};
/// use ply::{Game, MoveList, Score};
///
/// // Plain negamax (tic-tac-toe alternates, so negating every ply is right here).
/// fn negamax(game: &TicTacToe, s: &TicTacToeState, depth: u32, ply: u32) -> i32 {
///     if let Some(o) = game.outcome(s) {
///         return o.margin(game.to_move(s)).signum() * i32::win_in(ply);
///     }
///     if depth == 0 {
///         return game.evaluate(s, game.to_move(s));
///     }
///     let mut moves = MoveList::new();
///     game.generate_moves(s, &mut moves);
///     let child = |&mv: &u8| {
///         let mut c = *s;
///         game.apply(&mut c, mv);
///         -negamax(game, &c, depth - 1, ply + 1)
///     };
///     moves.iter().map(child).max().unwrap_or(0)
/// }
///
/// let game = TicTacToe;
/// let positions = random_positions(&game, 10, 5, 7);
/// check_search(&game, &positions, 3, "negamax", |s| {
///     let mut moves = MoveList::new();
///     game.generate_moves(s, &mut moves);
///     let value = |&mv: &u8| {
///         let mut c = *s;
///         game.apply(&mut c, mv);
///         -negamax(&game, &c, 2, 1)
///     };
///     let best = moves.iter().max_by_key(|mv| value(mv)).ok_or("no move")?;
///     Ok((value(best), *best))
/// })
/// .unwrap();
/// ```
///
/// # Errors
/// The first [`Disagreement`]: a different root value, a best move whose reference value is
/// not the best, or an error of `search`.
pub fn check_search<G, F>(
    game: &G,
    positions: &[G::State],
    depth: u32,
    name: &'static str,
    mut search: F,
) -> Result<(), Disagreement>
where
    G: Game,
    F: FnMut(&G::State) -> Result<(G::Score, G::Move), Box<dyn std::error::Error>>,
{
    let mut reference = Reference::new(game, Mode { quiescence: false, margin: false });
    let mut moves = MoveList::new();
    for (index, state) in positions.iter().enumerate() {
        game.generate_moves(state, &mut moves);
        if moves.len() < 2 || depth == 0 {
            continue;
        }
        let values = reference.root_values(state, &moves, depth);
        let (raw, best_move) = search(state)
            .map_err(|e| disagreement(index, state, depth, name, format!("search failed: {e}")))?;
        let found = Found { raw: Some(raw), value: None, best_move };
        judge::<G>(index, state, depth, name, &moves, &values, found)?;
    }
    Ok(())
}

/// Names of the multiplayer checks, by model (paranoid, max^n, best-reply) and option set.
const MULTIPLAYER_NAMES: [[&str; 4]; 3] = [
    [
        "paranoid/all",
        "paranoid/no-table-no-ordering",
        "paranoid/no-shallow-pruning",
        "paranoid/margin",
    ],
    ["maxn/all", "maxn/no-table-no-ordering", "maxn/no-shallow-pruning", "maxn/margin"],
    ["brs/all", "brs/no-table-no-ordering", "brs/no-shallow-pruning", "brs/margin"],
];

/// Checks [`MultiplayerSearch`] with each opponent model and option set against the
/// brute-force reference of the same model at `depth` on each of `positions` (terminal
/// positions and positions with a single move are skipped). Works for any number of players.
///
/// # Errors
/// The first [`Disagreement`] found: a different root value (max^n shares may differ by
/// [`SHARE_TOLERANCE`]), a best move whose reference value is not the root value, or a search
/// error.
pub fn check_multiplayer_agreement<G: Game>(
    game: &G,
    positions: &[G::State],
    depth: u32,
) -> Result<(), Disagreement> {
    let base = MultiplayerOptions { tt_mb: 1, repetition: false, ..MultiplayerOptions::default() };
    let sets: [MultiplayerOptions; 4] = [
        base.clone(),
        MultiplayerOptions { tt: false, killers: false, history: false, ..base.clone() },
        MultiplayerOptions { shallow_pruning: false, ..base.clone() },
        MultiplayerOptions { margin_scores: true, ..base },
    ];
    let models = [OpponentModel::Paranoid, OpponentModel::MaxN, OpponentModel::BestReply];
    let mut moves = MoveList::new();
    let budget = Budget::depth(depth);
    for (index, state) in positions.iter().enumerate() {
        game.generate_moves(state, &mut moves);
        if moves.len() < 2 || depth == 0 {
            continue;
        }
        let root = game.to_move(state);
        let children: Vec<G::State> = moves
            .iter()
            .map(|&mv| {
                let mut child = state.clone();
                game.apply(&mut child, mv);
                child
            })
            .collect();
        for (m, &model) in models.iter().enumerate() {
            // The reference values of the root moves: max^n root shares, or paranoid and
            // best-reply scores (`None` for a best-reply line in which nobody replied), by
            // margin scoring.
            let mut shares: Option<Vec<f64>> = None;
            let mut scores: [Option<Vec<Option<G::Score>>>; 2] = [None, None];
            for (k, options) in sets.iter().enumerate() {
                if options.margin_scores && model == OpponentModel::MaxN {
                    // Max^n scores finished games by rank rewards whatever the option says.
                    continue;
                }
                let fail = |problem: String| Disagreement {
                    position: index,
                    state: format!("{state:?}"),
                    depth,
                    options: MULTIPLAYER_NAMES[m][k],
                    problem,
                };
                let reference = Multiplayer {
                    game,
                    root,
                    margin: options.margin_scores,
                    temperature: options.temperature,
                };
                let mut engine = MultiplayerSearch::new(model).with_options(options.clone());
                let report = engine
                    .choose(game, Position::new(state), &budget)
                    .map_err(|e| fail(format!("search failed: {e}")))?;
                let i = moves.iter().position(|&mv| mv == report.best_move);
                let Some(i) = i else {
                    return Err(fail(format!("best move {:?} is not legal", report.best_move)));
                };
                if model == OpponentModel::MaxN {
                    let shares = shares.get_or_insert_with(|| {
                        children
                            .iter()
                            .map(|c| reference.maxn(c, depth - 1)[root.index()])
                            .collect()
                    });
                    // The root value is the first child with the largest root share.
                    let best = shares.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let Value::Reward(got) = report.value else {
                        return Err(fail(format!("value {:?}, not a share", report.value)));
                    };
                    if (got - best).abs() > SHARE_TOLERANCE {
                        return Err(fail(format!("root share {got}, reference {best}")));
                    }
                    if (shares[i] - best).abs() > SHARE_TOLERANCE {
                        return Err(fail(format!(
                            "best move {:?} leaves the root player {}, the best is {best}",
                            report.best_move, shares[i]
                        )));
                    }
                    continue;
                }
                let values = scores[usize::from(options.margin_scores)].get_or_insert_with(|| {
                    children
                        .iter()
                        .map(|c| {
                            if model == OpponentModel::Paranoid {
                                Some(reference.paranoid(c, depth - 1, 1))
                            } else {
                                reference.reply_layer(c, depth - 1, 1, false, false)
                            }
                        })
                        .collect()
                });
                let best = values
                    .iter()
                    .flatten()
                    .copied()
                    .fold(None, |a: Option<G::Score>, b| match a {
                        Some(a) if a >= b => Some(a),
                        _ => Some(b),
                    })
                    .unwrap_or_else(G::Score::zero);
                if !value_matches(report.value, best) {
                    return Err(fail(format!("value {:?}, reference {best:?}", report.value)));
                }
                if values[i] != Some(best) {
                    return Err(fail(format!(
                        "best move {:?} has reference value {:?}, the best is {best:?}",
                        report.best_move, values[i]
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Positions from seeded random games: up to `count` non-terminal positions, taken after 0 to
/// `max_plies` random moves from the initial state (one per game).
pub fn random_positions<G: Game>(
    game: &G,
    count: usize,
    max_plies: u32,
    seed: u64,
) -> Vec<G::State> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = MoveList::new();
    let mut out = Vec::with_capacity(count);
    for _ in 0..count * 4 {
        if out.len() == count {
            break;
        }
        let mut state = game.initial_state();
        let plies = rng.gen_range(0..=max_plies);
        for _ in 0..plies {
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.apply(&mut state, mv);
        }
        if game.outcome(&state).is_none() {
            out.push(state);
        }
    }
    out
}

/// True if `value`, as a search reports it, is the root value `score`: a proven win or loss
/// in as many plies, a heuristic of the same amount, or a draw for zero (a search reports a
/// zero it proved as a draw and one that rests on evaluations as a heuristic).
fn value_matches<S: Score>(value: Value, score: S) -> bool {
    if score.is_proven() {
        let plies = score.plies_to_end();
        let won = score > S::zero();
        match value {
            Value::Win(n) => won && Some(n) == plies,
            Value::Loss(n) => !won && Some(n) == plies,
            _ => false,
        }
    } else if score == S::zero() {
        value == Value::Draw || value == Value::Heuristic(0.0)
    } else {
        value == Value::Heuristic(score.to_f64())
    }
}

/// `player`'s score and the best score among the other players of a finished game: (1, 0) for
/// a win, (0, 1) for a loss, (0, 0) for a draw, the scores themselves for [`Outcome::Scores`].
fn own_and_best_other(outcome: &Outcome, player: Player) -> (i64, i64) {
    match outcome {
        Outcome::Winner(w) if *w == player => (1, 0),
        Outcome::Winner(_) => (0, 1),
        Outcome::Draw => (0, 0),
        Outcome::Scores(scores) => {
            let mine = scores.get(player.index()).copied().unwrap_or(0);
            let best_other = scores
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != player.index())
                .map(|(_, &s)| s)
                .max()
                .unwrap_or(0);
            (i64::from(mine), i64::from(best_other))
        }
    }
}

/// The reference score of a finished game for `player`, `ply` plies from the root.
fn finished<S: Score>(outcome: &Outcome, player: Player, ply: usize, margin: bool) -> S {
    let (mine, best_other) = own_and_best_other(outcome, player);
    if margin {
        return S::from_f64((mine - best_other) as f64);
    }
    match mine.cmp(&best_other) {
        Ordering::Greater => S::win_in(ply as u32),
        Ordering::Less => -S::win_in(ply as u32),
        Ordering::Equal => S::zero(),
    }
}

/// The two-player reference: plain minimax from the point of view of one player, the one to
/// move at the root, with the search's leaf rule. That player takes the largest value where
/// it is to move and its opponent the smallest, whoever moved last: the player to move is
/// read from each position, never assumed to alternate, and no value is negated on its way
/// up. A leaf scored for its own player to move (a finished game, the game's solver, the
/// evaluation) is turned to the root player's view there, once.
struct Reference<'a, G: Game> {
    game: &'a G,
    lists: Vec<MoveList<G::Move>>,
    mode: Mode,
    root: Player,
}

impl<'a, G: Game> Reference<'a, G> {
    fn new(game: &'a G, mode: Mode) -> Self {
        Reference { game, lists: Vec::new(), mode, root: Player::FIRST }
    }

    /// The value of each of `moves` from `state` for the player to move there, at `depth`.
    fn root_values(&mut self, state: &G::State, moves: &[G::Move], depth: u32) -> Vec<G::Score> {
        self.root = self.game.to_move(state);
        moves
            .iter()
            .map(|&mv| {
                let mut child = state.clone();
                self.game.apply(&mut child, mv);
                self.minimax(&child, depth - 1, 1, 0)
            })
            .collect()
    }

    /// `value`, a score for `player`, from the root player's point of view.
    fn for_root(&self, value: G::Score, player: Player) -> G::Score {
        if player == self.root {
            value
        } else {
            -value
        }
    }

    fn minimax(&mut self, state: &G::State, depth: u32, ply: usize, qply: u32) -> G::Score {
        let game = self.game;
        let mover = game.to_move(state);
        if let Some(o) = game.outcome(state) {
            return finished(&o, self.root, ply, self.mode.margin);
        }
        // The game's exact solver answers below the root, as in the search.
        if ply > 0 {
            let mut budget = crate::SolverBudget::unlimited();
            if let Some(solved) = game.solve_endgame(state, i32::MIN / 4, i32::MAX / 4, &mut budget)
            {
                let m = solved.margin();
                let v = if self.mode.margin {
                    G::Score::from_f64(f64::from(m))
                } else {
                    let at = ply as u32 + solved.plies().unwrap_or(1);
                    match m.signum() {
                        1 => G::Score::win_in(at),
                        -1 => -G::Score::win_in(at),
                        _ => G::Score::zero(),
                    }
                };
                return self.for_root(v, mover);
            }
        }
        let max_q = if self.mode.quiescence { QUIESCENCE_DEPTH } else { 0 };
        if depth == 0 && (qply >= max_q || game.is_quiet(state)) {
            return self.for_root(game.evaluate(state, mover), mover);
        }
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, MoveList::new);
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        game.generate_moves(state, &mut moves);
        let (d, q) = if depth > 0 { (depth - 1, 0) } else { (0, qply + 1) };
        let maximising = mover == self.root;
        let mut best = None;
        for &mv in moves.iter() {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            let v = self.minimax(&child, d, ply + 1, q);
            best = match best {
                Some(b) if (maximising && b >= v) || (!maximising && b <= v) => Some(b),
                _ => Some(v),
            };
        }
        self.lists[ply] = moves;
        best.unwrap_or_else(G::Score::zero)
    }
}

/// Brute-force searches of the three opponent models, from `root`'s side.
struct Multiplayer<'a, G: Game> {
    game: &'a G,
    root: Player,
    margin: bool,
    temperature: f64,
}

impl<G: Game> Multiplayer<'_, G> {
    fn moves(&self, state: &G::State) -> MoveList<G::Move> {
        let mut moves = MoveList::new();
        self.game.generate_moves(state, &mut moves);
        moves
    }

    fn child(&self, state: &G::State, mv: G::Move) -> G::State {
        let mut child = state.clone();
        self.game.apply(&mut child, mv);
        child
    }

    /// Paranoid minimax: the root player maximises, everyone else minimises.
    fn paranoid(&self, state: &G::State, depth: u32, ply: usize) -> G::Score {
        let game = self.game;
        if let Some(o) = game.outcome(state) {
            return finished(&o, self.root, ply, self.margin);
        }
        if depth == 0 {
            return game.evaluate(state, self.root);
        }
        let maximising = game.to_move(state) == self.root;
        let mut best: Option<G::Score> = None;
        for &mv in self.moves(state).iter() {
            let v = self.paranoid(&self.child(state, mv), depth - 1, ply + 1);
            best = match best {
                Some(b) if (maximising && b >= v) || (!maximising && b <= v) => Some(b),
                _ => Some(v),
            };
        }
        best.unwrap_or_else(G::Score::zero)
    }

    /// Best-reply search at a position where the root player moves.
    fn best_reply(&self, state: &G::State, depth: u32, ply: usize) -> G::Score {
        let game = self.game;
        if let Some(o) = game.outcome(state) {
            return finished(&o, self.root, ply, self.margin);
        }
        if depth == 0 {
            return game.evaluate(state, self.root);
        }
        let mut best: Option<G::Score> = None;
        for &mv in self.moves(state).iter() {
            let Some(v) =
                self.reply_layer(&self.child(state, mv), depth - 1, ply + 1, false, false)
            else {
                continue;
            };
            best = match best {
                Some(b) if b >= v => Some(b),
                _ => Some(v),
            };
        }
        best.unwrap_or_else(G::Score::zero)
    }

    /// The opponents' layer of best-reply search: the minimum over "one opponent replies with
    /// any move, the others play their first move". `replied`: the replier has moved;
    /// `entered`: an opponent has moved in this layer. `None` for a line where nobody replied.
    fn reply_layer(
        &self,
        state: &G::State,
        depth: u32,
        ply: usize,
        replied: bool,
        entered: bool,
    ) -> Option<G::Score> {
        let game = self.game;
        if let Some(o) = game.outcome(state) {
            return Some(finished(&o, self.root, ply, self.margin));
        }
        if game.to_move(state) == self.root {
            return match (entered, replied) {
                (false, _) => Some(self.best_reply(state, depth, ply)),
                (true, true) => Some(self.best_reply(state, depth - 1, ply)),
                (true, false) => None,
            };
        }
        if !entered && depth == 0 {
            return Some(game.evaluate(state, self.root));
        }
        let moves = self.moves(state);
        let Some(&first) = moves.first() else { return Some(G::Score::zero()) };
        // This opponent replies with each of its moves, or stands by with its first move.
        let mut lines: Vec<(G::Move, bool)> = Vec::new();
        if !replied {
            lines.extend(moves.iter().map(|&mv| (mv, true)));
        }
        lines.push((first, replied));
        lines
            .into_iter()
            .filter_map(|(mv, r)| self.reply_layer(&self.child(state, mv), depth, ply + 1, r, true))
            .fold(None, |a: Option<G::Score>, v| match a {
                Some(a) if a <= v => Some(a),
                _ => Some(v),
            })
    }

    /// Max^n: every player's share; the player to move takes the first child with the
    /// largest own share.
    fn maxn(&self, state: &G::State, depth: u32) -> Vec<f64> {
        let game = self.game;
        let n = game.num_players();
        if let Some(o) = game.outcome(state) {
            return shares_of_rewards(&o, n);
        }
        if depth == 0 {
            return softmax(game, state, self.temperature);
        }
        let me = game.to_move(state).index();
        let mut best: Option<Vec<f64>> = None;
        for &mv in self.moves(state).iter() {
            let v = self.maxn(&self.child(state, mv), depth - 1);
            let better = match &best {
                Some(b) => v[me] > b[me],
                None => true,
            };
            if better {
                best = Some(v);
            }
        }
        best.unwrap_or_else(|| shares_of_rewards(&Outcome::Draw, n))
    }
}

/// The rank rewards of a finished game divided by their sum (equal shares if they sum to 0).
/// A player's reward is 1 for sole first place and 0 for sole last place, linear in the rank;
/// tied players share the mean of their places.
fn shares_of_rewards(outcome: &Outcome, n: usize) -> Vec<f64> {
    let rank = |p: usize| -> f64 {
        match outcome {
            Outcome::Winner(w) if w.index() == p => 1.0,
            Outcome::Winner(_) => (2 + n) as f64 / 2.0,
            Outcome::Draw => (1 + n) as f64 / 2.0,
            Outcome::Scores(s) => {
                let better = s.iter().filter(|&&x| x > s[p]).count();
                let equal = s.iter().filter(|&&x| x == s[p]).count();
                better as f64 + (1 + equal) as f64 / 2.0
            }
        }
    };
    let rewards: Vec<f64> = (0..n)
        .map(|p| if n <= 1 { 1.0 } else { (n as f64 - rank(p)) / (n as f64 - 1.0) })
        .collect();
    let sum: f64 = rewards.iter().sum();
    if sum > 0.0 {
        rewards.iter().map(|r| r / sum).collect()
    } else {
        vec![1.0 / n as f64; n]
    }
}

/// `exp(e_p / T) / Σ exp(e_q / T)` over the players' evaluations `e` (a zero or negative
/// temperature counts as a tiny positive one).
fn softmax<G: Game>(game: &G, state: &G::State, temperature: f64) -> Vec<f64> {
    let t = temperature.max(1e-9);
    let scaled: Vec<f64> = (0..game.num_players())
        .map(|p| game.evaluate(state, Player::new(p)).to_f64() / t)
        .collect();
    let top = scaled.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = scaled.iter().map(|x| (x - top).exp()).collect();
    let sum: f64 = weights.iter().sum();
    weights.iter().map(|w| w / sum).collect()
}
