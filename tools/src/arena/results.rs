//! The arena's results file: one JSON object per finished game and line (JSON lines), read
//! back to resume a run, to merge the files of many shards, and to print the standings.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::{ToolError, ToolResult};
use ply::arena::{MoveSearch, SeatStats, Standings};
use ply::{Outcome, Player};
use serde::{Deserialize, Serialize};

/// The result of one game as written in the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// The seat that won.
    Winner(usize),
    /// A draw (by the rules, by repetition, or adjudicated at the ply cap).
    Draw,
    /// A final score per seat.
    Scores(Vec<i32>),
}

impl GameResult {
    /// The file form of an outcome.
    pub fn from_outcome(outcome: &Outcome) -> GameResult {
        match outcome {
            Outcome::Winner(p) => GameResult::Winner(p.index()),
            Outcome::Draw => GameResult::Draw,
            Outcome::Scores(s) => GameResult::Scores(s.to_vec()),
        }
    }

    /// Back to an outcome.
    pub fn to_outcome(&self) -> Outcome {
        match self {
            GameResult::Winner(s) => Outcome::Winner(Player::new(*s)),
            GameResult::Draw => Outcome::Draw,
            GameResult::Scores(s) => Outcome::from_scores(s),
        }
    }
}

/// What one seat spent over a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The agent's spec.
    pub agent: String,
    /// Moves it chose.
    pub moves: u32,
    /// Thinking time in microseconds.
    pub time_us: u64,
    /// The longest time on one move, in microseconds (0 in files written before it was kept).
    #[serde(default)]
    pub max_time_us: u64,
    /// Moves answered without a search (a single legal move).
    #[serde(default)]
    pub forced: u32,
    /// Moves whose search proved the result (0 in files written before it was kept).
    #[serde(default)]
    pub solved: u32,
    /// Time on the solved moves, in microseconds.
    #[serde(default)]
    pub solved_time_us: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// The nominal depths of the moves searched to the end of their budget, summed (0 in
    /// files written before it was kept, and for engines that report none).
    #[serde(default)]
    pub depth: u64,
}

/// What one move cost its agent, as written in the file ([`ply::arena::MoveSearch`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The seat that moved.
    pub seat: usize,
    /// True for the only legal move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
    /// The nominal depth the agent reported (0 where it reports none).
    pub depth: u32,
    /// The deepest ply it reported (0 where it reports none).
    #[serde(default)]
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Thinking time in microseconds.
    pub time_us: u64,
    /// The value it gave the move, as the search prints it (`+35`, `win in 7`, `draw`, `?`).
    pub value: String,
}

impl MoveRecord {
    /// The file form of a move's search.
    pub fn new(m: &MoveSearch) -> MoveRecord {
        MoveRecord {
            seat: m.seat,
            forced: m.forced,
            depth: m.depth,
            seldepth: m.seldepth,
            nodes: m.nodes,
            time_us: micros(m.time),
            value: m.value.to_string(),
        }
    }

    /// True if the search proved the move's result (a win, a loss or a draw).
    pub fn solved(&self) -> bool {
        self.value == "draw" || self.value.starts_with("win ") || self.value.starts_with("loss ")
    }
}

/// A duration in whole microseconds (saturating).
pub(crate) fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// What identifies a tournament: game, options, agents and seed.
pub type TournamentKey = (String, String, Vec<String>, u64);

/// One finished game of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's registry name.
    pub game: String,
    /// Its options as command-line flags (empty for the defaults).
    pub options: String,
    /// The tournament seed.
    pub seed: u64,
    /// Every agent of the tournament, as specs; `seats` index this list.
    pub agents: Vec<String>,
    /// The game's index in the tournament schedule.
    pub index: usize,
    /// How many games the whole schedule has (every shard together); 0 in files written
    /// before it was recorded.
    #[serde(default)]
    pub scheduled: usize,
    /// How the schedule drew its openings and where it cut games
    /// ([`TournamentConfig::terms`](super::tournament::TournamentConfig::terms)); absent in
    /// files written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terms: Option<String>,
    /// Which opening it started from (games sharing it differ only in seats).
    pub opening: usize,
    /// `seats[s]` is the agent that played seat `s`.
    pub seats: Vec<usize>,
    /// The opening moves played before the agents took over, in notation.
    pub opening_moves: Vec<String>,
    /// The position the agents started from.
    pub start: String,
    /// The agents' moves from `start`, in notation.
    pub moves: Vec<String>,
    /// The result.
    pub result: GameResult,
    /// True if the ply cap stopped the game and it was scored a draw.
    pub adjudicated: bool,
    /// Why a seat lost by forfeit (its engine failed, or it answered an illegal move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<String>,
    /// What each seat spent.
    pub stats: Vec<SeatRecord>,
    /// What each move cost its agent, in the order of `moves` (empty in files written before
    /// it was kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub searches: Vec<MoveRecord>,
}

impl GameRecord {
    /// The tournament this game belongs to: records with equal keys are one tournament.
    pub fn tournament(&self) -> TournamentKey {
        (self.game.clone(), self.options.clone(), self.agents.clone(), self.seed)
    }

    /// Checks that the record is whole: one seat per stats entry, every seat an agent of the
    /// list, a result that names a seat of the game or gives one score per seat.
    ///
    /// # Errors
    /// What is inconsistent.
    pub fn check(&self) -> ToolResult<()> {
        let seats = self.seats.len();
        if seats == 0 {
            return Err(ToolError::input("no seats"));
        }
        if self.stats.len() != seats {
            return Err(ToolError::Input(format!(
                "{} seats but {} stats entries",
                seats,
                self.stats.len()
            )));
        }
        if let Some(&a) = self.seats.iter().find(|&&a| a >= self.agents.len()) {
            return Err(ToolError::Input(format!(
                "seat agent {a} is not one of the {} agents",
                self.agents.len()
            )));
        }
        match &self.result {
            GameResult::Winner(w) if *w >= seats => {
                Err(ToolError::Input(format!("the winner is seat {w} of a {seats}-seat game")))
            }
            GameResult::Scores(s) if s.len() != seats => {
                Err(ToolError::Input(format!("{} scores for {seats} seats", s.len())))
            }
            _ => Ok(()),
        }
    }

    /// The seats' statistics in the library's form.
    pub(crate) fn seat_stats(&self) -> Vec<SeatStats> {
        self.stats
            .iter()
            .map(|s| SeatStats {
                moves: s.moves,
                time: Duration::from_micros(s.time_us),
                max_time: Duration::from_micros(s.max_time_us),
                forced: s.forced,
                solved: s.solved,
                solved_time: Duration::from_micros(s.solved_time_us),
                nodes: s.nodes,
                depth: s.depth,
            })
            .collect()
    }
}

/// A problem with a results file.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// The file could not be read: not a regular file, or too large.
    #[error(transparent)]
    File(#[from] ply::files::FileError),
    /// A line that is not a game record, or an inconsistent one (other than an incomplete
    /// last line).
    #[error("{path}:{line}: not a game record: {reason}")]
    BadLine {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What the JSON reader said.
        reason: String,
    },
}

/// The records of a results file, and whether its last line was cut off (a run interrupted
/// while writing). An incomplete last line is skipped; any other bad line is an error.
///
/// # Errors
/// If the file cannot be read or holds a bad line.
pub fn read_records(path: &Path) -> Result<(Vec<GameRecord>, bool), ResultsError> {
    let bytes = ply::files::read_limited(path, crate::files::MAX_BINARY)?;
    let complete = bytes.is_empty() || bytes.ends_with(b"\n");
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let last = lines.iter().rposition(|l| !l.is_empty()).unwrap_or(0);
    let mut records = Vec::new();
    let mut truncated = false;
    for (i, raw) in lines.iter().enumerate() {
        let bad = |reason: String| ResultsError::BadLine {
            path: path.to_path_buf(),
            line: i + 1,
            reason,
        };
        let parsed = std::str::from_utf8(raw)
            .map_err(|_| ToolError::input("not UTF-8 text"))
            .and_then(|line| {
                if line.trim().is_empty() {
                    return Ok(None);
                }
                let r: GameRecord = serde_json::from_str(line).map_err(ToolError::input)?;
                r.check()?;
                Ok(Some(r))
            });
        match parsed {
            Ok(Some(r)) => records.push(r),
            Ok(None) => {}
            Err(_) if i == last && !complete => truncated = true,
            Err(e) => return Err(bad(e.to_string())),
        }
    }
    Ok((records, truncated))
}

/// Cuts an incomplete last line off the file, so that appending starts on a fresh line.
///
/// # Errors
/// If the file cannot be read or written.
pub(crate) fn drop_incomplete_line(path: &Path) -> Result<(), ResultsError> {
    let io_err = |source| ResultsError::Io { path: path.to_path_buf(), source };
    let mut file = OpenOptions::new().read(true).write(true).open(path).map_err(io_err)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io_err)?;
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    file.set_len(keep as u64).map_err(io_err)?;
    file.seek(SeekFrom::End(0)).map_err(io_err)?;
    Ok(())
}

/// Appends records to a results file, one line each, flushed at once so an interrupted run
/// loses nothing that finished.
pub struct ResultsWriter {
    path: PathBuf,
    file: File,
}

impl ResultsWriter {
    /// Opens `path` for appending, creating it if needed.
    ///
    /// # Errors
    /// If it cannot be opened.
    pub fn append(path: &Path) -> Result<ResultsWriter, ResultsError> {
        let io_err = |source| ResultsError::Io { path: path.to_path_buf(), source };
        let mut file =
            OpenOptions::new().create(true).read(true).append(true).open(path).map_err(io_err)?;
        // A last line without its newline (a file edited by hand, or cut by a copy) must not
        // have the next record glued to it.
        let len = file.metadata().map_err(io_err)?.len();
        if len > 0 {
            let mut last = [0u8];
            file.seek(SeekFrom::Start(len - 1))
                .and_then(|_| file.read_exact(&mut last))
                .map_err(io_err)?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(io_err)?;
            }
        }
        Ok(ResultsWriter { path: path.to_path_buf(), file })
    }

    /// Writes one record as one line.
    ///
    /// # Errors
    /// If writing fails.
    pub fn write(&mut self, record: &GameRecord) -> Result<(), ResultsError> {
        let mut line = serde_json::to_string(record).expect("records serialise");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|source| ResultsError::Io { path: self.path.clone(), source })
    }
}

/// The records of one tournament, by schedule index (duplicates dropped).
#[derive(Clone, Debug)]
pub struct Tournament {
    /// The game's registry name.
    pub game: String,
    /// Its options as flags.
    pub options: String,
    /// The agents' specs.
    pub agents: Vec<String>,
    /// The tournament seed.
    pub seed: u64,
    /// The games, ordered by index.
    pub records: Vec<GameRecord>,
}

impl Tournament {
    /// How many schedule indices have no record, and the first `show` of them, when the
    /// records say how long the schedule is (a missing or unfinished shard, or an interrupted
    /// run). The work is bounded by the records, not by the length they claim.
    pub fn missing(&self, show: usize) -> (usize, Vec<usize>) {
        let scheduled = self.records.iter().map(|r| r.scheduled).max().unwrap_or(0);
        let have: BTreeSet<usize> =
            self.records.iter().map(|r| r.index).filter(|&i| i < scheduled).collect();
        let first = (0..scheduled).filter(|i| !have.contains(i)).take(show).collect();
        (scheduled - have.len(), first)
    }

    /// The key its records share.
    pub fn key(&self) -> TournamentKey {
        (self.game.clone(), self.options.clone(), self.agents.clone(), self.seed)
    }

    /// The standings over every game.
    pub fn standings(&self) -> Standings {
        let mut s = Standings::new(self.agents.clone());
        for r in &self.records {
            s.add_paired(&r.seats, &r.result.to_outcome(), &r.seat_stats(), r.opening as u64);
        }
        s
    }

    /// The tournament's title: game and options.
    pub fn title(&self) -> String {
        if self.options.is_empty() {
            self.game.clone()
        } else {
            format!("{} {}", self.game, self.options)
        }
    }

    /// The standings as text, under a title line.
    pub fn table(&self) -> String {
        let s = self.standings();
        let adjudicated = self.records.iter().filter(|r| r.adjudicated).count();
        let mut out = format!("== {}: {} games", self.title(), self.records.len());
        if adjudicated > 0 {
            out += &format!(" ({adjudicated} adjudicated draws at the ply cap)");
        }
        out += " ==\n";
        out + &s.table()
    }
}

impl Tournament {
    /// Each agent's moves by stretches of `span` plies from the position the agents took over
    /// (after the opening): per stretch the moves searched to the end of their budget (neither
    /// forced nor proven) with their mean nominal depth, deepest ply, nodes and time, and the
    /// moves whose search proved the result. Where the games of a match part, move by move:
    /// the depths of two engines in the opening, the middle game and the endgame. `None` if no
    /// record keeps its moves' searches (files written before they were kept).
    ///
    /// # Panics
    /// If `span` is 0.
    pub fn by_plies(&self, span: usize) -> Option<String> {
        assert!(span > 0, "a stretch of at least one ply");
        #[derive(Default, Clone, Copy)]
        struct Stretch {
            searched: u64,
            proven: u64,
            depth: u64,
            seldepth: u64,
            nodes: u64,
            time_us: u64,
        }
        // stretches[agent][k]: plies k * span .. (k + 1) * span.
        let mut stretches: Vec<Vec<Stretch>> = vec![Vec::new(); self.agents.len()];
        for r in self.records.iter().filter(|r| !r.searches.is_empty()) {
            for (ply, m) in r.searches.iter().enumerate() {
                let Some(&agent) = r.seats.get(m.seat) else { continue };
                if m.forced || agent >= stretches.len() {
                    continue;
                }
                let row = &mut stretches[agent];
                if row.len() <= ply / span {
                    row.resize(ply / span + 1, Stretch::default());
                }
                let st = &mut row[ply / span];
                if m.solved() {
                    st.proven += 1;
                    continue;
                }
                st.searched += 1;
                st.depth += u64::from(m.depth);
                st.seldepth += u64::from(m.seldepth);
                st.nodes += m.nodes;
                st.time_us += m.time_us;
            }
        }
        if stretches.iter().all(Vec::is_empty) {
            return None;
        }
        let mut out = format!(
            "== {}: moves by stretches of {span} plies (means over the moves searched to the \
             end of their budget) ==\n",
            self.title()
        );
        for (agent, row) in self.agents.iter().zip(&stretches) {
            let _ = writeln!(out, "{agent}");
            let _ = writeln!(
                out,
                "  {:>11}  {:>7}  {:>6}  {:>6}  {:>8}  {:>12}  {:>10}",
                "plies", "moves", "proven", "depth", "seldepth", "nodes/move", "time/move"
            );
            for (k, st) in row.iter().enumerate() {
                let n = st.searched.max(1) as f64;
                let _ = writeln!(
                    out,
                    "  {:>11}  {:>7}  {:>6}  {:>6.1}  {:>8.1}  {:>12.0}  {:>8.1}ms",
                    format!("{}-{}", k * span + 1, (k + 1) * span),
                    st.searched,
                    st.proven,
                    st.depth as f64 / n,
                    st.seldepth as f64 / n,
                    st.nodes as f64 / n,
                    st.time_us as f64 / n / 1000.0,
                );
            }
        }
        Some(out)
    }
}

/// Groups records into tournaments (same game, options, agents and seed), each ordered by
/// index with duplicate indices dropped, in order of first appearance.
pub fn group(records: impl IntoIterator<Item = GameRecord>) -> Vec<Tournament> {
    let mut order: Vec<TournamentKey> = Vec::new();
    let mut groups: BTreeMap<TournamentKey, BTreeMap<usize, GameRecord>> = BTreeMap::new();
    for r in records {
        let key = r.tournament();
        if !groups.contains_key(&key) {
            order.push(key.clone());
        }
        groups.entry(key).or_default().entry(r.index).or_insert(r);
    }
    order
        .into_iter()
        .map(|key| {
            let records: Vec<GameRecord> =
                groups.remove(&key).unwrap_or_default().into_values().collect();
            Tournament { game: key.0, options: key.1, agents: key.2, seed: key.3, records }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Random and mutated results lines: an error or a whole record, never a panic; every
    /// record read writes back to a line that reads as the same record.
    #[test]
    fn random_and_mutated_results_lines_parse_or_fail_cleanly() {
        let records = vec![
            record(0, [0, 1], GameResult::Draw),
            GameRecord {
                terms: Some("openings of 4 random plies".into()),
                ..record(3, [1, 0], GameResult::Winner(1))
            },
            GameRecord {
                forfeit: Some("seat 1 (x) forfeits: \"bad\"".into()),
                ..record(5, [0, 1], GameResult::Winner(0))
            },
        ];
        let write = |r: &GameRecord| serde_json::to_string(r).expect("records serialise");
        let read = |line: &str| -> ToolResult<GameRecord> {
            let r: GameRecord = serde_json::from_str(line).map_err(ToolError::input)?;
            r.check().map(|()| r)
        };
        ply::testing::check_parser(&records, write, read, 2_000, 23)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn inconsistent_and_non_utf8_lines_name_file_and_line() {
        let dir = std::env::temp_dir().join(format!("ply-results-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.jsonl");
        let good = serde_json::to_string(&record(0, [0, 1], GameResult::Draw)).unwrap();
        let cases: Vec<(GameRecord, &str)> = vec![
            (GameRecord { seats: vec![0, 5], ..record(1, [0, 1], GameResult::Draw) }, "not one of"),
            (GameRecord { seats: vec![0], ..record(1, [0, 1], GameResult::Draw) }, "stats entries"),
            (record(1, [0, 1], GameResult::Winner(2)), "the winner is seat 2"),
            (record(1, [0, 1], GameResult::Scores(vec![1])), "1 scores for 2 seats"),
        ];
        for (bad, reason) in cases {
            let text = format!("{good}\n{}\n", serde_json::to_string(&bad).unwrap());
            std::fs::write(&path, text).unwrap();
            let e = read_records(&path).unwrap_err().to_string();
            assert!(e.contains("bad.jsonl:2:") && e.contains(reason), "{e}");
        }
        let mut bytes = format!("{good}\n").into_bytes();
        bytes.extend_from_slice(b"\xff\xfe not text\n");
        std::fs::write(&path, bytes).unwrap();
        let e = read_records(&path).unwrap_err().to_string();
        assert!(e.contains("bad.jsonl:2: not a game record: not UTF-8"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    pub(crate) fn record(index: usize, seats: [usize; 2], result: GameResult) -> GameRecord {
        GameRecord {
            game: "tictactoe".into(),
            options: String::new(),
            seed: 1,
            agents: vec!["greedy".into(), "random".into()],
            index,
            scheduled: 0,
            terms: None,
            opening: index / 2,
            seats: seats.to_vec(),
            opening_moves: vec!["b2".into()],
            start: "....x....".into(),
            moves: vec!["a1".into()],
            result,
            adjudicated: false,
            forfeit: None,
            stats: vec![
                SeatRecord {
                    agent: "greedy".into(),
                    moves: 4,
                    time_us: 1500,
                    max_time_us: 800,
                    forced: 1,
                    solved: 1,
                    solved_time_us: 30,
                    nodes: 10,
                    depth: 12,
                },
                SeatRecord {
                    agent: "random".into(),
                    moves: 4,
                    time_us: 10,
                    max_time_us: 5,
                    forced: 0,
                    solved: 0,
                    solved_time_us: 0,
                    nodes: 0,
                    depth: 0,
                },
            ],
            searches: Vec::new(),
        }
    }

    #[test]
    fn records_round_trip_through_json() {
        for result in [GameResult::Winner(1), GameResult::Draw, GameResult::Scores(vec![3, 5])] {
            let r = record(3, [1, 0], result);
            let line = serde_json::to_string(&r).unwrap();
            assert!(!line.contains('\n'));
            assert_eq!(serde_json::from_str::<GameRecord>(&line).unwrap(), r);
        }
        let line = serde_json::to_string(&record(0, [0, 1], GameResult::Winner(0))).unwrap();
        assert!(line.contains("\"result\":{\"winner\":0}"), "{line}");
    }

    #[test]
    fn incomplete_last_line_is_skipped_and_cut() {
        let dir = std::env::temp_dir().join(format!("ply-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("cut.jsonl");
        let full = serde_json::to_string(&record(0, [0, 1], GameResult::Draw)).unwrap();
        std::fs::write(&path, format!("{full}\n{}", &full[..20])).unwrap();
        let (records, truncated) = read_records(&path).unwrap();
        assert_eq!((records.len(), truncated), (1, true));
        drop_incomplete_line(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{full}\n"));
        // A bad line in the middle is an error, with its line number.
        std::fs::write(&path, format!("{full}\nnot json\n{full}\n")).unwrap();
        let e = read_records(&path).unwrap_err();
        assert!(matches!(e, ResultsError::BadLine { line: 2, .. }), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn grouping_drops_duplicates_and_orders_by_index() {
        let a = record(2, [1, 0], GameResult::Winner(0));
        let b = record(0, [0, 1], GameResult::Draw);
        let mut other = record(0, [0, 1], GameResult::Draw);
        other.seed = 2;
        let groups = group(vec![a.clone(), b.clone(), a.clone(), other]);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].records, vec![b, a]);
        let s = groups[0].standings();
        // Game 2: random (seat 0) beat greedy; game 0 a draw.
        let p = s.pair(0, 1).unwrap();
        assert_eq!((p.wins, p.draws, p.losses), (0, 1, 1));
        assert!(groups[0].table().starts_with("== tictactoe: 2 games =="));
    }
}
