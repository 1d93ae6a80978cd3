//! [`Record`]: a game in progress with its history, which applies the rules that depend on
//! more than the current state (repetition).

use crate::game::{Game, MoveList, Outcome};

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
