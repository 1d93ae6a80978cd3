//! The conformance kit passes on the bundled games and catches deliberately broken ones,
//! each with the rule it breaks.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ply::diagram::Diagram;
use ply::games::{CoinRow, ConnectFour, ThreeHeaps, TicTacToe, TurnOrder};
use ply::testing::{assert_conforms, check_game, check_notation, Config, Rule};
use ply::zobrist::mix64;
use ply::{Game, MoveList, Notation, Outcome, Player};

#[test]
fn tictactoe_conforms() {
    let report = assert_conforms(&TicTacToe, &Config::default());
    assert_eq!(report.games, 64);
    assert!(report.plies >= 64 * 5, "{report}");
    assert!(report.moves_round_tripped > report.plies, "{report}");
}

#[test]
fn connect_four_conforms_at_several_sizes() {
    for (cols, rows, connect) in [(7, 6, 4), (4, 4, 3), (9, 6, 5), (8, 7, 6), (5, 9, 4)] {
        let game = ConnectFour::new(cols, rows, connect).unwrap();
        let report = assert_conforms(&game, &Config::default().with_games(32));
        assert_eq!(report.games, 32);
        assert!(report.states > report.plies, "{report}");
    }
}

#[test]
fn three_heaps_conforms() {
    for heaps in [[3, 4, 5], [1, 0, 7], [20, 20, 20]] {
        let report = assert_conforms(&ThreeHeaps::new(heaps).unwrap(), &Config::default());
        assert_eq!(report.games, 64);
    }
}

/// A game in which a player may move twice in a row (extra turns, an irregular turn order)
/// conforms like any other, and its random games do show players moving twice.
#[test]
fn coin_row_conforms_in_every_turn_order() {
    let coins = [3, 8, 2, 6, 1, 4, 9, 7, 5, 2, 2, 8];
    for turns in [TurnOrder::Alternate, TurnOrder::EvenAgain, TurnOrder::ThueMorse] {
        let game = CoinRow::new(&coins, turns).unwrap();
        let report = assert_conforms(&game, &Config::default());
        assert_eq!(report.plies, 64 * coins.len() as u64, "{turns:?}: {report}");
        let mut repeats = 0;
        let mut state = game.initial_state();
        while game.outcome(&state).is_none() {
            let before = game.to_move(&state);
            game.apply(&mut state, 1);
            repeats +=
                usize::from(game.outcome(&state).is_none() && game.to_move(&state) == before);
        }
        assert_eq!(repeats > 0, turns != TurnOrder::Alternate, "{turns:?}");
    }
}

#[test]
fn start_states_are_used() {
    let game = ConnectFour::standard();
    let start = game.parse_state("......./......./......./..ox.../..xo.../..ox...").unwrap();
    let config = Config::default().with_games(8).with_starts(vec![start]);
    let report = check_game(&game, &config).unwrap();
    // No window holds more than two discs of one colour, so a win takes three plies or more.
    assert!(report.plies >= 8 * 3, "{report}");
    let toy = Toy { bug: Bug::NanEvaluation };
    let config = Config::default().with_starts(vec![toy.initial_state(), toy.initial_state()]);
    let err = check_game(&toy, &config).unwrap_err();
    assert!(err.start.starts_with("start state #"), "{err}");
}

#[test]
fn runs_are_reproducible_from_the_seed() {
    let game = ConnectFour::new(6, 5, 4).unwrap();
    let config = Config::default().with_games(16).with_seed(42);
    let first = check_game(&game, &config).unwrap();
    assert_eq!(check_game(&game, &config).unwrap(), first);
    let other = check_game(&game, &config.clone().with_seed(43)).unwrap();
    assert_ne!(other.plies, first.plies, "another seed plays other games");
}

/// Which rule the toy game breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bug {
    None,
    PanicOnApply,
    OutcomeWithMoves,
    MovesAfterEnd,
    DuplicateMoves,
    ListNotCleared,
    WrongCount,
    ShortScores,
    WinnerOutOfRange,
    PlayerOutOfRange,
    NanEvaluation,
    HugeEvaluation,
    HashIgnoresTurn,
    HashOfMoveOrder,
    HashSometimes,
    KeyOutsideSpace,
    SharedClone,
    NeverEnds,
    MoveNotation,
    StateNotation,
    ParsePanics,
    AcceptsGarbage,
    ColourInPlainRender,
    ViewerSeesOtherText,
    DiagramShape,
    CellOffDiagram,
}

/// A three-player race: each turn adds 0 (a pass), 1 or 2 to a total; the game ends when the
/// total reaches 10 or after 30 plies, and each player scores the points they added. `bug`
/// breaks one rule.
#[derive(Clone, Copy, Debug)]
struct Toy {
    bug: Bug,
}

/// The state keeps two fields that are not part of the position: `order` (a fingerprint of the
/// move order, only used by the broken hash) and `shared` (a counter that only the broken
/// clone touches), so equality and `Debug` are written by hand.
#[derive(Clone, Default)]
struct ToyState {
    total: u8,
    plies: u8,
    points: [u8; 3],
    order: u64,
    shared: Arc<AtomicU64>,
}

impl PartialEq for ToyState {
    fn eq(&self, other: &Self) -> bool {
        (self.total, self.plies, self.points) == (other.total, other.plies, other.points)
            && self.shared.load(Ordering::Relaxed) == other.shared.load(Ordering::Relaxed)
    }
}

impl Eq for ToyState {}

impl std::fmt::Debug for ToyState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shared = self.shared.load(Ordering::Relaxed);
        write!(f, "total {} plies {} points {:?} ({shared})", self.total, self.plies, self.points)
    }
}

impl Toy {
    fn over(&self, s: &ToyState) -> bool {
        self.bug != Bug::NeverEnds && (s.total >= 10 || s.plies >= 30)
    }
}

impl Game for Toy {
    type State = ToyState;
    type Move = u8;
    type Score = f64;

    fn initial_state(&self) -> ToyState {
        ToyState::default()
    }

    fn num_players(&self) -> usize {
        3
    }

    fn to_move(&self, s: &ToyState) -> Player {
        match self.bug {
            Bug::PlayerOutOfRange if s.plies == 4 => Player(3),
            _ => Player::new(s.plies as usize % 3),
        }
    }

    fn generate_moves(&self, s: &ToyState, moves: &mut MoveList<u8>) {
        if self.bug != Bug::ListNotCleared {
            moves.clear();
        }
        if !self.over(s) || (self.bug == Bug::MovesAfterEnd && s.plies < 30) {
            moves.extend([0, 1, 2]);
            if self.bug == Bug::DuplicateMoves && s.total == 5 {
                moves.push(1);
            }
        }
    }

    fn count_moves(&self, s: &ToyState) -> u64 {
        let mut moves = MoveList::new();
        self.generate_moves(s, &mut moves);
        moves.len() as u64 + u64::from(self.bug == Bug::WrongCount && s.plies == 7)
    }

    fn apply(&self, s: &mut ToyState, mv: u8) {
        assert!(self.bug != Bug::PanicOnApply || s.total + mv < 7, "total out of range");
        s.points[s.plies as usize % 3] += mv;
        s.total = s.total.wrapping_add(mv);
        s.plies = s.plies.wrapping_add(1);
        s.order = s.order.wrapping_mul(31).wrapping_add(u64::from(mv) + 1);
        if self.bug == Bug::SharedClone {
            s.shared.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn outcome(&self, s: &ToyState) -> Option<Outcome> {
        let early = self.bug == Bug::OutcomeWithMoves && s.total >= 6;
        if !(self.over(s) || early) {
            return None;
        }
        Some(match self.bug {
            Bug::ShortScores => Outcome::from_scores(&[s.points[0].into(), s.points[1].into()]),
            Bug::WinnerOutOfRange => Outcome::Winner(Player(3)),
            _ => Outcome::Scores(s.points.iter().map(|&p| p.into()).collect()),
        })
    }

    fn evaluate(&self, s: &ToyState, player: Player) -> f64 {
        match self.bug {
            Bug::NanEvaluation if s.total == 3 => f64::NAN,
            Bug::HugeEvaluation if s.total == 3 => 2.0e9,
            _ => f64::from(s.points[player.index()]) - f64::from(s.total) / 3.0,
        }
    }

    fn move_key_space(&self) -> u32 {
        if self.bug == Bug::KeyOutsideSpace {
            2
        } else {
            3
        }
    }

    fn move_key(&self, _s: &ToyState, mv: u8) -> u32 {
        u32::from(mv)
    }

    fn hash(&self, s: &ToyState) -> Option<u64> {
        let position = u64::from(s.total)
            | u64::from(s.plies) << 8
            | u64::from(s.points[0]) << 16
            | u64::from(s.points[1]) << 24;
        match self.bug {
            Bug::HashIgnoresTurn => Some(mix64(u64::from(s.total) | u64::from(s.points[0]) << 8)),
            Bug::HashOfMoveOrder => Some(mix64(position ^ s.order << 32)),
            Bug::HashSometimes if s.total == 4 => None,
            _ => Some(mix64(position)),
        }
    }
}

/// Errors of the toy notation.
#[derive(Debug, thiserror::Error)]
#[error("bad toy text {0:?}")]
struct ToyError(String);

impl Notation for Toy {
    type Error = ToyError;

    fn format_move(&self, _s: &ToyState, mv: u8) -> String {
        let shown = if self.bug == Bug::MoveNotation { mv.min(1) } else { mv };
        shown.to_string()
    }

    fn parse_move(&self, s: &ToyState, text: &str) -> Result<u8, ToyError> {
        if self.bug == Bug::ParsePanics {
            let _first = text.as_bytes()[0];
        }
        let mut moves = MoveList::new();
        self.generate_moves(s, &mut moves);
        match text.parse::<u8>() {
            Ok(mv) if moves.contains(&mv) => Ok(mv),
            _ => Err(ToyError(text.to_string())),
        }
    }

    fn format_state(&self, s: &ToyState) -> String {
        let p = s.points;
        match self.bug {
            Bug::StateNotation => format!("{},{},{}", p[0], p[1], p[2]),
            _ => format!("{},{},{},{}", p[0], p[1], p[2], s.plies),
        }
    }

    fn parse_state(&self, text: &str) -> Result<ToyState, ToyError> {
        let err = || ToyError(text.to_string());
        let n: Result<Vec<u8>, _> =
            text.split(',').map(|x| x.parse().map_err(|_| err())).collect::<Result<_, _>>();
        let n = match (n, self.bug) {
            (Ok(n), _) => n,
            (Err(_), Bug::AcceptsGarbage) => vec![0, 0, 0, 0],
            (Err(e), _) => return Err(e),
        };
        let &[a, b, c, plies] = n.as_slice() else { return Err(err()) };
        let total = a.checked_add(b).and_then(|t| t.checked_add(c)).ok_or_else(err)?;
        Ok(ToyState { total, plies, points: [a, b, c], ..ToyState::default() })
    }

    fn render(&self, s: &ToyState, _last: Option<u8>, color: bool) -> String {
        let text = self.format_state(s);
        if color || self.bug == Bug::ColourInPlainRender {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text
        }
    }

    /// The second player sees the plain text back to front (the same characters, as a
    /// turned board shows them); with the bug the third sees a character more.
    fn render_for(&self, s: &ToyState, last: Option<u8>, color: bool, viewer: Player) -> String {
        let text = self.render(s, last, color);
        match viewer.index() {
            1 if !color => text.chars().rev().collect(),
            2 if self.bug == Bug::ViewerSeesOtherText => format!("{text}?"),
            _ => text,
        }
    }

    /// One row of three cells, one per move (0, 1, 2), labelled with the moves.
    fn diagram(&self, s: &ToyState) -> Option<Diagram> {
        let mut d = Diagram::new(1, 3);
        d.col_labels = ["0", "1", "2"].map(String::from).to_vec();
        if self.bug == Bug::DiagramShape && s.total == 4 {
            d.row_labels = vec!["1".into(), "2".into()];
        }
        Some(d)
    }

    fn move_cells(&self, s: &ToyState, mv: u8) -> Vec<usize> {
        let off = usize::from(self.bug == Bug::CellOffDiagram && s.total == 5);
        vec![usize::from(mv) + off]
    }
}

/// The rule `check_game` then `check_notation` report for a toy with `bug`.
fn broken_rule(bug: Bug) -> Option<Rule> {
    let config = Config::default().with_max_plies(200);
    let game = Toy { bug };
    let violation = check_game(&game, &config).and_then(|_| check_notation(&game, &config));
    violation.err().map(|v| {
        let text = v.to_string();
        assert!(text.contains("broken") && text.contains("after moves"), "{text}");
        v.rule
    })
}

#[test]
fn the_sound_toy_passes() {
    let report = assert_conforms(&Toy { bug: Bug::None }, &Config::default());
    assert_eq!(report.games, 64);
}

#[test]
fn each_broken_toy_is_caught_with_its_rule() {
    let cases = [
        (Bug::PanicOnApply, Rule::Panic),
        (Bug::OutcomeWithMoves, Rule::TerminalIffNoMoves),
        (Bug::MovesAfterEnd, Rule::TerminalIffNoMoves),
        (Bug::DuplicateMoves, Rule::MoveGeneration),
        (Bug::ListNotCleared, Rule::MoveGeneration),
        (Bug::WrongCount, Rule::MoveCount),
        (Bug::ShortScores, Rule::MalformedOutcome),
        (Bug::WinnerOutOfRange, Rule::MalformedOutcome),
        (Bug::PlayerOutOfRange, Rule::PlayerOutOfRange),
        (Bug::NanEvaluation, Rule::Evaluation),
        (Bug::HugeEvaluation, Rule::Evaluation),
        (Bug::HashIgnoresTurn, Rule::HashCollision),
        (Bug::HashOfMoveOrder, Rule::UnequalHashes),
        (Bug::HashSometimes, Rule::UnequalHashes),
        (Bug::KeyOutsideSpace, Rule::MoveKey),
        (Bug::SharedClone, Rule::SharedClone),
        (Bug::NeverEnds, Rule::NoEnd),
        (Bug::MoveNotation, Rule::MoveRoundTrip),
        (Bug::StateNotation, Rule::StateRoundTrip),
        (Bug::ParsePanics, Rule::Panic),
        (Bug::AcceptsGarbage, Rule::Malformed),
        (Bug::ColourInPlainRender, Rule::Render),
        (Bug::ViewerSeesOtherText, Rule::Render),
        (Bug::DiagramShape, Rule::Diagram),
        (Bug::CellOffDiagram, Rule::Diagram),
    ];
    for (bug, rule) in cases {
        assert_eq!(broken_rule(bug), Some(rule), "{bug:?}");
    }
}

#[test]
fn a_failing_game_shrinks_to_a_short_line() {
    // The apply panic needs a total of 5 or more and then a 2: three moves at the least.
    let err = check_game(&Toy { bug: Bug::PanicOnApply }, &Config::default()).unwrap_err();
    assert_eq!(err.rule, Rule::Panic);
    assert!(err.detail.contains("total out of range"), "{err}");
    assert!(err.line.matches(',').count() <= 4, "not shrunk: {err}");
    assert_eq!(err.start, "the initial state");
}

#[test]
fn a_game_that_never_ends_is_reported_at_the_cap() {
    let err = check_game(&Toy { bug: Bug::NeverEnds }, &Config::default().with_max_plies(50))
        .unwrap_err();
    assert_eq!(err.rule, Rule::NoEnd);
    assert!(err.detail.contains("50 plies"), "{err}");
}

/// A two-player take-away game: a pile of counters, each turn takes 1 or 2, whoever takes the
/// last counter wins. The same pile comes back with either player to move (1+2 and 2+1 leave
/// it with the other player to move than 1+1+1), so a hash of the pile alone collides for
/// states that differ only in the side to move.
#[derive(Clone, Copy, Debug)]
struct Pile {
    start: u8,
    /// The broken hash: the pile only, not the side to move.
    hash_ignores_turn: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PileState {
    left: u8,
    to_move: u8,
    /// Who took the last counter.
    last: u8,
}

impl Game for Pile {
    type State = PileState;
    type Move = u8;
    type Score = i32;

    fn initial_state(&self) -> PileState {
        PileState { left: self.start, to_move: 0, last: 0 }
    }
    fn num_players(&self) -> usize {
        2
    }
    fn to_move(&self, s: &PileState) -> Player {
        Player(s.to_move)
    }
    fn generate_moves(&self, s: &PileState, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.extend((1..=2).filter(|&k| k <= s.left));
    }
    fn apply(&self, s: &mut PileState, mv: u8) {
        s.left -= mv;
        s.last = s.to_move;
        s.to_move ^= 1;
    }
    fn outcome(&self, s: &PileState) -> Option<Outcome> {
        (s.left == 0).then_some(Outcome::Winner(Player(s.last)))
    }
    fn evaluate(&self, s: &PileState, p: Player) -> i32 {
        // Multiples of 3 lose for the player to move.
        let good_for_mover = if s.left.is_multiple_of(3) { -1 } else { 1 };
        if p.0 == s.to_move {
            good_for_mover
        } else {
            -good_for_mover
        }
    }
    fn hash(&self, s: &PileState) -> Option<u64> {
        // `last` only matters once the pile is empty, where it is the other player than
        // `to_move`, so the pile and the side to move are the whole position.
        let side = if self.hash_ignores_turn { 0 } else { u64::from(s.to_move) };
        Some(mix64(u64::from(s.left) << 1 | side))
    }
}

#[test]
fn a_hash_that_ignores_the_side_to_move_is_caught() {
    let sound = Pile { start: 12, hash_ignores_turn: false };
    let report = check_game(&sound, &Config::default()).unwrap();
    assert_eq!(report.games, 64);
    let broken = Pile { start: 12, hash_ignores_turn: true };
    let err = check_game(&broken, &Config::default()).unwrap_err();
    assert_eq!(err.rule, Rule::HashCollision, "{err}");
    assert!(err.detail.contains("a different player to move"), "{err}");
    // Both states are named, with their players to move.
    assert!(err.detail.contains("Player(0) to move") && err.detail.contains("Player(1) to move"));
    // Every move changes the pile, so only the comparison with states seen before (in this
    // game or an earlier one) can see the bug: the two states have the same pile.
    let piles: Vec<&str> = err.detail.matches("left: ").collect();
    assert_eq!(piles.len(), 2, "{err}");
    let pile = |i: usize| err.detail.split("left: ").nth(i).unwrap().split(',').next().unwrap();
    assert_eq!(pile(1), pile(2), "{err}");
}

#[test]
fn equal_states_with_different_hashes_are_caught() {
    // The hash of the move order: equal positions reached by different lines hash apart.
    let err = check_game(&Toy { bug: Bug::HashOfMoveOrder }, &Config::default()).unwrap_err();
    assert_eq!(err.rule, Rule::UnequalHashes);
    assert!(err.detail.contains("equal states reached by different lines"), "{err}");
}

#[test]
fn failure_messages_use_the_games_notation_when_it_has_one() {
    // The evaluation is NaN once the total reaches 3: the toy writes a position as
    // `points0,points1,points2,plies` and a move as its number.
    let toy = Toy { bug: Bug::NanEvaluation };
    let config = Config::default();
    let written = ply::testing::check_game_with_notation(&toy, &config).unwrap_err();
    let plain = check_game(&toy, &config).unwrap_err();
    assert_eq!((written.rule, plain.rule), (Rule::Evaluation, Rule::Evaluation));
    // The same game, shrunk the same way, shown two ways.
    assert_eq!(written.line, plain.line, "toy moves print the same as text and as Debug");
    assert!(plain.detail.contains("total 3 plies"), "Debug form: {plain}");
    assert!(!written.detail.contains("total 3"), "notation, not Debug: {written}");
    let state = toy.parse_state(written.detail.rsplit("in ").next().unwrap().trim_matches('"'));
    let state = state.unwrap_or_else(|e| panic!("the position in {written} is not notation: {e}"));
    assert_eq!(state.total, 3, "{written}");

    // `assert_conforms` panics with the notation form.
    let message = std::panic::catch_unwind(|| assert_conforms(&toy, &config)).unwrap_err();
    let message = message.downcast_ref::<String>().expect("a formatted panic message");
    assert!(message.contains(&written.detail), "{message}");

    // Moves in the line are written in notation too: Connect Four numbers its columns from 1
    // where the `Debug` form of a move is the column index from 0.
    let game = BrokenFour(ConnectFour::standard());
    let config = Config::default();
    let written = ply::testing::check_game_with_notation(&game, &config).unwrap_err();
    let plain = check_game(&game, &config).unwrap_err();
    assert_eq!((written.rule, plain.rule), (Rule::Evaluation, Rule::Evaluation));
    let columns = |line: &str| -> Vec<u8> {
        let line = line.trim_matches(|c| c == '[' || c == ']');
        line.split(", ").map(|m| m.parse().unwrap()).collect()
    };
    let (text, debug) = (columns(&written.line), columns(&plain.line));
    assert_eq!(text.len(), 4, "the evaluation breaks at four discs: {written}");
    assert_eq!(text, debug.iter().map(|c| c + 1).collect::<Vec<_>>(), "{written}\n{plain}");
    // The position is written as rows of discs, not as the state's fields.
    assert!(written.detail.contains('/') && !written.detail.contains("heights"), "{written}");
    assert!(plain.detail.contains("heights"), "{plain}");
}

/// Connect Four whose evaluation is NaN once four discs are down.
struct BrokenFour(ConnectFour);

impl Game for BrokenFour {
    type State = <ConnectFour as Game>::State;
    type Move = <ConnectFour as Game>::Move;
    type Score = f64;
    fn initial_state(&self) -> Self::State {
        self.0.initial_state()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn to_move(&self, s: &Self::State) -> Player {
        self.0.to_move(s)
    }
    fn generate_moves(&self, s: &Self::State, moves: &mut MoveList<Self::Move>) {
        self.0.generate_moves(s, moves)
    }
    fn apply(&self, s: &mut Self::State, mv: Self::Move) {
        self.0.apply(s, mv)
    }
    fn outcome(&self, s: &Self::State) -> Option<Outcome> {
        self.0.outcome(s)
    }
    fn evaluate(&self, s: &Self::State, p: Player) -> f64 {
        let discs = self.0.format_state(s).chars().filter(|c| *c == 'x' || *c == 'o').count();
        if discs >= 4 {
            f64::NAN
        } else {
            f64::from(self.0.evaluate(s, p))
        }
    }
    fn hash(&self, s: &Self::State) -> Option<u64> {
        self.0.hash(s)
    }
}

impl Notation for BrokenFour {
    type Error = <ConnectFour as Notation>::Error;
    fn format_move(&self, s: &Self::State, mv: Self::Move) -> String {
        self.0.format_move(s, mv)
    }
    fn parse_move(&self, s: &Self::State, text: &str) -> Result<Self::Move, Self::Error> {
        self.0.parse_move(s, text)
    }
    fn format_state(&self, s: &Self::State) -> String {
        self.0.format_state(s)
    }
    fn parse_state(&self, text: &str) -> Result<Self::State, Self::Error> {
        self.0.parse_state(text)
    }
}
