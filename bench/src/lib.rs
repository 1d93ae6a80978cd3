//! Criterion benchmarks of ply (`cargo bench -p ply-bench`); shared helpers for the bench targets.
