//! GGF (the Generic Game Format of the GGS game server, also read and written by NBoard) game
//! records for 2-player Reversi on even boards: the start board, every move with its colour,
//! and the result.
//!
//! ```text
//! (;GM[Othello]PC[ply]PB[player 1]PW[player 2]RE[?]TY[8]BO[8 <64 cells> *]B[f5]W[d6];)
//! ```
//!
//! `BO[<size> <cells> <side>]` is the start: the cells row by row from a1 (the top left),
//! `*` for player 1 (Black, who moves first in Othello), `O` for player 2 (White), `-` for an
//! empty square, then the side to move. `B[..]` and `W[..]` are the moves of Black and White,
//! `PA` for a pass, optionally followed by `/<evaluation>/<time>` (`B[d3//1.2]`). `RE` is the
//! result in Black's view as a disc margin (`+12.000`, `-4.000`, `+0.000` for a draw), `?`
//! while the game is not over. [`read`] ignores every other property (dates, ratings, clocks),
//! and reads a move of the side not to move as played after an implied pass when the side to
//! move can only pass.
//!
//! [`Notation::write_record`] and
//! [`Notation::read_record`] of [`Reversi`] use this format when
//! [`describes`] the game, and ply's own text ([`ply::record`]) otherwise.
//!
//! ```
//! use ply::{Game, Notation};
//! use ply_reversi::Reversi;
//!
//! let game = Reversi::new(8, 2)?;
//! let start = game.initial_state();
//! let f5 = game.parse_move(&start, "f5")?;
//! let text = game.write_record(&start, &[f5]);
//! assert!(text.starts_with("(;GM[Othello]PC[ply]"));
//! assert!(text.contains("RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5];)"));
//! assert_eq!(game.read_record(&text).unwrap(), (start, vec![f5]));
//! # Ok::<(), ply_reversi::Error>(())
//! ```

use ply::record::ReadRecordError;
use ply::{Game, MoveList, Notation, Player};

use crate::{square_name, Reversi, ReversiMove, ReversiState};

/// True if GGF describes games of these rules: 2 players on an even board (Othello's
/// centred start; GGF names the board by its side, `TY[8]`, `TY[10]`).
pub fn describes(game: &Reversi) -> bool {
    game.players() == 2 && game.size().is_multiple_of(2)
}

/// Why [`write`] or [`read`] cannot take a game of these rules, if they cannot.
fn check_described(game: &Reversi) -> Result<(), String> {
    if describes(game) {
        Ok(())
    } else {
        Err(format!(
            "GGF records describe 2-player games on even boards; this game has {} players on {n}x{n}",
            game.players(),
            n = game.size()
        ))
    }
}

/// The value of a `BO[..]` property: the size, the cells row by row from a1 (`*` player 1,
/// `O` player 2, `-` empty) and the side to move.
pub(crate) fn board(state: &ReversiState) -> String {
    let cells: String = state
        .rows()
        .iter()
        .flat_map(|r| r.chars())
        .map(|c| match c {
            '1' => '*',
            '2' => 'O',
            _ => '-',
        })
        .collect();
    let side = if state.to_move() == Player(0) { '*' } else { 'O' };
    format!("{} {cells} {side}", state.size())
}

/// The GGF record of the game from `start` through `moves` (a legal sequence), on one line:
/// `(;GM[Othello]PC[ply]PB[player 1]PW[player 2]RE[..]TY[n]BO[..]B[..]W[..]...;)`.
///
/// # Errors
/// If GGF does not describe these rules ([`describes`]).
pub fn write(
    game: &Reversi,
    start: &ReversiState,
    moves: &[ReversiMove],
) -> Result<String, String> {
    check_described(game)?;
    let mut state = *start;
    let mut played = String::new();
    for &mv in moves {
        let colour = if state.to_move() == Player(0) { 'B' } else { 'W' };
        let text = match game.coordinates(mv) {
            Some((c, r)) => square_name(c, r),
            None => "PA".to_string(),
        };
        played.push_str(&format!("{colour}[{text}]"));
        game.apply(&mut state, mv);
    }
    let result = if game.outcome(&state).is_some() {
        let margin = state.count(Player(0)) as i64 - state.count(Player(1)) as i64;
        format!("{:+.3}", margin as f64)
    } else {
        "?".to_string()
    };
    Ok(format!(
        "(;GM[Othello]PC[ply]PB[player 1]PW[player 2]RE[{result}]TY[{}]BO[{}]{played};)\n",
        game.size(),
        board(start)
    ))
}

/// One `KEY[value]` of a record, with the line it starts on (1-based).
struct Property<'a> {
    key: &'a str,
    value: &'a str,
    line: usize,
}

/// The properties of the first game (`(;` .. `;)`) in `text`.
fn properties(text: &str) -> Result<Vec<Property<'_>>, ReadRecordError> {
    let line_at = |offset: usize| text[..offset].matches('\n').count() + 1;
    let open = text.find("(;").ok_or_else(|| ReadRecordError::new(0, "no GGF game: no (;"))?;
    let bytes = text.as_bytes();
    let mut at = open + 2;
    let mut props = Vec::new();
    loop {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if text[at..].starts_with(";)") {
            return Ok(props);
        }
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_alphabetic() {
            at += 1;
        }
        let key = &text[start..at];
        if at >= bytes.len() {
            return Err(ReadRecordError::new(line_at(start), "the game does not end with ;)"));
        }
        if key.is_empty() || bytes[at] != b'[' {
            let found = text[at..].chars().next().unwrap_or(' ');
            return Err(ReadRecordError::new(
                line_at(at),
                format!("unexpected {found:?}: expected a property such as B[d3] or ;)"),
            ));
        }
        let close = text[at..].find(']').map(|c| c + at).ok_or_else(|| {
            ReadRecordError::new(line_at(start), format!("{key}[ is not closed by ]"))
        })?;
        props.push(Property { key, value: &text[at + 1..close], line: line_at(start) });
        at = close + 1;
    }
}

/// The start position of a `BO[..]` value.
fn read_board(game: &Reversi, value: &str) -> Result<ReversiState, String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let n = game.size();
    let size: usize = match words.first().map(|w| w.parse()) {
        Some(Ok(size)) => size,
        _ => return Err(format!("BO[{value}]: expected the board size first")),
    };
    if size != n {
        return Err(format!("BO[{size} ...]: a {size}x{size} board, but this game is {n}x{n}"));
    }
    if words.len() < 3 {
        return Err(format!("BO[{value}]: expected the size, the cells and the side to move"));
    }
    let cells: Vec<char> = words[1..words.len() - 1].concat().chars().collect();
    if cells.len() != n * n {
        return Err(format!("BO[..] has {} cells, expected {}", cells.len(), n * n));
    }
    let side = match words[words.len() - 1] {
        "*" | "X" | "x" | "B" | "b" => Player(0),
        "O" | "o" | "W" | "w" => Player(1),
        other => return Err(format!("BO[..] side to move {other:?}: expected * or O")),
    };
    let mut rows = Vec::with_capacity(n);
    for row in cells.chunks(n) {
        let mut text = String::with_capacity(n);
        for &ch in row {
            text.push(match ch {
                '*' | 'X' | 'x' | 'B' | 'b' => '1',
                'O' | 'o' | 'W' | 'w' => '2',
                '-' | '.' => '.',
                other => return Err(format!("BO[..] cell {other:?}: expected *, O or -")),
            });
        }
        rows.push(text);
    }
    game.state_from_rows(&rows, side).map_err(|e| e.to_string())
}

/// Reads the first game of a GGF record: its start (`BO`) and its moves (`B`, `W`), every move
/// checked to be legal and by the side to move. Other properties are ignored, and so is any
/// `/<evaluation>/<time>` after a move.
///
/// # Errors
/// If GGF does not describe these rules, or the text is not a GGF game of this board size
/// (no `BO`, another game than Othello, a malformed property); a move that cannot be played
/// is named with its number and the line it is on.
pub fn read(
    game: &Reversi,
    text: &str,
) -> Result<(ReversiState, Vec<ReversiMove>), ReadRecordError> {
    check_described(game).map_err(|e| ReadRecordError::new(0, e))?;
    let props = properties(text)?;
    let mut state: Option<ReversiState> = None;
    let mut start = None;
    let mut moves = Vec::new();
    let mut number = 0;
    for p in &props {
        match p.key {
            "GM" if !p.value.trim().eq_ignore_ascii_case("othello") => {
                return Err(ReadRecordError::new(
                    p.line,
                    format!("GM[{}]: not an Othello game", p.value),
                ));
            }
            "BO" => {
                if start.is_some() {
                    return Err(ReadRecordError::new(p.line, "a second BO[..] board"));
                }
                let s = read_board(game, p.value).map_err(|e| ReadRecordError::new(p.line, e))?;
                start = Some(s);
                state = Some(s);
            }
            "B" | "W" => {
                number += 1;
                let at = |message: String| {
                    ReadRecordError::new(
                        p.line,
                        format!("move {number}, {}[{}]: {message}", p.key, p.value),
                    )
                };
                let state = state.as_mut().ok_or_else(|| at("before the board BO[..]".into()))?;
                let colour = if p.key == "B" { Player(0) } else { Player(1) };
                let mut legal = MoveList::new();
                game.generate_moves(state, &mut legal);
                if legal.is_empty() {
                    return Err(at("the game is over".into()));
                }
                if state.to_move() != colour {
                    // A record that leaves out a forced pass.
                    if legal.as_slice() != [ReversiMove::Pass] {
                        let side = if colour == Player(0) { "White" } else { "Black" };
                        return Err(at(format!("played out of turn: {side} is to move")));
                    }
                    game.apply(state, ReversiMove::Pass);
                    moves.push(ReversiMove::Pass);
                }
                let text = p.value.split('/').next().unwrap_or("").trim();
                let mv = game.parse_move(state, text).map_err(|e| at(e.to_string()))?;
                game.apply(state, mv);
                moves.push(mv);
            }
            _ => {}
        }
    }
    let start =
        start.ok_or_else(|| ReadRecordError::new(0, "no BO[..] board in the game record"))?;
    Ok((start, moves))
}
