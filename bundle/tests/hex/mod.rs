//! Hex on a 4x4 rhombus, a game written only against the trait, for the tests that check a
//! tool works for any game (`mod hex;` in a test file).

use ply::diagram::{Diagram, Piece, PieceKind};
use ply::{Game, MoveList, Notation, Outcome, Player};

/// Hex on a 4x4 rhombus, written only against the trait: the first player joins the top and
/// bottom rows, the second the left and right columns; a move is a cell `a1`..`d4`.
#[derive(Clone, Copy, Debug)]
pub struct Hex;

/// The board's side.
pub const N: usize = 4;

/// A Hex position: each cell's owner and the player to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HexState {
    pub cells: [Option<u8>; N * N],
    pub to_move: u8,
}

/// Text that is not a Hex move or position.
#[derive(Debug, thiserror::Error)]
#[error("not a Hex move or position: {0}")]
pub struct HexError(String);

impl Hex {
    fn connected(state: &HexState, player: u8) -> bool {
        let mut stack: Vec<usize> = (0..N)
            .map(|i| if player == 0 { i } else { i * N })
            .filter(|&c| state.cells[c] == Some(player))
            .collect();
        let mut seen = [false; N * N];
        while let Some(c) = stack.pop() {
            if seen[c] {
                continue;
            }
            seen[c] = true;
            let (r, q) = ((c / N) as i32, (c % N) as i32);
            if (player == 0 && r as usize == N - 1) || (player == 1 && q as usize == N - 1) {
                return true;
            }
            for (dr, dq) in [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, 1), (1, -1)] {
                let (nr, nq) = (r + dr, q + dq);
                if (0..N as i32).contains(&nr) && (0..N as i32).contains(&nq) {
                    let n = nr as usize * N + nq as usize;
                    if state.cells[n] == Some(player) {
                        stack.push(n);
                    }
                }
            }
        }
        false
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
        if self.outcome(s).is_none() {
            moves.extend((0..N * N).filter(|&c| s.cells[c].is_none()).map(|c| c as u8));
        }
    }
    fn apply(&self, s: &mut HexState, mv: u8) {
        s.cells[usize::from(mv)] = Some(s.to_move);
        s.to_move ^= 1;
    }
    fn outcome(&self, s: &HexState) -> Option<Outcome> {
        (0..2).find(|&p| Hex::connected(s, p)).map(|p| Outcome::Winner(Player(p)))
    }
    fn evaluate(&self, _s: &HexState, _p: Player) -> i32 {
        0
    }
}

impl Notation for Hex {
    type Error = HexError;
    fn format_move(&self, _s: &HexState, mv: u8) -> String {
        let c = usize::from(mv);
        format!("{}{}", (b'a' + (c % N) as u8) as char, c / N + 1)
    }
    fn parse_move(&self, s: &HexState, text: &str) -> Result<u8, HexError> {
        let mut moves = MoveList::new();
        self.generate_moves(s, &mut moves);
        moves
            .into_iter()
            .find(|&m| self.format_move(s, m) == text.trim())
            .ok_or_else(|| HexError(text.to_string()))
    }
    fn format_state(&self, s: &HexState) -> String {
        let cells: String =
            s.cells.iter().map(|c| c.map_or('.', |p| if p == 0 { 'x' } else { 'o' })).collect();
        format!("{cells} {}", s.to_move)
    }
    fn parse_state(&self, text: &str) -> Result<HexState, HexError> {
        let bad = || HexError(text.to_string());
        let (cells, mover) = text.split_once(' ').ok_or_else(bad)?;
        let mut state =
            HexState { to_move: mover.parse().map_err(|_| bad())?, ..HexState::default() };
        if cells.len() != N * N || state.to_move > 1 {
            return Err(bad());
        }
        for (cell, ch) in state.cells.iter_mut().zip(cells.chars()) {
            *cell = match ch {
                'x' => Some(0),
                'o' => Some(1),
                '.' => None,
                _ => return Err(bad()),
            };
        }
        Ok(state)
    }
    fn diagram(&self, s: &HexState) -> Option<Diagram> {
        let mut d = Diagram::new(N, N);
        for (cell, value) in d.cells.iter_mut().zip(&s.cells) {
            cell.piece = value.map(|p| Piece::new(Player(p), PieceKind::Glyph('o')));
        }
        Some(d)
    }
    fn move_cells(&self, _s: &HexState, mv: u8) -> Vec<usize> {
        vec![usize::from(mv)]
    }
}
