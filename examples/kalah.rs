//! Kalah(m,n), the mancala game with extra turns, in the terminal; and `solve`, every
//! program's exact solver (`ply::solve`, with Kalah's store bound, its order of moves into
//! the store first and the seed tables of the endgame directory), which proves a position's
//! exact value: the final store difference under perfect play.
//!
//! ```text
//! cargo run --release --example kalah
//! cargo run --release --example kalah -- --variant pits=4 --variant capture=standard
//! cargo run --release --example kalah -- --human none --engine alphabeta:time=200ms --engine mcts:time=200ms
//! cargo run --release --example kalah -- solve --variant seeds=3
//! cargo run --release --example kalah -- solve --position "1,0,0,1,2,5/20/1,0,0,0,1,1/16 s" --analyse
//! ```
//!
//! Kalah(6,4) from the start needs the seed tables first (`kalah_solve --dir`, in
//! docs/solving.md): with the 20-seed table it proves +10 in about a minute.

fn main() -> std::process::ExitCode {
    ply_tools::cli::game_main(&ply_bundle::kalah())
}
