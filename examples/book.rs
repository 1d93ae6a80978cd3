//! Opening books built by ply's own engine for any registered two-player game: grow one by
//! drop-out expansion with alpha-beta at the leaves, or print a position's book moves.
//!
//! ```text
//! cargo run --release --example book -- --game english-checkers build --nodes 2000 \
//!     --time 300ms --out rulesets/checkers/books/deepomatic.txt
//! cargo run --release --example book -- --game english-checkers probe --moves "11-15"
//! ```

fn main() -> std::process::ExitCode {
    ply_tools::cli::book_main(&ply_bundle::registry())
}
