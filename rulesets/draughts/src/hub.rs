//! The Hub protocol's text forms for international draughts: positions (`W` or `B`, then one
//! of `w`, `b`, `W`, `B`, `e` per square 1..50) and moves (`32-28`, or for captures
//! `from x to x captured x ...`, `28x19x23`). The protocol itself, engine and client, is in
//! `ply-tools` (`ply_tools::engines::hub`), for any game with these functions as its codec.

use ply::{Game, MoveList};

use crate::bitboard::bit_of;
use crate::error::Error;
use crate::movegen::{Move, Pieces};
use crate::rules::{DraughtsState, InternationalDraughts};

/// A move in Hub format: `32-28`, or `from x to x captured...` for a capture.
///
/// ```
/// use ply::Notation;
/// use ply_draughts::{hub, InternationalDraughts};
/// let game = InternationalDraughts::new();
/// let s = game.parse_state("W:W28:B23").unwrap();
/// let mv = game.parse_move(&s, "28x19").unwrap();
/// assert_eq!(hub::format_hub_move(mv), "28x19x23");
/// ```
pub fn format_hub_move(mv: Move) -> String {
    format!("{mv:?}")
}

/// Reads a move in Hub format (`32-28`, `28x19x23` with the captured squares in any order)
/// as a legal move of `state`; a bare `from x to` is accepted when it is unambiguous.
///
/// # Errors
/// A message naming the text if it is malformed or matches no legal move (or several).
pub fn parse_hub_move(
    game: &InternationalDraughts,
    state: &DraughtsState,
    text: &str,
) -> Result<Move, String> {
    let bad = || format!("invalid or illegal move {text}");
    let capture = text.contains('x');
    let squares: Vec<u8> = text
        .split(['x', '-'])
        .map(|s| s.parse::<u8>().ok().filter(|n| (1..=50).contains(n)))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    if squares.len() < 2 || (!capture && squares.len() != 2) {
        return Err(bad());
    }
    let captured = squares[2..].iter().fold(0u64, |bb, &s| bb | 1 << bit_of(s));
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let found: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.from() == squares[0] && m.to() == squares[1])
        .filter(|m| m.is_capture() == capture)
        .filter(|m| squares.len() == 2 || m.captured == captured)
        .collect();
    match found.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(bad()),
        _ => Err(format!("ambiguous move {text}: give the captured squares")),
    }
}

/// Reads a Hub position: `W` or `B` (side to move) and one of `w`, `b`, `W`, `B`, `e` per
/// square 1..50.
///
/// # Errors
/// [`Error::HubPosition`] for any other text, or for a man on its crowning row.
///
/// ```
/// use ply_draughts::hub::{format_position, parse_position};
/// let start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
/// assert_eq!(format_position(&parse_position(start)?), start);
/// assert!(parse_position("W").is_err());
/// # Ok::<(), ply_draughts::Error>(())
/// ```
pub fn parse_position(text: &str) -> Result<DraughtsState, Error> {
    let bad = || Error::HubPosition(text.to_string());
    let bytes = text.trim().as_bytes();
    if bytes.len() != 51 {
        return Err(bad());
    }
    let white_to_move = match bytes[0] {
        b'W' | b'w' => true,
        b'B' | b'b' => false,
        _ => return Err(bad()),
    };
    let mut p = Pieces::default();
    for (i, &c) in bytes[1..].iter().enumerate() {
        let square = i as u8 + 1;
        let b = 1u64 << bit_of(square);
        match c {
            b'w' | b'W' => p.white |= b,
            b'b' | b'B' => p.black |= b,
            b'e' | b'.' => {}
            _ => return Err(bad()),
        }
        if c == b'W' || c == b'B' {
            p.kings |= b;
        }
        if (c == b'w' && square <= 5) || (c == b'b' && square >= 46) {
            return Err(bad());
        }
    }
    Ok(DraughtsState::from_parts(p, white_to_move, 0))
}

/// Writes a position in Hub format.
pub fn format_position(state: &DraughtsState) -> String {
    let mut s = String::with_capacity(51);
    s.push(if state.white_to_move() { 'W' } else { 'B' });
    for square in 1..=50 {
        s.push(state.piece_at(square).map_or('e', crate::Piece::letter));
    }
    s
}
