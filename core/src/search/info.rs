//! What a search tells while it runs: the [`IterationInfo`] of every completed iteration of
//! iterative deepening, and the [`InfoSink`]s that take it. Shared by the two-player
//! ([`crate::search::alphabeta`]) and the multiplayer ([`crate::search::multiplayer`])
//! searches, which re-export these types.

use std::time::Duration;

use crate::search::Value;

/// What one completed iteration of iterative deepening found, passed to the [`InfoSink`] of
/// [`AlphaBeta::with_info`](crate::search::alphabeta::AlphaBeta::with_info) (and of the multiplayer search). `M` is the game's move type.
#[derive(Debug)]
pub struct IterationInfo<'a, M> {
    /// The depth of this iteration.
    pub depth: u32,
    /// The deepest ply reached so far, quiescence included.
    pub seldepth: u32,
    /// The root value.
    pub value: Value,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation, the best root move first.
    pub pv: &'a [M],
    /// What the search did so far, node by kind (the alpha-beta search's main thread; all
    /// zero for searches that do not count).
    pub counts: SearchCounts,
}

/// What an alpha-beta search did, by kind of node and of decision, counted by its main thread
/// from the start of the search: where its nodes went (interior, quiescence, leaves) and how
/// often each pruning and re-search fired. `bench`'s `search_profile` prints them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchCounts {
    /// Nodes with plies left to the horizon (a table probe, then moves searched).
    pub interior: u64,
    /// Nodes at the horizon searched on because they were not quiet (quiescence).
    pub quiescence: u64,
    /// Heuristic leaves: quiet positions at the horizon, evaluated.
    pub leaves: u64,
    /// Nodes answered by the transposition table.
    pub table_cuts: u64,
    /// Nodes answered by the game's own solver or the endgame tables.
    pub solved: u64,
    /// Null-move searches tried, and those that cut.
    pub null_tries: u64,
    /// Null-move searches that cut.
    pub null_cuts: u64,
    /// ProbCut's shallow searches tried (each node counts once).
    pub probcut_tries: u64,
    /// ProbCut's shallow searches that cut.
    pub probcut_cuts: u64,
    /// Moves searched first at a reduced depth (late-move reductions).
    pub reduced: u64,
    /// Reduced moves that reached alpha and were searched again at full depth.
    pub reduced_again: u64,
    /// Moves after the first searched with a null window (principal variation search).
    pub null_windows: u64,
    /// Null-window searches that fell inside the window and were searched again in full.
    pub widened: u64,
    /// Quiet moves skipped by futility pruning.
    pub futile: u64,
    /// Beta cutoffs in the move loop.
    pub cutoffs: u64,
    /// Beta cutoffs by the first move searched (the share of `cutoffs` is the ordering's
    /// quality).
    pub first_cutoffs: u64,
}

impl<'a, M> IterationInfo<'a, M> {
    pub(crate) fn new(
        depth: u32,
        seldepth: u32,
        value: Value,
        nodes: u64,
        elapsed: Duration,
        pv: &'a [M],
        counts: SearchCounts,
    ) -> Self {
        IterationInfo { depth, seldepth, value, nodes, elapsed, pv, counts }
    }

    /// The principal variation, as the [`IterationInfo::pv`](#structfield.pv) field has it:
    /// the form callers used when the move type was checked at run time. `T` must be the
    /// move type `M` (checked at compile time), so the answer is always `Some`.
    pub fn pv<T>(&self) -> Option<&'a [T]>
    where
        M: SameType<T>,
    {
        Some(M::same(self.pv))
    }

    /// Nodes per second so far.
    pub fn nps(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.nodes as f64 / s
        } else {
            0.0
        }
    }
}

/// Implemented by every type for itself only: the bound `M: SameType<T>` says that `T` is `M`
/// (see [`IterationInfo::pv()`]).
pub trait SameType<T> {
    /// `slice` as a slice of `T` (it already is one).
    fn same(slice: &[Self]) -> &[T]
    where
        Self: Sized;
}

impl<T> SameType<T> for T {
    #[inline]
    fn same(slice: &[T]) -> &[T] {
        slice
    }
}

/// A callback run after every completed iteration, for games with move type `M`.
pub type InfoCallback<M> = Box<dyn FnMut(&IterationInfo<'_, M>) + Send>;

/// Where a search sends the [`IterationInfo`] of every completed iteration (once per
/// iteration, never per node): [`NoInfo`] (the default) drops it, an [`InfoCallback`] calls
/// its closure, and any type of the caller's may implement it.
pub trait InfoSink<M> {
    /// Takes the information of one completed iteration.
    fn iteration(&mut self, info: &IterationInfo<'_, M>);
}

/// The [`InfoSink`] that ignores every iteration: the default of every search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoInfo;

impl<M> InfoSink<M> for NoInfo {
    #[inline]
    fn iteration(&mut self, _info: &IterationInfo<'_, M>) {}
}

impl<M> InfoSink<M> for InfoCallback<M> {
    fn iteration(&mut self, info: &IterationInfo<'_, M>) {
        self(info)
    }
}

/// The sink of a search's main thread: the agent's own sink, then the budget's
/// [`Progress`](crate::search::Progress) if it has one.
pub(crate) struct Publishing<'a, I> {
    pub(crate) sink: &'a mut I,
    pub(crate) progress: Option<&'a crate::search::Progress>,
}

impl<M: Clone + Send + 'static, I: InfoSink<M>> InfoSink<M> for Publishing<'_, I> {
    fn iteration(&mut self, info: &IterationInfo<'_, M>) {
        self.sink.iteration(info);
        if let Some(progress) = self.progress {
            progress.publish(crate::search::ProgressInfo {
                depth: info.depth,
                seldepth: info.seldepth,
                value: Some(info.value),
                nodes: info.nodes,
                elapsed: info.elapsed,
                pv: info.pv.to_vec(),
            });
        }
    }
}
