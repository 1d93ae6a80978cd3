//! Tic-tac-toe.

use std::fmt;

use crate::diagram::{Diagram, Piece, PieceKind};
use crate::endgame::EndgameIndex;
use crate::eval::Evaluator;
use crate::game::{Game, MoveList, Notation, Outcome, Player};

/// Tic-tac-toe on a 3x3 board; X (player 0) moves first. Squares are numbered 0..9 row by
/// row from the top left; notation is `a1`..`c3` (column letter, row number from the bottom).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe;

/// A tic-tac-toe position: one 9-bit mask per player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToeState {
    marks: [u16; 2],
}

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

impl TicTacToeState {
    fn filled(&self) -> u16 {
        self.marks[0] | self.marks[1]
    }

    fn side_to_move(self) -> Player {
        Player::new(self.filled().count_ones() as usize % 2)
    }

    fn winner(&self) -> Option<Player> {
        (0..2).find(|&p| LINES.iter().any(|&l| self.marks[p] & l == l)).map(Player::new)
    }

    /// The mark on square `sq` (0..9): `Some(player)` or `None` when empty.
    pub fn at(&self, sq: u8) -> Option<Player> {
        (0..2).find(|&p| self.marks[p] >> sq & 1 == 1).map(Player::new)
    }
}

/// The evaluation of [`TicTacToe`]: every line a player can still complete (the opponent has
/// no mark on it) is worth `4^marks` to them, and the value is the player's sum minus the
/// opponent's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenLines;

impl Evaluator<TicTacToe> for OpenLines {
    fn evaluate(&self, _game: &TicTacToe, state: &TicTacToeState, player: Player) -> i32 {
        let line_value = |me: usize| -> i32 {
            let (mine, theirs) = (state.marks[me], state.marks[1 - me]);
            LINES
                .iter()
                .filter(|&&l| theirs & l == 0)
                .map(|&l| 1 << (2 * (mine & l).count_ones()))
                .sum()
        };
        line_value(player.index()) - line_value(1 - player.index())
    }
}

/// Two little-endian 9-bit masks, the first player's first: 4 bytes.
impl crate::pack::PackState for TicTacToe {
    fn packed_len(&self) -> usize {
        4
    }

    fn pack(&self, state: &TicTacToeState, out: &mut [u8]) {
        out[..2].copy_from_slice(&state.marks[0].to_le_bytes());
        out[2..4].copy_from_slice(&state.marks[1].to_le_bytes());
    }

    fn unpack(&self, bytes: &[u8]) -> Option<TicTacToeState> {
        let [a, b, c, d] = bytes else { return None };
        let marks = [u16::from_le_bytes([*a, *b]), u16::from_le_bytes([*c, *d])];
        let (x, o) = (marks[0].count_ones(), marks[1].count_ones());
        let valid =
            (marks[0] | marks[1]) < 1 << 9 && marks[0] & marks[1] == 0 && (x == o || x == o + 1);
        valid.then_some(TicTacToeState { marks })
    }
}

impl Game for TicTacToe {
    type State = TicTacToeState;
    type Move = u8;
    type Score = i32;

    fn initial_state(&self) -> TicTacToeState {
        TicTacToeState::default()
    }

    fn num_players(&self) -> usize {
        2
    }

    fn to_move(&self, state: &TicTacToeState) -> Player {
        state.side_to_move()
    }

    fn generate_moves(&self, state: &TicTacToeState, moves: &mut MoveList<u8>) {
        moves.clear();
        if state.winner().is_some() {
            return;
        }
        let filled = state.filled();
        moves.extend((0..9).filter(|&sq| filled >> sq & 1 == 0));
    }

    fn apply(&self, state: &mut TicTacToeState, mv: u8) {
        let p = state.side_to_move().index();
        state.marks[p] |= 1 << mv;
    }

    fn outcome(&self, state: &TicTacToeState) -> Option<Outcome> {
        match state.winner() {
            Some(w) => Some(Outcome::Winner(w)),
            None if state.filled() == 0x1ff => Some(Outcome::Draw),
            None => None,
        }
    }

    /// [`OpenLines`].
    fn evaluate(&self, state: &TicTacToeState, player: Player) -> i32 {
        OpenLines.evaluate(self, state, player)
    }

    fn hash(&self, state: &TicTacToeState) -> Option<u64> {
        Some(crate::zobrist::mix64(u64::from(state.marks[0]) | u64::from(state.marks[1]) << 9))
    }

    /// The square, 0..9.
    fn move_key_space(&self) -> u32 {
        9
    }

    #[inline]
    fn move_key(&self, _state: &TicTacToeState, mv: u8) -> u32 {
        u32::from(mv)
    }
}

/// Tic-tac-toe's endgame index, the smallest example of one: a slice per number of empty
/// squares (tic-tac-toe's "pieces" here are its empty squares, which every move makes
/// fewer, so the full board's slice comes first), and a position's index is its board read
/// as a base-3 number. Indices whose marks cannot occur in a game (more O than X, two X too
/// many, two winners, play after a win) name no position.
impl EndgameIndex for TicTacToe {
    type Slice = u8;

    fn table_set(&self) -> String {
        "tictactoe".into()
    }

    fn slices(&self, pieces: u32) -> Vec<u8> {
        (0..=pieces.min(9) as u8).collect()
    }

    fn slice_name(&self, slice: u8) -> String {
        format!("empty{slice}")
    }

    fn slice_size(&self, _slice: u8) -> u64 {
        3u64.pow(9)
    }

    fn pieces(&self, state: &TicTacToeState) -> u32 {
        9 - state.filled().count_ones()
    }

    fn locate(&self, state: &TicTacToeState) -> Option<(u8, u64)> {
        let index = (0..9)
            .rev()
            .fold(0u64, |acc, sq| acc * 3 + state.at(sq).map_or(0, |p| p.index() as u64 + 1));
        Some((self.pieces(state) as u8, index))
    }

    fn position_of(&self, slice: u8, index: u64) -> Option<TicTacToeState> {
        let mut state = TicTacToeState::default();
        let mut rest = index;
        for sq in 0..9 {
            match rest % 3 {
                1 => state.marks[0] |= 1 << sq,
                2 => state.marks[1] |= 1 << sq,
                _ => {}
            }
            rest /= 3;
        }
        let (x, o) = (state.marks[0].count_ones(), state.marks[1].count_ones());
        let line = |p: usize| LINES.iter().any(|&l| state.marks[p] & l == l);
        let possible = match (line(0), line(1)) {
            (false, false) => x == o || x == o + 1,
            (true, false) => x == o + 1,
            (false, true) => x == o,
            (true, true) => false,
        };
        (rest == 0 && possible && self.pieces(&state) == u32::from(slice)).then_some(state)
    }
}

/// A bad square name in tic-tac-toe notation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseTicTacToeError {
    /// Not `a1`..`c3`.
    #[error("invalid square {0:?}: expected a1..c3")]
    Square(String),
    /// The square is taken or the game is over.
    #[error("illegal move {0}")]
    Illegal(String),
    /// Not a 9-character board of `x`, `o` and `.`.
    #[error("invalid board {0:?}: expected 9 characters of x, o and . (top row first)")]
    Board(String),
    /// A board no game reaches.
    #[error("board {board:?} cannot arise in a game: {why}")]
    Unreachable {
        /// The board as given.
        board: String,
        /// What rules it out.
        why: &'static str,
    },
}

/// Square `sq` as `a1`..`c3`.
fn square_name(sq: u8) -> String {
    let (row, col) = (sq / 3, sq % 3);
    format!("{}{}", (b'a' + col) as char, 3 - row)
}

impl Notation for TicTacToe {
    type Error = ParseTicTacToeError;

    fn format_move(&self, _state: &TicTacToeState, mv: u8) -> String {
        square_name(mv)
    }

    fn parse_move(&self, state: &TicTacToeState, text: &str) -> Result<u8, Self::Error> {
        let t = text.trim();
        let b = t.as_bytes();
        if b.len() != 2 || !(b'a'..=b'c').contains(&b[0]) || !(b'1'..=b'3').contains(&b[1]) {
            return Err(ParseTicTacToeError::Square(t.to_string()));
        }
        let sq = (b'3' - b[1]) * 3 + (b[0] - b'a');
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        if moves.contains(&sq) {
            Ok(sq)
        } else {
            Err(ParseTicTacToeError::Illegal(t.to_string()))
        }
    }

    fn format_state(&self, state: &TicTacToeState) -> String {
        (0..9)
            .map(|sq| match state.at(sq) {
                Some(Player(0)) => 'x',
                Some(_) => 'o',
                None => '.',
            })
            .collect()
    }

    fn parse_state(&self, text: &str) -> Result<TicTacToeState, Self::Error> {
        let t = text.trim();
        let err = || ParseTicTacToeError::Board(t.to_string());
        if t.chars().count() != 9 {
            return Err(err());
        }
        let mut s = TicTacToeState::default();
        for (sq, c) in t.chars().enumerate() {
            match c {
                'x' | 'X' => s.marks[0] |= 1 << sq,
                'o' | 'O' => s.marks[1] |= 1 << sq,
                '.' => {}
                _ => return Err(err()),
            }
        }
        let (x, o) = (s.marks[0].count_ones(), s.marks[1].count_ones());
        let unreachable = |why| ParseTicTacToeError::Unreachable { board: t.to_string(), why };
        if x != o && x != o + 1 {
            return Err(unreachable("X moves first, so X has as many marks as O or one more"));
        }
        let line = |p: usize| LINES.iter().any(|&l| s.marks[p] & l == l);
        match (line(0), line(1)) {
            (true, true) => Err(unreachable("both sides have three in a row")),
            (true, false) if x == o => Err(unreachable("X has three in a row but O moved after")),
            (false, true) if x > o => Err(unreachable("O has three in a row but X moved after")),
            _ => Ok(s),
        }
    }

    fn render(&self, state: &TicTacToeState, _last: Option<u8>, _color: bool) -> String {
        state.to_string()
    }

    /// The 3x3 grid as the squares are numbered (`a3` top left), `X` and `O` glyphs, chess
    /// labels `a`..`c` and `3`..`1`.
    fn diagram(&self, state: &TicTacToeState) -> Option<Diagram> {
        let mut d = Diagram::new(3, 3).with_chess_labels();
        for (sq, cell) in (0..9).zip(d.cells.iter_mut()) {
            cell.piece = state.at(sq).map(|p| {
                let glyph = if p == Player(0) { 'X' } else { 'O' };
                Piece::new(p, PieceKind::Glyph(glyph))
            });
        }
        Some(d)
    }

    /// The square marked: a square's index is its cell.
    fn move_cells(&self, _state: &TicTacToeState, mv: u8) -> Vec<usize> {
        vec![usize::from(mv)]
    }
}

impl fmt::Display for TicTacToeState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..3u8 {
            write!(f, "{} ", 3 - row)?;
            for col in 0..3u8 {
                let c = match self.at(row * 3 + col) {
                    Some(Player(0)) => 'X',
                    Some(_) => 'O',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   a b c")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::{PerftLimit, PerftTable};
    use crate::{perft, PerftMode};

    #[test]
    fn perft_matches_known_counts() {
        // Known tic-tac-toe game-tree counts (`docs/references/tic-tac-toe.md`), to depth 5.
        let table: PerftTable = include_str!("../../tests/data/tictactoe.perft").parse().unwrap();
        let g = TicTacToe;
        let make_all = |s: &_, d| perft(&g, s, d, PerftMode::MakeAll);
        assert_eq!(table.check(&g, PerftLimit::Depth(5), make_all), Ok(6));
    }

    /// A game without sides shows every viewer the same picture: the default `render_for`.
    #[test]
    fn render_for_is_render_for_every_viewer() {
        let g = TicTacToe;
        let s = g.parse_state("xxo.o....").unwrap();
        for viewer in [Player(0), Player(1)] {
            for color in [false, true] {
                assert_eq!(g.render_for(&s, Some(4), color, viewer), g.render(&s, Some(4), color));
            }
        }
    }

    #[test]
    fn win_is_detected() {
        let g = TicTacToe;
        let s = g.parse_state("xxxoo....").unwrap();
        assert_eq!(g.outcome(&s), Some(Outcome::Winner(Player(0))));
        assert_eq!(g.count_moves(&s), 0);
    }

    #[test]
    fn notation_round_trips_and_rejects_bad_input() {
        let g = TicTacToe;
        let s = g.initial_state();
        assert_eq!(g.parse_move(&s, "b2"), Ok(4));
        assert_eq!(g.format_move(&s, 4), "b2");
        assert!(matches!(g.parse_move(&s, "d9"), Err(ParseTicTacToeError::Square(_))));
        assert!(matches!(g.parse_state("xxxxx...."), Err(ParseTicTacToeError::Unreachable { .. })));
        assert!(matches!(g.parse_state("xxxxx"), Err(ParseTicTacToeError::Board(_))));
    }

    #[test]
    fn boards_no_game_reaches_are_refused() {
        let g = TicTacToe;
        for (board, why) in [
            ("xxxooo...", "both sides"),
            ("xxxoo.o..", "O moved after"),
            ("oooxx.xx.", "X moved after"),
            ("oo.......", "X moves first"),
        ] {
            let e = g.parse_state(board).unwrap_err().to_string();
            assert!(e.contains(why), "{board}: {e}");
        }
        // Every position of a game reads back.
        for board in ["xxxoo....", "x.ooo.xx.", "........."] {
            let s = g.parse_state(board).unwrap();
            assert_eq!(g.parse_state(&g.format_state(&s)), Ok(s), "{board}");
        }
    }

    #[test]
    fn diagram_shows_the_marks_where_the_notation_names_them() {
        let g = TicTacToe;
        let s = g.parse_state("x...o....").unwrap();
        let d = g.diagram(&s).unwrap();
        assert_eq!((d.rows, d.cols, d.cells.len()), (3, 3, 9));
        assert_eq!((d.col_labels.join(""), d.row_labels.join("")), ("abc".into(), "321".into()));
        assert_eq!(d.cells[0].piece, Some(Piece::new(Player(0), PieceKind::Glyph('X'))));
        assert_eq!(d.cells[4].piece, Some(Piece::new(Player(1), PieceKind::Glyph('O'))));
        assert_eq!(d.cells.iter().filter(|c| c.piece.is_some()).count(), 2);
        // c1 is the bottom right cell: column c, row 1.
        let c1 = g.parse_move(&s, "c1").unwrap();
        assert_eq!(g.move_cells(&s, c1), [d.index(2, 2)]);
    }

    /// Along seeded random games, every move key is below the key space, and almost every
    /// move of a position has a key of its own.
    #[test]
    fn move_keys_fit_and_mostly_differ() {
        let spread = crate::testing::move_key_spread(&TicTacToe, 30, 7, 1000);
        assert!(spread.moves > 0 && spread.distinct * 100 >= spread.moves * 100, "{spread:?}");
    }
}
