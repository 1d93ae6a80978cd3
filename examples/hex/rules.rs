//! Hex's rules, written only against ply's public traits: the rules object, its notation,
//! its evaluation and its registration. Nothing in the bundle knows this game.

use ply::diagram::{Diagram, Piece, PieceKind};
use ply::zobrist::fold_words;
use ply::{Game, MoveList, Notation, Outcome, Player};
use ply_tools::registry::{bad, GameEntry};

/// The smallest and largest board sides.
pub const SIDES: std::ops::RangeInclusive<usize> = 3..=11;

/// Hex on an N x N rhombus (`3..=11`): Black (first) joins the top and bottom rows, White the
/// left and right columns; a move claims an empty cell, `a1` to the far corner (column letter,
/// row number from the top). A full board always has exactly one winner, so no draws.
#[derive(Clone, Copy, Debug)]
pub struct Hex {
    n: usize,
    /// Every cell of the board.
    board: u128,
    /// The cells of the first column (no neighbour to their left).
    first_column: u128,
    /// The cells of the last column (no neighbour to their right).
    last_column: u128,
}

/// A Hex position: each player's stones (bit `row * N + column`) and the player to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HexState {
    /// Black's stones, then White's.
    pub stones: [u128; 2],
    /// 0 for Black, 1 for White.
    pub to_move: u8,
}

/// Text that is not a Hex move or position, or a board size out of range.
#[derive(Debug, thiserror::Error)]
pub enum HexError {
    /// A move that is not an empty cell's name.
    #[error("not a legal Hex move here: {0:?} (a cell such as a1, empty)")]
    Move(String),
    /// A position that is not N rows of `x`, `o` and `.` then the player to move.
    #[error("not a Hex position: {0:?} (rows of x, o and . separated by /, then x or o to move)")]
    Position(String),
    /// A side outside `3..=11`.
    #[error("no Hex board of side {0}: 3 to 11")]
    Size(usize),
}

impl Hex {
    /// Hex on an `n` x `n` board.
    ///
    /// # Errors
    /// [`HexError::Size`] unless `n` is in [`SIDES`].
    pub fn new(n: usize) -> Result<Hex, HexError> {
        if !SIDES.contains(&n) {
            return Err(HexError::Size(n));
        }
        let cells = (0..n * n).fold(0u128, |b, c| b | 1 << c);
        let column = |q: usize| (0..n).fold(0u128, |b, r| b | 1 << (r * n + q));
        Ok(Hex { n, board: cells, first_column: column(0), last_column: column(n - 1) })
    }

    /// The cells next to any cell of `b`: the six hexagonal neighbours (row and column ±1, and
    /// the two diagonals up-right and down-left).
    fn around(&self, b: u128) -> u128 {
        let n = self.n;
        let right = (b << 1 | b >> (n - 1)) & !self.first_column;
        let left = (b >> 1 | b << (n - 1)) & !self.last_column;
        (right | left | b << n | b >> n) & self.board
    }

    /// The edges `player` joins: top and bottom rows for Black, the columns for White.
    fn edges(&self, player: u8) -> (u128, u128) {
        let row = |r: usize| ((1u128 << self.n) - 1) << (r * self.n);
        match player {
            0 => (row(0), row(self.n - 1)),
            _ => (self.first_column, self.last_column),
        }
    }

    /// Whether `player`'s stones join their two edges.
    fn connected(&self, s: &HexState, player: u8) -> bool {
        let own = s.stones[usize::from(player)];
        let (from, to) = self.edges(player);
        let mut reached = own & from;
        loop {
            let next = (reached | self.around(reached)) & own;
            if next & to != 0 {
                return true;
            }
            if next == reached {
                return false;
            }
            reached = next;
        }
    }

    /// How many more stones `player` needs to join their edges at the least, through empty
    /// cells and their own stones (0: joined; `None`: cut off). A breadth-first search by cost
    /// over bitboards: own stones cost nothing, empty cells one each.
    pub fn distance(&self, s: &HexState, player: u8) -> Option<u32> {
        let own = s.stones[usize::from(player)];
        let open = self.board & !s.stones[usize::from(1 - player)];
        let (from, to) = self.edges(player);
        let spread = |mut set: u128| loop {
            let next = set | (self.around(set) & own);
            if next == set {
                return set;
            }
            set = next;
        };
        // `reached`: the cells reachable for `cost` stones, each one's path ending on it.
        let mut reached = spread(from & own);
        let mut cost = 0;
        let mut frontier = (from | self.around(reached)) & open & !own;
        loop {
            if reached & to != 0 {
                return Some(cost);
            }
            let next = spread(reached | frontier) & open;
            if next == reached {
                return None;
            }
            cost += 1;
            frontier = self.around(next) & open & !next & !own;
            reached = next;
        }
    }
}

impl Game for Hex {
    type State = HexState;
    type Move = u8;
    type Score = i32;

    fn initial_state(&self) -> HexState {
        HexState::default()
    }

    fn num_players(&self) -> usize {
        2
    }

    fn to_move(&self, s: &HexState) -> Player {
        Player(s.to_move)
    }

    fn generate_moves(&self, s: &HexState, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.outcome(s).is_some() {
            return;
        }
        let mut empty = self.board & !(s.stones[0] | s.stones[1]);
        while empty != 0 {
            moves.push(empty.trailing_zeros() as u8);
            empty &= empty - 1;
        }
    }

    fn apply(&self, s: &mut HexState, mv: u8) {
        s.stones[usize::from(s.to_move)] |= 1 << mv;
        s.to_move ^= 1;
    }

    fn outcome(&self, s: &HexState) -> Option<Outcome> {
        // Only the player who just moved can have joined their edges.
        let last = s.to_move ^ 1;
        self.connected(s, last).then_some(Outcome::Winner(Player(last)))
    }

    /// The difference of the two players' distances to joining their edges, in stones, times
    /// 100: the classic resistance-free Hex evaluation.
    fn evaluate(&self, s: &HexState, p: Player) -> i32 {
        let far = (self.n * self.n) as i32;
        let distance = |q: u8| self.distance(s, q).map_or(far, |d| d as i32);
        let me = p.0;
        100 * (distance(1 - me) - distance(me))
    }

    fn hash(&self, s: &HexState) -> Option<u64> {
        let [b, w] = s.stones;
        Some(fold_words(0x0048_4558, &[b as u64, (b >> 64) as u64, w as u64, (w >> 64) as u64]))
    }

    fn move_key_space(&self) -> u32 {
        (self.n * self.n) as u32
    }

    fn move_key(&self, _s: &HexState, mv: u8) -> u32 {
        u32::from(mv)
    }
}

/// Cell `c`'s mark in text: `x` Black, `o` White, `.` empty.
fn cell_mark(s: &HexState, c: usize) -> char {
    match (s.stones[0] >> c & 1, s.stones[1] >> c & 1) {
        (1, _) => 'x',
        (_, 1) => 'o',
        _ => '.',
    }
}

impl Notation for Hex {
    type Error = HexError;

    fn format_move(&self, _s: &HexState, mv: u8) -> String {
        let c = usize::from(mv);
        format!("{}{}", (b'a' + (c % self.n) as u8) as char, c / self.n + 1)
    }

    fn parse_move(&self, s: &HexState, text: &str) -> Result<u8, HexError> {
        let mut moves = MoveList::new();
        self.generate_moves(s, &mut moves);
        let text = text.trim().to_ascii_lowercase();
        moves
            .into_iter()
            .find(|&m| self.format_move(s, m) == text)
            .ok_or_else(|| HexError::Move(text.to_string()))
    }

    /// Rows from the top separated by `/`, `x` Black, `o` White, `.` empty, then the player to
    /// move: `x.../..o./..../.... x`.
    fn format_state(&self, s: &HexState) -> String {
        let rows: Vec<String> = (0..self.n)
            .map(|r| (0..self.n).map(|q| cell_mark(s, r * self.n + q)).collect())
            .collect();
        format!("{} {}", rows.join("/"), if s.to_move == 0 { 'x' } else { 'o' })
    }

    fn parse_state(&self, text: &str) -> Result<HexState, HexError> {
        let bad = || HexError::Position(text.to_string());
        let (rows, mover) = text.trim().split_once(' ').ok_or_else(bad)?;
        let mut state = HexState {
            to_move: match mover.trim() {
                "x" => 0,
                "o" => 1,
                _ => return Err(bad()),
            },
            ..HexState::default()
        };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != self.n || rows.iter().any(|r| r.chars().count() != self.n) {
            return Err(bad());
        }
        for (c, ch) in rows.concat().chars().enumerate() {
            match ch {
                'x' => state.stones[0] |= 1 << c,
                'o' => state.stones[1] |= 1 << c,
                '.' => {}
                _ => return Err(bad()),
            }
        }
        let (black, white) = (state.stones[0].count_ones(), state.stones[1].count_ones());
        let turn_fits = black == white + u32::from(state.to_move);
        // The player to move cannot have joined their edges already.
        if !turn_fits || self.connected(&state, state.to_move) {
            return Err(bad());
        }
        Ok(state)
    }

    /// The rhombus with each row shifted half a cell from the one above, the last move in
    /// capitals.
    fn render(&self, s: &HexState, last_move: Option<u8>, _color: bool) -> String {
        let mut out = String::from("  ");
        out.extend((0..self.n).map(|q| format!(" {}", (b'a' + q as u8) as char)));
        out.push('\n');
        for r in 0..self.n {
            out.push_str(&format!("{}{:>2}", " ".repeat(r), r + 1));
            for q in 0..self.n {
                let c = r * self.n + q;
                let mark = cell_mark(s, c);
                let last = last_move.is_some_and(|m| usize::from(m) == c);
                out.push_str(&format!(" {}", if last { mark.to_ascii_uppercase() } else { mark }));
            }
            out.push('\n');
        }
        out
    }

    fn diagram(&self, s: &HexState) -> Option<Diagram> {
        let mut d = Diagram::new(self.n, self.n);
        for (c, cell) in d.cells.iter_mut().enumerate() {
            let owner = (0..2u8).find(|&p| s.stones[usize::from(p)] >> c & 1 == 1);
            cell.piece = owner.map(|p| Piece::new(Player(p), PieceKind::Glyph('o')));
        }
        Some(d)
    }

    fn move_cells(&self, _s: &HexState, mv: u8) -> Vec<usize> {
        vec![usize::from(mv)]
    }
}

/// Hex's registration: `--size N` (3 to 11, default 7), alpha-beta on the distance
/// evaluation as the terminal program's engine, and on 7x7 the network `tune zero` trained
/// for `puct:` and `gumbel:`.
pub fn entry() -> GameEntry<Hex> {
    GameEntry::new("hex", "Hex on an N x N rhombus, a game outside the bundle", |o| {
        let size = o.size.as_deref().unwrap_or("7");
        let n = size.parse().map_err(|_| bad("hex", "size", size, "expected a number"))?;
        Hex::new(n).map_err(|e| bad("hex", "size", size, e))
    })
    .accepts(
        &["size"],
        "--size N (3..=11, default 7); positions as rows of x, o and . split by /, then x or o",
    )
    .seat_names(&["Black", "White"])
    .engines("alphabeta:time=1s", "alphabeta:time=100ms")
    .learned_network(|game| {
        // Trained by `tune zero` from the rules alone (docs/learned.md), on the 7x7 board.
        (game.n == 7).then_some(&include_bytes!("hex-7.pv")[..])
    })
}
