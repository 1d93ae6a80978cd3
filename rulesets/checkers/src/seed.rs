//! The Deepomatic challenge's API: boards as lists of row strings, moves as lists of visited
//! `(row, col)` squares.
//!
//! A board is N strings of N characters, row 0 (Black's side) first: `_` empty, `b`/`B` a
//! black man/king, `w`/`W` a white man/king. The colour to move is `'b'` or `'w'`.
//!
//! The top-left square is light, so pieces normally stand on squares with `row + col` odd.
//! The seed's own first example, though, has three pieces on the other squares ((5,5), (6,4)
//! and (7,3)) and expects them to move along their diagonals. Diagonal moves never change the
//! colour of a square, so the functions of this module accept such boards: the pieces on each
//! colour of square form a separate board (the light-square one is played mirrored left to
//! right, which makes its squares dark), sharing the turn and the duty to capture. Only
//! [`parse_board`], which must produce a single [`CheckersState`], rejects a piece on a light
//! square.
//!
//! ```
//! use ply_checkers::seed::{allowed_moves, apply_move};
//!
//! let board = [
//!     "________",
//!     "__b_____",
//!     "_w_w____",
//!     "________",
//!     "_w______",
//!     "_____b__",
//!     "____w___",
//!     "___w____",
//! ];
//! let mut moves = allowed_moves(&board, 'b')?;
//! moves.sort();
//! assert_eq!(moves, vec![vec![(1, 2), (3, 0), (5, 2)], vec![(1, 2), (3, 4)]]);
//! let after = apply_move(&board, 'b', &moves[0])?;
//! assert_eq!(after[5], "__b__b__");
//! # Ok::<(), ply_checkers::BoardError>(())
//! ```

use std::time::Duration;

use ply::eval::Evaluator;
use ply::search::{Agent, Budget, Position};

use crate::error::{BoardError, Error};
use crate::rules::{CheckersState, Color, EnglishCheckers, Piece, Rules};

/// A move as the seed writes it: the visited `(row, col)` squares, start first.
pub type Path = Vec<(usize, usize)>;

/// Reads a board and a colour as one game state under `rules` (draw rules default; the ply
/// counter starts at zero). Unlike [`allowed_moves`], it needs every piece on a dark square.
///
/// # Errors
/// A [`BoardError`] for a size other than an even number from 4 to 16, rows of the wrong
/// length, an unknown character, a piece on a light square, a man on its crowning row, or a
/// colour other than `b`/`w`.
pub fn parse_board<S: AsRef<str>>(
    board: &[S],
    color: char,
    rules: Rules,
) -> Result<(EnglishCheckers, CheckersState), BoardError> {
    let size = board.len();
    let to_move = color_of(color)?;
    let game = EnglishCheckers::new(size, rules).map_err(|_| BoardError::Size(size))?;
    let mut pieces = Vec::new();
    for (row, col, piece) in grid_pieces(board)? {
        let sq = game.square_at(row, col).ok_or(BoardError::LightSquare { row, col })?;
        if !piece.king && game.is_crowning_square(sq, piece.color) {
            return Err(BoardError::ManOnCrowningRow { row, col });
        }
        pieces.push((sq, piece));
    }
    let state = game.position(to_move, &pieces).map_err(|_| BoardError::Size(size))?;
    Ok((game, state))
}

/// The board of `state` as row strings.
pub fn board_rows(game: &EnglishCheckers, state: &CheckersState) -> Vec<String> {
    (0..game.size())
        .map(|r| {
            (0..game.size())
                .map(|c| match game.square_at(r, c).and_then(|sq| state.piece(sq)) {
                    None => '_',
                    Some(Piece { color: Color::Black, king: false }) => 'b',
                    Some(Piece { color: Color::Black, king: true }) => 'B',
                    Some(Piece { color: Color::White, king: false }) => 'w',
                    Some(Piece { color: Color::White, king: true }) => 'W',
                })
                .collect()
        })
        .collect()
}

/// The colour to move in `state` as the seed writes it: `'b'` or `'w'`.
pub fn color_to_move(game: &EnglishCheckers, state: &CheckersState) -> char {
    use ply::Game;
    if game.to_move(state) == ply::Player::FIRST {
        'b'
    } else {
        'w'
    }
}

/// Every legal move of `state` with the `(row, col)` squares it visits, in generation order.
pub fn legal_paths(game: &EnglishCheckers, state: &CheckersState) -> Vec<(crate::Move, Path)> {
    let coords = |path: Vec<usize>| path.into_iter().map(|sq| game.coords(sq)).collect();
    game.moves_with_paths(state).into_iter().map(|(mv, path)| (mv, coords(path))).collect()
}

/// The legal move of `state` that visits exactly the squares of `path`, if there is one.
pub fn find_move(
    game: &EnglishCheckers,
    state: &CheckersState,
    path: &[(usize, usize)],
) -> Option<crate::Move> {
    legal_paths(game, state).into_iter().find(|(_, p)| p == path).map(|(mv, _)| mv)
}

/// Whether [`parse_board`] refuses `board` for a piece on a light square: one of the seed's
/// boards that the other functions of this module play as two boards.
pub fn is_split<S: AsRef<str>>(board: &[S], color: char, rules: Rules) -> bool {
    matches!(parse_board(board, color, rules), Err(BoardError::LightSquare { .. }))
}

/// A seed board split by square colour: the dark-square pieces as a state, and the
/// light-square pieces as a state of the board mirrored left to right.
struct SplitBoard {
    game: EnglishCheckers,
    dark: CheckersState,
    light: CheckersState,
}

/// One legal move of a [`SplitBoard`]: which half, the move there, and its seed path.
struct SplitMove {
    light: bool,
    mv: crate::Move,
    path: Path,
}

/// Every piece of a seed board with its row and column, after checking that every row is as
/// long as the board is high and holds only `_`, `b`, `B`, `w` and `W`.
fn grid_pieces<S: AsRef<str>>(board: &[S]) -> Result<Vec<(usize, usize, Piece)>, BoardError> {
    let size = board.len();
    let mut pieces = Vec::new();
    for (row, line) in board.iter().enumerate() {
        let line = line.as_ref();
        let len = line.chars().count();
        if len != size {
            return Err(BoardError::Ragged { row, len, size });
        }
        for (col, ch) in line.chars().enumerate() {
            let piece = match ch {
                '_' => continue,
                'b' => Piece { color: Color::Black, king: false },
                'B' => Piece { color: Color::Black, king: true },
                'w' => Piece { color: Color::White, king: false },
                'W' => Piece { color: Color::White, king: true },
                ch => return Err(BoardError::Character { row, col, ch }),
            };
            pieces.push((row, col, piece));
        }
    }
    Ok(pieces)
}

fn color_of(color: char) -> Result<Color, BoardError> {
    match color {
        'b' | 'B' => Ok(Color::Black),
        'w' | 'W' => Ok(Color::White),
        other => Err(BoardError::Color(other)),
    }
}

/// Reads every piece, on either colour of square.
fn read<S: AsRef<str>>(board: &[S], color: char, rules: Rules) -> Result<SplitBoard, BoardError> {
    let size = board.len();
    let to_move = color_of(color)?;
    let game = EnglishCheckers::new(size, rules).map_err(|_| BoardError::Size(size))?;
    let mut dark = Vec::new();
    let mut light = Vec::new();
    for (row, col, piece) in grid_pieces(board)? {
        let (list, sq) = match game.square_at(row, col) {
            Some(sq) => (&mut dark, sq),
            None => (&mut light, game.square_at(row, size - 1 - col).expect("mirrored")),
        };
        if !piece.king && game.is_crowning_square(sq, piece.color) {
            return Err(BoardError::ManOnCrowningRow { row, col });
        }
        list.push((sq, piece));
    }
    let dark = game.position(to_move, &dark).map_err(|_| BoardError::Size(size))?;
    let light = game.position(to_move, &light).map_err(|_| BoardError::Size(size))?;
    Ok(SplitBoard { game, dark, light })
}

impl SplitBoard {
    fn moves(&self) -> Vec<SplitMove> {
        let n = self.game.size();
        let mut all = Vec::new();
        for (light, state) in [(false, &self.dark), (true, &self.light)] {
            for (mv, path) in self.game.moves_with_paths(state) {
                let path = path
                    .into_iter()
                    .map(|sq| {
                        let (r, c) = self.game.coords(sq);
                        if light {
                            (r, n - 1 - c)
                        } else {
                            (r, c)
                        }
                    })
                    .collect();
                all.push(SplitMove { light, mv, path });
            }
        }
        if all.iter().any(|m| m.mv.is_capture()) {
            all.retain(|m| m.mv.is_capture());
        }
        all
    }

    fn rows(&self) -> Vec<String> {
        let n = self.game.size();
        let dark = board_rows(&self.game, &self.dark);
        let light = board_rows(&self.game, &self.light);
        dark.iter()
            .zip(&light)
            .map(|(d, l)| {
                let l: Vec<char> = l.chars().rev().collect();
                d.chars().enumerate().map(|(c, ch)| if ch == '_' { l[c] } else { ch }).collect()
            })
            .inspect(|row: &String| debug_assert_eq!(row.chars().count(), n))
            .collect()
    }
}

/// Every legal move of `color` on `board` under Deepomatic rules, as visited squares.
///
/// # Errors
/// A [`BoardError`] for a size other than an even number from 4 to 16, rows of the wrong
/// length, an unknown character, a man on its crowning row, or a colour other than `b`/`w`.
pub fn allowed_moves<S: AsRef<str>>(board: &[S], color: char) -> Result<Vec<Path>, BoardError> {
    allowed_moves_with(Rules::Deepomatic, board, color)
}

/// [`allowed_moves`] under the given rules.
///
/// # Errors
/// See [`allowed_moves`].
pub fn allowed_moves_with<S: AsRef<str>>(
    rules: Rules,
    board: &[S],
    color: char,
) -> Result<Vec<Path>, BoardError> {
    Ok(read(board, color, rules)?.moves().into_iter().map(|m| m.path).collect())
}

/// The board after `color` plays `mv` (Deepomatic rules).
///
/// # Errors
/// See [`allowed_moves`]; [`BoardError::IllegalMove`] if `mv` is not one of the
/// [`allowed_moves`].
pub fn apply_move<S: AsRef<str>>(
    board: &[S],
    color: char,
    mv: &[(usize, usize)],
) -> Result<Vec<String>, BoardError> {
    apply_move_with(Rules::Deepomatic, board, color, mv)
}

/// [`apply_move`] under the given rules.
///
/// # Errors
/// See [`apply_move`].
pub fn apply_move_with<S: AsRef<str>>(
    rules: Rules,
    board: &[S],
    color: char,
    mv: &[(usize, usize)],
) -> Result<Vec<String>, BoardError> {
    use ply::Game;
    let mut split = read(board, color, rules)?;
    let legal = split.moves();
    let Some(found) = legal.iter().find(|m| m.path == mv) else {
        let paths: Vec<_> = legal.into_iter().map(|m| m.path).collect();
        return Err(BoardError::IllegalMove {
            move_text: format!("{mv:?}"),
            legal: format!("{paths:?}"),
        });
    };
    let game = split.game.clone();
    game.apply(if found.light { &mut split.light } else { &mut split.dark }, found.mv);
    // Both halves pass the turn.
    let other = if found.light { &mut split.dark } else { &mut split.light };
    let other_color = other.to_move().opponent();
    *other = game.position(other_color, &pieces_of(&game, other)).expect("same pieces");
    Ok(split.rows())
}

fn pieces_of(game: &EnglishCheckers, state: &CheckersState) -> Vec<(usize, Piece)> {
    (0..game.squares()).filter_map(|sq| state.piece(sq).map(|p| (sq, p))).collect()
}

/// The engine's move for `color` on `board` (Deepomatic rules), searched with
/// the shipped engine ([`crate::engine::engine`]) for at most `time`.
///
/// On a board with pieces on both colours of square (see the module documentation) the
/// engine searches each half that has a candidate move on its own, with half the time each,
/// and plays the move whose search value gains most over the half's static evaluation.
///
/// # Errors
/// [`Error::Board`] for a bad board, [`Error::Search`] when `color` has no legal move.
pub fn play<S: AsRef<str>>(board: &[S], color: char, time: Duration) -> Result<Path, Error> {
    play_with(Rules::Deepomatic, board, color, time)
}

/// [`play`] under the given rules.
///
/// # Errors
/// See [`play`].
pub fn play_with<S: AsRef<str>>(
    rules: Rules,
    board: &[S],
    color: char,
    time: Duration,
) -> Result<Path, Error> {
    play_budget(rules, board, color, &Budget::time(time))
}

/// [`play`] under the given rules with any search budget (a depth, a time, or both); a time
/// is shared between the board's two halves as in [`play`].
///
/// # Errors
/// See [`play`]; a budget alpha-beta cannot use is [`Error::Search`].
pub fn play_budget<S: AsRef<str>>(
    rules: Rules,
    board: &[S],
    color: char,
    budget: &Budget,
) -> Result<Path, Error> {
    use ply::Game;
    // The time runs from the call: setting up (the first call loads the networks) is part
    // of it, not added to it.
    let called = std::time::Instant::now();
    let split = read(board, color, rules)?;
    let legal = split.moves();
    if legal.is_empty() {
        return Err(Error::Search("the side to move has no legal move".into()));
    }
    if legal.len() == 1 {
        return Ok(legal.into_iter().next().map(|m| m.path).expect("one move"));
    }
    let halves: Vec<bool> =
        [false, true].into_iter().filter(|&light| legal.iter().any(|m| m.light == light)).collect();
    let mut share = budget.clone();
    share.time = budget.time.map(|t| t / halves.len() as u32);
    if let Some(t) = budget.time {
        let end = called + t;
        share.deadline = Some(budget.deadline.map_or(end, |d| d.min(end)));
    }
    let mut best: Option<(f64, Path)> = None;
    for light in halves {
        let state = if light { &split.light } else { &split.dark };
        let mut engine = crate::engine::engine();
        let report = engine
            .choose(&split.game, Position::new(state), &share)
            .map_err(|e| Error::Search(e.to_string()))?;
        let base =
            f64::from(engine.evaluator().evaluate(&split.game, state, split.game.to_move(state)));
        let gain = match report.value {
            ply::search::Value::Heuristic(v) => v - base,
            ply::search::Value::Win(n) => 1e9 - f64::from(n),
            ply::search::Value::Loss(n) => -1e9 + f64::from(n),
            _ => 0.0,
        };
        let path = legal
            .iter()
            .find(|m| m.light == light && m.mv == report.best_move)
            .map(|m| m.path.clone())
            .ok_or_else(|| Error::Search("the engine chose no listed move".into()))?;
        if best.as_ref().is_none_or(|(g, _)| gain > *g) {
            best = Some((gain, path));
        }
    }
    Ok(best.expect("at least one half has a move").1)
}
