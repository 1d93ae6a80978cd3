//! One test per rule: sowing, skipping the opponent's store, extra turns, the three capture
//! rules, whole laps, the end of the game; and the hash, move keys, evaluation and the
//! endgame bound.

use ply::solve::{SolveOptions, Solver};
use ply::{Game, MoveList, Notation, Outcome, Player, Solved, SolverBudget};
use ply_kalah::{Capture, Kalah, KalahState};

fn game(capture: Capture) -> Kalah {
    Kalah::new(6, 4, capture).unwrap()
}

/// Plays `moves` (house numbers) from `from` and gives the position's text.
fn after(game: &Kalah, from: &str, moves: &[&str]) -> String {
    let mut state = game.parse_state(from).unwrap();
    for text in moves {
        let mv = game.parse_move(&state, text).unwrap();
        game.apply(&mut state, mv);
    }
    game.format_state(&state)
}

#[test]
fn the_start_has_every_house_full_and_south_to_move() {
    let g = Kalah::standard();
    let s = g.initial_state();
    assert_eq!(g.format_state(&s), "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s");
    assert_eq!(g.to_move(&s), Player::FIRST);
    assert_eq!(s.seeds_in_houses(), 48);
    assert_eq!(g.total_seeds(), 48);
    assert_eq!(g.count_moves(&s), 6);
}

#[test]
fn seeds_are_sown_counter_clockwise_and_the_turn_passes() {
    let g = game(Capture::Empty);
    // House 1's four seeds go to houses 2 to 5.
    assert_eq!(after(&g, "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s", &["1"]), "0,5,5,5,5,4/0/4,4,4,4,4,4/0 n");
    // House 6: the store, then North's houses 1 to 3.
    assert_eq!(after(&g, "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s", &["6"]), "4,4,4,4,4,0/1/5,5,5,4,4,4/0 n");
    // North sows the same way round: its houses, its store, then South's houses.
    assert_eq!(after(&g, "4,4,4,4,4,4/0/4,4,4,4,4,4/0 n", &["5"]), "5,5,4,4,4,4/0/4,4,4,4,0,5/1 s");
}

#[test]
fn the_last_seed_in_the_own_store_gives_another_move() {
    let g = game(Capture::Empty);
    let text = after(&g, "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s", &["3"]);
    assert_eq!(text, "4,4,0,5,5,5/1/4,4,4,4,4,4/0 s");
    // And again: house 6's five seeds pass the store and do not end there.
    assert_eq!(after(&g, &text, &["6"]), "4,4,0,5,5,0/2/5,5,5,5,4,4/0 n");
    // A chain of extra moves: 1 seed in house 6, then 2 in house 5.
    let chain = "0,0,0,0,2,1/20/1,1,1,1,1,1/19 s";
    assert_eq!(after(&g, chain, &["6", "5"]), "0,0,0,0,0,1/22/1,1,1,1,1,1/19 s");
}

#[test]
fn the_opponents_store_is_skipped() {
    let g = Kalah::new(2, 4, Capture::None).unwrap();
    // 9 seeds from South's house 1: house 2, store, North 1, North 2, (skip), house 1,
    // house 2, store, North 1, North 2.
    let text = after(&g, "9,0/0/2,2/3 s", &["1"]);
    assert_eq!(text, "1,2/2/4,4/3 n");
}

#[test]
fn the_capture_rules_differ_only_at_an_empty_opposite_house() {
    // South's house 1 holds 1 seed and house 2 is empty: the seed lands in house 2,
    // opposite North's house 5.
    let with_seeds = "1,0,3,3,3,3/10/3,3,3,3,4,3/6 s";
    let opposite_empty = "1,0,3,3,3,3/10/3,3,3,3,0,7/6 s";
    for capture in Capture::ALL {
        let g = game(capture);
        let took = after(&g, with_seeds, &["1"]);
        let lone = after(&g, opposite_empty, &["1"]);
        match capture {
            Capture::Standard => {
                assert_eq!(took, "0,0,3,3,3,3/15/3,3,3,3,0,3/6 n");
                assert_eq!(lone, "0,1,3,3,3,3/10/3,3,3,3,0,7/6 n");
            }
            Capture::Empty => {
                assert_eq!(took, "0,0,3,3,3,3/15/3,3,3,3,0,3/6 n");
                assert_eq!(lone, "0,0,3,3,3,3/11/3,3,3,3,0,7/6 n");
            }
            Capture::None => {
                assert_eq!(took, "0,1,3,3,3,3/10/3,3,3,3,4,3/6 n");
                assert_eq!(lone, "0,1,3,3,3,3/10/3,3,3,3,0,7/6 n");
            }
        }
    }
}

#[test]
fn landing_on_the_opponents_side_or_a_full_house_captures_nothing() {
    let g = game(Capture::Empty);
    // Into a house that already had seeds.
    assert_eq!(after(&g, "1,1,3,3,3,3/9/3,3,3,3,4,3/6 s", &["1"]), "0,2,3,3,3,3/9/3,3,3,3,4,3/6 n");
    // North's empty house receives South's last seed: nothing happens.
    assert_eq!(
        after(&g, "3,3,3,3,3,2/9/0,3,3,3,4,6/3 s", &["6"]),
        "3,3,3,3,3,0/10/1,3,3,3,4,6/3 n"
    );
}

#[test]
fn a_whole_lap_lands_in_the_emptied_house_and_captures() {
    // Thirteen seeds from South's house 1 go round once and end in house 1 itself, emptied
    // at the start: one seed, taken with the 5 (now 6) seeds opposite.
    let g = game(Capture::Standard);
    let text = after(&g, "13,1,1,1,1,1/7/1,1,1,1,1,5/13 s", &["1"]);
    assert_eq!(text, "0,2,2,2,2,2/15/2,2,2,2,2,0/13 n");
}

#[test]
fn the_game_ends_when_a_side_is_empty_and_the_rest_is_swept() {
    let g = game(Capture::Standard);
    // South's last seed goes into the store: South's houses are empty, North keeps its 6.
    let mut state = g.parse_state("0,0,0,0,0,1/20/1,1,1,1,1,1/21 s").unwrap();
    let mv = g.parse_move(&state, "6").unwrap();
    g.apply(&mut state, mv);
    assert_eq!(g.format_state(&state), "0,0,0,0,0,0/21/0,0,0,0,0,0/27 s");
    assert_eq!(g.outcome(&state), Some(Outcome::from_scores(&[21, 27])));
    assert_eq!(g.outcome(&state).unwrap().margin(Player::FIRST), -6);
    let mut moves = MoveList::new();
    g.generate_moves(&state, &mut moves);
    assert!(moves.is_empty());
    // A written position with one side empty is already over, its houses counting for
    // their side.
    let over = g.parse_state("0,0,0,0,0,0/24/1,0,0,0,0,1/22 n").unwrap();
    assert_eq!(g.outcome(&over), Some(Outcome::from_scores(&[24, 24])));
    assert_eq!(g.count_moves(&over), 0);
}

#[test]
fn hash_move_keys_and_evaluation() {
    let g = Kalah::standard();
    let s = g.parse_state("1,0,0,1,2,5/20/1,0,0,0,1,1/16 s").unwrap();
    let n = g.parse_state("1,0,0,1,2,5/20/1,0,0,0,1,1/16 n").unwrap();
    let other = g.parse_state("1,0,0,1,2,5/21/1,0,0,0,1,1/15 s").unwrap();
    assert_ne!(g.hash(&s), g.hash(&n));
    assert_ne!(g.hash(&s), g.hash(&other));
    assert_eq!(g.hash(&s), g.hash(&s.clone()));
    assert_eq!(g.evaluate(&s, Player::FIRST), 4);
    assert_eq!(g.evaluate(&s, Player::SECOND), -4);
    assert_eq!(g.move_key_space(), 12);
    let mut moves = MoveList::new();
    g.generate_moves(&n, &mut moves);
    for &mv in &moves {
        assert_eq!(g.move_key(&n, mv) as usize, 6 + mv.number() - 1);
    }
}

#[test]
fn moves_are_generated_extra_turns_first() {
    let g = Kalah::standard();
    let s = g.initial_state();
    let mut moves = MoveList::new();
    g.generate_moves(&s, &mut moves);
    let order: Vec<usize> = moves.iter().map(|m| m.number()).collect();
    assert_eq!(order, [3, 6, 5, 4, 2, 1]);
}

/// The bound: the final margin lies within the store difference ± the seeds in the houses.
#[test]
fn the_endgame_bound_answers_fail_soft_outside_the_window() {
    let g = Kalah::standard().with_exact_seeds(Some(0));
    let s: KalahState = g.parse_state("1,0,0,1,2,5/20/1,0,0,0,1,1/16 s").unwrap();
    let mut budget = SolverBudget::unlimited();
    // Store difference +4, 12 seeds in the houses: the margin is within [-8, 16].
    assert_eq!(g.solve_endgame(&s, -20, -8, &mut budget), Some(Solved::Margin(-8)));
    assert_eq!(g.solve_endgame(&s, 16, 30, &mut budget), Some(Solved::Margin(16)));
    assert_eq!(g.solve_endgame(&s, -8, 16, &mut budget), None);
    // With the seed table of up to 8 seeds (the default): the exact value whatever the
    // window, for a position with 7 seeds in the houses, and nothing inside the bound for
    // the 12 seeds above.
    let exact = Kalah::standard();
    assert_eq!(exact.solve_endgame(&s, -8, 16, &mut budget), None);
    let t: KalahState = g.parse_state("1,0,0,1,2,0/25/1,0,0,0,1,1/16 s").unwrap();
    let bare = Kalah::standard().with_exact_seeds(None);
    let options = SolveOptions { table_mib: 4, ..SolveOptions::default() };
    let proved = Solver::new(&bare, options).unwrap().value(&t, &|| false, &mut |_| {});
    let value = proved.unwrap().value();
    for (alpha, beta) in [(-100, 100), (value, value + 1), (value - 1, value)] {
        let got = exact.solve_endgame(&t, alpha, beta, &mut budget);
        assert_eq!(got, Some(Solved::Margin(value)), "({alpha}, {beta})");
    }
    // Without any help: nothing.
    let bare = Kalah::standard().with_exact_seeds(None);
    assert_eq!(bare.solve_endgame(&s, -20, -8, &mut budget), None);
}

#[test]
fn sizes_and_rules_are_checked() {
    assert!(Kalah::new(0, 4, Capture::Empty).is_err());
    assert!(Kalah::new(9, 4, Capture::Empty).is_err());
    assert!(Kalah::new(6, 0, Capture::Empty).is_err());
    assert!(Kalah::new(6, 16, Capture::Empty).is_err());
    assert!(Kalah::new(8, 15, Capture::None).is_ok());
    assert!("sideways".parse::<Capture>().is_err());
    assert_eq!(" Standard ".parse::<Capture>(), Ok(Capture::Standard));
    assert_eq!(Kalah::standard(), Kalah::new(6, 4, Capture::default()).unwrap());
}
