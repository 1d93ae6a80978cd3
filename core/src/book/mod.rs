//! Opening books built by the engine itself.
//!
//! A [`Book`] holds positions of a two-player game, keyed by [`Game::hash`], each with its
//! book moves and their minimax values for the side to move. [`Book::choose`] picks a move
//! for a position among those within a margin of the best (at random from a seed, or always
//! the best); [`BookAgent`] plays book moves while the game is in the book and asks another
//! agent once it leaves it; [`DropOut`] builds a book by drop-out expansion (Lincke 2001),
//! evaluating its leaves with any [`Agent`](crate::search::Agent) (alpha-beta in practice).
//!
//! # The file format
//!
//! A book is a text file that names positions by the moves that lead to them from the
//! game's start, in the game's own notation ([`Notation::format_move`]), so a file stays
//! valid when the hash function of the rules changes:
//!
//! ```text
//! ply-book 1
//! game: tictactoe
//! built: book build --game tictactoe --nodes 100 --depth 9
//! margin: 0
//!
//! # moves from the start | each book move=its value for the side to move
//! | b2=0 a1=0 c1=0
//! b2 | a1=0 a2=loss5
//! ```
//!
//! - The first line is `ply-book 1` (the format and its version).
//! - Then header lines `key: value` (the game, its rules, how the book was built, the
//!   suggested `margin`...), up to the first position; [`Book::header`] keeps them in order.
//! - Each position line is the moves from the start separated by spaces (none for the start
//!   position itself), a `|`, then every book move of the position as `move=value`, best
//!   first. A value is a number in the evaluation's units, or `winN` / `lossN`: a proven win
//!   or loss in N plies, for the side to move at that position.
//! - `#` starts a comment line; blank lines are ignored.
//!
//! [`Book::parse`] replays every line, so a move that is not legal, a value that is not a
//! number or a position given twice is an error that names its line; it never panics.
//!
//! # Example
//!
//! ```
//! use ply::book::{Book, BookAgent};
//! use ply::games::TicTacToe;
//! use ply::search::{alphabeta::AlphaBeta, Agent, Budget, Position};
//! use ply::Game;
//!
//! let game = TicTacToe;
//! let text = "ply-book 1\ngame: tictactoe\n\n| b2=0 a1=-1\nb2 | a1=0\n";
//! let book = Book::parse(&game, text).unwrap();
//! assert_eq!(book.len(), 2);
//! let start = game.initial_state();
//! assert_eq!(book.moves(&game, &start)[0].mv, 4); // b2, the centre
//!
//! // An agent that plays from the book, then searches.
//! let mut agent = BookAgent::new(AlphaBeta::new(), book).deterministic();
//! let report = agent.choose(&game, Position::new(&start), &Budget::depth(9)).unwrap();
//! assert_eq!(report.best_move, 4);
//! assert!(agent.last_from_book());
//! assert_eq!(book_round_trip(&game, &text), true);
//! # fn book_round_trip(game: &TicTacToe, text: &str) -> bool {
//! #     let book = Book::parse(game, text).unwrap();
//! #     Book::parse(game, &book.write(game).unwrap()).unwrap().len() == book.len()
//! # }
//! ```

mod agent;
mod dropout;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::marker::PhantomData;

use rand::Rng;

use crate::game::{Game, MoveList, Notation};
use crate::search::Value;

pub use agent::BookAgent;
pub use dropout::{leaf_value, DropOut, DEFAULT_WEIGHT};

/// The first line of every book file: the format and its version.
pub const MAGIC: &str = "ply-book 1";

/// The value of a proven win at the position (a win in `n` plies is `WIN - n`).
pub const WIN: f64 = 1e9;

/// Values at least this far from zero are proven wins or losses.
pub const PROVEN: f64 = WIN - 1e6;

/// A book move and its minimax value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove<M> {
    /// The move.
    pub mv: M,
    /// Its value for the side to move, in the evaluation's units; `WIN - n` for a proven
    /// win in `n` plies, `-(WIN - n)` for a proven loss.
    pub value: f64,
}

/// A position of a book: how it is reached from the start and its book moves, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<M> {
    /// The moves from the game's initial state that lead here (the first path found when
    /// the position can be reached several ways).
    pub path: Vec<M>,
    /// The position's [`Game::hash`].
    pub hash: u64,
    /// The book moves, best first.
    pub moves: Vec<BookMove<M>>,
}

/// A bad book file or a book that cannot be written. Every error of a file names its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// A line of the file that cannot be read.
    #[error("line {line}: {message}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The game has no position hash ([`Game::hash`] answers `None`), which books key on.
    #[error("this game has no position hash, so it cannot have an opening book")]
    NoHash,
    /// Books are for two-player games.
    #[error("opening books are for two-player games; this game has {0} players")]
    NotTwoPlayers(usize),
    /// A move whose notation cannot be written on a book line (it has spaces, `|` or `=`).
    #[error("move {0:?} cannot be written in a book: its notation contains a space, | or =")]
    Unwritable(String),
}

/// An opening book for a two-player game `G`: positions keyed by their hash, each with its
/// book moves and their values. See the [module docs](self) for the file format.
pub struct Book<G: Game> {
    header: Vec<(String, String)>,
    entries: Vec<Entry<G::Move>>,
    index: HashMap<u64, usize>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> Clone for Book<G> {
    fn clone(&self) -> Self {
        Book {
            header: self.header.clone(),
            entries: self.entries.clone(),
            index: self.index.clone(),
            _game: PhantomData,
        }
    }
}

impl<G: Game> std::fmt::Debug for Book<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Book")
            .field("header", &self.header)
            .field("positions", &self.entries.len())
            .finish()
    }
}

impl<G: Game> Default for Book<G> {
    fn default() -> Self {
        Book::new()
    }
}

/// The hash of `state`, which books need.
fn hash_of<G: Game>(game: &G, state: &G::State) -> Result<u64, BookError> {
    game.hash(state).ok_or(BookError::NoHash)
}

impl<G: Game> Book<G> {
    /// An empty book with no header.
    pub fn new() -> Self {
        Book { header: Vec::new(), entries: Vec::new(), index: HashMap::new(), _game: PhantomData }
    }

    /// The header lines, `(key, value)`, in file order.
    pub fn header(&self) -> &[(String, String)] {
        &self.header
    }

    /// The value of header `key`, if the book has it.
    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Sets header `key` to `value` (replacing an earlier value, keeping its place). Line
    /// breaks in `value` are written as spaces and `|` as `/` (a `|` marks position lines).
    pub fn set_header(&mut self, key: &str, value: &str) {
        let value = value.replace(['\n', '\r'], " ").replace('|', "/");
        match self.header.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.header.push((key.to_string(), value)),
        }
    }

    /// The margin the book suggests for [`Book::choose`]: its `margin` header, else 0.
    pub fn margin(&self) -> f64 {
        self.header_value("margin")
            .and_then(|m| m.trim().parse::<f64>().ok())
            .filter(|m| m.is_finite() && *m >= 0.0)
            .unwrap_or(0.0)
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The positions, in file order.
    pub fn entries(&self) -> &[Entry<G::Move>] {
        &self.entries
    }

    /// Adds a position reached by `path` (hash `hash`) with its book moves, which are sorted
    /// best first. A position already in the book is replaced in place.
    pub fn insert(&mut self, path: Vec<G::Move>, hash: u64, mut moves: Vec<BookMove<G::Move>>) {
        moves.sort_by(|a, b| b.value.total_cmp(&a.value));
        let entry = Entry { path, hash, moves };
        match self.index.get(&hash) {
            Some(&i) => self.entries[i] = entry,
            None => {
                self.index.insert(hash, self.entries.len());
                self.entries.push(entry);
            }
        }
    }

    /// The book's entry for `state`, if the position is in the book.
    pub fn entry(&self, game: &G, state: &G::State) -> Option<&Entry<G::Move>> {
        let hash = game.hash(state)?;
        self.index.get(&hash).map(|&i| &self.entries[i])
    }

    /// The book moves of `state` that are legal there, best first (empty when the position
    /// is not in the book). Checking legality guards against hash collisions.
    pub fn moves(&self, game: &G, state: &G::State) -> Vec<BookMove<G::Move>> {
        let Some(entry) = self.entry(game, state) else {
            return Vec::new();
        };
        let mut legal = MoveList::new();
        game.generate_moves(state, &mut legal);
        entry.moves.iter().filter(|m| legal.contains(&m.mv)).copied().collect()
    }

    /// A book move for `state`: one of the legal book moves whose value is within `margin`
    /// of the best, chosen uniformly with `rng`, or the best one when `rng` is `None`
    /// (ties go to the move listed first). `None` when the position is not in the book.
    pub fn choose<R: Rng>(
        &self,
        game: &G,
        state: &G::State,
        margin: f64,
        rng: Option<&mut R>,
    ) -> Option<BookMove<G::Move>> {
        let moves = self.moves(game, state);
        let best = moves.first()?.value;
        let margin = if margin.is_finite() { margin.max(0.0) } else { 0.0 };
        // A proven win is never traded for anything less.
        let floor = if best >= PROVEN { best } else { best - margin };
        let candidates: Vec<_> = moves.iter().filter(|m| m.value >= floor).collect();
        match rng {
            Some(rng) if candidates.len() > 1 => {
                Some(*candidates[rng.gen_range(0..candidates.len())])
            }
            _ => Some(moves[0]),
        }
    }

    /// The book's main line from `state`: the best book move, then the best book move of
    /// the position it leads to, and so on while the positions are in the book (at most
    /// `max` moves).
    pub fn line(&self, game: &G, state: &G::State, max: usize) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut state = state.clone();
        while line.len() < max {
            let Some(best) = self.moves(game, &state).first().copied() else {
                break;
            };
            line.push(best.mv);
            game.apply(&mut state, best.mv);
        }
        line
    }
}

impl<G: Game + Notation> Book<G> {
    /// Reads a book file for `game` (see the [module docs](self) for the format), replaying
    /// every position from the game's initial state.
    ///
    /// # Errors
    /// [`BookError::Line`] naming the first line that is not part of a book for this game
    /// (a bad first line, a move that is not legal, a value that is not a number, a position
    /// given twice); [`BookError::NoHash`] and [`BookError::NotTwoPlayers`] for games that
    /// cannot have books.
    pub fn parse(game: &G, text: &str) -> Result<Book<G>, BookError> {
        check_game(game)?;
        let mut book = Book::new();
        let mut seen_magic = false;
        let mut in_header = true;
        for (n, raw) in text.lines().enumerate() {
            let line_no = n + 1;
            let err = |message: String| BookError::Line { line: line_no, message };
            let line = raw.trim();
            if !seen_magic {
                if line != MAGIC {
                    let shown: String = line.chars().take(40).collect();
                    return Err(err(format!(
                        "not an opening book: the first line must be {MAGIC:?}, found {shown:?}"
                    )));
                }
                seen_magic = true;
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((path_text, moves_text)) = line.split_once('|') else {
                if in_header {
                    let Some((key, value)) = line.split_once(':') else {
                        return Err(err(format!(
                            "expected a header line `key: value` or a position \
                             `moves | move=value ...`, found {line:?}"
                        )));
                    };
                    let key = key.trim();
                    if key.is_empty() || key.contains(char::is_whitespace) {
                        return Err(err(format!("bad header key {key:?}")));
                    }
                    book.set_header(key, value.trim());
                    continue;
                }
                return Err(err(format!(
                    "expected a position `moves | move=value ...`, found {line:?}"
                )));
            };
            in_header = false;
            let mut state = game.initial_state();
            let mut path = Vec::new();
            for (i, token) in path_text.split_whitespace().enumerate() {
                if game.outcome(&state).is_some() {
                    return Err(err(format!(
                        "move {} ({token}) comes after the game ended",
                        i + 1
                    )));
                }
                let mv = game
                    .parse_move(&state, token)
                    .map_err(|e| err(format!("move {} ({token}) is not legal: {e}", i + 1)))?;
                game.apply(&mut state, mv);
                path.push(mv);
            }
            if game.outcome(&state).is_some() {
                return Err(err("the game is over in this position".to_string()));
            }
            let hash = hash_of(game, &state)?;
            if let Some(&earlier) = book.index.get(&hash) {
                let earlier: &Entry<G::Move> = &book.entries[earlier];
                let shown: Vec<String> = format_path(game, &earlier.path);
                return Err(err(format!(
                    "this position is already in the book (reached by \"{}\")",
                    shown.join(" ")
                )));
            }
            let mut moves: Vec<BookMove<G::Move>> = Vec::new();
            for item in moves_text.split_whitespace() {
                let Some((mv_text, value_text)) = item.rsplit_once('=') else {
                    return Err(err(format!("book move {item:?} is not move=value")));
                };
                let mv = game.parse_move(&state, mv_text).map_err(|e| {
                    err(format!("book move {mv_text:?} is not legal in this position: {e}"))
                })?;
                if moves.iter().any(|m| m.mv == mv) {
                    return Err(err(format!("book move {mv_text:?} is given twice")));
                }
                let value = parse_value(value_text).ok_or_else(|| {
                    err(format!(
                        "bad value {value_text:?} for {mv_text}: expected a number, winN or lossN"
                    ))
                })?;
                moves.push(BookMove { mv, value });
            }
            if moves.is_empty() {
                return Err(err("a position with no book moves".to_string()));
            }
            book.insert(path, hash, moves);
        }
        if !seen_magic {
            return Err(BookError::Line {
                line: 1,
                message: format!("not an opening book: the file is empty (expected {MAGIC:?})"),
            });
        }
        Ok(book)
    }

    /// The book as a file (see the [module docs](self)): the header, then one line per
    /// position in the book's order.
    ///
    /// # Errors
    /// [`BookError::Unwritable`] if a move's notation has a space, `|` or `=`.
    pub fn write(&self, game: &G) -> Result<String, BookError> {
        let mut out = String::new();
        let _ = writeln!(out, "{MAGIC}");
        for (k, v) in &self.header {
            let _ = writeln!(out, "{k}: {v}");
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "# moves from the start | each book move=its value for the side to move \
             (winN/lossN: proven in N plies)"
        );
        for entry in &self.entries {
            let mut state = game.initial_state();
            let mut words: Vec<String> = Vec::with_capacity(entry.path.len());
            for &mv in &entry.path {
                words.push(writable(game.format_move(&state, mv))?);
                game.apply(&mut state, mv);
            }
            let mut line = words.join(" ");
            line.push_str(if line.is_empty() { "|" } else { " |" });
            for m in &entry.moves {
                let text = writable(game.format_move(&state, m.mv))?;
                let _ = write!(line, " {text}={}", format_value(m.value));
            }
            let _ = writeln!(out, "{line}");
        }
        Ok(out)
    }
}

/// Checks that `game` can have a book: two players and a position hash.
fn check_game<G: Game>(game: &G) -> Result<(), BookError> {
    if game.num_players() != 2 {
        return Err(BookError::NotTwoPlayers(game.num_players()));
    }
    hash_of(game, &game.initial_state()).map(|_| ())
}

fn format_path<G: Notation>(game: &G, path: &[G::Move]) -> Vec<String> {
    let mut state = game.initial_state();
    path.iter()
        .map(|&mv| {
            let text = game.format_move(&state, mv);
            game.apply(&mut state, mv);
            text
        })
        .collect()
}

fn writable(text: String) -> Result<String, BookError> {
    if text.is_empty() || text.contains(|c: char| c.is_whitespace() || c == '|' || c == '=') {
        Err(BookError::Unwritable(text))
    } else {
        Ok(text)
    }
}

/// A value as a book file writes it: a number (at most three decimals, signed), or `winN` /
/// `lossN` for proven results.
pub fn format_value(value: f64) -> String {
    if value >= PROVEN {
        format!("win{}", (WIN - value).round().max(0.0) as u64)
    } else if value <= -PROVEN {
        format!("loss{}", (WIN + value).round().max(0.0) as u64)
    } else {
        let rounded = (value * 1000.0).round() / 1000.0;
        if rounded == 0.0 {
            "0".to_string()
        } else {
            format!("{rounded:+}")
        }
    }
}

/// Reads a value written by [`format_value`].
pub fn parse_value(text: &str) -> Option<f64> {
    let plies = |t: &str| t.parse::<u32>().ok().map(f64::from);
    if let Some(n) = text.strip_prefix("win") {
        return plies(n).map(|n| WIN - n);
    }
    if let Some(n) = text.strip_prefix("loss") {
        return plies(n).map(|n| -(WIN - n));
    }
    let ok = !text.is_empty()
        && text.chars().all(|c| c.is_ascii_digit() || "+-.".contains(c))
        && text.chars().any(|c| c.is_ascii_digit());
    let v: f64 = if ok { text.parse().ok()? } else { return None };
    (v.is_finite() && v.abs() < PROVEN).then_some(v)
}

/// A search's [`Value`] as a book value: heuristic scores as they are, proven results as
/// `±(WIN - plies)`, a draw as 0, an MCTS reward `r` as `2000 (r - 0.5)`; `None` for
/// [`Value::Unknown`].
pub fn book_value(value: Value) -> Option<f64> {
    match value {
        Value::Heuristic(v) => Some(v.clamp(-PROVEN + 1.0, PROVEN - 1.0)),
        Value::Reward(r) => Some(2000.0 * (r - 0.5)),
        Value::Win(n) => Some(WIN - f64::from(n)),
        Value::Loss(n) => Some(-(WIN - f64::from(n))),
        Value::Draw => Some(0.0),
        Value::Unknown => None,
    }
}

/// A book value as a search [`Value`] (the inverse of [`book_value`] for alpha-beta values).
pub fn search_value(value: f64) -> Value {
    if value >= PROVEN {
        Value::Win((WIN - value).round().max(0.0) as u32)
    } else if value <= -PROVEN {
        Value::Loss((WIN + value).round().max(0.0) as u32)
    } else {
        Value::Heuristic(value)
    }
}

#[cfg(test)]
mod tests;
