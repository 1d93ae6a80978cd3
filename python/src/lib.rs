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
//! these functions. Errors are the tools' [`Error`], whose kind says which Python exception
//! it becomes, and [`guard`] turns a panic into an error, so nothing unwinds into the
//! interpreter.
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

use std::panic::{catch_unwind, AssertUnwindSafe};

pub mod checkers;
pub mod games;

#[cfg(feature = "python")]
pub mod bindings;

/// Why a call failed: the tools' one error, whose [`ErrorKind`](ply_tools::error::ErrorKind)
/// says which Python exception it becomes (`ply_games.SpecError`, `GameOptionError`,
/// `InputError` and the others of `ply_games.errors`; those of bad input are also
/// `ValueError`s, the others `OSError` or `RuntimeError`).
pub use ply_tools::error::ToolError as Error;

/// The result of every function of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Runs `f`, turning a panic into an [`Error::Internal`], so that a bug in a ruleset becomes a
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
        Err(Error::Internal(format!("internal error in ply (please report it): {what}")))
    })
}
