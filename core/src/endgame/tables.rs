//! A directory of built tables, opened for probing.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::file::{read_table, read_table_header, TableFileError};
use super::{EndgameIndex, Verdict, MAX_STORED_PLIES};
use crate::eval::Evaluator;
use crate::game::{MoveList, Player, Solved, SolverBudget};

/// The largest number of pieces [`Tables::open`] looks for.
const MOST_PIECES: u32 = 12;

/// The endgame tables of one game, opened from a directory built by
/// [`build`](super::build): every slice up to [`Tables::pieces`] pieces. A slice's file is
/// read and decompressed the first time a position of it is probed, and then stays in
/// memory.
///
/// A damaged file makes its slice answer nothing (and [`Tables::load_all`] report it); the
/// search then plays on without it.
pub struct Tables<S> {
    set: String,
    dir: PathBuf,
    pieces: u32,
    slots: HashMap<S, Slot>,
}

struct Slot {
    path: PathBuf,
    values: OnceLock<Option<Box<[u8]>>>,
}

impl<S: Copy + Eq + Hash> Tables<S> {
    /// Opens `game`'s tables under `dir` (in `dir/<table set>/`): every slice up to the
    /// largest number of pieces whose files are all there.
    ///
    /// # Errors
    /// [`TableFileError::NotFound`] when not even the one-piece tables are there, or an
    /// error of a header that cannot be read.
    pub fn open<G: EndgameIndex<Slice = S>>(
        game: &G,
        dir: &Path,
    ) -> Result<Tables<S>, TableFileError> {
        let set = game.table_set();
        let set_dir = dir.join(&set);
        let mut tables =
            Tables { set: set.clone(), dir: set_dir.clone(), pieces: 0, slots: HashMap::new() };
        let mut known = 0;
        for pieces in 1..=MOST_PIECES {
            let slices = game.slices(pieces);
            if slices.len() == known {
                break; // no position has this many pieces
            }
            known = slices.len();
            let mut found = Vec::new();
            for &slice in &slices {
                if tables.slots.contains_key(&slice) {
                    continue;
                }
                let path = set_dir.join(format!("{}.egdb", game.slice_name(slice)));
                if !path.exists() {
                    break;
                }
                let header = read_table_header(&path)?;
                if header.set != set || header.indices != game.slice_size(slice) {
                    return Err(TableFileError::Corrupt {
                        path,
                        reason: format!(
                            "holds {:.80} with {} indices, not this slice ({} with {})",
                            header.set,
                            header.indices,
                            set,
                            game.slice_size(slice)
                        ),
                    });
                }
                found.push((slice, path));
            }
            if found.len() + tables.slots.len() < slices.len() {
                break;
            }
            for (slice, path) in found {
                tables.slots.insert(slice, Slot { path, values: OnceLock::new() });
            }
            tables.pieces = pieces;
        }
        if tables.pieces == 0 {
            return Err(TableFileError::NotFound { set, dir: set_dir });
        }
        Ok(tables)
    }

    /// The verdict of `state` for the side to move, if it has at most [`Tables::pieces`]
    /// pieces and its slice's file reads.
    #[inline]
    pub fn probe<G: EndgameIndex<Slice = S>>(&self, game: &G, state: &G::State) -> Option<Verdict> {
        if game.pieces(state) > self.pieces {
            return None;
        }
        let (slice, index) = game.locate(state)?;
        let values = self.slots.get(&slice)?.values()?;
        Verdict::from_byte(*values.get(index as usize)?)
    }

    /// The verdict of `state` as far as the game's counting draw rules let it stand: a win
    /// or loss longer than [`EndgameIndex::plies_left`] (or longer than the tables store
    /// exactly) is not answered.
    #[inline]
    pub fn solve<G: EndgameIndex<Slice = S>>(&self, game: &G, state: &G::State) -> Option<Verdict> {
        let verdict = self.probe(game, state)?;
        if let Some(n) = verdict.plies() {
            if n >= MAX_STORED_PLIES || game.plies_left(state).is_some_and(|left| n > left) {
                return None;
            }
        }
        Some(verdict)
    }

    /// What `state`'s moves imply from the tables: the shortest win through a move to a lost
    /// position, else a draw if a move draws, else the longest loss. `None` when a move
    /// leads outside the tables. For a consistent table this is [`Tables::probe`] of
    /// `state`; the `egdb verify` command checks that on samples.
    pub fn implied<G: EndgameIndex<Slice = S>>(
        &self,
        game: &G,
        state: &G::State,
    ) -> Option<Verdict> {
        let verdict = |s: &G::State| match game.outcome(s) {
            Some(o) => Some(match o.margin(game.to_move(s)).signum() {
                1 => Verdict::Win(0),
                -1 => Verdict::Loss(0),
                _ => Verdict::Draw,
            }),
            None => self.probe(game, s),
        };
        if game.outcome(state).is_some() {
            return verdict(state);
        }
        let mut moves = MoveList::new();
        game.generate_moves(state, &mut moves);
        let (mut win, mut draw, mut loss) = (None::<u32>, false, None::<u32>);
        for &mv in moves.iter() {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            match verdict(&child)?.through(game.to_move(&child) == game.to_move(state)) {
                Verdict::Win(n) => win = Some(win.map_or(n, |w| w.min(n))),
                Verdict::Draw => draw = true,
                Verdict::Loss(n) => loss = Some(loss.map_or(n, |l| l.max(n))),
            }
        }
        Some(match (win, draw) {
            (Some(n), _) => Verdict::Win(n.min(MAX_STORED_PLIES)),
            (None, true) => Verdict::Draw,
            (None, false) => Verdict::Loss(loss.unwrap_or(0).min(MAX_STORED_PLIES)),
        })
    }

    /// Reads every slice now (instead of on first use), and reports the first file that does
    /// not read.
    ///
    /// # Errors
    /// The error of the first damaged file.
    pub fn load_all(&self) -> Result<(), TableFileError> {
        for slot in self.slots.values() {
            if slot.values.get().is_none() {
                let table = read_table(&slot.path)?;
                let _ = slot.values.set(Some(table.values.into_boxed_slice()));
            }
        }
        Ok(())
    }

    /// The most pieces of a position the tables answer for.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The number of slices.
    pub fn slices(&self) -> usize {
        self.slots.len()
    }

    /// The directory of the table set.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The name of the table set.
    pub fn set(&self) -> &str {
        &self.set
    }
}

impl Slot {
    fn values(&self) -> Option<&[u8]> {
        self.values
            .get_or_init(|| read_table(&self.path).ok().map(|t| t.values.into_boxed_slice()))
            .as_deref()
    }
}

impl<S> fmt::Debug for Tables<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tables")
            .field("set", &self.set)
            .field("dir", &self.dir)
            .field("pieces", &self.pieces)
            .field("slices", &self.slots.len())
            .finish()
    }
}

/// An evaluation with endgame tables: `E` scores positions as before, and the positions the
/// tables hold are answered exactly ([`Evaluator::solve`], through [`Tables::solve`]).
///
/// ```
/// use std::sync::Arc;
/// use ply::endgame::{build, Probed, Tables};
/// use ply::eval::{Evaluator, GameEval};
/// use ply::games::TicTacToe;
/// use ply::{Game, Solved, SolverBudget};
///
/// let dir = std::env::temp_dir().join(format!("ply-probed-doc-{}", std::process::id()));
/// build(&TicTacToe, 9, &dir, 1, &|_| {})?;
/// let eval = Probed::new(GameEval, Arc::new(Tables::open(&TicTacToe, &dir)?));
/// let start = TicTacToe.initial_state();
/// let solved = eval.solve(&TicTacToe, &start, -1, 1, &mut SolverBudget::unlimited());
/// assert_eq!(solved, Some(Solved::Draw));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Probed<E, S> {
    inner: E,
    tables: Arc<Tables<S>>,
}

impl<E, S> Probed<E, S> {
    /// `inner` with `tables`.
    pub fn new(inner: E, tables: Arc<Tables<S>>) -> Probed<E, S> {
        Probed { inner, tables }
    }

    /// The tables.
    pub fn tables(&self) -> &Arc<Tables<S>> {
        &self.tables
    }
}

impl<E: Clone, S> Clone for Probed<E, S> {
    fn clone(&self) -> Self {
        Probed { inner: self.inner.clone(), tables: Arc::clone(&self.tables) }
    }
}

impl<E: fmt::Debug, S> fmt::Debug for Probed<E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Probed").field("inner", &self.inner).field("tables", &self.tables).finish()
    }
}

impl<G, E, S> Evaluator<G> for Probed<E, S>
where
    G: EndgameIndex<Slice = S>,
    E: Evaluator<G>,
    S: Copy + Eq + Hash + Send + Sync + 'static,
{
    #[inline]
    fn evaluate(&self, game: &G, state: &G::State, player: Player) -> G::Score {
        self.inner.evaluate(game, state, player)
    }

    #[inline]
    fn solve(
        &self,
        game: &G,
        state: &G::State,
        alpha: i32,
        beta: i32,
        budget: &mut SolverBudget<'_>,
    ) -> Option<Solved> {
        self.inner
            .solve(game, state, alpha, beta, budget)
            .or_else(|| self.tables.solve(game, state).map(Solved::from))
    }

    #[inline]
    fn worth_caching(&self) -> bool {
        self.inner.worth_caching()
    }
}

/// The directory where the tools put endgame tables unless told otherwise: `$PLY_EGDB`, else
/// `$HOME/.cache/ply/egdb`.
pub fn default_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("PLY_EGDB").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("ply").join("egdb"))
}
