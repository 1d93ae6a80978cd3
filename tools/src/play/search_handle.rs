//! [`SearchHandle`]: what a front end keeps to see a session's searches from another thread and to
//! stop them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ply::search::{Budget, Progress};

/// Where the searches of a [`Session`](super::session::Session) publish what they find, and the flag that stops them:
/// a front end that shows an engine thinking from another thread (the web board) keeps a
/// clone and reads [`Progress::latest`] while the session searches.
#[derive(Clone, Debug, Default)]
pub struct SearchHandle {
    /// The latest iteration of the running search.
    pub progress: Arc<Progress>,
    /// Set to make the running search answer with its best move so far.
    pub stop: Arc<AtomicBool>,
}

impl SearchHandle {
    /// `budget` publishing to this watch and stopped by its flag.
    pub fn attach(&self, budget: Budget) -> Budget {
        budget.with_progress(self.progress.clone()).with_stop(self.stop.clone())
    }

    /// Forgets the last search and lowers the stop flag, before a new search.
    pub fn reset(&self) {
        self.progress.clear();
        self.stop.store(false, Ordering::Release);
    }

    /// [`SearchHandle::reset`], then [`SearchHandle::attach`].
    pub(crate) fn arm(&self, budget: Budget) -> Budget {
        self.reset();
        self.attach(budget)
    }
}
