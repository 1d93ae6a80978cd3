//! [`SearchHandle`]: what a front end keeps to see a session's searches from another thread and to
//! stop them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ply::search::{Budget, Progress};

/// Where the searches of a [`Session`](super::session::Session) publish what they find, and the flag that stops them:
/// a front end that shows an engine thinking from another thread (the web board) keeps a
/// clone and reads [`Progress::latest`] while the session searches.
///
/// The flag belongs to the front end's job (an engine move, a hint, a whole analysis), not to
/// one search: the session's searches never lower it, so a stop raised while a job runs ends
/// every search left in it, and one raised before the job's first search is kept. The front
/// end lowers it with [`SearchHandle::begin`] when a job starts.
#[derive(Clone, Debug, Default)]
pub struct SearchHandle {
    /// The latest iteration of the running search.
    pub progress: Arc<Progress>,
    /// Set to make the running search answer with its best move so far, and the searches
    /// after it in the same job at once.
    pub stop: Arc<AtomicBool>,
}

impl SearchHandle {
    /// `budget` publishing to this watch and stopped by its flag.
    pub fn attach(&self, budget: Budget) -> Budget {
        budget.with_progress(self.progress.clone()).with_stop(self.stop.clone())
    }

    /// A job starts: forgets the last search and lowers the stop flag (`stopped`: raises it,
    /// for a job that was stopped before it started).
    pub fn begin(&self, stopped: bool) {
        self.progress.clear();
        self.stop.store(stopped, Ordering::Release);
    }

    /// True once the job has been asked to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// Forgets the last search (not the stop flag) before a new one.
    pub(crate) fn clear(&self) {
        self.progress.clear();
    }

    /// [`SearchHandle::clear`], then [`SearchHandle::attach`].
    pub(crate) fn arm(&self, budget: Budget) -> Budget {
        self.clear();
        self.attach(budget)
    }
}
