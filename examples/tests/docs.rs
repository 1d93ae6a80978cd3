//! The guide quotes the current figures: the headline table of BENCHMARKS.md is the one place
//! a match's result is kept, and the README and the games page quote the rows of the engines
//! as shipped now.

use std::path::Path;

/// The repository's file `name`.
fn read(name: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the repository");
    std::fs::read_to_string(root.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The (opponent, score) of each headline row of BENCHMARKS.md for an engine "as shipped
/// now": `("Cake 1.89", "46.5%")`.
fn shipped_now() -> Vec<(String, String)> {
    read("BENCHMARKS.md")
        .lines()
        .filter(|l| l.starts_with('|') && l.contains("as shipped now"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let opponent = cells.iter().find(|c| c.contains("Cake") || c.contains("Scan"));
            let score = cells.iter().find(|c| c.ends_with('%'));
            match (opponent, score) {
                (Some(o), Some(s)) => (o.to_string(), s.to_string()),
                _ => panic!("a headline row without an opponent and a score: {l}"),
            }
        })
        .collect()
}

#[test]
fn the_readme_and_the_games_page_quote_the_current_matches() {
    let rows = shipped_now();
    assert!(rows.iter().any(|(o, _)| o.contains("Cake")), "{rows:?}");
    assert!(rows.iter().any(|(o, _)| o.contains("Scan")), "{rows:?}");
    let readme = read("README.md");
    let games = read("docs/games.md");
    for (opponent, score) in &rows {
        let quote = format!("{score} against {opponent}");
        assert!(games.contains(&quote), "docs/games.md does not quote {quote:?}");
        if opponent.contains("Cake") {
            assert!(readme.contains(&quote), "README.md does not quote {quote:?}");
        }
    }
}
