//! Hex, a game outside the bundle: its rules written only against ply's traits
//! (`rules.rs`), registered in a registry of its own, and every tool of ply over it from this
//! one program (`ply_tools::cli::tools_main`).
//!
//! ```text
//! cargo run --release --example hex -- play --game hex --size 7
//! cargo run --release --example hex -- arena --game hex --size 7 puct:time=100ms,net=hex-run/best.pv alphabeta:time=100ms --games 20
//! cargo run --release --example hex -- tune --game hex --size 7 zero --dir hex-run --generations 100
//! cargo run --release --example hex -- play solve --game hex --size 4 --analyse
//! ```

mod rules;

fn main() -> std::process::ExitCode {
    let mut registry = ply_tools::registry::Registry::new();
    registry.add(rules::entry());
    ply_tools::cli::tools_main(&registry)
}
