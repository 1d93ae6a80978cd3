//! Connect Four on a board of any size: the tutorial game of the guide's "Implementing a game"
//! (`docs/implementing-a-game.md`), read top to bottom.

use crate::diagram::{Diagram, Piece, PieceKind};
use crate::eval::Evaluator;
use crate::game::{Game, MoveList, Notation, Outcome, Player, Solved};
use crate::picture::{chip, Chip};

/// Connect Four: players take turns dropping a disc into a column; the first to line up
/// `connect` discs in a row, column or diagonal wins, and a full board is a draw. X (player 0)
/// moves first.
///
/// A move is a column index `0..cols`, written `1..=cols`. A position is written as its rows,
/// top row first, separated by `/`, with `x`, `o` and `.` for an empty square.
///
/// ```
/// use ply::{Game, Notation};
/// use ply::games::ConnectFour;
///
/// let game = ConnectFour::new(5, 4, 3)?;
/// let mut state = game.initial_state();
/// let mv = game.parse_move(&state, "3")?;
/// game.apply(&mut state, mv);
/// assert_eq!(game.format_state(&state), "...../...../...../..x..");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    cols: usize,
    rows: usize,
    connect: usize,
    /// Every line of `connect` squares, for the evaluation.
    windows: Vec<u64>,
    /// Every square of the board.
    board: u64,
    /// The bottom square of every column.
    bottom: u64,
}

/// A Connect Four position: a bitboard per player and the height of every column. Square
/// `(col, row)` is bit `col * (rows + 1) + row`; the spare bit on top of each column stays
/// empty, so shifting a bitboard never carries a line from one column into the next. At 32
/// bytes it is cheap to copy, so search copies it instead of undoing moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConnectFourState {
    discs: [u64; 2],
    heights: [u8; 9],
}

/// Bad Connect Four input: an unsupported board, or text that is not a move or position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConnectFourError {
    /// The board (columns, rows) or the line length is out of range.
    #[error("unsupported board {0}x{1}, connect {2}: columns and rows must be 4..=9 with columns x (rows + 1) <= 64, and connect 3..=6 must fit the board")]
    Size(usize, usize, usize),
    /// Not a column number.
    #[error("invalid column {0:?}: expected a number from 1 to {1}")]
    Column(String, usize),
    /// The column is full, or the game is over.
    #[error("illegal move {0}: the column is full or the game is over")]
    Illegal(String),
    /// Not a position of this board.
    #[error("invalid position {0:?}: {1}")]
    Position(String, &'static str),
}

impl ConnectFour {
    /// The classic game: 7 columns, 6 rows, four in a row.
    pub fn standard() -> ConnectFour {
        ConnectFour::new(7, 6, 4).expect("the standard board is valid")
    }

    /// A board of `cols` x `rows` where `connect` in a row wins.
    ///
    /// # Errors
    /// `ConnectFourError::Size` unless columns and rows are 4..=9 with `cols * (rows + 1) <=
    /// 64` (the board fits a `u64`) and `connect` is 3..=6 and at most the longer side.
    pub fn new(cols: usize, rows: usize, connect: usize) -> Result<Self, ConnectFourError> {
        let size_ok = (4..=9).contains(&cols) && (4..=9).contains(&rows) && cols * (rows + 1) <= 64;
        if !size_ok || !(3..=6).contains(&connect) || connect > cols.max(rows) {
            return Err(ConnectFourError::Size(cols, rows, connect));
        }
        let mut game =
            ConnectFour { cols, rows, connect, windows: Vec::new(), board: 0, bottom: 0 };
        let (k, c, r) = (connect as i32 - 1, cols as i32, rows as i32);
        for (dc, dr) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            for (c0, r0) in (0..c).flat_map(|c0| (0..r).map(move |r0| (c0, r0))) {
                if c0 + dc * k < c && (0..r).contains(&(r0 + dr * k)) {
                    let line =
                        (0..=k).map(|i| game.bit((c0 + dc * i) as usize, (r0 + dr * i) as usize));
                    game.windows.push(line.fold(0, |m, b| m | b));
                }
            }
        }
        for c in 0..cols {
            game.bottom |= game.bit(c, 0);
            game.board |= (0..rows).fold(0, |m, r| m | game.bit(c, r));
        }
        Ok(game)
    }

    fn bit(&self, col: usize, row: usize) -> u64 {
        1 << (col * (self.rows + 1) + row)
    }

    fn owner(&self, state: &ConnectFourState, col: usize, row: usize) -> Option<usize> {
        (0..2).find(|&p| state.discs[p] & self.bit(col, row) != 0)
    }

    /// The bit steps of the four directions: up a column, along a row and the two diagonals.
    /// A step off the board from a square on it always lands first on a spare bit or past the
    /// last column, squares no disc is ever on, so shifts never join squares of two columns.
    fn directions(&self) -> [usize; 4] {
        let h = self.rows + 1;
        [1, h, h + 1, h - 1]
    }

    /// True if `discs` holds `connect` in a line: shift the board along each direction and
    /// keep the squares where a whole line starts.
    fn has_line(&self, discs: u64) -> bool {
        match self.connect {
            3 => self.has_line_of::<3>(discs),
            4 => self.has_line_of::<4>(discs),
            5 => self.has_line_of::<5>(discs),
            _ => self.has_line_of::<6>(discs),
        }
    }

    /// [`ConnectFour::has_line`] for lines of `K`, a constant so that the shifts unroll.
    fn has_line_of<const K: usize>(&self, discs: u64) -> bool {
        self.directions().iter().any(|&d| (1..K).fold(discs, |m, i| m & discs >> (i * d)) != 0)
    }

    /// The empty squares of the board.
    fn empty(&self, state: &ConnectFourState) -> u64 {
        self.board & !(state.discs[0] | state.discs[1])
    }

    /// The squares that are the lowest empty square of their column (where a drop lands).
    fn playable(&self, state: &ConnectFourState) -> u64 {
        // Adding a column's bottom bit to its discs carries up to its first empty square.
        ((state.discs[0] | state.discs[1]) + self.bottom) & self.board
    }

    /// The empty squares where a disc of the owner of `discs` would complete a line (its
    /// threats), for the line length of this game.
    fn winning_squares(&self, discs: u64, empty: u64) -> u64 {
        let wins = match self.connect {
            3 => self.line_ends::<3>(discs),
            4 => self.line_ends::<4>(discs),
            5 => self.line_ends::<5>(discs),
            _ => self.line_ends::<6>(discs),
        };
        wins & empty
    }

    /// The squares that complete a line of `K` with `discs`, empty or not: in each direction,
    /// a square with `j` discs before it and `K - 1 - j` after it, for some `j`. `K` is a
    /// constant so that the shifts unroll.
    fn line_ends<const K: usize>(&self, discs: u64) -> u64 {
        let mut wins = 0;
        for d in self.directions() {
            // before[j]: the squares with j discs in a row just before them; after[j] likewise.
            let (mut before, mut after) = ([!0u64; K], [!0u64; K]);
            for j in 1..K {
                before[j] = before[j - 1] & discs << (j * d);
                after[j] = after[j - 1] & discs >> (j * d);
            }
            for j in 0..K {
                wins |= before[j] & after[K - 1 - j];
            }
        }
        wins
    }

    /// The player who just moved, if that move completed a line.
    fn winner(&self, state: &ConnectFourState) -> Option<Player> {
        let last = state.to_move().opponent();
        self.has_line(state.discs[last.index()]).then_some(last)
    }
}

impl ConnectFourState {
    fn to_move(self) -> Player {
        Player::new((self.discs[0] | self.discs[1]).count_ones() as usize % 2)
    }
}

/// The evaluation of [`ConnectFour`], open windows: every line of `connect` squares that holds
/// discs of one player only is worth `4^discs` to that player, so an open three outweighs four
/// open twos; the value is the player's sum minus the opponent's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenWindows;

impl Evaluator<ConnectFour> for OpenWindows {
    fn evaluate(&self, game: &ConnectFour, state: &ConnectFourState, player: Player) -> i32 {
        let (mine, theirs) = (state.discs[player.index()], state.discs[1 - player.index()]);
        let open = |w: u64, a: u64, b: u64| match (a & w).count_ones() {
            n if n > 0 && b & w == 0 => 1 << (2 * n),
            _ => 0,
        };
        game.windows.iter().map(|&w| open(w, mine, theirs) - open(w, theirs, mine)).sum()
    }
}

impl Game for ConnectFour {
    type State = ConnectFourState;
    type Move = u8;
    type Score = i32;

    fn initial_state(&self) -> ConnectFourState {
        ConnectFourState::default()
    }

    fn num_players(&self) -> usize {
        2
    }

    fn to_move(&self, state: &ConnectFourState) -> Player {
        state.to_move()
    }

    fn generate_moves(&self, state: &ConnectFourState, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.winner(state).is_none() {
            for c in 0..self.cols {
                if (state.heights[c] as usize) < self.rows {
                    moves.push(c as u8);
                }
            }
        }
    }

    fn apply(&self, state: &mut ConnectFourState, col: u8) {
        let player = state.to_move().index();
        state.discs[player] |= self.bit(col as usize, state.heights[col as usize] as usize);
        state.heights[col as usize] += 1;
    }

    fn outcome(&self, state: &ConnectFourState) -> Option<Outcome> {
        let filled = (state.discs[0] | state.discs[1]).count_ones() as usize;
        match self.winner(state) {
            Some(w) => Some(Outcome::Winner(w)),
            None if filled == self.cols * self.rows => Some(Outcome::Draw),
            None => None,
        }
    }

    /// [`OpenWindows`].
    fn evaluate(&self, state: &ConnectFourState, player: Player) -> i32 {
        OpenWindows.evaluate(self, state, player)
    }

    /// Exact: x's discs plus each column's height as one bit above its discs encode the whole
    /// position in 64 bits, mixed so that the bits spread.
    fn hash(&self, state: &ConnectFourState) -> Option<u64> {
        // The bit above each column's discs: its bottom bit added to them carries there.
        let tops = (state.discs[0] | state.discs[1]) + self.bottom;
        Some(crate::zobrist::mix64(state.discs[0] | tops))
    }

    /// The square the disc lands on, `column * rows + row`: a drop into one column is a
    /// different move at every height.
    fn move_key_space(&self) -> u32 {
        (self.cols * self.rows) as u32
    }

    #[inline]
    fn move_key(&self, state: &ConnectFourState, col: u8) -> u32 {
        let height = u32::from(state.heights[usize::from(col)]);
        u32::from(col) * self.rows as u32 + height.min(self.rows as u32 - 1)
    }

    /// As Pons' solver: unless the player to move can win at once, a drop that lets the
    /// opponent win at once loses in two plies, the quickest loss there is, so exact solving
    /// searches only the block of an opponent's threat and the drops that are not under one
    /// (or a single move when every move loses so); where a move is left that lets the
    /// opponent no win at once, no loss comes sooner than in four plies.
    fn solve_prune(&self, state: &ConnectFourState, moves: &mut MoveList<u8>) -> Option<Solved> {
        let &first = moves.first()?;
        let me = state.to_move().index();
        let empty = self.empty(state);
        let playable = self.playable(state);
        if self.winning_squares(state.discs[me], empty) & playable != 0 {
            return None;
        }
        let threats = self.winning_squares(state.discs[1 - me], empty);
        let forced = threats & playable;
        // The drops that neither leave a threat unanswered nor open one above them.
        let safe = playable & !(threats >> 1);
        let keep = match forced.count_ones() {
            0 => safe,
            1 => forced,
            _ => 0,
        };
        let floor = (keep & safe != 0).then_some(Solved::Loss(4));
        if keep != playable {
            let square =
                |col: u8| self.bit(usize::from(col), usize::from(state.heights[col as usize]));
            moves.retain(|col| square(*col) & keep != 0);
            if moves.is_empty() {
                moves.push(first);
            }
        }
        floor
    }

    /// The threats of `player` (empty squares where its disc would complete a line) after the
    /// move, central columns breaking ties: Pons' solver's move order, cheaper than the
    /// evaluation, and proofs are as small.
    fn solve_order(
        &self,
        _: &ConnectFourState,
        col: u8,
        child: &ConnectFourState,
        player: Player,
    ) -> f64 {
        let empty = self.empty(child);
        let threats = self.winning_squares(child.discs[player.index()], empty).count_ones();
        let off_centre = (2 * usize::from(col)).abs_diff(self.cols - 1);
        f64::from(threats) * 32.0 - off_centre as f64
    }
}

impl Notation for ConnectFour {
    type Error = ConnectFourError;

    fn format_move(&self, _state: &ConnectFourState, col: u8) -> String {
        (col + 1).to_string()
    }

    fn parse_move(&self, state: &ConnectFourState, text: &str) -> Result<u8, ConnectFourError> {
        let text = text.trim();
        let col = match text.parse::<usize>() {
            Ok(n) if (1..=self.cols).contains(&n) => n as u8 - 1,
            _ => return Err(ConnectFourError::Column(text.to_string(), self.cols)),
        };
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        moves.contains(&col).then_some(col).ok_or(ConnectFourError::Illegal(text.to_string()))
    }

    fn format_state(&self, state: &ConnectFourState) -> String {
        let square = |c, r| ['x', 'o', '.'][self.owner(state, c, r).unwrap_or(2)];
        let rows = (0..self.rows).rev().map(|r| (0..self.cols).map(|c| square(c, r)).collect());
        rows.collect::<Vec<String>>().join("/")
    }

    fn parse_state(&self, text: &str) -> Result<ConnectFourState, ConnectFourError> {
        let text = text.trim();
        let fail = |why| ConnectFourError::Position(text.to_string(), why);
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != self.rows || rows.iter().any(|r| r.chars().count() != self.cols) {
            return Err(fail("wrong number of rows or columns"));
        }
        let mut state = ConnectFourState::default();
        for (r, line) in rows.iter().rev().enumerate() {
            for (c, ch) in line.chars().enumerate().filter(|&(_, ch)| ch != '.') {
                let player = "xo".find(ch.to_ascii_lowercase());
                let player = player.ok_or_else(|| fail("squares must be x, o or ."))?;
                if state.heights[c] as usize != r {
                    return Err(fail("a disc floats above an empty square"));
                }
                state.discs[player] |= self.bit(c, r);
                state.heights[c] += 1;
            }
        }
        let (x, o) = (state.discs[0].count_ones(), state.discs[1].count_ones());
        if x != o && x != o + 1 {
            return Err(fail("x moves first, so x has as many discs as o or one more"));
        }
        if self.has_line(state.discs[state.to_move().index()]) {
            return Err(fail("the player to move already has a line"));
        }
        Ok(state)
    }

    /// Rows top first over the column numbers; the disc played last is a capital letter. With
    /// `color`, x is a red chip and o a yellow one ([`crate::picture`]).
    fn render(&self, state: &ConnectFourState, last: Option<u8>, color: bool) -> String {
        let last = last.map(usize::from).filter(|&c| c < self.cols).map(|c| (c, state.heights[c]));
        let mut out = String::new();
        for r in (0..self.rows).rev() {
            for c in 0..self.cols {
                let (glyph, style) = match self.owner(state, c, r) {
                    Some(0) => ('x', Some(Chip::Red)),
                    Some(_) => ('o', Some(Chip::Yellow)),
                    None => ('.', None),
                };
                let glyph =
                    if last == Some((c, r as u8 + 1)) { glyph.to_ascii_uppercase() } else { glyph };
                out += &match (color, style) {
                    (true, Some(style)) => format!(" {}", chip(style, &glyph.to_string())),
                    _ => format!(" {glyph}"),
                };
            }
            out.push('\n');
        }
        out + &(1..=self.cols).map(|c| format!(" {c}")).collect::<String>()
    }

    /// The board as it stands, bottom row at the bottom, a [`PieceKind::Disc`] of its
    /// player on every filled square, the columns labelled `1..=cols` as moves are written.
    fn diagram(&self, state: &ConnectFourState) -> Option<Diagram> {
        let mut d = Diagram::new(self.rows, self.cols);
        d.col_labels = (1..=self.cols).map(|c| c.to_string()).collect();
        for (r, c) in (0..self.rows).flat_map(|r| (0..self.cols).map(move |c| (r, c))) {
            let disc = self.owner(state, c, r).map(|p| Piece::new(Player::new(p), PieceKind::Disc));
            let cell = d.index(self.rows - 1 - r, c);
            d.cells[cell].piece = disc;
        }
        Some(d)
    }

    /// The square where the dropped disc lands.
    fn move_cells(&self, state: &ConnectFourState, col: u8) -> Vec<usize> {
        let col = usize::from(col);
        let height = usize::from(state.heights[col]).min(self.rows - 1);
        vec![(self.rows - 1 - height) * self.cols + col]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::{PerftLimit, PerftTable};
    use crate::{perft, PerftMode};

    fn play(game: &ConnectFour, columns: &str) -> ConnectFourState {
        let mut state = game.initial_state();
        for c in columns.chars() {
            let mv = game.parse_move(&state, &c.to_string()).unwrap();
            game.apply(&mut state, mv);
        }
        state
    }

    #[test]
    fn perft_matches_known_counts() {
        // The published 7x6 table (`docs/references/connect-four.md`), to depth 6.
        let table: PerftTable =
            include_str!("../../tests/data/connect-four.perft").parse().unwrap();
        let game = ConnectFour::standard();
        let bulk = |s: &_, d| perft(&game, s, d, PerftMode::Bulk);
        assert_eq!(table.check(&game, PerftLimit::Depth(6), bulk), Ok(7));
        let make_all = |s: &_, d| perft(&game, s, d, PerftMode::MakeAll);
        assert_eq!(table.check(&game, PerftLimit::Depth(4), make_all), Ok(5));
    }

    #[test]
    fn vertical_line_wins() {
        // . . . . . . .
        // x . . . . . .
        // x o . . . . .
        // x o . . . . .
        // x o . . . . .
        let game = ConnectFour::standard();
        let state = play(&game, "1212121");
        assert_eq!(game.outcome(&state), Some(Outcome::Winner(Player(0))));
        assert_eq!(game.count_moves(&state), 0);
    }

    #[test]
    fn horizontal_line_wins() {
        // x x x . . . .
        // o o o o . . .   o completes the bottom row
        let game = ConnectFour::standard();
        let state = play(&game, "1122337");
        assert_eq!(game.outcome(&state), None);
        let state = play(&game, "11223374");
        assert_eq!(game.outcome(&state), None);
        let state = play(&game, "7112233");
        assert_eq!(game.outcome(&state), None);
        let state = play(&game, "71122334");
        assert_eq!(game.outcome(&state), Some(Outcome::Winner(Player(1))));
    }

    #[test]
    fn rising_diagonal_wins() {
        // . . . x . . .
        // . . x x . . .
        // . x x o . . .
        // x o o o . . o
        let game = ConnectFour::standard();
        assert_eq!(game.outcome(&play(&game, "1223343447")), None);
        let state = play(&game, "12233434474");
        assert_eq!(game.outcome(&state), Some(Outcome::Winner(Player(0))));
    }

    #[test]
    fn falling_diagonal_wins() {
        // The mirror image of the rising diagonal.
        let game = ConnectFour::standard();
        let state = play(&game, "76655454414");
        assert_eq!(game.format_state(&state).split('/').nth(2), Some("...x..."));
        assert_eq!(game.outcome(&state), Some(Outcome::Winner(Player(0))));
    }

    #[test]
    fn lines_do_not_wrap_between_columns() {
        // x . . .   x's discs at the top of column 1 and the bottom of column 2 are bits
        // x . . .   2, 3, 5, 6: a line of four only without the spare bit 4 between columns.
        // o x x .
        // o x o o
        let game = ConnectFour::new(4, 4, 4).unwrap();
        let state = game.parse_state("x.../x.../oxx./oxoo").unwrap();
        assert_eq!(state.discs[0], 1 << 2 | 1 << 3 | 1 << 5 | 1 << 6 | 1 << 11);
        assert_eq!(game.outcome(&state), None);
    }

    #[test]
    fn full_board_without_line_is_a_draw() {
        // x o x o
        // x o x o
        // o x o x
        // o x o x
        let game = ConnectFour::new(4, 4, 4).unwrap();
        let state = game.parse_state("xoxo/xoxo/oxox/oxox").unwrap();
        assert_eq!(game.outcome(&state), Some(Outcome::Draw));
        assert_eq!(game.count_moves(&state), 0);
    }

    #[test]
    fn evaluation_prefers_open_threes_and_is_zero_sum() {
        let game = ConnectFour::standard();
        let three = play(&game, "4141");
        let x = game.evaluate(&three, Player(0));
        assert!(x > 0);
        assert_eq!(x, -game.evaluate(&three, Player(1)));
        assert!(game.evaluate(&play(&game, "414"), Player(0)) > 0);
    }

    /// Positions along seeded random games on boards of several sizes and line lengths.
    fn random_positions() -> Vec<(ConnectFour, ConnectFourState)> {
        let mut out = Vec::new();
        for (c, r, k) in [(7, 6, 4), (4, 4, 3), (5, 4, 4), (9, 5, 5), (8, 7, 6), (6, 9, 4)] {
            let game = ConnectFour::new(c, r, k).unwrap();
            crate::testing::visit_random_games(&game, 40, c * r, 7, |s| {
                out.push((game.clone(), *s));
            });
        }
        out
    }

    #[test]
    fn winning_squares_are_the_drops_that_complete_a_line() {
        for (game, state) in random_positions() {
            let empty = game.empty(&state);
            for p in (0..2).filter(|&p| !game.has_line(state.discs[p])) {
                let expected = (0..game.cols)
                    .flat_map(|c| (0..game.rows).map(move |r| (c, r)))
                    .map(|(c, r)| game.bit(c, r))
                    .filter(|&b| b & empty != 0 && game.has_line(state.discs[p] | b))
                    .fold(0, |m, b| m | b);
                assert_eq!(game.winning_squares(state.discs[p], empty), expected);
            }
        }
    }

    /// The moves that exact solving leaves out lose in two plies, when the player to move
    /// cannot win at once, at least one move stays, and the floor holds.
    #[test]
    fn solving_leaves_out_only_moves_that_lose_at_once() {
        let mut pruned = 0;
        for (game, state) in random_positions() {
            let mut moves = MoveList::new();
            game.generate_moves(&state, &mut moves);
            let mut kept = moves.clone();
            let floor = game.solve_prune(&state, &mut kept);
            assert_eq!(kept.is_empty(), moves.is_empty());
            assert!(kept.iter().all(|m| moves.contains(m)));
            let wins_at_once = |s: &ConnectFourState, col: u8| {
                let mut child = *s;
                game.apply(&mut child, col);
                game.winner(&child).is_some()
            };
            // The floor: some move kept leaves the opponent no win at once.
            let leaves_no_win = |col: u8| {
                let mut child = state;
                game.apply(&mut child, col);
                let mut replies = MoveList::new();
                game.generate_moves(&child, &mut replies);
                !replies.iter().any(|&m| wins_at_once(&child, m))
            };
            if let Some(floor) = floor {
                assert_eq!(floor, Solved::Loss(4));
                assert!(kept.iter().any(|&m| leaves_no_win(m)));
            }
            for &col in moves.iter().filter(|m| !kept.contains(m)) {
                pruned += 1;
                assert!(!moves.iter().any(|&m| wins_at_once(&state, m)));
                let mut child = state;
                game.apply(&mut child, col);
                let mut replies = MoveList::new();
                game.generate_moves(&child, &mut replies);
                assert!(replies.iter().any(|&m| wins_at_once(&child, m)), "{col}");
            }
        }
        assert!(pruned > 100, "{pruned}");
    }

    #[test]
    fn hash_is_exact_and_follows_transpositions() {
        let game = ConnectFour::standard();
        let (a, b) = (play(&game, "1234"), play(&game, "3214"));
        assert_eq!(a, b);
        assert_eq!(game.hash(&a), game.hash(&b));
        assert_ne!(game.hash(&play(&game, "12")), game.hash(&play(&game, "21")));
        assert_ne!(game.hash(&play(&game, "1")), game.hash(&play(&game, "11")));
    }

    #[test]
    fn state_is_small_enough_to_copy() {
        assert_eq!(std::mem::size_of::<ConnectFourState>(), 32);
    }

    #[test]
    fn bad_sizes_are_rejected() {
        assert_eq!(ConnectFour::new(9, 9, 4), Err(ConnectFourError::Size(9, 9, 4)));
        assert!(ConnectFour::new(3, 6, 3).is_err());
        assert!(ConnectFour::new(7, 6, 7).is_err());
        assert!(ConnectFour::new(7, 6, 2).is_err());
        assert!(ConnectFour::new(8, 7, 6).is_ok());
        assert!(ConnectFour::new(9, 6, 5).is_ok());
    }

    #[test]
    fn bad_text_is_rejected() {
        let game = ConnectFour::standard();
        let full = play(&game, "111111");
        assert!(matches!(game.parse_move(&full, "0"), Err(ConnectFourError::Column(..))));
        assert!(matches!(game.parse_move(&full, "8"), Err(ConnectFourError::Column(..))));
        assert!(matches!(game.parse_move(&full, "x"), Err(ConnectFourError::Column(..))));
        assert!(matches!(game.parse_move(&full, "1"), Err(ConnectFourError::Illegal(..))));
        for bad in ["", "......./......./......./......./......./x.x....", "x......", "......z/"] {
            assert!(game.parse_state(bad).is_err(), "{bad:?}");
        }
        // A floating disc.
        assert!(game.parse_state("......./......./......./......./x....../.x.....").is_err());
    }

    #[test]
    fn positions_round_trip_and_render_marks_the_last_move() {
        let game = ConnectFour::standard();
        let state = play(&game, "4453");
        let text = game.format_state(&state);
        assert_eq!(text, "......./......./......./......./...o.../..oxx..");
        assert_eq!(game.parse_state(&text), Ok(state));
        let picture = game.render(&state, Some(2), false);
        assert!(picture.ends_with("\n . . O x x . .\n 1 2 3 4 5 6 7"), "{picture}");
        assert!(game.render(&state, Some(2), true).contains(&chip(Chip::Yellow, "O")));
    }

    #[test]
    fn diagram_stacks_discs_from_the_bottom() {
        let game = ConnectFour::standard();
        let state = play(&game, "44");
        let d = game.diagram(&state).unwrap();
        assert_eq!((d.rows, d.cols, d.col_labels[0].as_str()), (6, 7, "1"));
        assert_eq!(d.cells[d.index(5, 3)].piece, Some(Piece::new(Player(0), PieceKind::Disc)));
        assert_eq!(d.cells[d.index(4, 3)].piece, Some(Piece::new(Player(1), PieceKind::Disc)));
        assert_eq!(d.cells.iter().filter(|c| c.piece.is_some()).count(), 2);
        // A drop lands on the lowest empty square of its column.
        let start = game.initial_state();
        assert_eq!(game.move_cells(&start, 0), [d.index(5, 0)]);
        assert_eq!(game.move_cells(&state, 3), [d.index(3, 3)]);
    }

    /// Along seeded random games, every move key is below the key space, and almost every
    /// move of a position has a key of its own.
    #[test]
    fn move_keys_fit_and_mostly_differ() {
        let spread = crate::testing::move_key_spread(&ConnectFour::standard(), 30, 7, 1000);
        assert!(spread.moves > 0 && spread.distinct * 100 >= spread.moves * 100, "{spread:?}");
    }
}
