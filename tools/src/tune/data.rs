//! Training data files: what `tune generate` writes and `tune fit` and `tune merge` read.
//!
//! A file is a header, then one block per game:
//!
//! - header: the 8 bytes `PLYDATA1`, a little-endian `u32` length, and that many bytes of
//!   JSON ([`Header`]: the game and its options, the engine, the seed and how states are
//!   stored);
//! - game block: the game's number (`u64`), its position count (`u16`), then each position:
//!   the state, the result for the player to move (`u8`: [`RESULT_SCALE`] a win, half of
//!   it a draw, 0 a loss) and the search's score from that player's view (`i16`;
//!   [`SCORE_PROVEN`] for a proven win, [`NO_SCORE`] for none).
//!
//! A state takes [`Header::state_bytes`] bytes where the game packs its states
//! ([`ply::pack::PackState`]: 13 for checkers on 8x8, 22 for draughts, so 16 and 25 bytes a
//! position); other games store the position's text (a `u16` length, then UTF-8). Numbers
//! are little-endian. A block cut short at the end of a file (a run stopped mid-write) is
//! not read; [`DataFile::open_append`] cuts it off before writing on.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use ply::pack::PackState;
use ply::zobrist::mix64;
use ply::Game;

use crate::agents::ToolGame;
use crate::error::{ToolError, ToolResult};

/// The first bytes of a data file.
pub const MAGIC: &[u8; 8] = b"PLYDATA1";

/// The stored result of a win for the player to move (a draw is half of it).
pub const RESULT_SCALE: u8 = 200;

/// The stored score of a proven win (its negation a proven loss).
pub const SCORE_PROVEN: i16 = 32_000;

/// The stored score of a position without one.
pub const NO_SCORE: i16 = i16::MIN;

/// The longest header read, in bytes.
const MAX_HEADER: u32 = 1 << 16;

/// What a data file holds, written as JSON at its start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The game and its options, as on the command line (`english-checkers --rules
    /// standard`).
    pub game: String,
    /// Bytes of a packed state, or 0 where states are stored as text.
    pub state_bytes: usize,
    /// The engine that played the games.
    pub engine: String,
    /// The seed of the run.
    pub seed: u64,
}

impl Header {
    /// True if files with these headers can be merged or extended one by the other: the
    /// same game and state form (the engine and seed may differ).
    pub fn compatible(&self, other: &Header) -> bool {
        self.game == other.game && self.state_bytes == other.state_bytes
    }
}

/// How a game's states are stored: packed where the game can ([`StateCodec::packed`]), else
/// as text in the game's notation.
pub struct StateCodec<G: Game> {
    packed: Option<PackFns<G>>,
}

/// A game's [`PackState`] functions.
struct PackFns<G: Game> {
    len: fn(&G) -> usize,
    pack: fn(&G, &G::State, &mut [u8]),
    unpack: fn(&G, &[u8]) -> Option<G::State>,
}

impl<G: Game> Clone for StateCodec<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for StateCodec<G> {}

impl<G: Game> Clone for PackFns<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for PackFns<G> {}

impl<G: ToolGame> Default for StateCodec<G> {
    fn default() -> Self {
        Self::text()
    }
}

impl<G: ToolGame> StateCodec<G> {
    /// States as text in the game's notation.
    pub fn text() -> Self {
        StateCodec { packed: None }
    }

    /// States packed by the game ([`PackState`]).
    pub fn packed() -> Self
    where
        G: PackState,
    {
        StateCodec {
            packed: Some(PackFns {
                len: <G as PackState>::packed_len,
                pack: <G as PackState>::pack,
                unpack: <G as PackState>::unpack,
            }),
        }
    }

    /// Bytes of a packed state, 0 for text.
    pub fn state_bytes(&self, game: &G) -> usize {
        self.packed.map_or(0, |p| (p.len)(game))
    }

    /// Appends `state`'s stored form to `out`.
    pub fn encode(&self, game: &G, state: &G::State, out: &mut Vec<u8>) {
        match self.packed {
            Some(p) => {
                let at = out.len();
                out.resize(at + (p.len)(game), 0);
                (p.pack)(game, state, &mut out[at..]);
            }
            None => {
                let text = game.format_state(state);
                let bytes = &text.as_bytes()[..text.len().min(usize::from(u16::MAX))];
                out.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
                out.extend_from_slice(bytes);
            }
        }
    }

    /// The state stored in `bytes` (as [`StateCodec::encode`] wrote it).
    ///
    /// # Errors
    /// If the bytes hold no state of this game.
    pub fn decode(&self, game: &G, bytes: &[u8]) -> ToolResult<G::State> {
        match self.packed {
            Some(p) => {
                (p.unpack)(game, bytes).ok_or_else(|| ToolError::input("not a packed position"))
            }
            None => {
                let text =
                    bytes.get(2..).ok_or_else(|| ToolError::input("a text position cut short"))?;
                let text = std::str::from_utf8(text)
                    .map_err(|_| ToolError::input("a position that is not UTF-8"))?;
                game.parse_state(text)
                    .map_err(|e| ToolError::Input(format!("position {text:?}: {e}")))
            }
        }
    }
}

/// One stored position, its state still in stored form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The state as stored ([`StateCodec::decode`] reads it).
    pub state: Vec<u8>,
    /// The result for the player to move, from 0 (a loss) to [`RESULT_SCALE`] (a win).
    pub result: u8,
    /// The search's score for the player to move, or [`NO_SCORE`].
    pub score: i16,
}

impl Sample {
    /// The result as a reward in `[0, 1]`.
    pub fn reward(&self) -> f64 {
        f64::from(self.result) / f64::from(RESULT_SCALE)
    }

    /// The score, if the position has one: `Some(±f64::INFINITY)` for a proven result.
    pub fn search(&self) -> Option<f64> {
        match self.score {
            NO_SCORE => None,
            s if s >= SCORE_PROVEN => Some(f64::INFINITY),
            s if s <= -SCORE_PROVEN => Some(f64::NEG_INFINITY),
            s => Some(f64::from(s)),
        }
    }

    /// A key of the stored state, the same for equal states.
    pub fn key(&self) -> u64 {
        state_key(&self.state)
    }
}

/// A 64-bit key of a stored state (duplicates are found by it).
pub fn state_key(bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(mix64(bytes.len() as u64), |h, chunk| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        mix64(h ^ u64::from_le_bytes(word))
    })
}

/// The stored form of a reward in `[0, 1]`.
pub fn result_byte(reward: f64) -> u8 {
    (reward.clamp(0.0, 1.0) * f64::from(RESULT_SCALE)).round() as u8
}

/// Whether game number `game` of a run is held out to measure a fit: about one game in
/// `every`, drawn by a hash of the number, so that each shard of a run (whose game numbers all
/// leave the same remainder by the shard count) holds out its share too.
pub fn is_held_out(game: u64, every: u64) -> bool {
    mix64(game ^ 0x6865_6c64_6f75_7473).is_multiple_of(every)
}

/// One game's positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameBlock {
    /// The game's number in its run.
    pub game: u64,
    /// Its positions.
    pub samples: Vec<Sample>,
}

impl GameBlock {
    /// The block's bytes in a file.
    fn write(&self, out: &mut Vec<u8>, state_bytes: usize) {
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&(self.samples.len() as u16).to_le_bytes());
        for s in &self.samples {
            debug_assert!(state_bytes == 0 || s.state.len() == state_bytes);
            out.extend_from_slice(&s.state);
            out.push(s.result);
            out.extend_from_slice(&s.score.to_le_bytes());
        }
    }
}

/// Reads the blocks of a data file one by one.
pub struct DataReader {
    path: PathBuf,
    input: BufReader<File>,
    header: Header,
    /// Bytes read so far: the end of the last whole block.
    offset: u64,
}

/// A data file that cannot be read or written, or holds what it should not.
fn io_error(path: &Path, e: impl std::fmt::Display) -> ToolError {
    ToolError::file(path, format!("{}: {e}", path.display()))
}

impl DataReader {
    /// Opens `path` and reads its header.
    ///
    /// # Errors
    /// If the file cannot be read or is not a data file.
    pub fn open(path: &Path) -> ToolResult<DataReader> {
        let file = crate::files::open(path)?;
        let mut input = BufReader::with_capacity(1 << 16, file);
        let mut magic = [0u8; 8];
        let mut len = [0u8; 4];
        let not_data = || io_error(path, "not a ply data file (tune generate writes them)");
        input.read_exact(&mut magic).map_err(|_| not_data())?;
        input.read_exact(&mut len).map_err(|_| not_data())?;
        let len = u32::from_le_bytes(len);
        if &magic != MAGIC || len > MAX_HEADER {
            return Err(not_data());
        }
        let mut json = vec![0u8; len as usize];
        input.read_exact(&mut json).map_err(|_| not_data())?;
        let header: Header =
            serde_json::from_slice(&json).map_err(|e| io_error(path, format!("header: {e}")))?;
        let offset = 12 + u64::from(len);
        Ok(DataReader { path: path.to_path_buf(), input, header, offset })
    }

    /// The file's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The end of the last whole block read.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next game block; `None` at the end of the file, or at a block cut short there.
    ///
    /// # Errors
    /// If the file cannot be read, a text state has a length beyond the file's limits, or a
    /// result lies above [`RESULT_SCALE`] (a damaged file).
    pub fn next_block(&mut self) -> ToolResult<Option<GameBlock>> {
        let mut head = [0u8; 10];
        if !self.fill(&mut head)? {
            return Ok(None);
        }
        let game = u64::from_le_bytes(head[..8].try_into().expect("8 bytes"));
        let count = u16::from_le_bytes([head[8], head[9]]);
        let mut samples = Vec::with_capacity(usize::from(count));
        let mut read = 10u64;
        for _ in 0..count {
            let state = match self.header.state_bytes {
                0 => {
                    let mut len = [0u8; 2];
                    if !self.fill(&mut len)? {
                        return Ok(None);
                    }
                    let mut state = vec![0u8; 2 + usize::from(u16::from_le_bytes(len))];
                    state[..2].copy_from_slice(&len);
                    if !self.fill(&mut state[2..])? {
                        return Ok(None);
                    }
                    state
                }
                n => {
                    let mut state = vec![0u8; n];
                    if !self.fill(&mut state)? {
                        return Ok(None);
                    }
                    state
                }
            };
            let mut labels = [0u8; 3];
            if !self.fill(&mut labels)? {
                return Ok(None);
            }
            read += (state.len() + 3) as u64;
            if labels[0] > RESULT_SCALE {
                let damage = format!("game {game}: result {} above {RESULT_SCALE}", labels[0]);
                return Err(io_error(&self.path, format!("{damage} (a damaged file)")));
            }
            let score = i16::from_le_bytes([labels[1], labels[2]]);
            samples.push(Sample { state, result: labels[0], score });
        }
        self.offset += read;
        Ok(Some(GameBlock { game, samples }))
    }

    /// Reads `buf` whole: false at the end of the file (whether or not some bytes came).
    fn fill(&mut self, buf: &mut [u8]) -> ToolResult<bool> {
        match self.input.read_exact(buf) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
            Err(e) => Err(io_error(&self.path, e)),
        }
    }

    /// Every remaining block.
    ///
    /// # Errors
    /// As [`DataReader::next_block`].
    pub fn blocks(mut self) -> ToolResult<Vec<GameBlock>> {
        let mut blocks = Vec::new();
        while let Some(b) = self.next_block()? {
            blocks.push(b);
        }
        Ok(blocks)
    }
}

/// A data file open for writing game blocks, dropping positions it already holds.
pub struct DataFile {
    path: PathBuf,
    out: BufWriter<File>,
    header: Header,
    seen: HashSet<u64>,
    games: HashSet<u64>,
    positions: u64,
    duplicates: u64,
    buffer: Vec<u8>,
}

impl DataFile {
    /// Opens `path` to add games to it: a new file gets `header`; an existing one must have a
    /// compatible header ([`Header::compatible`]), and its games and positions are read (to
    /// skip them) and a block cut short at its end is cut off.
    ///
    /// # Errors
    /// If the file cannot be read or written, or holds other data.
    pub fn open_append(path: &Path, header: Header) -> ToolResult<DataFile> {
        let (mut seen, mut games, mut positions) = (HashSet::new(), HashSet::new(), 0);
        let mut header = header;
        let end = if path.exists() {
            let mut reader = DataReader::open(path)?;
            if !reader.header().compatible(&header) {
                return Err(io_error(
                    path,
                    format!(
                        "holds {} ({} bytes a state), not {} ({} bytes a state)",
                        reader.header().game,
                        reader.header().state_bytes,
                        header.game,
                        header.state_bytes
                    ),
                ));
            }
            header = reader.header().clone();
            while let Some(block) = reader.next_block()? {
                games.insert(block.game);
                positions += block.samples.len() as u64;
                seen.extend(block.samples.iter().map(Sample::key));
            }
            Some(reader.offset())
        } else {
            None
        };
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| io_error(path, e))?;
        match end {
            Some(end) => {
                file.set_len(end).map_err(|e| io_error(path, e))?;
                file.seek(SeekFrom::End(0)).map_err(|e| io_error(path, e))?;
            }
            None => {
                let json = serde_json::to_vec(&header).map_err(|e| io_error(path, e))?;
                let mut start = MAGIC.to_vec();
                start.extend_from_slice(&(json.len() as u32).to_le_bytes());
                start.extend_from_slice(&json);
                file.write_all(&start).map_err(|e| io_error(path, e))?;
            }
        }
        Ok(DataFile {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            header,
            seen,
            games,
            positions,
            duplicates: 0,
            buffer: Vec::new(),
        })
    }

    /// The numbers of the games the file holds.
    pub fn games(&self) -> &HashSet<u64> {
        &self.games
    }

    /// Positions in the file.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// Positions dropped as already in the file since it was opened.
    pub fn duplicates(&self) -> u64 {
        self.duplicates
    }

    /// Writes a game's block without the positions the file already has, and flushes it.
    /// A game the file already holds is skipped. Returns the positions written.
    ///
    /// # Errors
    /// If the file cannot be written.
    pub fn write(&mut self, mut block: GameBlock) -> ToolResult<usize> {
        if !self.games.insert(block.game) {
            return Ok(0);
        }
        let before = block.samples.len();
        block.samples.retain(|s| self.seen.insert(s.key()));
        block.samples.truncate(usize::from(u16::MAX));
        self.duplicates += (before - block.samples.len()) as u64;
        self.positions += block.samples.len() as u64;
        self.buffer.clear();
        block.write(&mut self.buffer, self.header.state_bytes);
        self.out.write_all(&self.buffer).map_err(|e| io_error(&self.path, e))?;
        self.out.flush().map_err(|e| io_error(&self.path, e))?;
        Ok(block.samples.len())
    }
}

/// `tune merge`: the games of `inputs` (shards of one run, or several runs of one game)
/// into `out`, each game once and each position once.
///
/// # Errors
/// If a file cannot be read or written, or the files hold different games.
pub fn merge(inputs: &[PathBuf], out: &Path) -> ToolResult<(u64, u64)> {
    let first = inputs.first().ok_or_else(|| ToolError::input("no input files"))?;
    let header = DataReader::open(first)?.header().clone();
    let mut file = DataFile::open_append(out, header.clone())?;
    for path in inputs {
        if path == out {
            let both = format!("{} is both an input and the output", path.display());
            return Err(ToolError::Input(both));
        }
        let mut reader = DataReader::open(path)?;
        if !reader.header().compatible(&header) {
            return Err(io_error(
                path,
                format!("holds {}, not {}", reader.header().game, header.game),
            ));
        }
        while let Some(block) = reader.next_block()? {
            file.write(block)?;
        }
    }
    Ok((file.games().len() as u64, file.positions()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::TicTacToe;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("ply-data-{}-{name}", std::process::id()))
    }

    fn header() -> Header {
        Header { game: "tictactoe".into(), state_bytes: 4, engine: "random".into(), seed: 1 }
    }

    fn sample(state: [u8; 4], result: u8, score: i16) -> Sample {
        Sample { state: state.to_vec(), result, score }
    }

    #[test]
    fn every_shard_of_a_run_holds_out_its_share_of_games() {
        // Shard k of 16 numbers its games k-1, k+15, ...: each must hold out about 1 in 20.
        for shard in 0..16u64 {
            let held = (0..20_000u64).filter(|&i| is_held_out(16 * i + shard, 20)).count();
            assert!((800..1200).contains(&held), "shard {}: {held} of 20000", shard + 1);
        }
    }

    #[test]
    fn a_result_above_the_scale_is_a_damaged_file() {
        let path = temp("damaged.plyd");
        let _ = std::fs::remove_file(&path);
        let mut file = DataFile::open_append(&path, header()).unwrap();
        file.write(GameBlock { game: 1, samples: vec![sample([1, 0, 0, 0], 250, 0)] }).unwrap();
        drop(file);
        let e = DataReader::open(&path).unwrap().next_block().unwrap_err();
        assert!(e.to_string().contains("game 1: result 250 above 200"), "{e}");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn blocks_are_written_once_without_duplicates_and_read_back() {
        let path = temp("a.plyd");
        let _ = std::fs::remove_file(&path);
        let mut file = DataFile::open_append(&path, header()).unwrap();
        let a = GameBlock {
            game: 3,
            samples: vec![sample([1, 0, 0, 0], 200, 12), sample([1, 0, 2, 0], 0, NO_SCORE)],
        };
        let b = GameBlock {
            game: 5,
            samples: vec![sample([1, 0, 0, 0], 100, -7), sample([3, 0, 2, 0], 100, SCORE_PROVEN)],
        };
        assert_eq!(file.write(a.clone()).unwrap(), 2);
        assert_eq!(file.write(b).unwrap(), 1);
        assert_eq!(file.write(a.clone()).unwrap(), 0, "a game already there");
        assert_eq!((file.positions(), file.duplicates()), (3, 1));
        drop(file);
        let blocks = DataReader::open(&path).unwrap().blocks().unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0], a);
        assert_eq!(blocks[1].samples, vec![sample([3, 0, 2, 0], 100, SCORE_PROVEN)]);
        assert_eq!(blocks[1].samples[0].search(), Some(f64::INFINITY));
        assert_eq!(blocks[0].samples[1].search(), None);
        // A block cut short is not read, and is cut off before more are written.
        let len = std::fs::metadata(&path).unwrap().len();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..len as usize - 2]).unwrap();
        assert_eq!(DataReader::open(&path).unwrap().blocks().unwrap().len(), 1);
        let mut file = DataFile::open_append(&path, header()).unwrap();
        assert_eq!(file.games().len(), 1);
        let c = GameBlock { game: 9, samples: vec![sample([0, 0, 1, 0], 0, 0)] };
        file.write(c.clone()).unwrap();
        drop(file);
        let blocks = DataReader::open(&path).unwrap().blocks().unwrap();
        assert_eq!(blocks.iter().map(|b| b.game).collect::<Vec<_>>(), [3, 9]);
        // Other data is refused.
        let other = Header { state_bytes: 0, ..header() };
        assert!(DataFile::open_append(&path, other)
            .err()
            .unwrap()
            .to_string()
            .contains("holds tictactoe"));
        std::fs::write(&path, b"PLYDATA1\xff\xff\xff\xff").unwrap();
        assert!(DataReader::open(&path).err().unwrap().to_string().contains("not a ply data file"));
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn text_states_round_trip() {
        let game = TicTacToe;
        let codec = StateCodec::<TicTacToe>::text();
        let mut bytes = Vec::new();
        codec.encode(&game, &game.initial_state(), &mut bytes);
        assert_eq!(codec.state_bytes(&game), 0);
        assert_eq!(codec.decode(&game, &bytes), Ok(game.initial_state()));
        assert!(codec.decode(&game, &[1]).is_err());
        let packed = StateCodec::<TicTacToe>::packed();
        bytes.clear();
        packed.encode(&game, &game.initial_state(), &mut bytes);
        assert_eq!(bytes.len(), 4);
        assert_eq!(packed.decode(&game, &bytes), Ok(game.initial_state()));
    }
}
