//! `solve` for every game: on every registered game and on a game written only against the
//! trait (Hex, the `hex` example's rules), positions a few plies from the end of random games
//! are solved through the erased game and checked against plain minimax over every line. Hex's
//! own rules are checked here too (the contract, perft, its distances, the first player's win).

#[path = "../../examples/hex/rules.rs"]
mod hex;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply::{Outcome, Player};
use ply_tools::dynamic::{DynGame, State};
use ply_tools::registry::{GameOptions, Registry};
use ply_tools::solve::{SolveLimits, SolveReport};

/// A value as minimax compares them: the margin (games scored by points), or a win as
/// `BIG - plies` and a loss as `plies - BIG`, for the player to move.
const BIG: i64 = 1_000_000;

/// The most positions the reference visits before it gives up on a position.
const REFERENCE_NODES: u64 = 200_000;

fn final_value(outcome: &Outcome, me: usize) -> i64 {
    match outcome {
        Outcome::Winner(w) if w.index() == me => BIG,
        Outcome::Winner(_) => -BIG,
        other => i64::from(other.margin(Player::new(me))),
    }
}

/// Beyond every value.
const INF: i64 = 1_000_000_000;

/// Alpha-beta with distances over every line (no table, no ordering) of a position still in
/// play: exact inside `(alpha, beta)`, a bound outside; `None` past the node budget.
fn reference(
    game: &dyn DynGame,
    state: &State,
    alpha: i64,
    beta: i64,
    nodes: &mut u64,
) -> Option<i64> {
    *nodes += 1;
    if *nodes > REFERENCE_NODES {
        return None;
    }
    let mut children: Vec<State> = (0..game.legal_moves(state).unwrap().len())
        .map(|index| game.apply_index(state, index).unwrap())
        .collect();
    // Moves that end the game first: a win at once cuts the rest short.
    children.sort_by_key(|child| !game.is_terminal(child).unwrap());
    let mut best = -INF;
    for child in &children {
        best = best.max(child_value(game, state, child, alpha.max(best), beta, nodes)?);
        // A win at once is the best value there is.
        if best >= beta || best == BIG - 1 {
            break;
        }
    }
    Some(best)
}

/// The value of `child`, a position after a move from `state`, for the player to move in
/// `state`, one ply further from the end (as [`reference`] inside `(alpha, beta)`).
fn child_value(
    game: &dyn DynGame,
    state: &State,
    child: &State,
    alpha: i64,
    beta: i64,
    nodes: &mut u64,
) -> Option<i64> {
    let me = game.current_player(state).unwrap();
    // One ply's shift of a win or a loss at most: widen the child's window by one.
    let v = match game.outcome(child).unwrap() {
        Some(outcome) => final_value(&outcome, me as usize),
        None => match game.current_player(child).unwrap() == me {
            true => reference(game, child, alpha - 1, beta + 1, nodes)?,
            false => -reference(game, child, -beta - 1, -alpha + 1, nodes)?,
        },
    };
    Some(if v.abs() > BIG / 2 { v - v.signum() } else { v })
}

/// The report's value in the reference's scale.
fn as_reference(report: &SolveReport) -> i64 {
    match (report.result.as_str(), report.plies) {
        ("win", Some(d)) => BIG - i64::from(d),
        ("loss", Some(d)) => i64::from(d) - BIG,
        _ => i64::from(report.value),
    }
}

/// States `back` plies before the end of random games from the start.
fn near_ends(game: &dyn DynGame, count: usize, back: usize, seed: u64) -> Vec<State> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .filter_map(|_| {
            let mut line = vec![game.initial_state()];
            while line.len() < 2000 && !game.is_terminal(line.last()?).ok()? {
                let state = line.last()?;
                let n = game.legal_moves(state).ok()?.len();
                line.push(game.apply_index(state, rng.gen_range(0..n)).ok()?);
            }
            let at = line.len().checked_sub(back + 1)?;
            Some(line.swap_remove(at))
        })
        .collect()
}

/// Solves positions near the end of `game`'s random games and checks every value, best move
/// and analysed move against minimax; returns how many positions were checked.
fn check_game(game: &dyn DynGame, seed: u64) -> usize {
    let stop = Arc::new(AtomicBool::new(false));
    let mut checked = 0;
    for back in [1, 2, 3] {
        for state in near_ends(game, 4, back, seed) {
            let Some(expected) = reference(game, &state, -INF, INF, &mut 0) else { continue };
            // Every move's exact value where minimax settles each within its budget (then the
            // solver analyses them all), else the value and the best moves alone.
            let moves = game.legal_moves(&state).unwrap();
            let values: Option<Vec<i64>> = moves
                .iter()
                .map(|m| {
                    let child = game.apply(&state, m).unwrap();
                    child_value(game, &state, &child, -INF, INF, &mut 0)
                })
                .collect();
            let analyse = values.is_some();
            let limits =
                SolveLimits { analyse, threads: 2, memory_mib: 4, ..SolveLimits::default() };
            let report = game.solve(&state, &limits, &stop).unwrap();
            let name = format!("{}: {}", game.name(), report.position);
            assert_eq!(as_reference(&report), expected, "{name}: {report:?}");
            assert!(!report.best.is_empty(), "{name}");
            if let Some(values) = values {
                let analysed = report.moves.as_ref().unwrap();
                assert_eq!(analysed.len(), moves.len(), "{name}");
                for ((m, v), a) in moves.iter().zip(&values).zip(analysed) {
                    assert_eq!(&a.mv, m, "{name}");
                    assert_eq!(*v == expected, report.best.contains(m), "{name}: {m}");
                    let value = match (a.result.as_str(), a.plies) {
                        ("win", Some(d)) => BIG - i64::from(d),
                        ("loss", Some(d)) => i64::from(d) - BIG,
                        _ => i64::from(a.value),
                    };
                    assert_eq!(value, *v, "{name}: move {m}");
                }
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_registered_game_solves_positions_near_the_end() {
    let registry = ply_bundle::registry();
    for name in registry.names() {
        let game = registry.get(name).unwrap().load(&GameOptions::default()).unwrap();
        if game.num_players() > 2 {
            let stop = Arc::new(AtomicBool::new(false));
            let start = game.initial_state();
            let error = game.solve(&start, &SolveLimits::default(), &stop).unwrap_err();
            assert!(error.to_string().contains("one- and two-player games"), "{name}: {error}");
            continue;
        }
        let checked = check_game(&*game, 5);
        assert!(checked >= 4, "{name}: only {checked} positions small enough to check");
    }
}

#[test]
fn a_game_written_only_against_the_trait_solves() {
    let mut registry = Registry::new();
    registry.add(hex::entry());
    let small = GameOptions { size: Some("4".into()), ..GameOptions::default() };
    let game = registry.get("hex").unwrap().load(&small).unwrap();
    assert!(check_game(&*game, 9) >= 8);
}

#[test]
fn three_players_and_a_stop_are_errors() {
    let registry = ply_bundle::registry();
    let options = GameOptions { players: Some(3), ..GameOptions::default() };
    let reversi = registry.get("reversi").unwrap().load(&options).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let start = reversi.initial_state();
    let error = reversi.solve(&start, &SolveLimits::default(), &stop).unwrap_err();
    assert!(error.to_string().contains("one- and two-player games"), "{error}");
    let checkers = registry.get("english-checkers").unwrap().load(&GameOptions::default());
    let checkers = checkers.unwrap();
    let stopped = Arc::new(AtomicBool::new(true));
    let error = checkers.solve(&checkers.initial_state(), &SolveLimits::default(), &stopped);
    assert!(error.unwrap_err().to_string().contains("stopped"));
}

#[test]
fn hex_keeps_the_contract_and_its_rules() {
    use hex::Hex;
    use ply::{Game, Notation, PerftMode};
    for n in [3, 4, 7, 11] {
        let game = Hex::new(n).unwrap();
        ply::testing::assert_conforms(&game, &ply::testing::Config::default());
        // No one can join their edges in fewer than n stones: every ply up to 2n - 2 is open.
        let cells = (n * n) as u64;
        let start = game.initial_state();
        assert_eq!(
            ply::perft(&game, &start, 3, PerftMode::MakeAll),
            cells * (cells - 1) * (cells - 2)
        );
        assert_eq!(game.distance(&start, 0), Some(n as u32));
    }
    assert!(Hex::new(2).is_err() && Hex::new(12).is_err());
    let game = Hex::new(4).unwrap();
    // Black's column a joins top and bottom.
    let state = game.parse_state("xo../xo../xo../x... o").unwrap();
    assert_eq!(game.outcome(&state), Some(Outcome::Winner(Player::new(0))));
    // Black's b1-b3 need b4; White's a2-a4 need three stones to reach column d.
    let state = game.parse_state(".x../ox../ox../o... x").unwrap();
    assert_eq!(game.outcome(&state), None);
    assert_eq!((game.distance(&state, 0), game.distance(&state, 1)), (Some(1), Some(3)));
    // The bend through a diagonal neighbour: b1 then a2 (down-left) joins for Black, and
    // cuts White off from column a.
    let state = game.parse_state(".x.o/x..o/x..o/x... o").unwrap();
    assert_eq!(game.outcome(&state), Some(Outcome::Winner(Player::new(0))));
    assert_eq!(game.distance(&state, 1), None);
    for bad in [
        "x.../..../..../.... o o",
        "..../..../.... x",
        "xx../..../..../.... x",
        "..../..../..../.... o",
    ] {
        assert!(game.parse_state(bad).is_err(), "{bad}");
    }
    assert!(game.parse_move(&game.initial_state(), "e1").is_err());
}

#[test]
fn hex_is_a_first_player_win_and_on_4x4_only_the_short_diagonal_wins() {
    let mut registry = Registry::new();
    registry.add(hex::entry());
    for size in ["3", "4"] {
        let options = GameOptions { size: Some(size.into()), ..GameOptions::default() };
        let game = registry.get("hex").unwrap().load(&options).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let analyse = size == "4";
        let limits = SolveLimits { threads: 1, memory_mib: 16, analyse, ..SolveLimits::default() };
        let report = game.solve(&game.initial_state(), &limits, &stop).unwrap();
        assert_eq!(report.result, "win", "{size}: {report:?}");
        if analyse {
            // The known map of 4x4 openings: the four cells of the short diagonal win, every
            // other first move loses.
            let mut wins: Vec<String> = report
                .moves
                .unwrap()
                .into_iter()
                .filter(|m| m.result == "win")
                .map(|m| m.mv)
                .collect();
            wins.sort();
            assert_eq!(wins, ["a4", "b3", "c2", "d1"]);
        }
    }
}
