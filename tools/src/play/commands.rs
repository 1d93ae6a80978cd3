//! What a human may type at the terminal: a move, or one of the in-game commands listed by
//! [`HELP`], read into an [`Input`].

use std::time::Duration;

use ply::{MoveList, Notation};

use super::resolve_input;
use crate::spec::{parse_duration, parse_plies};

/// A change of the engines' budget typed during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetChange {
    /// This time per move and no other limit.
    Time(Duration),
    /// This depth and no other limit.
    Depth(u32),
}

/// One line typed by a human, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input<M> {
    /// Play this move (typed, picked from the list, or the only legal one on an empty line).
    Move(M),
    /// Show the commands.
    Help,
    /// Show the legal moves again.
    Moves,
    /// Show the moves played so far, numbered.
    List,
    /// Show the engine's suggestion for the side to move, without playing it.
    Hint,
    /// Let the engine play this move for the human.
    Go,
    /// Exchange seats with an engine.
    Swap,
    /// Give up the game.
    Resign,
    /// Take back to this human's previous turn.
    Undo,
    /// Play again what the last `undo` took back.
    Redo,
    /// Change the engines' budget: a time per move or a depth, dropping their other limits.
    Budget(BudgetChange),
    /// Start again from the start position.
    New,
    /// Write the game to a file.
    Save(String),
    /// Read a game from a file.
    Load(String),
    /// Leave the game.
    Quit,
}

/// Why a typed line is not a move or a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// Nothing typed, and more than one legal move.
    #[error("Enter alone plays only a forced move: type a move, its number, or help")]
    Empty,
    /// A list number out of range.
    #[error("there is no move number {number}: the list has {len}")]
    NoSuchNumber {
        /// The number typed.
        number: usize,
        /// How many moves the list has.
        len: usize,
    },
    /// The game's notation rejected the text.
    #[error("{0}")]
    Notation(String),
    /// A command with a missing or unreadable argument.
    #[error("{command}: {reason}")]
    BadArgument {
        /// The command word.
        command: &'static str,
        /// What is wrong and what is expected.
        reason: String,
    },
}

/// The help text of the play loop.
pub const HELP: &str = "\
Type a move in the game's notation, or its number in the list (#N always means
the list; where moves are numbers, as Connect Four's columns, a number is the
move); Enter alone makes the only legal move. Commands:
  moves      show the legal moves again
  list       show the moves played so far
  hint       show the engine's move for your side (not played)
  go         let the engine play your side for this move
  swap       exchange sides with the engine
  undo       take back to your previous turn
  redo       play again what undo took back
  time T     engines think T per move from now on (500ms, 2s; no depth limit)
  depth N    engines search N plies from now on (no time limit)
  new        start again from the start position
  save FILE  write the game to FILE: PDN for checkers and draughts, GGF for
             2-player Reversi, ply's own text for the other games
  load FILE  read a game in that format and go on from its end
  resign     give up the game
  help       show this text
  quit       leave the game (so does end of input, Ctrl-D)";

/// A typed line: a command word (with its argument) or a move (see [`resolve_input`]). An
/// empty line is the only legal move when there is exactly one.
///
/// # Errors
/// As [`resolve_input`], and [`InputError::BadArgument`] for a command whose argument is
/// missing or unreadable.
pub(crate) fn read_input<G: Notation>(
    game: &G,
    state: &G::State,
    text: &str,
) -> Result<Input<G::Move>, InputError> {
    let text = text.trim();
    if text.is_empty() {
        let mut legal = MoveList::new();
        game.generate_moves(state, &mut legal);
        return match legal.as_slice() {
            [only] => Ok(Input::Move(*only)),
            _ => Err(InputError::Empty),
        };
    }
    let (word, argument) = match text.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, Some(rest.trim())),
        None => (text, None),
    };
    let bare = |input: Input<G::Move>| match argument {
        None => Some(input),
        Some(_) => None,
    };
    let command = match word.to_ascii_lowercase().as_str() {
        "help" | "h" | "?" => bare(Input::Help),
        "moves" => bare(Input::Moves),
        "list" => bare(Input::List),
        "hint" => bare(Input::Hint),
        "go" => bare(Input::Go),
        "swap" => bare(Input::Swap),
        "resign" => bare(Input::Resign),
        "undo" | "back" => bare(Input::Undo),
        "redo" => bare(Input::Redo),
        "new" => bare(Input::New),
        "quit" | "exit" | "q" => bare(Input::Quit),
        "time" => return time_argument(argument).map(|t| Input::Budget(BudgetChange::Time(t))),
        "depth" => return depth_argument(argument).map(|d| Input::Budget(BudgetChange::Depth(d))),
        "save" => return file_argument("save", argument).map(Input::Save),
        "load" => return file_argument("load", argument).map(Input::Load),
        _ => None,
    };
    match command {
        Some(input) => Ok(input),
        None => resolve_input(game, state, text).map(Input::Move),
    }
}

fn time_argument(argument: Option<&str>) -> Result<Duration, InputError> {
    let bad = |reason: String| InputError::BadArgument { command: "time", reason };
    let text = argument.ok_or_else(|| bad("give a time per move, e.g. time 2s".into()))?;
    let time = parse_duration(text).map_err(|e| bad(e.to_string()))?;
    if time.is_zero() {
        return Err(bad("the time must be more than 0".into()));
    }
    Ok(time)
}

fn depth_argument(argument: Option<&str>) -> Result<u32, InputError> {
    let bad = |reason: String| InputError::BadArgument { command: "depth", reason };
    let text = argument.ok_or_else(|| bad("give a depth in plies, e.g. depth 6".into()))?;
    parse_plies(text)
        .ok_or_else(|| bad(format!("{text:?} is not a depth from 1 to {}", ply::search::MAX_DEPTH)))
}

fn file_argument(command: &'static str, argument: Option<&str>) -> Result<String, InputError> {
    argument
        .filter(|a| !a.is_empty())
        .map(String::from)
        .ok_or_else(|| InputError::BadArgument { command, reason: "give a file name".into() })
}
