//! [`Record`]: a game in progress with its history, which applies the rules that depend on
//! more than the current state (repetition); and ply's own text for a whole game
//! ([`write_text`], [`read_text`]), the default of [`Notation::write_record`].

use crate::game::{Game, MoveList, Notation, Outcome};

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
#[derive(Clone, Debug)]
pub struct Record<'g, G: Game> {
    game: &'g G,
    start: G::State,
    state: G::State,
    moves: Vec<G::Move>,
    hashes: Vec<u64>,
    repetition_draw: bool,
}

impl<'g, G: Game> Record<'g, G> {
    /// A record that starts at `start`.
    pub fn new(game: &'g G, start: G::State) -> Self {
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
    pub fn game(&self) -> &'g G {
        self.game
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
/// be legal where it is played. Blank lines are skipped.
///
/// # Errors
/// The first line whose position or move cannot be read or played.
pub fn read_text<G: Notation + ?Sized>(
    game: &G,
    text: &str,
) -> Result<(G::State, Vec<G::Move>), ReadRecordError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (n, first) = lines.next().ok_or_else(|| ReadRecordError::new(0, "the file is empty"))?;
    let start = game.parse_state(first.trim()).map_err(|e| ReadRecordError::new(n + 1, e))?;
    let mut state = start.clone();
    let mut moves = Vec::new();
    for (i, line) in lines {
        let mv = play_checked(game, &mut state, line.trim())
            .map_err(|e| ReadRecordError::new(i + 1, e))?;
        moves.push(mv);
    }
    Ok((start, moves))
}

/// Reads the move `text` in `state` and plays it: the step every record reader repeats.
///
/// # Errors
/// If the game is over, or `text` is not a legal move of `state`.
pub fn play_checked<G: Notation + ?Sized>(
    game: &G,
    state: &mut G::State,
    text: &str,
) -> Result<G::Move, String> {
    if game.outcome(state).is_some() {
        return Err(format!("{text}: {}", PlayError::GameOver));
    }
    let mv = game.parse_move(state, text).map_err(|e| e.to_string())?;
    game.apply(state, mv);
    Ok(mv)
}
