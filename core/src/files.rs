//! The one way ply reads a file that a person or a client names (books, networks, weights,
//! openings, records, endgame tables, data and results files): only regular files, and never
//! more than a limit. A device or a FIFO (`/dev/zero`, `/dev/stdin`) is an error, not a read
//! that never ends; a file larger than the limit is an error, not a program that fills its
//! memory.
//!
//! ```
//! use ply::files::{read_limited, FileError};
//!
//! let path = std::env::temp_dir().join(format!("ply-core-files-doc-{}", std::process::id()));
//! std::fs::write(&path, b"0123456789").unwrap();
//! assert_eq!(read_limited(&path, 10).unwrap().len(), 10);
//! assert!(matches!(read_limited(&path, 9), Err(FileError::TooLarge { max: 9, .. })));
//! # #[cfg(unix)]
//! assert!(matches!(read_limited("/dev/zero".as_ref(), 9), Err(FileError::NotAFile { .. })));
//! # std::fs::remove_file(&path).unwrap();
//! ```

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why a named file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// The operating system's reason: no such file, no permission, a read error.
    #[error("cannot read {}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What kind of failure.
        kind: std::io::ErrorKind,
        /// The operating system's message.
        message: String,
    },
    /// A directory, device, FIFO or socket where a file was expected.
    #[error("{} is not a regular file ({kind})", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead: `a directory`, `a device`, ...
        kind: &'static str,
    },
    /// A file larger than such a file may be.
    #[error("{} holds more than the {max} bytes such a file may have", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit.
        max: u64,
    },
}

impl FileError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Io { path, .. }
            | FileError::NotAFile { path, .. }
            | FileError::TooLarge { path, .. } => path,
        }
    }
}

impl FileError {
    fn io(path: &Path, e: std::io::Error) -> FileError {
        FileError::Io { path: path.to_path_buf(), kind: e.kind(), message: e.to_string() }
    }
}

/// Opens `path` for reading if it is a regular file (following symbolic links).
///
/// # Errors
/// [`FileError::Io`] if it cannot be opened, [`FileError::NotAFile`] if it is a directory,
/// a device, a FIFO or a socket.
pub fn open_regular(path: &Path) -> Result<File, FileError> {
    let io = |e| FileError::io(path, e);
    // The type is asked of the path before opening: opening a FIFO for reading would wait
    // for a writer.
    let kind = std::fs::metadata(path).map_err(io)?.file_type();
    if !kind.is_file() {
        return Err(FileError::NotAFile { path: path.to_path_buf(), kind: describe(kind) });
    }
    let file = File::open(path).map_err(io)?;
    // Asked again of the open file, in case the path was replaced in between.
    let kind = file.metadata().map_err(io)?.file_type();
    if !kind.is_file() {
        return Err(FileError::NotAFile { path: path.to_path_buf(), kind: describe(kind) });
    }
    Ok(file)
}

/// Reads the regular file at `path` whole if it holds at most `max` bytes.
///
/// # Errors
/// As [`open_regular`], a read error, or [`FileError::TooLarge`].
pub fn read_limited(path: &Path, max: u64) -> Result<Vec<u8>, FileError> {
    let file = open_regular(path)?;
    let io = |e| FileError::io(path, e);
    let too_large = || FileError::TooLarge { path: path.to_path_buf(), max };
    let size = file.metadata().map_err(io)?.len();
    if size > max {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(size as usize);
    // One byte past the limit tells a file of exactly `max` bytes from one that grew.
    file.take(max.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// What a file type that is not a regular file is, in words.
fn describe(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = std::env::temp_dir().join(format!("ply-core-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("five");
        std::fs::write(&path, b"abcde").unwrap();
        assert_eq!(read_limited(&path, 5).unwrap(), b"abcde");
        let e = read_limited(&path, 4).unwrap_err();
        assert!(matches!(e, FileError::TooLarge { max: 4, .. }), "{e}");
        assert!(e.to_string().contains("more than the 4 bytes"), "{e}");
        let e = read_limited(&dir, 100).unwrap_err();
        assert!(e.to_string().contains("is not a regular file (a directory)"), "{e}");
        let e = read_limited(&dir.join("absent"), 100).unwrap_err();
        assert!(matches!(e, FileError::Io { .. }) && e.to_string().starts_with("cannot read"));
        assert_eq!(e.path(), dir.join("absent"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_without_reading() {
        for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
            let e = read_limited(Path::new(device), 1 << 30).unwrap_err();
            assert!(e.to_string().contains("(a device)"), "{device}: {e}");
        }
    }
}
