//! Reading protocol lines safely: every line is bounded in length, and a line that is not
//! UTF-8 text is reported as such instead of ending the session, so a chatty, broken or
//! hostile peer can neither grow memory without limit nor stop a run. Every line protocol of
//! ply reads its input through [`read_line`]: Hub and the external-engine clients of the
//! tools, NBoard, the JSON lines of checkers.

use std::io::{self, BufRead};

/// The longest line kept, in bytes; the rest of a longer line is read and dropped.
pub const MAX_LINE: usize = 64 * 1024;

/// One line read from a peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line ending.
    Text(String),
    /// A line that is not UTF-8 text.
    NotUtf8,
    /// A line longer than the limit (its start is kept, cut at a character boundary).
    TooLong(String),
}

/// Reads the next line of `reader`, keeping at most `max` bytes of it; `None` at the end of
/// the input.
///
/// # Errors
/// If reading fails.
///
/// ```
/// use ply::lines::{read_line, Line};
/// let mut input = &b"ping\n\xff\xfe\nok"[..];
/// assert_eq!(read_line(&mut input, 100).unwrap(), Some(Line::Text("ping".into())));
/// assert_eq!(read_line(&mut input, 100).unwrap(), Some(Line::NotUtf8));
/// assert_eq!(read_line(&mut input, 100).unwrap(), Some(Line::Text("ok".into())));
/// assert_eq!(read_line(&mut input, 100).unwrap(), None);
/// ```
pub fn read_line(reader: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = max.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        too_long |= chunk.len() > room;
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(match String::from_utf8(kept) {
        Ok(text) if too_long => Line::TooLong(text),
        Ok(text) => Line::Text(text),
        Err(e) if too_long => {
            let valid = e.utf8_error().valid_up_to();
            Line::TooLong(String::from_utf8_lossy(&e.into_bytes()[..valid]).into_owned())
        }
        Err(_) => Line::NotUtf8,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_the_next_line_is_read() {
        let text = format!("{}\nnext\n", "x".repeat(1000));
        let mut input = text.as_bytes();
        assert_eq!(read_line(&mut input, 10).unwrap(), Some(Line::TooLong("x".repeat(10))));
        assert_eq!(read_line(&mut input, 10).unwrap(), Some(Line::Text("next".into())));
        assert_eq!(read_line(&mut input, 10).unwrap(), None);
    }

    #[test]
    fn an_endless_line_uses_bounded_memory() {
        // 50 MB without a newline, read through a small buffer: only `max` bytes are kept.
        let big = std::io::Read::take(std::io::repeat(b'y'), 50_000_000);
        let mut reader = std::io::BufReader::with_capacity(4096, big);
        match read_line(&mut reader, 100).unwrap() {
            Some(Line::TooLong(t)) => assert_eq!(t.len(), 100),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn crlf_and_empty_lines() {
        let mut input = &b"a\r\n\nb"[..];
        assert_eq!(read_line(&mut input, 10).unwrap(), Some(Line::Text("a".into())));
        assert_eq!(read_line(&mut input, 10).unwrap(), Some(Line::Text(String::new())));
        assert_eq!(read_line(&mut input, 10).unwrap(), Some(Line::Text("b".into())));
    }
}
