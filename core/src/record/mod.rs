//! [`Record`]: a game in progress with its history, which applies the rules that depend on
//! more than the current state (repetition); ply's own text for a whole game
//! ([`write_text`], [`read_text`]), the default of [`Notation::write_record`]; the replay
//! every record reader shares ([`replay`]); and PDN, the draughts games' format ([`pdn`]).

use std::sync::Arc;

use crate::game::{Game, MoveList, Notation, Outcome, Player};

pub mod pdn;

/// Why [`Record::play`] refused a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// The move is not in the current list of legal moves.
    #[error("illegal move {0}")]
    IllegalMove(String),
}

/// A game being played: the current state, the moves so far and the hash of every position
/// reached, so that [`Game::repetition_limit`] can be applied.
///
/// ```
/// use ply::{Game, Record};
/// use ply::games::TicTacToe;
///
/// let game = TicTacToe;
/// let mut record = Record::new(&game, game.initial_state());
/// let first = record.legal_moves()[0];
/// record.play(first).unwrap();
/// assert_eq!(record.moves().len(), 1);
/// assert!(record.outcome().is_none());
/// ```
#[derive(Debug)]
pub struct Record<'g, G: Game + ?Sized> {
    game: Rules<'g, G>,
    start: G::State,
    state: G::State,
    moves: Vec<G::Move>,
    hashes: Vec<u64>,
    repetition_draw: bool,
}

impl<G: Game + ?Sized> Clone for Record<'_, G> {
    fn clone(&self) -> Self {
        Record {
            game: self.game.clone(),
            start: self.start.clone(),
            state: self.state.clone(),
            moves: self.moves.clone(),
            hashes: self.hashes.clone(),
            repetition_draw: self.repetition_draw,
        }
    }
}

/// How a [`Record`] holds its rules: borrowed, or shared with others that hold the same
/// `Arc` (a record that lives as long as it likes, as a play session's does).
#[derive(Debug)]
enum Rules<'g, G: ?Sized> {
    Borrowed(&'g G),
    Shared(Arc<G>),
}

impl<G: ?Sized> Clone for Rules<'_, G> {
    fn clone(&self) -> Self {
        match self {
            Rules::Borrowed(g) => Rules::Borrowed(g),
            Rules::Shared(g) => Rules::Shared(Arc::clone(g)),
        }
    }
}

impl<G: ?Sized> std::ops::Deref for Rules<'_, G> {
    type Target = G;

    fn deref(&self) -> &G {
        match self {
            Rules::Borrowed(g) => g,
            Rules::Shared(g) => g,
        }
    }
}

impl<'g, G: Game + ?Sized> Record<'g, G> {
    /// A record that starts at `start`.
    pub fn new(game: &'g G, start: G::State) -> Self {
        Record::with_rules(Rules::Borrowed(game), start)
    }

    fn with_rules(game: Rules<'g, G>, start: G::State) -> Self {
        let hashes = game.hash(&start).into_iter().collect();
        Record {
            game,
            start: start.clone(),
            state: start,
            moves: Vec::new(),
            hashes,
            repetition_draw: false,
        }
    }

    /// The rules.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Starts again at `start`, with the same rules and no moves.
    pub fn restart(&mut self, start: G::State) {
        *self = Record::with_rules(self.game.clone(), start);
    }

    /// The position the record started from.
    pub fn start(&self) -> &G::State {
        &self.start
    }

    /// The current position.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The hashes of every position so far, the current one last (empty if the game has no
    /// hash). Searches take it to recognise repetitions of earlier positions.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// The legal moves now (none once the game is over, a repetition draw included).
    pub fn legal_moves(&self) -> MoveList<G::Move> {
        let mut moves = MoveList::new();
        if !self.repetition_draw {
            self.game.generate_moves(&self.state, &mut moves);
        }
        moves
    }

    /// The result, if the game is over: the rules' outcome, or a draw by repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.repetition_draw {
            return Some(Outcome::Draw);
        }
        self.game.outcome(&self.state)
    }

    /// True if the game ended by repetition of a position.
    pub fn is_repetition_draw(&self) -> bool {
        self.repetition_draw
    }

    /// Plays `mv` after checking that it is legal; on error nothing changes.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] after the end, [`PlayError::IllegalMove`] for a move that is not
    /// in the legal list.
    pub fn play(&mut self, mv: G::Move) -> Result<(), PlayError> {
        if self.outcome().is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.legal_moves().contains(&mv) {
            return Err(PlayError::IllegalMove(format!("{mv:?}")));
        }
        self.game.apply(&mut self.state, mv);
        self.moves.push(mv);
        if let Some(h) = self.game.hash(&self.state) {
            self.hashes.push(h);
            if let Some(limit) = self.game.repetition_limit() {
                let seen = self.hashes.iter().filter(|&&x| x == h).count();
                if seen as u32 >= limit {
                    self.repetition_draw = true;
                }
            }
        }
        Ok(())
    }
}

impl<G: Game + ?Sized> Record<'static, G> {
    /// A record that starts at `start` and shares `game` (it borrows nothing, so it can be
    /// kept as long as its owner likes).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use ply::{Game, Record};
    /// use ply::games::TicTacToe;
    ///
    /// let game = Arc::new(TicTacToe);
    /// let mut record = Record::shared(game.clone(), game.initial_state());
    /// record.play(record.legal_moves()[0]).unwrap();
    /// assert_eq!(record.moves().len(), 1);
    /// ```
    pub fn shared(game: Arc<G>, start: G::State) -> Self {
        Record::with_rules(Rules::Shared(game), start)
    }
}

/// Why a game record could not be read: the line (1-based, 0 for the file as a whole) and
/// what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if *line == 0 { String::new() } else { format!("line {line}: ") })]
pub struct ReadRecordError {
    /// The line at fault, 1-based; 0 when the fault is not on one line (an empty file).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl ReadRecordError {
    /// An error at `line` (1-based; 0 for the whole file).
    pub fn new(line: usize, message: impl std::fmt::Display) -> Self {
        ReadRecordError { line, message: message.to_string() }
    }
}

/// ply's own text for a game: the start position in the game's notation on the first line,
/// then the moves, one per line.
///
/// ```
/// use ply::games::TicTacToe;
/// use ply::record::{read_text, write_text};
/// use ply::{Game, Notation};
///
/// let game = TicTacToe;
/// let start = game.initial_state();
/// let first = game.parse_move(&start, "b2").unwrap();
/// let text = write_text(&game, &start, &[first]);
/// assert_eq!(text, ".........\nb2\n");
/// assert_eq!(read_text(&game, &text).unwrap().1, vec![first]);
/// ```
pub fn write_text<G: Notation + ?Sized>(game: &G, start: &G::State, moves: &[G::Move]) -> String {
    let mut text = game.format_state(start);
    text.push('\n');
    let mut state = start.clone();
    for &mv in moves {
        text.push_str(&game.format_move(&state, mv));
        text.push('\n');
        game.apply(&mut state, mv);
    }
    text
}

/// Reads a game written by [`write_text`]: the start position and the moves, each checked to
/// be legal where it is played, with the history rules of [`Record`] (no move after a
/// repetition draw). Blank lines are skipped.
///
/// # Errors
/// The first line whose position or move cannot be read or played.
pub fn read_text<G: Notation + ?Sized>(
    game: &G,
    text: &str,
) -> Result<(G::State, Vec<G::Move>), ReadRecordError> {
    read_text_with(game, text, |state, text| game.parse_move(state, text))
}

/// [`read_text`] with the moves read by `read_move` (for a game that accepts forms its
/// [`Notation::parse_move`] refuses).
///
/// # Errors
/// The first line whose position or move cannot be read or played.
pub fn read_text_with<G, F, E>(
    game: &G,
    text: &str,
    read_move: F,
) -> Result<(G::State, Vec<G::Move>), ReadRecordError>
where
    G: Notation + ?Sized,
    F: FnMut(&G::State, &str) -> Result<G::Move, E>,
    E: std::fmt::Display,
{
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (n, first) = lines.next().ok_or_else(|| ReadRecordError::new(0, "the file is empty"))?;
    let start = game.parse_state(first.trim()).map_err(|e| ReadRecordError::new(n + 1, e))?;
    let written: Vec<WrittenMove> =
        lines.map(|(i, l)| WrittenMove { text: l.trim().to_string(), line: i + 1 }).collect();
    let moves = replay_with(game, &start, &written, read_move)?;
    Ok((start, moves))
}

/// A move as a record writes it, and the line (1-based) it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenMove {
    /// The move's text, without move number or annotation.
    pub text: String,
    /// The line it is on, 1-based.
    pub line: usize,
}

/// Plays the `moves` of a record from `start` through a [`Record`]: each read with
/// [`Notation::parse_move`] and checked to be legal, none accepted once the game is over (by
/// the rules or by repetition). An error names the move's line and its number (`3.`, or
/// `3...` when the second player moves).
///
/// ```
/// use ply::games::TicTacToe;
/// use ply::record::{replay, WrittenMove};
/// use ply::Game;
///
/// let game = TicTacToe;
/// let written = |text: &str, line| WrittenMove { text: text.to_string(), line };
/// let moves = replay(&game, &game.initial_state(), &[written("b2", 1)]).unwrap();
/// assert_eq!(moves.len(), 1);
/// let err = replay(&game, &game.initial_state(), &[written("b2", 1), written("b2", 4)]);
/// assert_eq!(err.unwrap_err().line, 4);
/// ```
///
/// # Errors
/// The first move that cannot be read or played.
pub fn replay<G: Notation + ?Sized>(
    game: &G,
    start: &G::State,
    moves: &[WrittenMove],
) -> Result<Vec<G::Move>, ReadRecordError> {
    replay_with(game, start, moves, |state, text| game.parse_move(state, text))
}

/// [`replay`] with the moves read by `read_move`, which gets the position before the move
/// and the move's text; what it returns is still checked to be legal.
///
/// # Errors
/// The first move that cannot be read or played.
pub fn replay_with<G, F, E>(
    game: &G,
    start: &G::State,
    moves: &[WrittenMove],
    mut read_move: F,
) -> Result<Vec<G::Move>, ReadRecordError>
where
    G: Notation + ?Sized,
    F: FnMut(&G::State, &str) -> Result<G::Move, E>,
    E: std::fmt::Display,
{
    let mut record = Record::new(game, start.clone());
    let mut number = 1;
    let mut played = Vec::with_capacity(moves.len());
    for written in moves {
        let first = game.to_move(record.state()) == Player::FIRST;
        let label = if first { format!("{number}.") } else { format!("{number}...") };
        let err = |e: String| ReadRecordError::new(written.line, format!("{label} {e}"));
        let text = written.text.as_str();
        if record.is_repetition_draw() {
            return Err(err(format!("{text}: the game was already drawn by repetition")));
        }
        if record.outcome().is_some() {
            return Err(err(format!("{text}: {}", PlayError::GameOver)));
        }
        let mv = read_move(record.state(), text).map_err(|e| err(e.to_string()))?;
        record.play(mv).map_err(|e| err(format!("{text}: {e}")))?;
        played.push(mv);
        if game.to_move(record.state()) == Player::FIRST {
            number += 1;
        }
    }
    Ok(played)
}

/// Reads the move `text` in `state` and plays it, without the history rules (see [`replay`]
/// for those).
///
/// # Errors
/// If the game is over, or `text` is not a legal move of `state`.
pub fn play_checked<G: Notation + ?Sized>(
    game: &G,
    state: &mut G::State,
    text: &str,
) -> Result<G::Move, PlayError> {
    if game.outcome(state).is_some() {
        return Err(PlayError::GameOver);
    }
    let mv =
        game.parse_move(state, text).map_err(|e| PlayError::IllegalMove(format!("{text}: {e}")))?;
    game.apply(state, mv);
    Ok(mv)
}
