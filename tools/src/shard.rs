//! Splitting a run over machines: `--shard K/N` plays the games whose index is `K - 1`
//! modulo `N`, so that a job array of N tasks (Slurm `--array=1-N`, a Kubernetes indexed
//! job) covers the run once; a merge step combines the files.

use crate::error::{ToolError, ToolResult};
/// Reads `K/N` with `1 <= K <= N`.
///
/// ```
/// use ply_tools::shard::{in_shard, parse_shard};
/// let shard = parse_shard("2/3").unwrap();
/// assert_eq!((0..7).filter(|&i| in_shard(Some(shard), i)).collect::<Vec<_>>(), [1, 4]);
/// assert!(parse_shard("0/4").is_err() && parse_shard("5/4").is_err());
/// ```
///
/// # Errors
/// A message for anything else.
pub fn parse_shard(text: &str) -> ToolResult<(usize, usize)> {
    let parsed = text.split_once('/').and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)));
    match parsed {
        Some((k, n)) if 1 <= k && k <= n => Ok((k, n)),
        _ => Err(ToolError::Input(format!(
            "expected K/N with 1 <= K <= N, such as 3/8; got {text:?}"
        ))),
    }
}

/// True if game `index` belongs to `shard` (every game does without one).
pub fn in_shard(shard: Option<(usize, usize)>, index: u64) -> bool {
    shard.is_none_or(|(k, n)| index % n as u64 == (k - 1) as u64)
}
