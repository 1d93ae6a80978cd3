//! [`ToolError`]: why a tool could not do what it was asked, the error of the tools' public
//! functions. Its text is the message a program prints after `error: `.

use std::path::{Path, PathBuf};

use crate::options::RegistryError;
use crate::spec::SpecError;

/// Why a tool could not do what it was asked.
///
/// ```
/// use ply_tools::error::ToolError;
///
/// let e = ply_tools::files::read_text("no/such/file".as_ref(), 100).unwrap_err();
/// assert!(matches!(e, ToolError::File { .. }));
/// assert!(e.to_string().starts_with("cannot read no/such/file: "), "{e}");
/// ```
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ToolError {
    /// A game that could not be set up: an unknown name, an option it does not take or a
    /// value it refuses.
    #[error(transparent)]
    Game(#[from] RegistryError),
    /// An agent spec that does not parse, or does not build for this game.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A file that could not be read or written, or is too large to be the file asked for.
    #[error("{message}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong, the path included.
        message: String,
    },
    /// Input that does not read or does not fit: a command-line value, a position, a data
    /// or results file's contents, a move.
    #[error("{0}")]
    Invalid(String),
    /// Something that failed while it ran: an external engine, a search, the output.
    #[error("{0}")]
    Failed(String),
}

impl ToolError {
    /// A [`ToolError::Invalid`] with the text of `e`.
    pub fn invalid(e: impl std::fmt::Display) -> ToolError {
        ToolError::Invalid(e.to_string())
    }

    /// A [`ToolError::Failed`] with the text of `e`.
    pub fn failed(e: impl std::fmt::Display) -> ToolError {
        ToolError::Failed(e.to_string())
    }

    /// A [`ToolError::File`] for `path`, whose message is `message` (which names the path).
    pub fn file(path: &Path, message: impl std::fmt::Display) -> ToolError {
        ToolError::File { path: path.to_path_buf(), message: message.to_string() }
    }
}

/// A file the bounded reader could not read.
impl From<ply::files::FileError> for ToolError {
    fn from(e: ply::files::FileError) -> ToolError {
        ToolError::file(e.path(), &e)
    }
}

/// The result of the tools' public functions.
pub type ToolResult<T> = Result<T, ToolError>;

/// A message of the tools' internal helpers, which speak in text, as an
/// [`ToolError::Invalid`].
impl From<String> for ToolError {
    fn from(message: String) -> ToolError {
        ToolError::Invalid(message)
    }
}

/// The message of a [`ToolError`], for code that reports errors as text.
impl From<ToolError> for String {
    fn from(e: ToolError) -> String {
        e.to_string()
    }
}

/// A message of the tools' internal helpers as an [`ToolError::Invalid`].
impl From<&str> for ToolError {
    fn from(message: &str) -> ToolError {
        ToolError::Invalid(message.to_string())
    }
}
