//! Reading the files a user names (books, openings, weights, networks, game records) with a
//! size limit: a wrong path to a huge file is a clear error, not a program that fills memory.

use std::path::Path;

use crate::error::{ToolError, ToolResult};

/// The most a text file given to a tool may hold: 256 MiB (the largest book or openings file
/// ply writes is a few megabytes).
pub(crate) const MAX_TEXT: u64 = 256 << 20;

/// The most a binary file given to a tool may hold (a network's weights): 1 GiB.
pub(crate) const MAX_BINARY: u64 = 1 << 30;

/// Reads the regular file at `path` whole if it holds at most `max` bytes (through
/// [`ply::files::read_limited`], the one bounded reader: a device or FIFO such as `/dev/zero`
/// is an error, not a read).
///
/// ```
/// let path = std::env::temp_dir().join(format!("ply-files-doc-{}", std::process::id()));
/// std::fs::write(&path, b"0123456789").unwrap();
/// assert_eq!(ply_tools::files::read_bytes(&path, 10).unwrap().len(), 10);
/// let e = ply_tools::files::read_bytes(&path, 9).unwrap_err();
/// assert!(e.to_string().contains("more than the 9 bytes"), "{e}");
/// # std::fs::remove_file(&path).unwrap();
/// ```
///
/// # Errors
/// [`ToolError::File`] naming the path and why: it cannot be read, it is not a regular file,
/// or it is larger than `max`.
pub fn read_bytes(path: &Path, max: u64) -> ToolResult<Vec<u8>> {
    ply::files::read_limited(path, max).map_err(ToolError::from)
}

/// Opens the regular file at `path` to read it as a stream (data and results files, whose
/// records are read one at a time).
///
/// # Errors
/// [`ToolError::File`]: it cannot be opened, or it is not a regular file.
pub fn open(path: &Path) -> ToolResult<std::fs::File> {
    ply::files::open_regular(path).map_err(ToolError::from)
}

/// Reads the text file at `path` whole if it holds at most `max` bytes of UTF-8.
///
/// # Errors
/// As [`read_bytes`], or the file is not UTF-8 text.
pub fn read_text(path: &Path, max: u64) -> ToolResult<String> {
    String::from_utf8(read_bytes(path, max)?).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        ToolError::file(path, format!("{} is not UTF-8 text (byte {at})", path.display()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_over_the_limit_or_not_text_are_errors() {
        let path = std::env::temp_dir().join(format!("ply-files-{}", std::process::id()));
        std::fs::write(&path, "ab\ncd").unwrap();
        assert_eq!(read_text(&path, 5).unwrap(), "ab\ncd");
        assert!(read_text(&path, 4).unwrap_err().to_string().contains("more than the 4 bytes"));
        std::fs::write(&path, b"ab\xff").unwrap();
        assert!(read_text(&path, 10).unwrap_err().to_string().contains("not UTF-8 text (byte 2)"));
        std::fs::remove_file(&path).unwrap();
        assert!(read_text(&path, 10).unwrap_err().to_string().starts_with("cannot read"));
    }
}
