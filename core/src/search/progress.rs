//! [`Progress`]: what a running search has found so far, shared with another thread (a
//! terminal's status line, a GUI) while the search goes on.
//!
//! A caller puts an `Arc<Progress>` in the [`Budget`](super::Budget)
//! ([`Budget::with_progress`](super::Budget::with_progress)); the alpha-beta and multiplayer
//! searches publish every completed iteration to it and MCTS its current best line now and
//! then, and the caller reads [`Progress::latest`] whenever it likes. Publishing copies the
//! principal variation once per iteration, never per node.
//!
//! ```
//! use std::sync::Arc;
//! use ply::games::TicTacToe;
//! use ply::search::{alphabeta::AlphaBeta, Agent, Budget, Position, Progress};
//! use ply::Game;
//!
//! let game = TicTacToe;
//! let progress = Arc::new(Progress::new());
//! let budget = Budget::depth(3).with_progress(progress.clone());
//! AlphaBeta::new().choose(&game, Position::new(&game.initial_state()), &budget).unwrap();
//! let seen = progress.latest::<u8>().unwrap();
//! assert_eq!(seen.depth, 3);
//! assert!(!seen.pv.is_empty());
//! assert_eq!(progress.updates(), 3);
//! ```

use std::any::Any;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use super::Value;

/// One snapshot of a running search: `M` is the game's move type.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgressInfo<M> {
    /// The depth completed (0 for searches without iterations of depth, such as MCTS).
    pub depth: u32,
    /// The deepest ply reached, quiescence or playout tree included.
    pub seldepth: u32,
    /// The root value, if the search has one yet.
    pub value: Option<Value>,
    /// Nodes (or MCTS iterations) so far, counted by the thread that publishes.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The best line so far, the best root move first.
    pub pv: Vec<M>,
}

/// The latest [`ProgressInfo`] of a search, written by the search and read by anyone; see
/// the [module docs](self).
#[derive(Default)]
pub struct Progress {
    latest: Mutex<Option<Box<dyn Any + Send>>>,
    updates: AtomicU64,
}

impl Progress {
    /// Nothing published yet.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Replaces the latest snapshot with `info`.
    pub fn publish<M: Clone + Send + 'static>(&self, info: ProgressInfo<M>) {
        let mut latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        *latest = Some(Box::new(info));
        self.updates.fetch_add(1, Ordering::Release);
    }

    /// The latest snapshot, if one was published for moves of type `M`.
    pub fn latest<M: Clone + 'static>(&self) -> Option<ProgressInfo<M>> {
        let latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        latest.as_ref()?.downcast_ref::<ProgressInfo<M>>().cloned()
    }

    /// How many snapshots have been published: a reader redraws only when this changes.
    pub fn updates(&self) -> u64 {
        self.updates.load(Ordering::Acquire)
    }

    /// Forgets the snapshot, for the next search.
    pub fn clear(&self) {
        *self.latest.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.updates.store(0, Ordering::Release);
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Progress").field("updates", &self.updates()).finish_non_exhaustive()
    }
}
