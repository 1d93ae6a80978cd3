//! [`ToolError`]: why a tool could not do what it was asked, the one error of the tools'
//! functions, from the command line to the web board and Python. Its [`ErrorKind`] says what
//! failed: the web board's status code and Python's exception class follow from it. Its text
//! is the message a program prints after `error: `.

use std::path::{Path, PathBuf};

use ply::search::SearchError;

use crate::options::RegistryError;
use crate::spec::{AgentSpec, SpecError};

/// Why a tool could not do what it was asked.
///
/// ```
/// use ply_tools::error::{ErrorKind, ToolError};
///
/// let e = ply_tools::files::read_text("no/such/file".as_ref(), 100).unwrap_err();
/// assert!(matches!(e, ToolError::File { .. }));
/// assert_eq!(e.kind(), ErrorKind::File);
/// assert!(e.to_string().starts_with("cannot read no/such/file: "), "{e}");
/// ```
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ToolError {
    /// A game that could not be set up: an unknown name, an option it does not take or a
    /// value it refuses.
    #[error(transparent)]
    Game(#[from] RegistryError),
    /// An agent spec that does not parse, or does not build for this game; `spec` is the
    /// spec's text where the error is about one engine of several.
    #[error("{}{source}", spec.as_ref().map(|s| format!("engine {s}: ")).unwrap_or_default())]
    Spec {
        /// The spec the error is about, if it helps to name it.
        spec: Option<String>,
        /// What is wrong with it.
        source: SpecError,
    },
    /// A file that could not be read or written, or is too large to be the file asked for.
    #[error("{message}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong, the path included.
        message: String,
    },
    /// An external engine that failed: it did not start, broke its protocol or died.
    #[error("{protocol} engine: {message}")]
    Engine {
        /// Its protocol (`hub`, `dxp`, `jsonl`, `nboard`).
        protocol: String,
        /// What went wrong.
        message: String,
    },
    /// Input that does not read or does not fit: a command-line value, a position, a move,
    /// a data or results file's contents.
    #[error("{0}")]
    Input(String),
    /// A failure that is not the input's: a search that failed, output that could not be
    /// written, an internal error.
    #[error("{0}")]
    Internal(String),
}

/// What kind of thing failed, for callers that answer differently by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// [`ToolError::Game`].
    GameOption,
    /// [`ToolError::Spec`].
    Spec,
    /// [`ToolError::File`].
    File,
    /// [`ToolError::Engine`].
    Engine,
    /// [`ToolError::Input`].
    Input,
    /// [`ToolError::Internal`].
    Internal,
}

impl ErrorKind {
    /// The HTTP status the web board answers with: 400 for what the client sent or named,
    /// 502 for an external engine, 500 for an internal failure.
    pub fn http_status(self) -> u16 {
        match self {
            ErrorKind::GameOption | ErrorKind::Spec | ErrorKind::File | ErrorKind::Input => 400,
            ErrorKind::Engine => 502,
            ErrorKind::Internal => 500,
        }
    }
}

impl From<SpecError> for ToolError {
    fn from(source: SpecError) -> ToolError {
        ToolError::about_spec(None, source)
    }
}

impl ToolError {
    /// What kind of thing failed.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ToolError::Game(_) => ErrorKind::GameOption,
            ToolError::Spec { .. } => ErrorKind::Spec,
            ToolError::File { .. } => ErrorKind::File,
            ToolError::Engine { .. } => ErrorKind::Engine,
            ToolError::Input(_) => ErrorKind::Input,
            ToolError::Internal(_) => ErrorKind::Internal,
        }
    }

    /// A [`ToolError::Input`] with the text of `e`.
    pub fn input(e: impl std::fmt::Display) -> ToolError {
        ToolError::Input(e.to_string())
    }

    /// A [`ToolError::Internal`] with the text of `e`.
    pub fn internal(e: impl std::fmt::Display) -> ToolError {
        ToolError::Internal(e.to_string())
    }

    /// A [`ToolError::File`] for `path`, whose message is `message` (which names the path).
    pub fn file(path: &Path, message: impl std::fmt::Display) -> ToolError {
        ToolError::File { path: path.to_path_buf(), message: message.to_string() }
    }

    /// A [`ToolError::Spec`] about the engine `spec`.
    pub fn spec(spec: &AgentSpec, source: SpecError) -> ToolError {
        ToolError::about_spec(Some(spec.to_string()), source)
    }

    /// What `source` says of the engine `spec`: a file it names that cannot be read is a
    /// [`ToolError::File`], anything else a [`ToolError::Spec`].
    pub fn about_spec(spec: Option<String>, source: SpecError) -> ToolError {
        match source {
            SpecError::Unreadable { key, source: file } => {
                let engine = spec.map(|s| format!("engine {s}: ")).unwrap_or_default();
                ToolError::file(file.path(), format!("{engine}{key}: {file}"))
            }
            source => ToolError::Spec { spec, source },
        }
    }

    /// Output that could not be written ([`ToolError::Internal`]).
    pub fn output(e: &std::io::Error) -> ToolError {
        ToolError::Internal(format!("output: {e}"))
    }

    /// A search by the engine of `spec` that failed: an external engine's failure is a
    /// [`ToolError::Engine`], an algorithm that cannot search this game or this budget a
    /// [`ToolError::Spec`]-like input error ([`ToolError::Input`]), a finished game too.
    pub fn search(spec: &AgentSpec, e: SearchError) -> ToolError {
        match e {
            SearchError::Engine { engine, reason } => {
                ToolError::Engine { protocol: engine.to_string(), message: reason }
            }
            other => ToolError::Input(format!("engine {spec}: {other}")),
        }
    }
}

/// The result of the tools' functions.
pub type ToolResult<T> = Result<T, ToolError>;

/// An endgame table that cannot be read: a file error, unless no table is there at all
/// (which is the input's: the tables to build first).
impl From<ply::endgame::TableFileError> for ToolError {
    fn from(e: ply::endgame::TableFileError) -> ToolError {
        use ply::endgame::TableFileError as T;
        match &e {
            T::Io { path, .. } | T::Corrupt { path, .. } | T::OldFormat { path } => {
                ToolError::file(path, &e)
            }
            T::NotFound { .. } => ToolError::input(e),
        }
    }
}

/// A file the bounded reader could not read.
impl From<ply::files::FileError> for ToolError {
    fn from(e: ply::files::FileError) -> ToolError {
        ToolError::file(e.path(), &e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_give_the_status() {
        let engine = ToolError::search(
            &"hub:cmd=x".parse().unwrap(),
            SearchError::Engine { engine: "hub", reason: "died".into() },
        );
        assert_eq!((engine.kind(), engine.kind().http_status()), (ErrorKind::Engine, 502));
        assert_eq!(engine.to_string(), "hub engine: died");
        let input = ToolError::search(&"random".parse().unwrap(), SearchError::NoLegalMoves);
        assert_eq!(input.kind().http_status(), 400);
        assert_eq!(ToolError::internal("x").kind().http_status(), 500);
        let spec: AgentSpec = "alphabeta".parse().unwrap();
        let named = ToolError::spec(&spec, SpecError::UnknownAgent("x".into()));
        assert!(named.to_string().starts_with("engine alphabeta: unknown agent"), "{named}");
    }
}
