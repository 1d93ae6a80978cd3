//! Retrograde analysis: one slice at a time ([`solve_slice`]), and whole table sets written
//! to a directory ([`build`]).
//!
//! A slice is solved in two steps. First every position is expanded once (in parallel):
//! moves that leave the slice are looked up in the tables already built, moves that stay
//! are kept as edges of the slice's move graph, reversed. Then results spread backwards from
//! what is known, in order of distance (a bucket queue): a position with a move to a lost
//! position is won one ply later than the shortest such loss; a position whose every move
//! leads to a won position is lost one ply later than the longest. A move after which the
//! same player moves again (an extra turn) carries the result over unchanged instead: a move
//! to a position won for the mover wins. What is never reached is a draw. Processing
//! distances in increasing order makes every distance exact.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use super::file::{read_table, write_table, TableFile, TableFileError};
use super::{EndgameIndex, Verdict, HOLE};
use crate::game::MoveList;

/// Counts of one slice's table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceStats {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Indices that name no position.
    pub holes: u64,
    /// The longest win, in plies.
    pub longest_win: u32,
    /// The longest loss, in plies.
    pub longest_loss: u32,
}

impl SliceStats {
    /// The counts of a table's bytes.
    pub fn of(values: &[u8]) -> SliceStats {
        let mut s = SliceStats::default();
        for &b in values {
            match Verdict::from_byte(b) {
                None => s.holes += 1,
                Some(Verdict::Draw) => s.draws += 1,
                Some(Verdict::Win(n)) => {
                    s.wins += 1;
                    s.longest_win = s.longest_win.max(n);
                }
                Some(Verdict::Loss(n)) => {
                    s.losses += 1;
                    s.longest_loss = s.longest_loss.max(n);
                }
            }
        }
        s
    }

    /// The sum of two counts (the longest results the larger of each).
    pub fn add(&mut self, other: &SliceStats) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.holes += other.holes;
        self.longest_win = self.longest_win.max(other.longest_win);
        self.longest_loss = self.longest_loss.max(other.longest_loss);
    }

    /// The number of positions (indices that name one).
    pub fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A move led into a slice that is neither this one nor one built before it: the game's
    /// [`EndgameIndex::slices`] order is wrong.
    #[error("a move from slice {from} leads to slice {to}, which is not built before it")]
    Order {
        /// The slice being built.
        from: String,
        /// The slice its move reached.
        to: String,
    },
    /// A move led to a position that no slice holds.
    #[error("a move from slice {0} leads to a position that no slice holds")]
    Unindexed(String),
    /// A slice has more indices than a build can hold.
    #[error("slice {0} has {1} indices, more than 2^31")]
    TooLarge(String, u64),
    /// Reading or writing a table file failed.
    #[error(transparent)]
    File(#[from] TableFileError),
}

/// What a build reports as it goes.
#[derive(Clone, Debug)]
pub enum BuildEvent {
    /// The build starts: its slices and their total indices.
    Start {
        /// The number of slices.
        slices: usize,
        /// Their indices in all.
        indices: u64,
    },
    /// This many more indices are done (slices solved or read back).
    Progress(u64),
    /// A slice is finished.
    Slice {
        /// Its name.
        name: String,
        /// Its counts.
        stats: SliceStats,
        /// True if it was read back from an earlier build.
        resumed: bool,
        /// Seconds it took.
        seconds: f64,
    },
}

/// The result of [`build`].
#[derive(Clone, Debug, Default)]
pub struct BuildSummary {
    /// The directory of the table set.
    pub dir: PathBuf,
    /// The number of slices.
    pub slices: usize,
    /// Their counts together.
    pub stats: SliceStats,
    /// Bytes on disk.
    pub bytes: u64,
}

/// Builds (or completes) every table of `game` with up to `pieces` pieces in
/// `dir/<table set>/`, one file per slice, on `threads` threads. Slices whose file is already
/// there are read back instead of solved, so an interrupted build resumes where it stopped.
///
/// # Errors
/// [`BuildError`] when the game's index breaks its contract or a file cannot be written.
pub fn build<G: EndgameIndex>(
    game: &G,
    pieces: u32,
    dir: &Path,
    threads: usize,
    report: &(dyn Fn(BuildEvent) + Sync),
) -> Result<BuildSummary, BuildError> {
    let set_dir = dir.join(game.table_set());
    let slices = game.slices(pieces);
    let indices = slices.iter().map(|&s| game.slice_size(s)).sum();
    report(BuildEvent::Start { slices: slices.len(), indices });
    let mut done: HashMap<G::Slice, Vec<u8>> = HashMap::new();
    let mut summary =
        BuildSummary { dir: set_dir.clone(), slices: slices.len(), ..Default::default() };
    for &slice in &slices {
        let name = game.slice_name(slice);
        let path = set_dir.join(format!("{name}.egdb"));
        let started = Instant::now();
        // A table without a checksum (format 1) is solved again and replaced.
        let existing = match path.exists().then(|| read_table(&path)) {
            None | Some(Err(TableFileError::OldFormat { .. })) => None,
            Some(Err(e)) => return Err(e.into()),
            Some(Ok(t)) => {
                if t.set != game.table_set()
                    || t.slice != name
                    || t.indices != game.slice_size(slice)
                {
                    return Err(TableFileError::Corrupt {
                        path,
                        reason: format!(
                            "holds {} {} ({} indices), not this slice",
                            t.set, t.slice, t.indices
                        ),
                    }
                    .into());
                }
                Some(t)
            }
        };
        let resumed = existing.is_some();
        let table = match existing {
            Some(t) => {
                report(BuildEvent::Progress(t.indices));
                summary.bytes += std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                t
            }
            None => {
                let lookup = |s: G::Slice, i: u64| done.get(&s).map(|t| t[i as usize]);
                let progress = |n: u64| report(BuildEvent::Progress(n));
                let (values, stats) = solve_slice(game, slice, &lookup, threads, &progress)?;
                let t = TableFile {
                    set: game.table_set(),
                    slice: name.clone(),
                    indices: values.len() as u64,
                    stats,
                    values,
                };
                summary.bytes += write_table(&path, &t)?;
                t
            }
        };
        summary.stats.add(&table.stats);
        report(BuildEvent::Slice {
            name,
            stats: table.stats,
            resumed,
            seconds: started.elapsed().as_secs_f64(),
        });
        done.insert(slice, table.values);
    }
    Ok(summary)
}

/// What the first step learns of a position.
#[derive(Clone, Copy, Default)]
struct Node {
    /// [`PENDING`], [`HOLE_NODE`], [`ENDED`] or [`DONE`].
    state: u8,
    /// A move to a draw leaves the slice (or ends the game): never lost.
    draw: bool,
    /// Moves that stay in the slice and are not yet known to lose.
    open: u16,
    /// 1 + the shortest win through a move that leaves the slice; 0 if none.
    win: u32,
    /// The longest loss through moves that leave the slice (they all lose so far).
    hold: u32,
}

/// The bit of a reversed edge whose move leaves the same player to move (an extra turn),
/// beside the index of the predecessor in the other 31 bits.
const KEEPS_TURN: u32 = 1 << 31;

/// Not known yet.
const PENDING: u8 = 0;
/// The index names no position.
const HOLE_NODE: u8 = 1;
/// The game is over there; not spread to its predecessors yet.
const ENDED: u8 = 2;
/// Known and spread.
const DONE: u8 = 3;

/// Solves one slice: the verdict byte of every index ([`Verdict::to_byte`], 255 for an
/// unused index) and their counts. `lookup` gives the bytes of slices built before (`None`
/// for a slice that is not there); `progress` is told of every block of indices expanded.
///
/// # Errors
/// [`BuildError::Order`], [`BuildError::Unindexed`] or [`BuildError::TooLarge`] when the
/// game's index breaks its contract.
pub fn solve_slice<G: EndgameIndex>(
    game: &G,
    slice: G::Slice,
    lookup: &(dyn Fn(G::Slice, u64) -> Option<u8> + Sync),
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<u8>, SliceStats), BuildError> {
    let size = game.slice_size(slice);
    if size > u64::from(KEEPS_TURN) {
        return Err(BuildError::TooLarge(game.slice_name(slice), size));
    }
    let n = size as usize;
    let mut nodes = vec![Node::default(); n];
    let mut values = vec![HOLE; n];
    // Step 1: expand every position once.
    const BLOCK: usize = 4096;
    let edges: Vec<(u32, u32)> = {
        let work = Mutex::new(nodes.chunks_mut(BLOCK).zip(values.chunks_mut(BLOCK)).enumerate());
        let failure: Mutex<Option<BuildError>> = Mutex::new(None);
        let parts: Vec<Vec<(u32, u32)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads.max(1))
                .map(|_| {
                    scope.spawn(|| {
                        let mut edges = Vec::new();
                        let mut moves = MoveList::new();
                        loop {
                            let next = work.lock().map(|mut w| w.next()).unwrap_or(None);
                            let Some((b, (nodes, values))) = next else { break };
                            if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                                break;
                            }
                            let start = b * BLOCK;
                            for (k, (node, value)) in
                                nodes.iter_mut().zip(values.iter_mut()).enumerate()
                            {
                                let index = (start + k) as u32;
                                if let Err(e) = expand(
                                    game, slice, index, node, value, lookup, &mut moves, &mut edges,
                                ) {
                                    if let Ok(mut f) = failure.lock() {
                                        f.get_or_insert(e);
                                    }
                                    break;
                                }
                            }
                            progress(nodes.len() as u64);
                        }
                        edges
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a build thread panicked")).collect()
        });
        if let Some(e) = failure.into_inner().ok().flatten() {
            return Err(e);
        }
        let mut all = Vec::with_capacity(parts.iter().map(Vec::len).sum());
        for p in parts {
            all.extend(p);
        }
        all
    };
    // The reversed graph: the predecessors of each index (with the KEEPS_TURN bit), in one
    // array.
    let mut start = vec![0u32; n + 1];
    for &(to, _) in &edges {
        start[to as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut preds = vec![0u32; edges.len()];
    for &(to, from) in &edges {
        preds[fill[to as usize] as usize] = from;
        fill[to as usize] += 1;
    }
    drop(edges);
    drop(fill);
    // Step 2: spread results backwards in order of distance.
    let mut wins: Vec<Vec<u32>> = Vec::new();
    let mut losses: Vec<Vec<u32>> = Vec::new();
    let push = |queue: &mut Vec<Vec<u32>>, d: u32, i: u32| {
        let d = d as usize;
        if queue.len() <= d {
            queue.resize_with(d + 1, Vec::new);
        }
        queue[d].push(i);
    };
    for (i, node) in nodes.iter().enumerate() {
        let i = i as u32;
        match node.state {
            ENDED => match Verdict::from_byte(values[i as usize]) {
                Some(Verdict::Win(d)) => push(&mut wins, d, i),
                Some(Verdict::Loss(d)) => push(&mut losses, d, i),
                _ => {}
            },
            PENDING => {
                if node.win > 0 {
                    push(&mut wins, node.win, i);
                } else if node.open == 0 && !node.draw {
                    push(&mut losses, node.hold, i);
                }
            }
            _ => {}
        }
    }
    // A position settled as won (or lost) for its side to move tells each predecessor that
    // one of its moves loses (or wins), or the reverse across an extra turn.
    let mut d = 0usize;
    while d < wins.len().max(losses.len()) {
        for won in [true, false] {
            let queue = if won { &mut wins } else { &mut losses };
            let settled = if d < queue.len() { std::mem::take(&mut queue[d]) } else { Vec::new() };
            let verdict = if won { Verdict::Win(d as u32) } else { Verdict::Loss(d as u32) };
            for p in settled {
                if !settle(&mut nodes[p as usize], &mut values[p as usize], verdict) {
                    continue;
                }
                for &edge in &preds[start[p as usize] as usize..start[p as usize + 1] as usize] {
                    let q = edge & !KEEPS_TURN;
                    let node = &mut nodes[q as usize];
                    if node.state != PENDING {
                        continue;
                    }
                    if won == (edge & KEEPS_TURN != 0) {
                        // A move to a win of the same player: won one ply later.
                        push(&mut wins, d as u32 + 1, q);
                        continue;
                    }
                    // A move to a win of the opponent's: lost once every move is.
                    node.open -= 1;
                    if node.open == 0 && node.win == 0 && !node.draw {
                        let at = (d as u32 + 1).max(node.hold);
                        push(&mut losses, at, q);
                    }
                }
            }
        }
        d += 1;
    }
    for (node, value) in nodes.iter().zip(values.iter_mut()) {
        if node.state == PENDING {
            *value = Verdict::Draw.to_byte();
        }
    }
    let stats = SliceStats::of(&values);
    Ok((values, stats))
}

/// Takes `verdict` for a node popped from a bucket: true if the node is now known and its
/// predecessors must be told, false if it was settled before (a shorter win found first, or
/// a second entry in the same bucket).
fn settle(node: &mut Node, value: &mut u8, verdict: Verdict) -> bool {
    match node.state {
        PENDING => {
            *value = verdict.to_byte();
            node.state = DONE;
            true
        }
        ENDED => {
            node.state = DONE;
            true
        }
        _ => false,
    }
}

/// Step 1 for one index: its byte if the game is over there, else what its moves lead to.
#[allow(clippy::too_many_arguments)]
fn expand<G: EndgameIndex>(
    game: &G,
    slice: G::Slice,
    index: u32,
    node: &mut Node,
    value: &mut u8,
    lookup: &(dyn Fn(G::Slice, u64) -> Option<u8> + Sync),
    moves: &mut MoveList<G::Move>,
    edges: &mut Vec<(u32, u32)>,
) -> Result<(), BuildError> {
    let Some(state) = game.position_of(slice, u64::from(index)) else {
        node.state = HOLE_NODE;
        return Ok(());
    };
    if let Some(o) = game.outcome(&state) {
        node.state = ENDED;
        *value = ended(o.margin(game.to_move(&state))).to_byte();
        return Ok(());
    }
    let mover = game.to_move(&state);
    moves.clear();
    game.generate_moves(&state, moves);
    if moves.is_empty() {
        node.state = ENDED;
        *value = Verdict::Loss(0).to_byte();
        return Ok(());
    }
    for &mv in moves.iter() {
        let mut child = state.clone();
        game.apply(&mut child, mv);
        let verdict = if let Some(o) = game.outcome(&child) {
            ended(o.margin(game.to_move(&child)))
        } else {
            let (s, i) =
                game.locate(&child).ok_or_else(|| BuildError::Unindexed(game.slice_name(slice)))?;
            if s == slice {
                let keeps = if game.to_move(&child) == mover { KEEPS_TURN } else { 0 };
                edges.push((i as u32, index | keeps));
                node.open += 1;
                continue;
            }
            let byte = lookup(s, i).ok_or_else(|| BuildError::Order {
                from: game.slice_name(slice),
                to: game.slice_name(s),
            })?;
            Verdict::from_byte(byte).ok_or_else(|| BuildError::Unindexed(game.slice_name(slice)))?
        };
        match verdict.through(game.to_move(&child) == mover) {
            Verdict::Win(d) => node.win = if node.win == 0 { d } else { node.win.min(d) },
            Verdict::Loss(d) => node.hold = node.hold.max(d),
            Verdict::Draw => node.draw = true,
        }
    }
    Ok(())
}

/// The verdict of a finished game for the player to move, from its margin.
fn ended(margin: i32) -> Verdict {
    match margin.signum() {
        1 => Verdict::Win(0),
        -1 => Verdict::Loss(0),
        _ => Verdict::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;
    use crate::Game;

    /// Plain negamax to the end: the verdict with exact distances, independently of the
    /// builder.
    fn negamax(game: &TicTacToe, state: &<TicTacToe as Game>::State) -> Verdict {
        if let Some(o) = game.outcome(state) {
            return ended(o.margin(game.to_move(state)));
        }
        let mut moves = MoveList::new();
        game.generate_moves(state, &mut moves);
        let children: Vec<Verdict> = moves
            .iter()
            .map(|&mv| {
                let mut child = *state;
                game.apply(&mut child, mv);
                negamax(game, &child).parent()
            })
            .collect();
        let best_win = children.iter().filter_map(|v| match v {
            Verdict::Win(n) => Some(*n),
            _ => None,
        });
        if let Some(n) = best_win.min() {
            return Verdict::Win(n);
        }
        if children.contains(&Verdict::Draw) {
            return Verdict::Draw;
        }
        Verdict::Loss(children.iter().filter_map(|v| v.plies()).max().unwrap_or(0))
    }

    #[test]
    fn every_tictactoe_position_agrees_with_negamax() {
        let game = TicTacToe;
        let mut done: HashMap<u8, Vec<u8>> = HashMap::new();
        let mut total = SliceStats::default();
        for slice in game.slices(9) {
            let lookup = |s: u8, i: u64| done.get(&s).map(|t| t[i as usize]);
            let (values, stats) = solve_slice(&game, slice, &lookup, 2, &|_| {}).unwrap();
            for (i, &b) in values.iter().enumerate() {
                let Some(state) = game.position_of(slice, i as u64) else {
                    assert_eq!(b, HOLE);
                    continue;
                };
                assert_eq!(game.locate(&state), Some((slice, i as u64)));
                assert_eq!(Verdict::from_byte(b), Some(negamax(&game, &state)), "{i}");
            }
            total.add(&stats);
            done.insert(slice, values);
        }
        assert_eq!(total.positions(), 5478, "the legal positions of tic-tac-toe");
        let (_, start) = game.locate(&game.initial_state()).unwrap();
        assert_eq!(Verdict::from_byte(done[&9][start as usize]), Some(Verdict::Draw));
    }

    #[test]
    fn a_slice_out_of_order_is_an_error() {
        let e = solve_slice(&TicTacToe, 5, &|_, _| None, 1, &|_| {}).unwrap_err();
        assert!(matches!(e, BuildError::Order { .. }), "{e}");
    }
}
