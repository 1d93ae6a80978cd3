//! Text forms: the referee's action texts, positions as the referee's board lines, and a
//! terminal picture of the board.
//!
//! A position is the 8 board lines the referee sends (row 8 first; `.` empty, `w`/`b` a
//! single, `W`/`B` a double) joined by `/`, a space, the side to move (`w` or `b`), then
//! optionally the two scores `<white> <black>` and optionally the number of plies played:
//!
//! ```text
//! .W.b.W.b/b.W.b.W./......../......../......../......../.B.w.B.w/w.B.w.B. w 0 0
//! ```
//!
//! Scores are checked against the board (a score is the number of the player's 12 checkers
//! not on it). Without a ply count the ply is 0 with White to move and 1 with Black to move;
//! `format_state` writes the ply count only when it differs from that default.

use ply::diagram::{Diagram, Piece, PieceKind, Shade};
use ply::picture::{chip, dim, mark, Chip};
use ply::{Notation, Player};

use crate::board::{Bitboard, Square};
use crate::error::Error;
use crate::moves::{Move, MoveText};
use crate::rules::{Impasse, ImpasseState, CHECKERS};

/// Reads a position (see the module docs).
pub(crate) fn parse_position(text: &str) -> Result<ImpasseState, Error> {
    let syntax = |reason: String| Error::PositionSyntax { text: text.to_string(), reason };
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or_else(|| syntax("empty text".into()))?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 8 {
        return Err(syntax(format!("expected 8 rows separated by '/', found {}", rows.len())));
    }
    let mut singles = [0 as Bitboard; 2];
    let mut doubles = [0 as Bitboard; 2];
    for (i, row_text) in rows.iter().enumerate() {
        let row = 7 - i as u8;
        if row_text.chars().count() != 8 {
            return Err(syntax(format!("row {} {row_text:?} is not 8 squares long", row + 1)));
        }
        for (col, c) in row_text.chars().enumerate() {
            let bit = Square::new(col as u8, row).expect("8x8").bit();
            match c {
                '.' => {}
                'w' => singles[0] |= bit,
                'b' => singles[1] |= bit,
                'W' => doubles[0] |= bit,
                'B' => doubles[1] |= bit,
                _ => {
                    return Err(syntax(format!(
                        "unexpected {c:?} in row {}: expected one of . w b W B",
                        row + 1
                    )))
                }
            }
        }
    }
    let side = match fields.next() {
        Some("w") => 0u16,
        Some("b") => 1,
        Some(other) => return Err(syntax(format!("side to move {other:?} is not w or b"))),
        None => return Err(syntax("missing side to move (w or b)".into())),
    };
    let numbers: Vec<&str> = fields.collect();
    if numbers.len() == 1 || numbers.len() > 3 {
        return Err(syntax(format!(
            "expected two scores and an optional ply count after the side, found {:?}",
            numbers.join(" ")
        )));
    }
    let mut parsed = Vec::with_capacity(3);
    for n in &numbers {
        parsed.push(n.parse::<u16>().map_err(|_| syntax(format!("{n:?} is not a number")))?);
    }
    let ply = parsed.get(2).copied().unwrap_or(side);
    let impossible = |reason: String| Error::ImpossiblePosition { text: text.to_string(), reason };
    if ply % 2 != side {
        return Err(impossible(format!("ply {ply} does not match the side to move")));
    }
    let state = ImpasseState::from_parts(singles, doubles, ply);
    state.validate().map_err(impossible)?;
    if parsed.len() >= 2 {
        for (p, name) in ["white", "black"].iter().enumerate() {
            let expected = state.score(Player::new(p));
            if u32::from(parsed[p]) != expected {
                return Err(impossible(format!(
                    "{name} score {} but {expected} of {CHECKERS} checkers are off the board",
                    parsed[p]
                )));
            }
        }
    }
    Ok(state)
}

/// The piece letter on `sq` (`.` when empty).
fn piece_char(s: &ImpasseState, sq: Square) -> char {
    let b = sq.bit();
    if s.singles[0] & b != 0 {
        'w'
    } else if s.singles[1] & b != 0 {
        'b'
    } else if s.doubles[0] & b != 0 {
        'W'
    } else if s.doubles[1] & b != 0 {
        'B'
    } else {
        '.'
    }
}

/// The 8 board lines the referee sends for `s`, row 8 first.
///
/// ```
/// use ply_impasse::{board_lines, ImpasseState};
///
/// let lines = board_lines(&ImpasseState::start());
/// assert_eq!(lines[0], ".W.b.W.b");
/// assert_eq!(lines[7], "w.B.w.B.");
/// ```
pub fn board_lines(s: &ImpasseState) -> [String; 8] {
    std::array::from_fn(|i| {
        let row = 7 - i as u8;
        (0..8).map(|c| piece_char(s, Square::new(c, row).expect("8x8"))).collect()
    })
}

fn format_position(s: &ImpasseState) -> String {
    let mut out = board_lines(s).join("/");
    let side = s.side_to_move().index();
    out.push_str(if side == 0 { " w" } else { " b" });
    out.push_str(&format!(" {} {}", s.score(Player::new(0)), s.score(Player::new(1))));
    if s.ply != side as u16 {
        out.push_str(&format!(" {}", s.ply));
    }
    out
}

/// The picture of [`Notation::render`]: row 8 at the top and column `a` on the left, or
/// with `turned` the board turned half round (row 1 at the top, column `h` on the left).
fn picture(state: &ImpasseState, last_move: Option<Move>, color: bool, turned: bool) -> String {
    let mut marked: Bitboard = 0;
    if let Some(m) = last_move {
        marked |= m.from().bit() | m.to().map_or(0, Square::bit);
        if let Some(c) = m.crown() {
            marked |= c.source.bit() | c.target.bit();
        }
    }
    // Rows from the top and columns from the left, as drawn.
    let along = |i: u8| if turned { i } else { 7 - i };
    let across = |i: u8| if turned { 7 - i } else { i };
    let mut out = String::new();
    for row in (0..8u8).map(along) {
        out.push_str(&format!("{} ", row + 1));
        for col in (0..8u8).map(across) {
            let sq = Square::new(col, row).expect("8x8");
            let c = piece_char(state, sq);
            let is_marked = marked & sq.bit() != 0;
            let glyph = match c {
                'w' | 'W' if color => chip(Chip::Light, &c.to_string()),
                'b' | 'B' if color => chip(Chip::Dark, &c.to_string()),
                _ if color => dim(&c.to_string()),
                _ => c.to_string(),
            };
            out.push_str(&match (is_marked, color) {
                (true, true) => mark(&glyph),
                (true, false) => format!("[{glyph}]"),
                (false, _) => format!(" {glyph} "),
            });
        }
        out.push('\n');
    }
    let files: String =
        (0..8u8).map(across).map(|c| format!(" {} ", char::from(b'a' + c))).collect();
    out.push_str(&format!("  {}\n", files.trim_end()));
    let side = if state.side_to_move().index() == 0 { "White" } else { "Black" };
    out.push_str(&format!(
        "score White {} Black {} | ply {} | {side} to move (w/b single, W/B double)",
        state.score(Player::new(0)),
        state.score(Player::new(1)),
        state.ply()
    ));
    out
}

/// The cell of [`Notation::diagram`] that shows `sq`: row 8 at the top.
fn diagram_cell(sq: Square) -> usize {
    usize::from(7 - sq.row()) * 8 + usize::from(sq.column())
}

/// What stands on `sq` in a diagram: a single as one man, a double as a stack of two.
fn diagram_piece(s: &ImpasseState, sq: Square) -> Option<Piece> {
    let b = sq.bit();
    (0..2).map(Player::new).find_map(|p| {
        let count = if s.singles[p.index()] & b != 0 {
            1
        } else if s.doubles[p.index()] & b != 0 {
            2
        } else {
            return None;
        };
        Some(Piece::many(p, PieceKind::Man, count))
    })
}

impl Notation for Impasse {
    type Error = Error;

    fn format_move(&self, _state: &ImpasseState, mv: Move) -> String {
        mv.to_string()
    }

    /// Reads an action text and finds the action it names; for two actions with the same
    /// text, the first in generation order, as the referee does. Surrounding whitespace and a
    /// comment after a space (`e3d4 hello`, as bots send it) are ignored.
    fn parse_move(&self, state: &ImpasseState, text: &str) -> Result<Move, Error> {
        let word = text.split_whitespace().next().unwrap_or("");
        let parsed: MoveText = word.parse().map_err(|_| Error::MoveSyntax(text.to_string()))?;
        self.resolve(state, parsed)
    }

    fn format_state(&self, state: &ImpasseState) -> String {
        format_position(state)
    }

    fn parse_state(&self, text: &str) -> Result<ImpasseState, Error> {
        parse_position(text)
    }

    /// The board with row numbers and column letters, the squares of `last_move` in
    /// brackets, then the scores and the side to move. With `color` the pieces are chips
    /// ([`ply::picture`]) that read on light and dark terminals alike.
    fn render(&self, state: &ImpasseState, last_move: Option<Move>, color: bool) -> String {
        picture(state, last_move, color, false)
    }

    /// White (player 0) sees [`Notation::render`]'s picture, row 1 at the bottom. Black
    /// (player 1) sees it turned half round: row 1 at the top, column `h` on the left.
    fn render_for(
        &self,
        state: &ImpasseState,
        last_move: Option<Move>,
        color: bool,
        viewer: Player,
    ) -> String {
        picture(state, last_move, color, viewer != Player::FIRST)
    }

    /// The board as [`Notation::render`] draws it, White (the first player) at the bottom:
    /// checkered, the pieces on the dark squares, a single as one [`PieceKind::Man`] and a
    /// double as a stack of two, with chess labels `a`..`h` and `8`..`1`.
    fn diagram(&self, state: &ImpasseState) -> Option<Diagram> {
        let mut d = Diagram::new(8, 8).with_chess_labels();
        for index in 0..64u8 {
            let sq = Square::from_index(index).expect("8x8");
            let cell = &mut d.cells[diagram_cell(sq)];
            let dark = (sq.row() + sq.column()).is_multiple_of(2);
            cell.shade = if dark { Shade::Dark } else { Shade::Light };
            cell.piece = diagram_piece(state, sq);
        }
        Some(d)
    }

    /// A slide or a transpose: where it starts and where it ends (also when it bears off or
    /// crowns: the actions that crown differently share their cells). An impasse removal:
    /// the checker's square.
    fn move_cells(&self, _state: &ImpasseState, mv: Move) -> Vec<usize> {
        std::iter::once(mv.from()).chain(mv.to()).map(diagram_cell).collect()
    }
}

impl std::fmt::Display for ImpasseState {
    /// The position text that [`ImpasseState`]'s `FromStr` and `parse_state` read back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_position(self))
    }
}
