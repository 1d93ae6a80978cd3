//! The Rust side of the `ply-games` Python package (import name `ply_games`).
//!
//! The package has two parts:
//!
//! - [`checkers`]: the Deepomatic challenge's `allowed_moves(board, color)` and
//!   `play(board, color)` on boards given as row strings, a drop-in for the challenge
//!   harness's `ai` module, with the error messages of the JSON-lines mode
//!   (`ply_tools::engines::jsonl`);
//! - [`games`]: every game of a registry ([`ply_bundle::registry`], or a crate's own given
//!   to [`games::use_registry`]) behind one type-erased interface in the spirit of
//!   OpenSpiel's Python API ([`ply_tools::dynamic`]): load a game by name and options, list
//!   and play moves in notation, read the returns, search with any agent spec of
//!   [`ply_tools::spec`], run perft. No code of the package names a game there.
//!
//! Everything here is plain Rust, tested by `cargo test`; the Python module itself (feature
//! `python`, built by maturin from `pyproject.toml`) is a thin layer of pyo3 wrappers over
//! these functions. Errors are an [`Error`] that says which Python exception they become,
//! and [`guard`] turns a panic into an error, so nothing unwinds into the interpreter.
//!
//! ```
//! use ply_games::{checkers, games};
//!
//! let board = ["________", "__b_b___", "_w______", "______b_", "_______b", "________",
//!              "________", "________"];
//! let moves = checkers::allowed_moves(&board, "w", "deepomatic")?;
//! assert_eq!(moves, vec![vec![(2, 1), (0, 3), (2, 5)]]);
//!
//! let game = games::load("tictactoe", &Default::default())?;
//! let state = game.initial_state();
//! assert_eq!(game.legal_moves(&state)?.len(), 9);
//! # Ok::<(), ply_games::Error>(())
//! ```
//!
//! # Features
//!
//! - `python`: the extension module `ply_games._native` (adds pyo3). Off by default, so the
//!   Rust workspace builds and tests without Python; `pip install ./python` turns it on.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

pub mod checkers;
pub mod games;

#[cfg(feature = "python")]
pub mod bindings;

/// Why a call failed, and the Python exception it becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Bad input from the caller (a malformed board, an unknown game, a bad option, an
    /// illegal move): `ValueError`.
    Value(String),
    /// A failure that is not the input's fault (an external engine that died, an internal
    /// error): `RuntimeError`.
    Runtime(String),
}

impl Error {
    /// A [`Error::Value`] with the text of `e`.
    pub fn value(e: impl fmt::Display) -> Error {
        Error::Value(e.to_string())
    }

    /// The message, without the kind.
    pub fn message(&self) -> &str {
        match self {
            Error::Value(m) | Error::Runtime(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

impl From<ply_tools::dynamic::CallError> for Error {
    fn from(e: ply_tools::dynamic::CallError) -> Error {
        match e {
            ply_tools::dynamic::CallError::Invalid(m) => Error::Value(m),
            ply_tools::dynamic::CallError::Failed(m) => Error::Runtime(m),
        }
    }
}

/// The result of every function of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Runs `f`, turning a panic into an [`Error::Runtime`], so that a bug in a ruleset becomes a
/// Python exception instead of unwinding into the interpreter.
///
/// ```
/// let e = ply_games::guard(|| -> ply_games::Result<()> { panic!("boom") }).unwrap_err();
/// assert!(e.to_string().contains("boom"));
/// ```
pub fn guard<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        Err(Error::Runtime(format!("internal error in ply (please report it): {what}")))
    })
}
