//! The file of one slice: a text header (what the table is, its counts) and the verdict
//! bytes compressed with deflate.
//!
//! ```text
//! PLYEGDB 2
//! set: english-checkers-8x8-standard
//! slice: b0k1-w0k1
//! indices: 1984
//! wins: 0
//! draws: 1984
//! losses: 0
//! holes: 0
//! longest-win: 0
//! longest-loss: 0
//! compressed: 19
//! checksum: 8c9d3f0a51e2b7c4
//!
//! <19 bytes of deflate data>
//! ```
//!
//! The checksum (64-bit FNV-1a over the header's lines above it and the verdict bytes) is
//! checked whenever the values are read: a damaged file is an error, never a table with
//! changed verdicts. Files of format 1 had none: they are not read ([`TableFileError::OldFormat`]), and a build solves them again.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::build::SliceStats;

const MAGIC: &str = "PLYEGDB 2";

/// The first line of the format before checksums.
const MAGIC_1: &str = "PLYEGDB 1";

/// The largest table file read: 16 GiB (the largest table ply builds is a few hundred MB).
const MAX_TABLE_BYTES: u64 = 16 << 30;

/// 64-bit FNV-1a of `parts` one after another.
fn checksum(parts: &[&[u8]]) -> u64 {
    parts
        .iter()
        .flat_map(|p| p.iter())
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// One slice's table as stored: which set and slice it is, its counts and its verdict bytes
/// ([`super::Verdict::to_byte`], 255 for an unused index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableFile {
    /// The game's table set ([`super::EndgameIndex::table_set`]).
    pub set: String,
    /// The slice's name ([`super::EndgameIndex::slice_name`]).
    pub slice: String,
    /// The number of indices.
    pub indices: u64,
    /// Wins, draws, losses, unused indices and the longest results.
    pub stats: SliceStats,
    /// One byte per index; empty when only the header was read.
    pub values: Vec<u8>,
}

/// What went wrong reading or writing a table file.
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// The file is not a table file, or it is damaged.
    #[error("{path}: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A table of format 1, written before tables had a checksum: `egdb build` builds it
    /// again.
    #[error("{path}: a table of format 1, which has no checksum: `egdb build` builds it again")]
    OldFormat {
        /// The file.
        path: PathBuf,
    },
    /// No table of this game in the directory.
    #[error("no endgame tables of {set} in {dir} (build them with the egdb command)")]
    NotFound {
        /// The game's table set.
        set: String,
        /// The directory searched.
        dir: PathBuf,
    },
}

/// Writes `table` to `path` (through a temporary file renamed at the end, so that a file
/// that exists is always whole).
///
/// # Errors
/// [`TableFileError::Io`] when the directory is not writable.
pub fn write_table(path: &Path, table: &TableFile) -> Result<u64, TableFileError> {
    let io = |source| TableFileError::Io { path: path.to_path_buf(), source };
    let data = miniz_oxide::deflate::compress_to_vec(&table.values, 6);
    let s = &table.stats;
    let header = format!(
        "{MAGIC}\nset: {}\nslice: {}\nindices: {}\nwins: {}\ndraws: {}\nlosses: {}\nholes: {}\n\
         longest-win: {}\nlongest-loss: {}\ncompressed: {}\n",
        table.set,
        table.slice,
        table.indices,
        s.wins,
        s.draws,
        s.losses,
        s.holes,
        s.longest_win,
        s.longest_loss,
        data.len()
    );
    let sum = checksum(&[header.as_bytes(), &table.values]);
    let header = format!("{header}checksum: {sum:016x}\n\n");
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io)?;
    }
    let tmp = path.with_extension("tmp");
    let mut f = fs::File::create(&tmp).map_err(io)?;
    f.write_all(header.as_bytes()).map_err(io)?;
    f.write_all(&data).map_err(io)?;
    f.sync_all().map_err(io)?;
    fs::rename(&tmp, path).map_err(io)?;
    Ok((header.len() + data.len()) as u64)
}

/// Reads a whole table file, checking that it holds as many bytes as its header says.
///
/// # Errors
/// [`TableFileError::Io`] or [`TableFileError::Corrupt`].
pub fn read_table(path: &Path) -> Result<TableFile, TableFileError> {
    read(path, true)
}

/// Reads only the header of a table file (no values).
///
/// # Errors
/// [`TableFileError::Io`] or [`TableFileError::Corrupt`].
pub fn read_table_header(path: &Path) -> Result<TableFile, TableFileError> {
    read(path, false)
}

fn read(path: &Path, values: bool) -> Result<TableFile, TableFileError> {
    let io = |source| TableFileError::Io { path: path.to_path_buf(), source };
    let corrupt = |reason: String| TableFileError::Corrupt { path: path.to_path_buf(), reason };
    let unreadable = |e: crate::files::FileError| match e {
        crate::files::FileError::Io { kind, message, .. } => io(std::io::Error::new(kind, message)),
        other => corrupt(other.to_string()),
    };
    let bytes = if values {
        crate::files::read_limited(path, MAX_TABLE_BYTES).map_err(unreadable)?
    } else {
        let mut bytes = Vec::new();
        let f = crate::files::open_regular(path).map_err(unreadable)?;
        f.take(4096).read_to_end(&mut bytes).map_err(io)?;
        bytes
    };
    let end = bytes
        .windows(2)
        .position(|w| w == b"\n\n")
        .ok_or_else(|| corrupt("no end of header".into()))?;
    let header =
        std::str::from_utf8(&bytes[..end]).map_err(|_| corrupt("header is not text".into()))?;
    let mut lines = header.lines();
    match lines.next() {
        Some(MAGIC) => {}
        Some(MAGIC_1) => return Err(TableFileError::OldFormat { path: path.to_path_buf() }),
        _ => return Err(corrupt(format!("not an endgame table (no `{MAGIC}` line)"))),
    }
    let mut field = std::collections::HashMap::new();
    for line in lines {
        let (k, v) = line.split_once(": ").ok_or_else(|| corrupt(format!("bad line `{line}`")))?;
        field.insert(k, v);
    }
    let text =
        |k: &str| field.get(k).map(|v| v.to_string()).ok_or_else(|| corrupt(format!("no `{k}`")));
    let number = |k: &str| -> Result<u64, TableFileError> {
        text(k)?.parse().map_err(|_| corrupt(format!("`{k}` is not a number")))
    };
    let small = |k: &str| -> Result<u32, TableFileError> {
        u32::try_from(number(k)?).map_err(|_| corrupt(format!("`{k}` is too large")))
    };
    let mut table = TableFile {
        set: text("set")?,
        slice: text("slice")?,
        indices: number("indices")?,
        stats: SliceStats {
            wins: number("wins")?,
            draws: number("draws")?,
            losses: number("losses")?,
            holes: number("holes")?,
            longest_win: small("longest-win")?,
            longest_loss: small("longest-loss")?,
        },
        values: Vec::new(),
    };
    let s = &table.stats;
    if s.wins + s.draws + s.losses + s.holes != table.indices {
        return Err(corrupt("the counts do not add up to the indices".into()));
    }
    if values {
        let compressed = number("compressed")? as usize;
        let data = &bytes[end + 2..];
        if data.len() != compressed {
            return Err(corrupt(format!(
                "{} bytes of data where the header says {compressed} (cut short?)",
                data.len()
            )));
        }
        let limit = usize::try_from(table.indices).map_err(|_| corrupt("too large".into()))?;
        table.values =
            miniz_oxide::inflate::decompress_to_vec_with_limit(data, limit).map_err(|e| {
                let decoded = e.output.len();
                corrupt(format!("damaged data ({:?} after {decoded} values)", e.status))
            })?;
        if table.values.len() as u64 != table.indices {
            return Err(corrupt(format!(
                "{} values where the header says {}: the file is damaged",
                table.values.len(),
                table.indices
            )));
        }
        let stored = text("checksum")?;
        let summed = header.find("\nchecksum: ").map_or(0, |i| i + 1);
        let sum = checksum(&[&bytes[..summed], &table.values]);
        if u64::from_str_radix(&stored, 16).ok() != Some(sum) {
            return Err(corrupt(format!(
                "checksum {stored} does not match the contents ({sum:016x}): the file is damaged"
            )));
        }
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> TableFile {
        let values: Vec<u8> =
            (0..5000u32).map(|i| [0u8, 4, 131, 255][(i % 7 % 4) as usize]).collect();
        let count = |b: u8| values.iter().filter(|&&v| v == b).count() as u64;
        TableFile {
            set: "toy".into(),
            slice: "a1".into(),
            indices: values.len() as u64,
            stats: SliceStats {
                wins: count(4),
                draws: count(0),
                losses: count(131),
                holes: count(255),
                longest_win: 3,
                longest_loss: 3,
            },
            values,
        }
    }

    #[test]
    fn a_table_reads_back_and_damage_is_reported() {
        let dir = std::env::temp_dir().join(format!("ply-egdb-file-{}", std::process::id()));
        let path = dir.join("a1.egdb");
        let t = table();
        let written = write_table(&path, &t).unwrap();
        assert_eq!(written, fs::metadata(&path).unwrap().len());
        assert!(written < 2000, "5000 repetitive bytes compress ({written})");
        assert_eq!(read_table(&path).unwrap(), t);
        let header = read_table_header(&path).unwrap();
        assert!(header.values.is_empty() && header.stats == t.stats);
        // Cut short.
        let bytes = fs::read(&path).unwrap();
        fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        let e = read_table(&path).unwrap_err().to_string();
        assert!(e.contains("cut short"), "{e}");
        // Any single changed byte, in the header or the data, is an error: never a table
        // with other verdicts.
        for at in (0..bytes.len()).step_by(7) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x10;
            fs::write(&path, &damaged).unwrap();
            assert!(read_table(&path).is_err(), "a changed byte {at} went unseen");
        }
        // A table of the format without checksums is refused with what to do.
        let old = String::from_utf8_lossy(&bytes).replacen(MAGIC, MAGIC_1, 1);
        fs::write(&path, old.as_bytes()).unwrap();
        let e = read_table(&path).unwrap_err().to_string();
        assert!(e.contains("builds it again"), "{e}");
        // Not a table.
        fs::write(&path, "hello\n\nworld").unwrap();
        let e = read_table(&path).unwrap_err().to_string();
        assert!(e.contains("not an endgame table"), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
