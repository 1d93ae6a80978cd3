//! Seeded random games that check every point of the [`Game`] contract, and the round trips of
//! [`Notation`].
//!
//! [`check_game`] and [`check_notation`] play [`Config::games`] random games with proptest: a
//! game is a list of move choices drawn from a fixed-seed ChaCha generator, so a run is
//! reproducible, and a failing game shrinks to a short line of moves that still breaks the
//! rule. The [`Violation`] names the rule, the line and what went wrong.
//!
//! Failure messages show positions and moves in the game's own notation
//! ([`Notation::format_state`], [`Notation::format_move`]) whenever the entry point knows it:
//! [`check_notation`], [`check_game_with_notation`] and [`assert_conforms`]. [`check_game`] and
//! [`assert_game_conforms`], for games without notation, show the `Debug` form. A state or move
//! whose formatting panics is shown in `Debug` form instead.
//!
//! ```
//! use ply::games::ConnectFour;
//! use ply::testing::{check_game, check_notation, Config};
//!
//! let game = ConnectFour::new(5, 4, 3)?;
//! let config = Config::default().with_games(16);
//! let report = check_game(&game, &config)?;
//! assert_eq!(report.games, 16);
//! check_notation(&game, &config)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use proptest::collection::vec;
use proptest::prelude::any;
use proptest::test_runner::{
    Config as RunnerConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};

use crate::game::{Game, MoveList, Notation, Outcome, Player, Score};
use crate::zobrist::mix64;

/// Settings of a conformance run. `S` is the game's state type.
///
/// ```
/// use ply::Game;
/// use ply::games::TicTacToe;
/// use ply::testing::Config;
///
/// let config = Config::default().with_games(100).with_seed(7).with_max_plies(9);
/// let config = config.with_starts(vec![TicTacToe.initial_state()]);
/// assert_eq!(config.starts.len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Config<S> {
    /// How many random games to play (proptest cases).
    pub games: u32,
    /// The seed of the move choices: the same seed replays the same games.
    pub seed: u64,
    /// A game that has not ended after this many plies breaks contract point 9.
    pub max_plies: usize,
    /// Positions to start the games from, picked at random; empty means the initial state.
    pub starts: Vec<S>,
    /// How many simplification steps proptest may take to shrink a failing game.
    pub max_shrink_iters: u32,
    /// Whether a parsed position must equal the original state (`true`), or only format to
    /// the same text with the same player to move, legal moves and hash, for games whose
    /// notation leaves out state the rules keep (such as a move counter).
    pub exact_state_round_trip: bool,
}

impl<S> Default for Config<S> {
    /// 64 games from the initial state, seed `0x706c79`, at most 1000 plies each.
    fn default() -> Self {
        Config {
            games: 64,
            seed: 0x706c79,
            max_plies: 1000,
            starts: Vec::new(),
            max_shrink_iters: 1024,
            exact_state_round_trip: true,
        }
    }
}

impl<S> Config<S> {
    /// This configuration with `games` random games.
    pub fn with_games(mut self, games: u32) -> Self {
        self.games = games;
        self
    }

    /// This configuration with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// This configuration with another cap on the length of a game.
    pub fn with_max_plies(mut self, max_plies: usize) -> Self {
        self.max_plies = max_plies;
        self
    }

    /// This configuration starting its games from `starts` instead of the initial state.
    pub fn with_starts(mut self, starts: Vec<S>) -> Self {
        self.starts = starts;
        self
    }

    /// This configuration comparing parsed positions by their text, moves and hash instead
    /// of by equality (see [`Config::exact_state_round_trip`]).
    pub fn with_loose_state_round_trip(mut self) -> Self {
        self.exact_state_round_trip = false;
        self
    }
}

/// A rule of the [`Game`] contract (numbered as in its documentation) or of [`Notation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// 1: `generate_moves` clears the list, lists each move once, and is deterministic.
    MoveGeneration,
    /// 1: `count_moves` equals the number of generated moves.
    MoveCount,
    /// 2: a state is terminal exactly when it has no legal move.
    TerminalIffNoMoves,
    /// 3: no method panics on a reachable state; `apply` never panics on a legal move.
    Panic,
    /// 4: a winner is a seat below `num_players()`; scores have one entry per player.
    MalformedOutcome,
    /// 5: the player to move is a seat below `num_players()`.
    PlayerOutOfRange,
    /// 6: evaluations are finite and strictly inside `±Score::WIN_RANGE`.
    Evaluation,
    /// 7: the hash is always or never present, and equal states have equal hashes.
    UnequalHashes,
    /// 7: the hash covers what the rules depend on: states with equal hashes have the same
    /// player to move and the same legal moves.
    HashCollision,
    /// 8: applying a move to a clone leaves the original unchanged.
    SharedClone,
    /// 9: every game ends (within [`Config::max_plies`]).
    NoEnd,
    /// Move keys: every [`Game::move_key`] of a legal move is below [`Game::move_key_space`].
    MoveKey,
    /// Null moves: in an unfinished game [`Game::null_move`] either leaves the state as it was
    /// and says so, or passes the turn to another player; in a two-player game passing back restores the state
    /// and its hash, and the passed state survives the notation round trip.
    NullMove,
    /// Notation: formatting a legal move and parsing the text gives the move back.
    MoveRoundTrip,
    /// Notation: formatting a position and parsing the text gives the position back.
    StateRoundTrip,
    /// Notation: malformed text is an error, never a panic, and never an illegal move.
    Malformed,
    /// Notation: rendering works, and without colour it is plain text; the picture for each
    /// viewer ([`Notation::render_for`]) shows the same characters, only moved.
    Render,
    /// Notation: a [`Notation::diagram`] has `rows * cols` cells and as many column and row
    /// labels as columns and rows (or none), and every cell of [`Notation::move_cells`] of a
    /// legal move is one of its cells. Two moves may have the same cells.
    Diagram,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::MoveGeneration => "move generation (contract 1)",
            Rule::MoveCount => "move count (contract 1)",
            Rule::TerminalIffNoMoves => "terminal iff no legal move (contract 2)",
            Rule::Panic => "no panic (contract 3)",
            Rule::MalformedOutcome => "well-formed outcome (contract 4)",
            Rule::PlayerOutOfRange => "player to move in range (contract 5)",
            Rule::Evaluation => "finite evaluation inside the win range (contract 6)",
            Rule::UnequalHashes => "equal states hash equally (contract 7)",
            Rule::HashCollision => "hash covers the state (contract 7)",
            Rule::SharedClone => "independent clones (contract 8)",
            Rule::NoEnd => "every game ends (contract 9)",
            Rule::MoveKey => "move key below the key space",
            Rule::NullMove => "null move passes the turn",
            Rule::MoveRoundTrip => "move notation round trip",
            Rule::StateRoundTrip => "position notation round trip",
            Rule::Malformed => "malformed text is rejected",
            Rule::Render => "rendering",
            Rule::Diagram => "diagram and move cells",
        })
    }
}

/// A broken rule, with the game that shows it: start with the same [`Config`] (the seed
/// replays the run) and play [`Violation::line`] from the start state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{rule} broken: {detail}\n  after moves {} from {start} (seed {seed:#x})", shorten(.line))]
pub struct Violation {
    /// The rule broken.
    pub rule: Rule,
    /// What went wrong, with the states and values involved.
    pub detail: String,
    /// The moves played from the start state: in the game's notation when the check has it
    /// (each move written in the position it was played from), in `Debug` form otherwise.
    pub line: String,
    /// Where the game started: `the initial state` or `start state #i` of [`Config::starts`].
    pub start: String,
    /// The seed of the run.
    pub seed: u64,
}

/// `text` cut to its first and last 200 characters when it is longer.
fn shorten(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 500 {
        return text.to_string();
    }
    let head: String = chars[..200].iter().collect();
    let tail: String = chars[chars.len() - 200..].iter().collect();
    format!("{head} ... {tail} ({} characters)", chars.len())
}

/// What a successful run checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Random games played to their end.
    pub games: u64,
    /// Moves applied.
    pub plies: u64,
    /// States checked, terminal ones included.
    pub states: u64,
    /// Moves formatted and parsed back ([`check_notation`]).
    pub moves_round_tripped: u64,
    /// Positions formatted and parsed back ([`check_notation`]).
    pub positions_round_tripped: u64,
    /// Malformed texts given to the parsers ([`check_notation`]).
    pub malformed_texts: u64,
}

impl Report {
    fn add(&mut self, other: &Report) {
        self.games += other.games;
        self.plies += other.plies;
        self.states += other.states;
        self.moves_round_tripped += other.moves_round_tripped;
        self.positions_round_tripped += other.positions_round_tripped;
        self.malformed_texts += other.malformed_texts;
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} games, {} plies, {} states", self.games, self.plies, self.states)?;
        if self.moves_round_tripped + self.positions_round_tripped > 0 {
            write!(
                f,
                ", {} moves and {} positions round-tripped, {} malformed texts",
                self.moves_round_tripped, self.positions_round_tripped, self.malformed_texts
            )?;
        }
        Ok(())
    }
}

/// Plays seeded random games and checks the [`Game`] contract at every state: points 1 to 9
/// of the trait's documentation (a state's hash is compared with those of every other state
/// reached in the run, across games, so transpositions are checked too: equal states must
/// have equal hashes, and states with equal hashes the same player to move and the same legal
/// moves). Failure messages show states and moves in `Debug` form; for a game with
/// [`Notation`], [`check_game_with_notation`] shows them in its notation.
///
/// # Errors
/// The first [`Violation`] found, shrunk to a short line of moves.
pub fn check_game<G: Game>(game: &G, config: &Config<G::State>) -> Result<Report, Violation> {
    run(game, config, &Plain, &|ctx: &mut Walk<'_, G>| ctx.check_contract())
}

/// [`check_game`] with failure messages in the game's notation: positions written with
/// [`Notation::format_state`], moves with [`Notation::format_move`] (a value whose formatting
/// panics is shown in `Debug` form).
///
/// ```
/// use ply::games::TicTacToe;
/// use ply::testing::{check_game_with_notation, Config};
///
/// let report = check_game_with_notation(&TicTacToe, &Config::default().with_games(8))?;
/// assert_eq!(report.games, 8);
/// # Ok::<(), ply::testing::Violation>(())
/// ```
///
/// # Errors
/// The first [`Violation`] found, shrunk to a short line of moves.
pub fn check_game_with_notation<G: Notation>(
    game: &G,
    config: &Config<G::State>,
) -> Result<Report, Violation> {
    run(game, config, &Written, &|ctx: &mut Walk<'_, G>| ctx.check_contract())
}

/// Plays seeded random games and checks [`Notation`] at every state: every legal move
/// formats and parses back to itself, the position formats and parses back to the same
/// state (see [`Config::exact_state_round_trip`]), malformed text is an error and never a
/// panic, [`Notation::render`] works (plain text without colour) and
/// [`Notation::render_for`] shows each viewer the same characters, and a
/// [`Notation::diagram`] holds its cells and every move's [`Notation::move_cells`]
/// ([`Rule::Diagram`]). Failure messages show positions and moves in the notation, with the
/// `Debug` form beside the values whose text is in question.
///
/// # Errors
/// The first [`Violation`] found, shrunk to a short line of moves.
pub fn check_notation<G: Notation>(
    game: &G,
    config: &Config<G::State>,
) -> Result<Report, Violation> {
    let exact = config.exact_state_round_trip;
    run(game, config, &Written, &|ctx: &mut Walk<'_, G>| check_notation_at(ctx, exact))
}

/// Runs [`check_game_with_notation`] and [`check_notation`] and panics with the violation's
/// text (positions and moves in the game's notation) if either fails: the one-line
/// conformance test of a ruleset.
///
/// ```
/// use ply::games::TicTacToe;
/// use ply::testing::{assert_conforms, Config};
///
/// assert_conforms(&TicTacToe, &Config::default());
/// ```
///
/// # Panics
/// If the game breaks a rule.
pub fn assert_conforms<G: Notation>(game: &G, config: &Config<G::State>) -> Report {
    let mut report = check_game_with_notation(game, config).unwrap_or_else(|v| panic!("{v}"));
    let notation = check_notation(game, config).unwrap_or_else(|v| panic!("{v}"));
    report.moves_round_tripped = notation.moves_round_tripped;
    report.positions_round_tripped = notation.positions_round_tripped;
    report.malformed_texts = notation.malformed_texts;
    report
}

/// [`check_game`] that panics with the violation's text (states and moves in `Debug` form),
/// for games without [`Notation`].
///
/// # Panics
/// If the game breaks a rule.
pub fn assert_game_conforms<G: Game>(game: &G, config: &Config<G::State>) -> Report {
    check_game(game, config).unwrap_or_else(|v| panic!("{v}"))
}

/// Texts that no game's notation should accept as a move or a position.
const MALFORMED: &[&str] = &[
    "",
    "   ",
    "\0",
    "@#$%^&",
    "\u{1F0A1}\u{2654}",
    "zz9zz9",
    "99999999999999999999999999",
    "-1",
    "/ / / /",
];

/// A broken rule before the line that shows it is attached.
struct Fault {
    rule: Rule,
    detail: String,
}

fn fault(rule: Rule, detail: impl Into<String>) -> Fault {
    Fault { rule, detail: detail.into() }
}

/// The message of a caught panic.
fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-text panic".to_string()
    }
}

/// Calls `f`, turning a panic into a [`Rule::Panic`] fault that names `what`.
fn guard<R>(what: impl FnOnce() -> String, f: impl FnOnce() -> R) -> Result<R, Fault> {
    catch_unwind(AssertUnwindSafe(f))
        .map_err(|p| fault(Rule::Panic, format!("{} panicked: {}", what(), panic_text(p))))
}

/// How failure messages show states and moves.
trait Describe<G: Game> {
    /// `state` as a failure message shows it.
    fn state(&self, game: &G, state: &G::State) -> String;
    /// `mv`, a move of `state`, as a failure message shows it.
    fn mv(&self, game: &G, state: &G::State, mv: G::Move) -> String;
}

/// States and moves in `Debug` form, for games without [`Notation`].
struct Plain;

impl<G: Game> Describe<G> for Plain {
    fn state(&self, _game: &G, state: &G::State) -> String {
        format!("{state:?}")
    }

    fn mv(&self, _game: &G, _state: &G::State, mv: G::Move) -> String {
        format!("{mv:?}")
    }
}

/// States and moves in the game's [`Notation`]; `Debug` form where formatting panics.
struct Written;

impl<G: Notation> Describe<G> for Written {
    fn state(&self, game: &G, state: &G::State) -> String {
        catch_unwind(AssertUnwindSafe(|| game.format_state(state)))
            .map(|text| format!("{text:?}"))
            .unwrap_or_else(|_| format!("{state:?}"))
    }

    fn mv(&self, game: &G, state: &G::State, mv: G::Move) -> String {
        catch_unwind(AssertUnwindSafe(|| game.format_move(state, mv)))
            .unwrap_or_else(|_| format!("{mv:?}"))
    }
}

/// Facts about states seen anywhere in the run, to compare hashes across games.
struct Seen<S, M> {
    /// Whether the game returns a hash (from the first state checked).
    has_hash: Option<bool>,
    /// The first state seen with each hash, its player to move and its legal moves.
    by_hash: HashMap<u64, (S, Player, Vec<M>)>,
    /// The first state seen with each `Debug` text, and its hash.
    by_text: HashMap<String, (S, Option<u64>)>,
}

/// Entries kept per table; later states are still checked against them.
const SEEN_CAP: usize = 50_000;

/// One random game in progress, with what the checks need.
struct Walk<'a, G: Game> {
    game: &'a G,
    describe: &'a dyn Describe<G>,
    seen: &'a RefCell<Seen<G::State, G::Move>>,
    state: G::State,
    moves: MoveList<G::Move>,
    last: Option<G::Move>,
    report: Report,
}

impl<G: Game> Walk<'_, G> {
    /// `state` as failure messages show it.
    fn show(&self, state: &G::State) -> String {
        self.describe.state(self.game, state)
    }

    /// `mv`, a move of `state`, as failure messages show it.
    fn show_move(&self, state: &G::State, mv: G::Move) -> String {
        self.describe.mv(self.game, state, mv)
    }

    /// The moves of `state` as failure messages show them.
    fn show_moves(&self, state: &G::State, moves: &[G::Move]) -> String {
        let texts: Vec<String> = moves.iter().map(|&m| self.show_move(state, m)).collect();
        format!("[{}]", texts.join(", "))
    }

    fn generate(&self, state: &G::State) -> Result<MoveList<G::Move>, Fault> {
        let mut moves = MoveList::new();
        guard(
            || format!("generate_moves on {}", self.show(state)),
            || self.game.generate_moves(state, &mut moves),
        )?;
        Ok(moves)
    }

    fn hash(&self, state: &G::State) -> Result<Option<u64>, Fault> {
        guard(|| format!("hash on {}", self.show(state)), || self.game.hash(state))
    }

    fn check_contract(&mut self) -> Result<(), Fault> {
        let (game, state, moves) = (self.game, &self.state, &self.moves);
        let n = game.num_players();
        let shown = || self.show(state);
        // 1: deterministic, cleared, no duplicates, counted.
        let mut again = moves.clone();
        guard(
            || format!("generate_moves on {}", shown()),
            || game.generate_moves(state, &mut again),
        )?;
        if again != *moves {
            let detail = format!(
                "generating twice (the second time into a list holding the first result) gave {} then {} for {}",
                self.show_moves(state, moves),
                self.show_moves(state, &again),
                shown()
            );
            return Err(fault(Rule::MoveGeneration, detail));
        }
        for (i, &a) in moves.iter().enumerate() {
            if moves[..i].contains(&a) {
                return Err(fault(
                    Rule::MoveGeneration,
                    format!(
                        "move {} ({a:?}) is listed twice in {} for {}",
                        self.show_move(state, a),
                        self.show_moves(state, moves),
                        shown()
                    ),
                ));
            }
        }
        let space = game.move_key_space();
        for &mv in moves.iter() {
            let key = guard(|| format!("move_key on {}", shown()), || game.move_key(state, mv))?;
            if space > 0 && key >= space {
                let detail = format!(
                    "move {} has key {key}, not below the key space {space}, in {}",
                    self.show_move(state, mv),
                    shown()
                );
                return Err(fault(Rule::MoveKey, detail));
            }
        }
        let count = guard(|| format!("count_moves on {}", shown()), || game.count_moves(state))?;
        if count != moves.len() as u64 {
            let detail = format!(
                "count_moves says {count} but generate_moves lists {} moves for {}",
                moves.len(),
                shown()
            );
            return Err(fault(Rule::MoveCount, detail));
        }
        // 2 and 4: terminal exactly without moves; a well-formed outcome.
        let outcome = guard(|| format!("outcome on {}", shown()), || game.outcome(state))?;
        if outcome.is_some() != moves.is_empty() {
            let detail = format!(
                "outcome is {outcome:?} but the legal moves are {} in {}",
                self.show_moves(state, moves),
                shown()
            );
            return Err(fault(Rule::TerminalIffNoMoves, detail));
        }
        match &outcome {
            Some(Outcome::Winner(w)) if w.index() >= n => {
                return Err(fault(
                    Rule::MalformedOutcome,
                    format!("winner {w:?} in a {n}-player game, in {}", shown()),
                ));
            }
            Some(Outcome::Scores(s)) if s.len() != n => {
                let detail =
                    format!("{} scores {s:?} in a {n}-player game, in {}", s.len(), shown());
                return Err(fault(Rule::MalformedOutcome, detail));
            }
            _ => {}
        }
        // 5: the player to move.
        let to_move = guard(|| format!("to_move on {}", shown()), || game.to_move(state))?;
        if to_move.index() >= n {
            return Err(fault(
                Rule::PlayerOutOfRange,
                format!("{to_move:?} to move in a {n}-player game, in {}", shown()),
            ));
        }
        // 6: evaluations for every player.
        let range = <G::Score as Score>::WIN_RANGE;
        for p in (0..n).map(Player::new) {
            let v =
                guard(|| format!("evaluate for {p:?} on {}", shown()), || game.evaluate(state, p))?;
            if !(v.to_f64().is_finite() && v > -range && v < range) {
                let detail =
                    format!("evaluate gives {v:?} for {p:?} (limit ±{range:?}) in {}", shown());
                return Err(fault(Rule::Evaluation, detail));
            }
        }
        // 7: hashes, against this state's clone and every state seen so far.
        let hash = self.hash(state)?;
        let copy = state.clone();
        if self.hash(&copy)? != hash {
            return Err(fault(
                Rule::UnequalHashes,
                format!("hashing {} twice gave different values", shown()),
            ));
        }
        self.check_null_move(to_move, hash)?;
        self.check_seen(to_move, hash)
    }

    /// The null-move rule at the current state (to move `to_move`, hash `hash`).
    fn check_null_move(&self, to_move: Player, hash: Option<u64>) -> Result<(), Fault> {
        let (game, state) = (self.game, &self.state);
        if self.moves.is_empty() {
            // Search never passes in a finished game.
            return Ok(());
        }
        let shown = || self.show(state);
        let mut passed = state.clone();
        let did = guard(|| format!("null_move on {}", shown()), || game.null_move(&mut passed))?;
        if !did {
            if passed != *state {
                let detail = format!("null_move declined but changed {}", shown());
                return Err(fault(Rule::NullMove, detail));
            }
            return Ok(());
        }
        let other =
            guard(|| format!("to_move after a pass from {}", shown()), || game.to_move(&passed))?;
        let mut back = passed.clone();
        let again =
            guard(|| format!("null_move twice from {}", shown()), || game.null_move(&mut back))?;
        let two = game.num_players() == 2;
        if other == to_move || (two && (!again || back != *state || self.hash(&back)? != hash)) {
            let detail = format!(
                "passing from {} left {other:?} to move; passing back {}",
                shown(),
                if back == *state { "restored it" } else { "did not restore it" }
            );
            return Err(fault(Rule::NullMove, detail));
        }
        Ok(())
    }

    /// Point 7 across the run: equal states have equal hashes, and states with equal hashes
    /// have the same player to move and the same legal moves (the moves are compared only
    /// when both states have some: a game may leave out of its hash a counter that only ends
    /// the game).
    fn check_seen(&self, to_move: Player, hash: Option<u64>) -> Result<(), Fault> {
        let (state, moves) = (&self.state, &self.moves);
        let mut seen = self.seen.borrow_mut();
        let has_hash = *seen.has_hash.get_or_insert(hash.is_some());
        if has_hash != hash.is_some() {
            return Err(fault(
                Rule::UnequalHashes,
                format!(
                    "hash is {hash:?} for {}, but other states {} one",
                    self.show(state),
                    if has_hash { "have" } else { "do not have" }
                ),
            ));
        }
        let text = format!("{state:?}");
        match seen.by_text.get(&text) {
            Some((other, h)) if other == state && *h != hash => {
                let detail = format!(
                    "equal states reached by different lines have hashes {h:?} and {hash:?}: {}",
                    self.show(state)
                );
                return Err(fault(Rule::UnequalHashes, detail));
            }
            Some(_) => {}
            None if seen.by_text.len() < SEEN_CAP => {
                seen.by_text.insert(text, (state.clone(), hash));
            }
            None => {}
        }
        let Some(h) = hash else { return Ok(()) };
        match seen.by_hash.get(&h) {
            Some((other, p, other_moves)) => {
                let same_moves = moves.is_empty()
                    || other_moves.is_empty()
                    || (moves.len() == other_moves.len()
                        && moves.iter().all(|m| other_moves.contains(m)));
                if *p != to_move || !same_moves {
                    let what = if *p != to_move {
                        "a different player to move"
                    } else {
                        "different legal moves"
                    };
                    let detail = format!(
                        "hash {h:#x} for two states with {what}: {} ({p:?} to move, moves {}) and {} ({to_move:?} to move, moves {})",
                        self.show(other),
                        self.show_moves(other, other_moves),
                        self.show(state),
                        self.show_moves(state, moves)
                    );
                    return Err(fault(Rule::HashCollision, detail));
                }
            }
            None if seen.by_hash.len() < SEEN_CAP => {
                seen.by_hash.insert(h, (state.clone(), to_move, moves.to_vec()));
            }
            None => {}
        }
        Ok(())
    }
}

/// The notation checks at one state. Messages give the `Debug` form beside the texts under
/// test.
fn check_notation_at<G: Notation>(ctx: &mut Walk<'_, G>, exact: bool) -> Result<(), Fault> {
    let (game, state, moves) = (ctx.game, &ctx.state, &ctx.moves);
    let shown = format!("{} ({state:?})", ctx.show(state));
    for &mv in moves.iter() {
        let text =
            guard(|| format!("format_move {mv:?} on {shown}"), || game.format_move(state, mv))?;
        let back =
            guard(|| format!("parse_move {text:?} on {shown}"), || game.parse_move(state, &text))?;
        if !matches!(back, Ok(m) if m == mv) {
            let detail =
                format!("move {mv:?} is written {text:?}, which parses as {back:?} in {shown}");
            return Err(fault(Rule::MoveRoundTrip, detail));
        }
        ctx.report.moves_round_tripped += 1;
        let noisy = format!("{text}\u{1}");
        let parsed = guard(
            || format!("parse_move {noisy:?} on {shown}"),
            || game.parse_move(state, &noisy),
        )?;
        if let Ok(m) = parsed {
            if !moves.contains(&m) {
                let detail =
                    format!("{noisy:?} parses as {m:?}, which is not a legal move of {shown}");
                return Err(fault(Rule::Malformed, detail));
            }
        }
    }
    let text = guard(|| format!("format_state on {state:?}"), || game.format_state(state))?;
    let back = guard(|| format!("parse_state {text:?}"), || game.parse_state(&text))?;
    let same = match &back {
        Ok(s) if exact => s == state,
        Ok(s) => {
            let again = guard(|| format!("format_state on {s:?}"), || game.format_state(s))?;
            let to_move = guard(|| format!("to_move on {s:?}"), || game.to_move(s))?;
            again == text
                && to_move == game.to_move(state)
                && ctx.generate(s)? == *moves
                && ctx.hash(s)? == ctx.hash(state)?
        }
        Err(_) => false,
    };
    if !same {
        let detail = format!("{state:?} is written {text:?}, which parses as {back:?}");
        return Err(fault(Rule::StateRoundTrip, detail));
    }
    ctx.report.positions_round_tripped += 1;
    // A passed position (which search reaches) is a position like any other.
    let mut passed = state.clone();
    if exact && !moves.is_empty() && game.null_move(&mut passed) {
        let text = guard(|| format!("format_state on {passed:?}"), || game.format_state(&passed))?;
        let back = guard(|| format!("parse_state {text:?}"), || game.parse_state(&text))?;
        if !matches!(&back, Ok(s) if *s == passed) {
            let detail = format!(
                "after a pass from {shown}, {passed:?} is written {text:?}, which parses as {back:?}"
            );
            return Err(fault(Rule::NullMove, detail));
        }
    }
    // Cut and corrupted texts may parse or not, but must not panic.
    let cut: String = text.chars().take(text.chars().count() / 2).collect();
    for noisy in
        [cut, format!("{text}\u{1}"), text.replacen(|c: char| !c.is_whitespace(), "\u{7f}", 1)]
    {
        let _ = guard(|| format!("parse_state {noisy:?}"), || game.parse_state(&noisy))?;
        ctx.report.malformed_texts += 1;
    }
    if ctx.report.plies == 0 {
        for &bad in MALFORMED {
            let mv =
                guard(|| format!("parse_move {bad:?} on {shown}"), || game.parse_move(state, bad))?;
            let pos = guard(|| format!("parse_state {bad:?}"), || game.parse_state(bad))?;
            if mv.is_ok() || pos.is_ok() {
                let detail = format!("{bad:?} parses as the move {mv:?} and the position {pos:?}");
                return Err(fault(Rule::Malformed, detail));
            }
            ctx.report.malformed_texts += 2;
        }
    }
    let last = ctx.last;
    let plain = guard(|| format!("render on {shown}"), || game.render(state, last, false))?;
    guard(|| format!("render with colour on {shown}"), || game.render(state, last, true))?;
    if plain.contains('\x1b') {
        return Err(fault(
            Rule::Render,
            format!("render without colour has escape codes: {plain:?}"),
        ));
    }
    let letters = |text: &str| {
        let mut all: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        all.sort_unstable();
        all
    };
    for viewer in (0..game.num_players()).map(Player::new) {
        let seen = guard(
            || format!("render_for {viewer} on {shown}"),
            || game.render_for(state, last, false, viewer),
        )?;
        guard(
            || format!("render_for {viewer} with colour on {shown}"),
            || game.render_for(state, last, true, viewer),
        )?;
        if letters(&seen) != letters(&plain) {
            return Err(fault(
                Rule::Render,
                format!("render_for {viewer} shows other characters than render: {seen:?}"),
            ));
        }
    }
    check_diagram_at(ctx, &shown)
}

/// The [`Rule::Diagram`] checks at one state (`shown` as messages show it): the grid's shape
/// and labels, and the cells of every legal move.
fn check_diagram_at<G: Notation>(ctx: &Walk<'_, G>, shown: &str) -> Result<(), Fault> {
    let (game, state) = (ctx.game, &ctx.state);
    let Some(d) = guard(|| format!("diagram on {shown}"), || game.diagram(state))? else {
        return Ok(());
    };
    let labels_fit = |labels: &[String], n: usize| labels.is_empty() || labels.len() == n;
    if d.cells.len() != d.rows * d.cols
        || !labels_fit(&d.col_labels, d.cols)
        || !labels_fit(&d.row_labels, d.rows)
    {
        let detail = format!(
            "the diagram of {shown} has {} cells, {} column labels and {} row labels for {} rows and {} columns",
            d.cells.len(),
            d.col_labels.len(),
            d.row_labels.len(),
            d.rows,
            d.cols
        );
        return Err(fault(Rule::Diagram, detail));
    }
    for &mv in ctx.moves.iter() {
        let cells =
            guard(|| format!("move_cells {mv:?} on {shown}"), || game.move_cells(state, mv))?;
        if let Some(&bad) = cells.iter().find(|&&c| c >= d.cells.len()) {
            let detail = format!(
                "move {} ({mv:?}) has cells {cells:?}, and {bad} is not one of the {} cells of the diagram of {shown}",
                ctx.show_move(state, mv),
                d.cells.len()
            );
            return Err(fault(Rule::Diagram, detail));
        }
    }
    Ok(())
}

type Check<'c, G> = dyn Fn(&mut Walk<'_, G>) -> Result<(), Fault> + 'c;

/// 32 seed bytes for ChaCha from a `u64`.
fn seed_bytes(seed: u64) -> [u8; 32] {
    let mut bytes = [0; 32];
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(&mix64(seed.wrapping_add(i as u64)).to_le_bytes());
    }
    bytes
}

fn start_name(config_starts: usize, index: usize) -> String {
    if config_starts == 0 {
        "the initial state".to_string()
    } else {
        format!("start state #{index}")
    }
}

/// Plays one game: from `starts[start]`, choosing move `choices[ply] % len` (the first move once
/// the choices run out), checking every state with `check`.
fn play<G: Game>(
    game: &G,
    config: &Config<G::State>,
    starts: &[G::State],
    seen: &RefCell<Seen<G::State, G::Move>>,
    describe: &dyn Describe<G>,
    check: &Check<'_, G>,
    (start, choices): &(usize, Vec<u32>),
) -> Result<Report, Violation> {
    // The moves played so far, each as failure messages show it.
    let mut line: Vec<String> = Vec::new();
    let violation = |f: Fault, line: &[String]| Violation {
        rule: f.rule,
        detail: f.detail,
        line: format!("[{}]", line.join(", ")),
        start: start_name(config.starts.len(), *start),
        seed: config.seed,
    };
    let mut walk = Walk {
        game,
        describe,
        seen,
        state: starts[*start].clone(),
        moves: MoveList::new(),
        last: None,
        report: Report::default(),
    };
    loop {
        walk.moves = walk.generate(&walk.state).map_err(|f| violation(f, &line))?;
        walk.report.states += 1;
        check(&mut walk).map_err(|f| violation(f, &line))?;
        if walk.moves.is_empty() {
            walk.report.games += 1;
            return Ok(walk.report);
        }
        if line.len() >= config.max_plies {
            let detail = format!("the game has not ended after {} plies", config.max_plies);
            return Err(violation(fault(Rule::NoEnd, detail), &line));
        }
        let choice = choices.get(line.len()).copied().unwrap_or(0) as usize;
        let mv = walk.moves[choice % walk.moves.len()];
        let next = apply_checked(&walk, mv).map_err(|f| violation(f, &line))?;
        line.push(walk.show_move(&walk.state, mv));
        walk.state = next;
        walk.last = Some(mv);
        walk.report.plies += 1;
    }
}

/// Applies `mv` to a clone of the walk's state, checking points 3, 7 and 8: no panic, the
/// original unchanged, and a new hash when the player to move changes.
fn apply_checked<G: Game>(walk: &Walk<'_, G>, mv: G::Move) -> Result<G::State, Fault> {
    let (game, state) = (walk.game, &walk.state);
    let saved = state.clone();
    let (text, hash, to_move) = (format!("{state:?}"), walk.hash(state)?, game.to_move(state));
    let shown_move = walk.show_move(state, mv);
    let mut next = state.clone();
    guard(
        || format!("apply {shown_move} ({mv:?}) to {}", walk.show(state)),
        || game.apply(&mut next, mv),
    )?;
    let moves_after = walk.generate(state)?;
    if *state != saved
        || format!("{state:?}") != text
        || walk.hash(state)? != hash
        || moves_after != walk.moves
    {
        let detail = format!(
            "applying {shown_move} to a clone changed the original from {} to {}",
            walk.show(&saved),
            walk.show(state)
        );
        return Err(fault(Rule::SharedClone, detail));
    }
    let next_to_move =
        guard(|| format!("to_move on {}", walk.show(&next)), || game.to_move(&next))?;
    if hash.is_some() && next_to_move != to_move && walk.hash(&next)? == hash {
        let detail = format!(
            "{shown_move} passes the turn from {to_move:?} to {next_to_move:?} but the hash stays {:#x}: {} then {}",
            hash.unwrap_or(0),
            walk.show(state),
            walk.show(&next)
        );
        return Err(fault(Rule::HashCollision, detail));
    }
    Ok(next)
}

/// Runs `check` at every state of `config.games` random games.
fn run<G: Game>(
    game: &G,
    config: &Config<G::State>,
    describe: &dyn Describe<G>,
    check: &Check<'_, G>,
) -> Result<Report, Violation> {
    let starts =
        if config.starts.is_empty() { vec![game.initial_state()] } else { config.starts.clone() };
    let seen =
        RefCell::new(Seen { has_hash: None, by_hash: HashMap::new(), by_text: HashMap::new() });
    let total = RefCell::new(Report::default());
    let last_violation = RefCell::new(None);
    let mut runner_config = RunnerConfig::with_cases(config.games);
    runner_config.failure_persistence = None;
    runner_config.max_shrink_iters = config.max_shrink_iters;
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes(config.seed));
    let mut runner = TestRunner::new_with_rng(runner_config, rng);
    let strategy = (0..starts.len(), vec(any::<u32>(), 0..=config.max_plies));
    let result = runner.run(&strategy, |case| {
        match play(game, config, &starts, &seen, describe, check, &case) {
            Ok(report) => {
                total.borrow_mut().add(&report);
                Ok(())
            }
            Err(v) => {
                let reason = v.to_string();
                *last_violation.borrow_mut() = Some(v);
                Err(TestCaseError::fail(reason))
            }
        }
    });
    match result {
        Ok(()) => Ok(total.into_inner()),
        Err(TestError::Fail(reason, minimal)) => {
            let replay = catch_unwind(AssertUnwindSafe(|| {
                play(game, config, &starts, &seen, describe, check, &minimal)
            }));
            match replay {
                Ok(Err(v)) => Err(v),
                _ => Err(last_violation.into_inner().unwrap_or_else(|| Violation {
                    rule: Rule::Panic,
                    detail: format!("the checks themselves failed: {reason}"),
                    line: format!("choices {:?}", minimal.1),
                    start: start_name(config.starts.len(), minimal.0),
                    seed: config.seed,
                })),
            }
        }
        Err(TestError::Abort(reason)) => Err(Violation {
            rule: Rule::Panic,
            detail: format!("the random games were aborted: {reason}"),
            line: String::new(),
            start: start_name(config.starts.len(), 0),
            seed: config.seed,
        }),
    }
}

/// How well a game's move keys tell moves apart, over seeded random games: see
/// [`move_key_spread`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeySpread {
    /// Legal moves seen, over every position of the games.
    pub moves: usize,
    /// The number of distinct keys among each position's moves, summed over the positions.
    pub distinct: usize,
}

impl KeySpread {
    /// The share of moves whose key no other move of the same position has, in `[0, 1]`.
    pub fn ratio(&self) -> f64 {
        if self.moves == 0 {
            1.0
        } else {
            self.distinct as f64 / self.moves as f64
        }
    }
}

/// Plays `games` random games from the start (seeded, at most `max_plies` plies each) and
/// measures how many of each position's moves have keys of their own. Keys may collide (it
/// only blurs search statistics), so this is a figure for a game's own tests to bound, not a
/// contract; that every key is below the key space is checked by [`check_game`].
///
/// # Panics
/// If a key is not below [`Game::move_key_space`].
///
/// ```
/// use ply::games::ConnectFour;
/// use ply::testing::move_key_spread;
///
/// let spread = move_key_spread(&ConnectFour::standard(), 10, 1, 200);
/// assert_eq!(spread.ratio(), 1.0); // a column's landing square names the move
/// ```
pub fn move_key_spread<G: Game>(game: &G, games: usize, seed: u64, max_plies: usize) -> KeySpread {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let space = game.move_key_space();
    let (mut moves, mut keys) = (MoveList::new(), Vec::new());
    let mut spread = KeySpread::default();
    for _ in 0..games {
        let mut state = game.initial_state();
        for _ in 0..max_plies {
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            keys.clear();
            keys.extend(moves.iter().map(|&m| game.move_key(&state, m)));
            assert!(keys.iter().all(|&k| k < space.max(1)), "keys {keys:?} not below {space}");
            spread.moves += keys.len();
            keys.sort_unstable();
            keys.dedup();
            spread.distinct += keys.len();
            let mv = moves[rng.gen_range(0..moves.len())];
            game.apply(&mut state, mv);
        }
    }
    spread
}
