//! An independent model of the CodinGame referee (`acatai/CG_Impasse`, the "Impasse"
//! multiplayer puzzle), compared with the crate's move generation on random games, on the
//! stored referee lists and on the start position's perft.
//!
//! The model is written for these tests from the rules as the referee applies them (the
//! puzzle statement, `docs/references/impasse.md` and the crate docs), on a plain 64-square
//! array with one enum per square and the action texts built as strings: it shares no code,
//! representation or generation order with the crate's bitboards. Its rules:
//!
//! - A basic move is compulsory when one exists: a single slides diagonally forward, a double
//!   diagonally backward, each over empty squares; a transpose moves the top checker of a
//!   double onto a diagonally adjacent own single one row nearer to the owner.
//! - Without a basic move the player is at an impasse and removes a single, or the top of a
//!   double.
//! - A double that arrives on its owner's near row (by a slide or a transpose) bears off its
//!   top checker in the same action.
//! - After that, every pair (own single on the far row, another own single) is a separate
//!   action that crowns: the second single is put on top of the first. The candidates are the
//!   singles after the action, except that a single moved by a slide to a square outside the far
//!   row is not a candidate (the referee drops it), and an impasse removal of a single never
//!   crowns. Without a pair the action stands alone.
//! - Every removed checker scores 1; the player who removes the 12th wins; after 250 plies
//!   without a winner the game is drawn.
//! - An action's text is the squares `from` + `to` (a removal: the square alone), followed by
//!   the crowning single's square.

use std::fmt;

use ply::perft::{PerftLimit, PerftTable};
use ply::{Game, MoveList, Notation, Outcome, Player};
use ply_impasse::{board_lines, Impasse, ImpasseState};

/// Checkers per player.
const CHECKERS: u32 = 12;
/// Plies after which the referee stops the game.
const PLY_LIMIT: u32 = 250;

/// A square's content; the player is 0 (White) or 1 (Black).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Single(usize),
    Double(usize),
}

/// Square index: `column + 8 * (row - 1)`, column 0 is `a`, row 1 is White's near row.
type Sq = usize;

fn sq_name(sq: Sq) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

/// The square `dx` columns and `dy` rows away, if it is on the board.
fn step(sq: Sq, dx: i32, dy: i32) -> Option<Sq> {
    let (x, y) = ((sq % 8) as i32 + dx, (sq / 8) as i32 + dy);
    ((0..8).contains(&x) && (0..8).contains(&y)).then(|| (x + 8 * y) as usize)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    SingleSlide,
    DoubleSlide,
    Transpose,
    RemoveSingle,
    RemoveDouble,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Action {
    kind: Kind,
    from: Sq,
    to: Option<Sq>,
    bear_off: bool,
    /// The crowning: (the single put on top, the far-row single it crowns).
    crown: Option<(Sq, Sq)>,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", sq_name(self.from))?;
        if let Some(to) = self.to {
            write!(f, "{}", sq_name(to))?;
        }
        if let Some((source, _)) = self.crown {
            write!(f, "{}", sq_name(source))?;
        }
        Ok(())
    }
}

/// The referee's game state.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Referee {
    board: [Cell; 64],
    removed: [u32; 2],
    ply: u32,
}

impl Referee {
    /// The start: White singles a1, d2, e1, h2 and doubles b8, c7, f8, g7; Black singles a7,
    /// d8, e7, h8 and doubles b2, c1, f2, g1.
    fn start() -> Referee {
        let mut board = [Cell::Empty; 64];
        let at = |name: &str| -> Sq {
            let b = name.as_bytes();
            (b[0] - b'a') as usize + 8 * (b[1] - b'1') as usize
        };
        for (names, cell) in [
            (["a1", "d2", "e1", "h2"], Cell::Single(0)),
            (["b8", "c7", "f8", "g7"], Cell::Double(0)),
            (["a7", "d8", "e7", "h8"], Cell::Single(1)),
            (["b2", "c1", "f2", "g1"], Cell::Double(1)),
        ] {
            for name in names {
                board[at(name)] = cell;
            }
        }
        Referee { board, removed: [0, 0], ply: 0 }
    }

    /// Reads `<row 8>/.../<row 1> <w|b> [<white score> <black score> [<ply>]]`, checking the
    /// scores against the board.
    fn parse(text: &str) -> Referee {
        let mut fields = text.split_whitespace();
        let rows: Vec<&str> = fields.next().unwrap().split('/').collect();
        assert_eq!(rows.len(), 8, "{text}");
        let mut board = [Cell::Empty; 64];
        for (i, row) in rows.iter().enumerate() {
            for (col, c) in row.chars().enumerate() {
                board[col + 8 * (7 - i)] = match c {
                    '.' => Cell::Empty,
                    'w' => Cell::Single(0),
                    'b' => Cell::Single(1),
                    'W' => Cell::Double(0),
                    'B' => Cell::Double(1),
                    _ => panic!("{c:?} in {text}"),
                };
            }
        }
        let side = match fields.next() {
            Some("w") => 0,
            Some("b") => 1,
            other => panic!("side {other:?} in {text}"),
        };
        let numbers: Vec<u32> = fields.map(|n| n.parse().unwrap()).collect();
        let mut state = Referee { board, removed: [0, 0], ply: side };
        for p in 0..2 {
            state.removed[p] = CHECKERS - state.checkers(p);
            if numbers.len() >= 2 {
                assert_eq!(numbers[p], state.removed[p], "score of player {p} in {text}");
            }
        }
        if let Some(&ply) = numbers.get(2) {
            assert_eq!(ply % 2, side, "{text}");
            state.ply = ply;
        }
        state
    }

    fn to_move(&self) -> usize {
        (self.ply % 2) as usize
    }

    fn checkers(&self, p: usize) -> u32 {
        let count = |c: Cell| u32::from(c == Cell::Single(p)) + 2 * u32::from(c == Cell::Double(p));
        self.board.iter().map(|&c| count(c)).sum()
    }

    fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| self.removed[p] == CHECKERS)
    }

    fn is_over(&self) -> bool {
        self.winner().is_some() || self.ply >= PLY_LIMIT
    }

    /// Rows towards the far row: up for White, down for Black.
    fn forward(p: usize) -> i32 {
        if p == 0 {
            1
        } else {
            -1
        }
    }

    fn far_row(p: usize) -> usize {
        if p == 0 {
            7
        } else {
            0
        }
    }

    fn near_row(p: usize) -> usize {
        7 - Self::far_row(p)
    }

    /// Every legal action, each crowning choice a separate action.
    fn actions(&self) -> Vec<Action> {
        let p = self.to_move();
        let mut out = Vec::new();
        if self.is_over() {
            return out;
        }
        let singles: Vec<Sq> = (0..64).filter(|&s| self.board[s] == Cell::Single(p)).collect();
        let doubles: Vec<Sq> = (0..64).filter(|&s| self.board[s] == Cell::Double(p)).collect();
        let fwd = Self::forward(p);
        let basic = |kind, from, to: Sq, bear_off| Action {
            kind,
            from,
            to: Some(to),
            bear_off,
            crown: None,
        };
        let without = |list: &[Sq], gone: Sq| -> Vec<Sq> {
            list.iter().copied().filter(|&s| s != gone).collect()
        };
        for &s in &singles {
            for dx in [-1, 1] {
                let mut at = s;
                while let Some(t) = step(at, dx, fwd).filter(|&t| self.board[t] == Cell::Empty) {
                    let mut candidates = without(&singles, s);
                    if t / 8 == Self::far_row(p) {
                        candidates.push(t);
                    }
                    self.crowns(&mut out, basic(Kind::SingleSlide, s, t, false), &candidates);
                    at = t;
                }
            }
        }
        for &d in &doubles {
            for dx in [-1, 1] {
                let mut at = d;
                while let Some(t) = step(at, dx, -fwd).filter(|&t| self.board[t] == Cell::Empty) {
                    let bear_off = t / 8 == Self::near_row(p);
                    let mut candidates = singles.clone();
                    if bear_off {
                        candidates.push(t);
                    }
                    self.crowns(&mut out, basic(Kind::DoubleSlide, d, t, bear_off), &candidates);
                    at = t;
                }
            }
        }
        for &d in &doubles {
            for dx in [-1, 1] {
                let Some(t) = step(d, dx, -fwd).filter(|&t| self.board[t] == Cell::Single(p))
                else {
                    continue;
                };
                let bear_off = t / 8 == Self::near_row(p);
                // The double becomes a single; the single becomes a double, unless it bears off
                // at once and is a single again.
                let mut candidates = if bear_off { singles.clone() } else { without(&singles, t) };
                candidates.push(d);
                self.crowns(&mut out, basic(Kind::Transpose, d, t, bear_off), &candidates);
            }
        }
        if !out.is_empty() {
            return out;
        }
        for &s in &singles {
            let action = Action {
                kind: Kind::RemoveSingle,
                from: s,
                to: None,
                bear_off: false,
                crown: None,
            };
            out.push(action);
        }
        for &d in &doubles {
            let action = Action {
                kind: Kind::RemoveDouble,
                from: d,
                to: None,
                bear_off: false,
                crown: None,
            };
            let mut candidates = singles.clone();
            candidates.push(d);
            self.crowns(&mut out, action, &candidates);
        }
        out
    }

    /// `action` with each possible crowning among `candidates` (the player's singles after the
    /// action), or alone when no far-row single has another single to crown it.
    fn crowns(&self, out: &mut Vec<Action>, action: Action, candidates: &[Sq]) {
        let far = Self::far_row(self.to_move());
        let before = out.len();
        for &target in candidates.iter().filter(|&&t| t / 8 == far) {
            for &source in candidates.iter().filter(|&&s| s != target) {
                out.push(Action { crown: Some((source, target)), ..action });
            }
        }
        if out.len() == before {
            out.push(action);
        }
    }

    fn play(&mut self, a: Action) {
        let p = self.to_move();
        match a.kind {
            Kind::SingleSlide => {
                self.board[a.from] = Cell::Empty;
                self.board[a.to.unwrap()] = Cell::Single(p);
            }
            Kind::DoubleSlide => {
                self.board[a.from] = Cell::Empty;
                self.board[a.to.unwrap()] = Cell::Double(p);
            }
            Kind::Transpose => {
                self.board[a.from] = Cell::Single(p);
                self.board[a.to.unwrap()] = Cell::Double(p);
            }
            Kind::RemoveSingle => {
                self.board[a.from] = Cell::Empty;
                self.removed[p] += 1;
            }
            Kind::RemoveDouble => {
                self.board[a.from] = Cell::Single(p);
                self.removed[p] += 1;
            }
        }
        if a.bear_off {
            self.board[a.to.unwrap()] = Cell::Single(p);
            self.removed[p] += 1;
        }
        if let Some((source, target)) = a.crown {
            assert_eq!(self.board[source], Cell::Single(p));
            assert_eq!(self.board[target], Cell::Single(p));
            self.board[source] = Cell::Empty;
            self.board[target] = Cell::Double(p);
        }
        self.ply += 1;
    }

    /// The board lines the referee sends, row 8 first, joined by `/`.
    fn lines(&self) -> String {
        let row = |y: usize| -> String {
            (0..8)
                .map(|x| match self.board[x + 8 * y] {
                    Cell::Empty => '.',
                    Cell::Single(0) => 'w',
                    Cell::Single(_) => 'b',
                    Cell::Double(0) => 'W',
                    Cell::Double(_) => 'B',
                })
                .collect()
        };
        (0..8).rev().map(row).collect::<Vec<_>>().join("/")
    }

    /// The sorted action texts, as the referee sends them.
    fn texts(&self) -> Vec<String> {
        let mut t: Vec<String> = self.actions().iter().map(|a| a.to_string()).collect();
        t.sort();
        t
    }

    /// Leaves `depth` plies below (a finished game has none below it).
    fn perft(&self, depth: u32) -> u64 {
        let actions = self.actions();
        if depth <= 1 {
            return if depth == 0 { 1 } else { actions.len() as u64 };
        }
        actions
            .into_iter()
            .map(|a| {
                let mut next = self.clone();
                next.play(a);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// The crate's sorted action texts.
fn crate_texts(game: &Impasse, state: &ImpasseState) -> Vec<String> {
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let mut t: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    t.sort();
    t
}

/// Checks that the crate's position is the model's: board, scores, ply and result.
fn assert_same(game: &Impasse, state: &ImpasseState, model: &Referee, context: &str) {
    assert_eq!(board_lines(state).join("/"), model.lines(), "{context}");
    for p in 0..2 {
        assert_eq!(state.score(Player::new(p)), model.removed[p], "score {p}: {context}");
    }
    assert_eq!(u32::from(state.ply()), model.ply, "{context}");
    let expected = match (model.winner(), model.is_over()) {
        (Some(w), _) => Some(Outcome::Winner(Player::new(w))),
        (None, true) => Some(Outcome::Draw),
        (None, false) => None,
    };
    assert_eq!(game.outcome(state), expected, "{context}");
}

/// A small seeded generator (SplitMix64) so that failures replay.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Random games from the start, played by text in the model and in the crate side by side:
/// at every position the two lists of action texts are the same multiset, and after every
/// action the positions are the same. From the start no action list holds two equal texts
/// (the crate docs explain why), so playing by text is unambiguous.
#[test]
fn random_games_match_the_referee_model() {
    let game = Impasse::new();
    let (mut plies, mut impasses, mut crowns, mut bear_offs) = (0, 0, 0, 0);
    let mut results = [0; 3];
    for seed in 0..60u64 {
        let mut rng = Rng(seed);
        let mut model = Referee::start();
        let mut state = game.initial_state();
        assert_same(&game, &state, &model, "the start");
        loop {
            let texts = model.texts();
            let context = format!("seed {seed}, ply {}: {}", model.ply, game.format_state(&state));
            assert_eq!(crate_texts(&game, &state), texts, "{context}");
            assert!(texts.windows(2).all(|w| w[0] != w[1]), "equal texts: {texts:?} {context}");
            if texts.is_empty() {
                break;
            }
            let text = &texts[rng.below(texts.len())];
            let action = model.actions().into_iter().find(|a| a.to_string() == *text).unwrap();
            impasses += usize::from(matches!(action.kind, Kind::RemoveSingle | Kind::RemoveDouble));
            crowns += usize::from(action.crown.is_some());
            bear_offs += usize::from(action.bear_off);
            model.play(action);
            let mv = game.parse_move(&state, text).unwrap_or_else(|e| panic!("{e}: {context}"));
            game.apply(&mut state, mv);
            assert_same(&game, &state, &model, &format!("after {text}, {context}"));
            plies += 1;
        }
        results[model.winner().unwrap_or(2)] += 1;
    }
    // The games went through every rule: impasses, crowns, bear-offs, wins for both sides.
    assert!(
        plies > 3000 && impasses > 20 && crowns > 100 && bear_offs > 100,
        "{plies} plies, {impasses} impasses, {crowns} crowns, {bear_offs} bear-offs"
    );
    assert!(results[0] > 0 && results[1] > 0, "wins {results:?}");
}

/// The model reproduces `data/referee_lists.txt`, the lists produced by a transliteration of the
/// referee's own generator: the stored lists and the model check each other.
#[test]
fn the_model_reproduces_the_stored_referee_lists() {
    let data = include_str!("data/referee_lists.txt");
    let mut checked = 0;
    for (n, line) in data.lines().enumerate() {
        let (position, actions) = line.split_once(" | ").expect("<position> | <actions>");
        let expected: Vec<&str> = actions.split(' ').collect();
        assert_eq!(Referee::parse(position).texts(), expected, "line {}: {position}", n + 1);
        checked += 1;
    }
    assert!(checked > 1000);
}

/// True if the crate's position is the model's (see [`assert_same`]).
fn same(game: &Impasse, state: &ImpasseState, model: &Referee) -> bool {
    let p = std::panic::catch_unwind(|| assert_same(game, state, model, ""));
    p.is_ok()
}

/// Positions set up by hand that games from the start do not reach: two far-row singles (two
/// crowns with the same text), a crown waiting for a second single, crowns after a bear-off and
/// after an impasse, the ply limit. Where two actions print the same text, the crate's action
/// must be one of the referee's actions with that text (which one the referee plays depends on
/// the order of its piece lists).
#[test]
fn hand_set_positions_match_the_referee_model() {
    let game = Impasse::new();
    let mut shared_texts = 0;
    for position in [
        // White singles on a8 and c8 and one more on e1.
        "w.w...../......../......../......../......../......../.....b../....w..B w",
        // White singles on a8 and c8; the double on b2 bears off on a1 or c1, a third single.
        "w.w...../......../......../.......b/......../......../.W....../........ w",
        // White's only single, on d8, waits for a crown; the double can bear off to make one.
        "...w..../......../......../......../......../......../.W....../.......b w",
        // White at an impasse with a waiting far-row single: removing the double's top makes a
        // single that can crown it.
        "...w..../......../......../......../......../......../.W....../b.B..... w",
        // Black, with two far-row singles and a double that bears off on row 8.
        "......../.....B../......../......../......../......../......../b.b...w. b",
        // The ply limit: nothing to play.
        ".W.b.W.b/b.W.b.W./......../......../......../......../.B.w.B.w/w.B.w.B. w 0 0 250",
    ] {
        let state = game.parse_state(position).unwrap_or_else(|e| panic!("{position}: {e}"));
        let model = Referee::parse(position);
        assert_same(&game, &state, &model, position);
        let mut texts = model.texts();
        assert_eq!(crate_texts(&game, &state), texts, "{position}");
        let listed = texts.len();
        texts.dedup();
        shared_texts += listed - texts.len();
        for text in texts {
            let mut s = state;
            game.apply(&mut s, game.parse_move(&state, &text).unwrap());
            let afters: Vec<Referee> = model
                .actions()
                .into_iter()
                .filter(|a| a.to_string() == text)
                .map(|a| {
                    let mut after = model.clone();
                    after.play(a);
                    after
                })
                .collect();
            if let [after] = afters.as_slice() {
                assert_same(&game, &s, after, &format!("{text} in {position}"));
            } else {
                let found = afters.iter().any(|after| same(&game, &s, after));
                assert!(found, "{text} in {position}: {}", game.format_state(&s));
            }
        }
    }
    assert!(shared_texts >= 2, "{shared_texts} texts shared by two actions");
}

/// Counts every entry of `data/start.perft` within `limit` with the model, from the table's
/// position read by the model; returns how many were checked.
fn model_counts_the_start_table(limit: PerftLimit) -> usize {
    let table: PerftTable = include_str!("data/start.perft").parse().unwrap();
    let mut checked = 0;
    for case in &table.cases {
        let model = case.position.as_deref().map_or_else(Referee::start, Referee::parse);
        assert_eq!(model, Referee::start(), "the table counts from the start");
        for (depth, leaves) in case.within(limit) {
            assert_eq!(model.perft(depth), leaves, "depth {depth}");
            checked += 1;
        }
    }
    checked
}

/// `docs/references/impasse.md`: perft from the start, depths 1-4, counted by the model.
#[test]
fn the_model_counts_the_start_perft_table() {
    assert_eq!(model_counts_the_start_table(PerftLimit::Depth(4)), 4);
}

/// `docs/references/impasse.md`: perft from the start, depths 5-6, counted by the model
/// (slow in debug: `cargo test --release -p ply-impasse --test referee_model -- --ignored`).
#[test]
#[ignore = "deep perft: run in release"]
fn the_model_counts_the_start_perft_table_deep() {
    assert_eq!(model_counts_the_start_table(PerftLimit::Depth(6)), 6);
}
