//! Endgame databases for the registered games that number their positions with few pieces
//! (English checkers and international draughts): build the tables, list them, probe a
//! position, verify samples. The engines use the tables found in the same directory
//! (`egdb=on`, the default, in an alphabeta spec).
//!
//! ```text
//! cargo run --release --example egdb -- --game english-checkers build --pieces 5
//! cargo run --release --example egdb -- --game english-checkers --rules standard build --pieces 5
//! cargo run --release --example egdb -- --game international-draughts build --pieces 4
//! cargo run --release --example egdb -- --game english-checkers info
//! cargo run --release --example egdb -- --game english-checkers probe "W:WK14,K10:BK1"
//! cargo run --release --example egdb -- --game english-checkers verify --samples 100000
//! ```
//!
//! Tables go to `--dir`, else `$PLY_EGDB`, else `~/.cache/ply/egdb`, one directory per game
//! and rule set.

fn main() -> std::process::ExitCode {
    ply_tools::cli::egdb_main(&ply_bundle::registry())
}
