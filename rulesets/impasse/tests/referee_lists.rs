//! Move lists checked against the CodinGame referee's generation code.
//!
//! `data/referee_lists.txt` holds positions from 25 seeded random games, each with the
//! referee's list of action texts, sorted as the referee sends them. The lists were produced
//! by a line-by-line transliteration of `GameState.generateLegalActions` and `applyAction`
//! from the referee (`acatai/CG_Impasse`) that is not in this repository. What is in the
//! repository is `tests/referee_model.rs`, an independent model of the referee's rules, which
//! reproduces every stored list and plays random games against the crate; see
//! `docs/references/impasse.md` for the provenance of the lists and of the perft table. Line
//! format: `<position> | <sorted actions>`.

use ply::{Game, MoveList, Notation};
use ply_impasse::Impasse;

#[test]
fn move_lists_match_the_referee() {
    let game = Impasse::new();
    let data = include_str!("data/referee_lists.txt");
    let mut moves = MoveList::new();
    let mut checked = 0;
    let mut impasses = 0;
    let mut crowns = 0;
    for (n, line) in data.lines().enumerate() {
        let mut parts = line.split(" | ");
        let position = parts.next().expect("position");
        let expected: Vec<&str> = parts.next().expect("actions").split(' ').collect();
        let state = game.parse_state(position).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        game.generate_moves(&state, &mut moves);
        let mut ours: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        ours.sort();
        assert_eq!(ours, expected, "line {}: {position}", n + 1);
        assert_eq!(game.count_moves(&state), expected.len() as u64);
        assert_eq!(game.parse_state(&game.format_state(&state)), Ok(state), "line {}", n + 1);
        impasses += usize::from(moves.iter().any(|m| m.kind().is_impasse()));
        crowns += usize::from(moves.iter().any(|m| m.crown().is_some()));
        checked += 1;
    }
    assert!(checked > 1000 && impasses > 10 && crowns > 100, "{checked} {impasses} {crowns}");
}
