//! Ctrl-C in the terminal game: the game is left as `quit` leaves it, its moves printed, so a
//! game interrupted at any moment (an engine thinking included) is never lost.
//!
//! The terminal loop keeps the words to print up to date ([`remember`]) after each move; the
//! handler ([`install`]) prints them on stderr (the main thread holds stdout's lock while
//! the game runs) and ends the program with status 130, as a shell does for SIGINT.

use std::io::Write;
use std::sync::Mutex;

/// What Ctrl-C prints now.
static LAST_WORDS: Mutex<String> = Mutex::new(String::new());

/// The exit status after Ctrl-C: 128 + SIGINT.
pub(crate) const INTERRUPTED: i32 = 130;

/// Makes Ctrl-C print what [`remember`] was last given and end the program. A second call,
/// or a process where a handler cannot be set, keeps the default (the program just ends).
pub(crate) fn install() {
    let _ = ctrlc::set_handler(|| {
        let words = LAST_WORDS.lock().map(|w| w.clone()).unwrap_or_default();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\n{words}");
        let _ = err.flush();
        std::process::exit(INTERRUPTED);
    });
}

/// Ctrl-C prints `words` from now on.
pub(crate) fn remember(words: String) {
    if let Ok(mut last) = LAST_WORDS.lock() {
        *last = words;
    }
}
