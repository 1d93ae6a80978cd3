//! The example programs of ply (`cargo run --release --example NAME`), and the registry of
//! the bundled games that they share.
