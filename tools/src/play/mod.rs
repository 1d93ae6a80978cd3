//! Playing a game: a [`Session`] (a game in play with its seats and engines, one method per
//! command), and the front ends that drive it: the terminal ([`terminal`]), a game between
//! engines printed move by move ([`engine_game`]), and the game programs' command line
//! ([`program`]). The web board and Python drive the same sessions through
//! [`crate::dynamic::DynSession`].
//!
//! At the terminal a human types a move in the game's notation, the number of a move from
//! the printed list (`#3` forces the list reading where a number is also a move, as in
//! Connect Four), Enter alone for the only legal move, or a command ([`HELP`] lists them):
//! `hint` and `go` (an engine's move for the human, shown or played), `swap`, `undo` and
//! `redo`, `list`, `time T` and `depth N` (the engines' budget from now on), `new`, `save
//! FILE` and `load FILE` (in the game's record format, [`Notation::write_record`]), `resign`,
//! `quit`. A mistyped command or move is explained and asked again, with the game unchanged.
//! End of input ends the game cleanly. A human whose only legal move is a pass (written
//! `pass`, as in Reversi) passes without being asked.
//!
//! # Replaying a game
//!
//! Engines are seeded from the game's seed and their seat, and `hint`/`go` from the seed
//! too, so with depth, node or iteration budgets (and one search thread) the same seed
//! replays the same game. A time budget makes the depth reached depend on the machine and
//! its load, so those games vary; `save` keeps one.
//!
//! Pondering (engines thinking while a human types) is described in [`terminal`].

pub mod analysis;
mod commands;
pub(crate) mod display;
pub mod engine_game;
pub mod engines;
mod interrupt;
pub mod program;
pub mod search_handle;
pub mod session;
pub mod terminal;

use std::io;

use ply::search::SearchError;
use ply::{MoveList, Notation, Outcome, Player};

use crate::spec::AgentSpec;
pub(crate) use commands::read_input;
pub use commands::{BudgetChange, Input, InputError, HELP};
pub(crate) use display::{
    book_line, format_line, hint_line, status_line, tables_line, terminal_width,
};
pub use display::{engine_line, from_book, wrap};
pub use engine_game::{play_engines, play_engines_watched, Watch};
pub use engines::Engine;
pub use program::{
    clock_seed, run, run_program, seats_line, side_index, wants_color, HumanSide, PlayArgs,
};
pub use session::{Session, SessionConfig};
pub use terminal::{play_terminal, TerminalConfig};

pub use crate::options::Defaults;

/// Who plays a seat.
// A few seats per game: the size of a spec inline does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    /// A person at the terminal.
    Human,
    /// An engine built from this spec.
    Engine(AgentSpec),
}

/// How a terminal game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// The rules ended it.
    Finished(Outcome),
    /// A human typed `quit`.
    Quit,
    /// The input ran out (Ctrl-D, or a script's end).
    EndOfInput,
    /// The human of this seat typed `resign`.
    Resigned(Player),
}

/// A failure of the play loop itself (not of the players' input, which is asked again).
#[derive(Debug, thiserror::Error)]
pub enum PlayLoopError {
    /// Reading or writing the terminal failed.
    #[error("terminal i/o: {0}")]
    Io(#[from] io::Error),
    /// An engine could not move.
    #[error("engine {spec}: {source}")]
    Search {
        /// The engine's spec.
        spec: String,
        /// Why.
        source: SearchError,
    },
    /// An engine spec that cannot be built for this game.
    #[error("engine {spec}: {source}")]
    Spec {
        /// The engine's spec.
        spec: String,
        /// Why.
        source: crate::spec::SpecError,
    },
    /// A session that could not start: a wrong number of seats, an engine that does not
    /// build or start.
    #[error(transparent)]
    Start(#[from] crate::error::ToolError),
    /// No engine sits at the seat to move (a person plays it, or its engine is lent out).
    #[error("no engine plays {0} now")]
    NoEngine(String),
    /// An engine answered a move that is not legal.
    #[error("engine {spec} answered an illegal move: {mv}")]
    IllegalMove {
        /// The engine's spec.
        spec: String,
        /// The move, in debug form.
        mv: String,
    },
}

impl From<PlayLoopError> for crate::error::ToolError {
    fn from(e: PlayLoopError) -> crate::error::ToolError {
        use crate::error::ToolError;
        match e {
            PlayLoopError::Start(e) => e,
            PlayLoopError::Spec { spec, source } => ToolError::about_spec(Some(spec), source),
            PlayLoopError::Search { spec, source: SearchError::Engine { engine, reason } } => {
                ToolError::Engine {
                    protocol: engine.to_string(),
                    message: format!("{spec}: {reason}"),
                }
            }
            PlayLoopError::Search { .. } | PlayLoopError::NoEngine(_) => ToolError::input(e),
            PlayLoopError::Io(e) => ToolError::output(&e),
            PlayLoopError::IllegalMove { .. } => ToolError::internal(e),
        }
    }
}

/// The legal move `text` names in `state`: the game's notation first, then a number from the
/// list of legal moves (1-based, in generation order); `#N` is always a list number. In a game
/// whose moves are written as numbers (Connect Four's columns, Kalah's pits) a number is
/// always the move it writes: `1` is column 1, and an error if that column is full.
///
/// # Errors
/// [`InputError`] with the reason, the notation's own message for text it cannot read.
pub(crate) fn resolve_input<G: Notation>(
    game: &G,
    state: &G::State,
    text: &str,
) -> Result<G::Move, InputError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(InputError::Empty);
    }
    let mut legal = MoveList::new();
    game.generate_moves(state, &mut legal);
    let by_number = |n: usize| {
        n.checked_sub(1)
            .and_then(|i| legal.get(i).copied())
            .ok_or(InputError::NoSuchNumber { number: n, len: legal.len() })
    };
    if let Some(number) = text.strip_prefix('#') {
        return match number.trim().parse::<usize>() {
            Ok(n) => by_number(n),
            Err(_) => Err(InputError::Notation(format!("{text:?} is not a move number"))),
        };
    }
    let numbers_are_moves =
        legal.iter().any(|&mv| game.format_move(state, mv).bytes().all(|b| b.is_ascii_digit()));
    match game.parse_move(state, text) {
        Ok(mv) => Ok(mv),
        Err(e) => match text.parse::<usize>() {
            Ok(n) if !numbers_are_moves => by_number(n),
            _ => Err(InputError::Notation(e.to_string())),
        },
    }
}

/// The numbered legal moves on one line, `1. 11-15  2. 11-16 ...`, for [`wrap`].
pub(crate) fn numbered_moves<G: Notation>(game: &G, state: &G::State) -> String {
    let mut legal = MoveList::new();
    game.generate_moves(state, &mut legal);
    let items: Vec<String> = legal
        .iter()
        .enumerate()
        .map(|(i, &mv)| format!("{}. {}", i + 1, game.format_move(state, mv)))
        .collect();
    items.join("  ")
}

/// The only legal move of `state` when it is a pass (written `pass` in the game's notation).
pub(crate) fn only_pass<G: Notation>(game: &G, state: &G::State) -> Option<G::Move> {
    let mut legal = MoveList::new();
    game.generate_moves(state, &mut legal);
    match legal.as_slice() {
        [only] if game.format_move(state, *only).eq_ignore_ascii_case("pass") => Some(*only),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use display::describe_outcome;
    use ply::games::{ConnectFour, TicTacToe};
    use ply::Game;

    #[test]
    fn input_by_notation_number_and_hash() {
        let g = TicTacToe;
        let s = g.initial_state();
        assert_eq!(resolve_input(&g, &s, " b2 \n"), Ok(4));
        assert_eq!(resolve_input(&g, &s, "1"), Ok(0));
        assert_eq!(resolve_input(&g, &s, "#9"), Ok(8));
        assert_eq!(
            resolve_input(&g, &s, "10"),
            Err(InputError::NoSuchNumber { number: 10, len: 9 })
        );
        assert_eq!(resolve_input(&g, &s, "0"), Err(InputError::NoSuchNumber { number: 0, len: 9 }));
        assert_eq!(resolve_input(&g, &s, ""), Err(InputError::Empty));
        let e = resolve_input(&g, &s, "z9").unwrap_err();
        assert!(e.to_string().contains("\"z9\""), "{e}");
    }

    #[test]
    fn notation_wins_over_list_numbers() {
        // Column 1 full: the list is 2..7, so "#1" is column 2 but "1" names column 1 and is
        // refused by the notation rather than read as a list number.
        let g = ConnectFour::standard();
        let s = g.parse_state("x....../o....../x....../o....../x....../o......").unwrap();
        assert_eq!(resolve_input(&g, &s, "#1"), Ok(1));
        assert_eq!(resolve_input(&g, &s, "2"), Ok(1));
        assert_eq!(resolve_input(&g, &s, "7"), Ok(6));
        // "1" names column 1, which is full: an error, never list number 1 (column 2).
        let e = resolve_input(&g, &s, "1").unwrap_err();
        assert!(matches!(e, InputError::Notation(_)), "{e}");
        // In a game whose moves are not numbers, a number is still a list number.
        let t = TicTacToe;
        assert_eq!(resolve_input(&t, &t.initial_state(), "9"), Ok(8));
    }

    #[test]
    fn commands() {
        let g = TicTacToe;
        let s = g.initial_state();
        assert_eq!(read_input(&g, &s, "HELP"), Ok(Input::Help));
        assert_eq!(read_input(&g, &s, "undo"), Ok(Input::Undo));
        assert_eq!(read_input(&g, &s, "quit\n"), Ok(Input::Quit));
        assert_eq!(read_input(&g, &s, "moves"), Ok(Input::Moves));
        assert_eq!(read_input(&g, &s, "a1"), Ok(Input::Move(6)));
    }

    #[test]
    fn outcome_words() {
        let names = vec!["Black".to_string(), "White".to_string()];
        assert_eq!(describe_outcome(&Outcome::Winner(Player(1)), &names, false), "White wins");
        assert_eq!(describe_outcome(&Outcome::Draw, &names, true), "draw by repetition");
        assert_eq!(
            describe_outcome(&Outcome::from_scores(&[40, 24]), &names, false),
            "scores: Black 40, White 24 (Black wins)"
        );
        assert_eq!(
            describe_outcome(&Outcome::from_scores(&[5, 9, 9]), &[], false),
            "scores: player 1 5, player 2 9, player 3 9 (tie between player 2 and player 3)"
        );
    }
}
