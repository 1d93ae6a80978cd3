//! Text forms: moves (`a2-a3`, `b4xc5`), positions (rows of `W`, `B` and `.`, then the side to
//! move) and the terminal picture of [`Notation::render`].

use ply::diagram::{Diagram, Piece, PieceKind};
use ply::picture::{chip, dim, mark, Chip};
use ply::{Game, MoveList, Notation, Outcome, Player};

use crate::error::Error;
use crate::rules::{Breakthrough, BreakthroughState, Move};

/// The letters of White's and Black's pawns, in positions and pictures.
const LETTERS: [char; 2] = ['W', 'B'];

/// The chips of White's and Black's pawns in [`Notation::render`] with colour, readable on
/// dark and light terminals.
const CHIPS: [Chip; 2] = [Chip::Light, Chip::Dark];

impl Breakthrough {
    /// The name of `square` (a bit index, `row * cols + col`): file letter then rank number,
    /// as `a1` or `h8`.
    pub fn square_name(&self, square: u8) -> String {
        let (col, row) = (square as usize % self.cols(), square as usize / self.cols());
        format!("{}{}", (b'a' + col as u8) as char, row + 1)
    }

    /// Reads a square name at the start of `text` (lower case): the square, and the rest of
    /// the text. `None` unless a file letter and a rank number of this board come first.
    fn parse_square<'t>(&self, text: &'t str) -> Option<(u8, &'t str)> {
        let file = *text.as_bytes().first()?;
        let col = file.checked_sub(b'a').map(usize::from).filter(|&c| c < self.cols())?;
        let digits = text[1..].find(|c: char| !c.is_ascii_digit()).map_or(text.len(), |i| i + 1);
        let rank: usize = text[1..digits].parse().ok().filter(|r| (1..=self.rows()).contains(r))?;
        Some((((rank - 1) * self.cols() + col) as u8, &text[digits..]))
    }

    /// The cell of [`Notation::diagram`] that shows `square`: rank 1 at the bottom.
    fn diagram_cell(&self, square: u8) -> usize {
        let (col, row) = (usize::from(square) % self.cols(), usize::from(square) / self.cols());
        (self.rows() - 1 - row) * self.cols() + col
    }

    /// The picture of one square for [`Notation::render`]: the pawn letter or `.`, in
    /// brackets when the last move touched the square.
    fn cell(&self, state: &BreakthroughState, square: u8, marked: bool, color: bool) -> String {
        let glyph = match state.owner(square).map(Player::index) {
            Some(p) if color => chip(CHIPS[p], &LETTERS[p].to_string()),
            Some(p) => LETTERS[p].to_string(),
            None if color => dim("."),
            None => ".".to_string(),
        };
        match (marked, color) {
            (true, true) => mark(&glyph),
            (true, false) => format!("[{glyph}]"),
            (false, _) => format!(" {glyph} "),
        }
    }

    /// The picture of [`Notation::render`]: the last rank at the top and file `a` on the
    /// left, or with `turned` the board turned half round (rank 1 at the top, the last file
    /// on the left).
    fn picture(
        &self,
        state: &BreakthroughState,
        last_move: Option<Move>,
        color: bool,
        turned: bool,
    ) -> String {
        let (rows, cols) = (self.rows(), self.cols());
        // Ranks from the top and files from the left, as drawn.
        let along = |i: usize| if turned { i } else { rows - 1 - i };
        let across = |i: usize| if turned { cols - 1 - i } else { i };
        let bit = |square: u8| 1u64.checked_shl(square.into()).unwrap_or(0);
        let marked = last_move.map_or(0, |m| bit(m.from) | bit(m.to));
        let width = rows.to_string().len();
        let mut lines = Vec::with_capacity(rows + 2);
        for row in (0..rows).map(along) {
            let mut line = format!("{:>width$} ", row + 1);
            for col in (0..cols).map(across) {
                let square = (row * cols + col) as u8;
                line += &self.cell(state, square, marked & bit(square) != 0, color);
            }
            lines.push(line);
        }
        let files = (0..cols).map(across).map(|c| format!(" {} ", (b'a' + c as u8) as char));
        lines.push(" ".repeat(width + 1) + &files.collect::<String>());
        let name = |p: Player| if p == Player::FIRST { "White (W)" } else { "Black (B)" };
        lines.push(match self.outcome(state) {
            Some(Outcome::Winner(p)) => format!("{} wins", name(p)),
            _ => format!("{} to move", name(state.side_to_move())),
        });
        let lines: Vec<&str> = lines.iter().map(|line| line.trim_end()).collect();
        lines.join("\n")
    }
}

impl Notation for Breakthrough {
    type Error = Error;

    /// `a2-a3` for a step, `b4xc5` for a capture.
    fn format_move(&self, state: &BreakthroughState, mv: Move) -> String {
        let enemy = state.pawns(state.side_to_move().opponent());
        let capture = enemy.checked_shr(mv.to.into()).is_some_and(|bits| bits & 1 == 1);
        let separator = if capture { 'x' } else { '-' };
        format!("{}{separator}{}", self.square_name(mv.from), self.square_name(mv.to))
    }

    /// Two square names, in any case, with `-`, `x` or nothing between them: `a2-a3`,
    /// `A2A3` and `b4xc5` are all accepted. The separator is not checked against the board
    /// (a capture written with `-` is still the capture).
    fn parse_move(&self, state: &BreakthroughState, text: &str) -> Result<Move, Error> {
        let syntax = || Error::MoveText(text.to_string());
        let lower = text.trim().to_ascii_lowercase();
        let (from, rest) = self.parse_square(&lower).ok_or_else(syntax)?;
        let rest = rest.strip_prefix(['-', 'x']).unwrap_or(rest);
        let (to, rest) = self.parse_square(rest).ok_or_else(syntax)?;
        if !rest.is_empty() {
            return Err(syntax());
        }
        let mv = Move { from, to };
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        moves.contains(&mv).then_some(mv).ok_or_else(|| Error::Illegal(text.to_string()))
    }

    /// The rows from the top (Black's home row) down, joined by `/`, with `W`, `B` and `.`;
    /// then a space and the side to move, `w` or `b`.
    fn format_state(&self, state: &BreakthroughState) -> String {
        let square = |row: usize, col: usize| {
            let owner = state.owner((row * self.cols() + col) as u8);
            owner.map_or('.', |p| LETTERS[p.index()])
        };
        let rows: Vec<String> = (0..self.rows())
            .rev()
            .map(|r| (0..self.cols()).map(|c| square(r, c)).collect())
            .collect();
        let side = if state.side_to_move() == Player::FIRST { 'w' } else { 'b' };
        format!("{} {side}", rows.join("/"))
    }

    /// Reads the text of [`Notation::format_state`], in any case. Rejects positions that no
    /// game reaches: more pawns than a side starts with, a player to move who has already
    /// reached the far row, or a player who has just moved without pawns.
    fn parse_state(&self, text: &str) -> Result<BreakthroughState, Error> {
        let text = text.trim();
        let fail = |why| Error::Position(text.to_string(), why);
        let mut fields = text.split_whitespace();
        let (Some(board), Some(side), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(fail("expected the rows, a space and the side to move (w or b)"));
        };
        let side = match side {
            "w" | "W" => Player::FIRST,
            "b" | "B" => Player::SECOND,
            _ => return Err(fail("the side to move must be w or b")),
        };
        let lines: Vec<&str> = board.split('/').collect();
        if lines.len() != self.rows() || lines.iter().any(|l| l.chars().count() != self.cols()) {
            return Err(fail("wrong number of rows or columns for this board"));
        }
        let mut pawns = [0u64; 2];
        for (row, line) in lines.iter().rev().enumerate() {
            for (col, ch) in line.chars().enumerate() {
                let bit = 1u64 << (row * self.cols() + col);
                match ch.to_ascii_uppercase() {
                    'W' => pawns[0] |= bit,
                    'B' => pawns[1] |= bit,
                    '.' => {}
                    _ => return Err(fail("squares must be W, B or .")),
                }
            }
        }
        if pawns.iter().any(|p| p.count_ones() as usize > 2 * self.cols()) {
            return Err(fail("a side has more pawns than its two home rows hold"));
        }
        let goal = |p: Player| self.row_mask(if p == Player::FIRST { self.rows() - 1 } else { 0 });
        if pawns[side.index()] & goal(side) != 0 {
            return Err(fail("the player to move already has a pawn on the far row"));
        }
        if pawns[side.opponent().index()] == 0 {
            return Err(fail("the player who has just moved has no pawns"));
        }
        Ok(BreakthroughState::from_parts(pawns, side))
    }

    /// The board with rank numbers on the left and file letters below, `W` for White and `B`
    /// for Black, the two squares of `last_move` in brackets, and a line saying who is to
    /// move or who has won. With `color`, White's pawns are yellow and Black's cyan.
    fn render(&self, state: &BreakthroughState, last_move: Option<Move>, color: bool) -> String {
        self.picture(state, last_move, color, false)
    }

    /// White (player 0) sees [`Notation::render`]'s picture, rank 1 at the bottom. Black
    /// (player 1) sees it turned half round: rank 1 at the top, the last file on the left.
    fn render_for(
        &self,
        state: &BreakthroughState,
        last_move: Option<Move>,
        color: bool,
        viewer: Player,
    ) -> String {
        self.picture(state, last_move, color, viewer != Player::FIRST)
    }

    /// The board as [`Notation::render`] draws it, White (the first player) at the bottom:
    /// a [`PieceKind::Man`] of its player on every pawn's square, files `a`.. along the
    /// bottom and ranks numbered from 1 at the bottom, as squares are written.
    fn diagram(&self, state: &BreakthroughState) -> Option<Diagram> {
        let mut d = Diagram::new(self.rows(), self.cols()).with_chess_labels();
        for square in 0..(self.rows() * self.cols()) as u8 {
            let pawn = state.owner(square).map(|p| Piece::new(p, PieceKind::Man));
            d.cells[self.diagram_cell(square)].piece = pawn;
        }
        Some(d)
    }

    /// The pawn's square, then the square it goes to.
    fn move_cells(&self, _state: &BreakthroughState, mv: Move) -> Vec<usize> {
        vec![self.diagram_cell(mv.from), self.diagram_cell(mv.to)]
    }
}
