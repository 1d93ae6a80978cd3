use std::sync::Arc;
use std::time::{Duration, Instant};

use super::*;
use crate::eval::planes::{ActionSpace, Observation, Planes};
use crate::eval::pv::PvNet;
use crate::games::{ConnectFour, ThreeHeaps, TicTacToe};

fn model<G: Game + Notation + 'static>(game: &G, seed: u64) -> PvModel<G> {
    let planes = Planes::new(game).unwrap();
    let actions = ActionSpace::new(game).unwrap();
    let tag = PvModel::tag_for(&planes, &actions);
    let inputs = Observation::<G>::inputs(&planes);
    let net = PvNet::random(inputs, 32, game.num_players(), actions.len(), &tag, seed);
    PvModel::new(game, Arc::new(planes), actions, &net).unwrap()
}

fn play<G: Game + Notation>(game: &G, agent: &mut Puct<G>, text: &str, sims: u64) -> String {
    let state = game.parse_state(text).unwrap_or_else(|_| panic!("a position: {text}"));
    let report = agent.choose(game, Position::new(&state), &Budget::iterations(sims)).unwrap();
    game.format_move(&state, report.best_move)
}

#[test]
fn both_rules_block_a_threat_with_an_untrained_network() {
    let game = TicTacToe;
    for mode in [Mode::Puct, Mode::Gumbel { considered: 8 }] {
        let mut agent = Puct::new(model(&game, 3)).with_mode(mode).with_decisive_moves(false);
        // X to move: X X . / O O . / . . . — c3 wins.
        assert_eq!(play(&game, &mut agent, "xx.oo....", 400), "c3", "{mode:?} wins");
        // O to move: X X . / . O . / . . . — X threatens c3.
        agent.new_game();
        assert_eq!(play(&game, &mut agent, "xx..o....", 800), "c3", "{mode:?} blocks");
    }
}

#[test]
fn decisive_moves_are_found_on_the_first_expansion() {
    let game = TicTacToe;
    let mut agent = Puct::new(model(&game, 5));
    let state = game.parse_state("xx.oo....").unwrap();
    let report = agent.choose(&game, Position::new(&state), &Budget::iterations(3)).unwrap();
    assert_eq!(game.format_move(&state, report.best_move), "c3");
    assert_eq!(report.value, Value::Win(1));
}

#[test]
fn proofs_settle_a_forced_win_and_end_the_search_early() {
    // X: a3, c1; O: b2, c3, threatening a1. X to move must take a1, which makes two threats
    // (a2 and b1): a win in three plies, every other move a loss in two.
    let game = TicTacToe;
    for mode in [Mode::Puct, Mode::Gumbel { considered: 8 }] {
        let mut agent = Puct::new(model(&game, 7)).with_mode(mode);
        let state = game.parse_state("x.o.o...x").unwrap();
        let report =
            agent.choose(&game, Position::new(&state), &Budget::iterations(100_000)).unwrap();
        assert_eq!(game.format_move(&state, report.best_move), "a1", "{mode:?}");
        assert_eq!(report.value, Value::Win(3), "{mode:?}");
        assert!(report.iterations < 1_000, "{mode:?}: {} simulations", report.iterations);
    }
}

#[test]
fn a_kept_root_proven_by_a_win_at_once_plays_that_win() {
    // O to move must block c3; the search also tries b2, after which X wins at once, a node
    // proven while a leaf. After O's b2 the kept tree's root is that node: X plays c3.
    let game = TicTacToe;
    let mut agent = Puct::new(model(&game, 11));
    let state = game.parse_state("xx.o.....").unwrap();
    agent.choose(&game, Position::new(&state), &Budget::iterations(400)).unwrap();
    let b2 = game.parse_move(&state, "b2").unwrap();
    agent.observe(&game, &state, b2);
    let mut after = state;
    game.apply(&mut after, b2);
    let report = agent.choose(&game, Position::new(&after), &Budget::iterations(3)).unwrap();
    assert!(agent.carried_over() > 0, "the tree was kept");
    assert_eq!(game.format_move(&after, report.best_move), "c3");
    assert_eq!(report.value, Value::Win(1));
}

#[test]
fn three_players_back_up_each_players_reward() {
    let game = ThreeHeaps::standard();
    // Player 0 to move with heaps 0,0,3: taking all three scores 5 and wins; taking fewer
    // lets the next player empty the heap.
    for mode in [Mode::Puct, Mode::Gumbel { considered: 3 }] {
        let mut agent = Puct::new(heaps_model(&game)).with_mode(mode).with_decisive_moves(false);
        assert_eq!(play(&game, &mut agent, "0,0,3;0,0,0;0", 200), "c3", "{mode:?}");
    }
}

/// Three heaps draw no diagram: its own observation (each heap's size, the player to move).
struct Heaps;

impl Observation<ThreeHeaps> for Heaps {
    fn inputs(&self) -> usize {
        3 * 21 + 3
    }
    fn observe(
        &self,
        game: &ThreeHeaps,
        state: &<ThreeHeaps as Game>::State,
        active: &mut Vec<u32>,
    ) {
        active.clear();
        let text = game.format_state(state);
        let mut parts = text.split(';');
        let heaps = parts.next().unwrap();
        for (h, n) in heaps.split(',').enumerate() {
            active.push((h * 21 + n.parse::<usize>().unwrap()) as u32);
        }
        active.push((63 + game.to_move(state).index()) as u32);
    }
    fn tag(&self) -> String {
        "heaps".into()
    }
}

fn heaps_model(game: &ThreeHeaps) -> PvModel<ThreeHeaps> {
    let actions = ActionSpace::new(game).unwrap();
    let tag = PvModel::tag_for(&Heaps, &actions);
    let net = PvNet::random(Heaps.inputs(), 16, 3, actions.len(), &tag, 2);
    PvModel::new(game, Arc::new(Heaps), actions, &net).unwrap()
}

#[test]
fn the_root_policy_is_a_distribution_over_the_legal_moves() {
    let game = ConnectFour::standard();
    for mode in [Mode::Puct, Mode::Gumbel { considered: 4 }] {
        let mut agent = Puct::new(model(&game, 7)).with_mode(mode);
        let state = game.initial_state();
        agent.choose(&game, Position::new(&state), &Budget::iterations(64)).unwrap();
        let policy = agent.root_policy();
        assert_eq!(policy.len(), 7, "{mode:?}");
        let total: f32 = policy.iter().map(|p| p.1).sum();
        assert!((total - 1.0).abs() < 1e-4, "{mode:?}: {total}");
    }
}

#[test]
fn iterations_count_simulations_on_one_thread_or_several() {
    let game = ConnectFour::standard();
    let state = game.initial_state();
    for (threads, batch) in [(1, 1), (1, 4), (2, 2)] {
        let mut agent = Puct::new(model(&game, 1))
            .with_threads(threads)
            .with_batch(batch)
            .with_tree_reuse(false);
        let report = agent.choose(&game, Position::new(&state), &Budget::iterations(300)).unwrap();
        assert_eq!(report.iterations, 300, "threads {threads}, batch {batch}");
        assert!(report.depth >= 2);
        assert_eq!(report.pv[0], report.best_move);
    }
}

#[test]
fn the_subtree_of_the_moves_played_is_reused() {
    let game = ConnectFour::standard();
    let mut agent = Puct::new(model(&game, 11));
    let mut state = game.initial_state();
    let report = agent.choose(&game, Position::new(&state), &Budget::iterations(400)).unwrap();
    let reply = report.pv.get(1).copied().expect("a line of two moves");
    agent.observe(&game, &state, report.best_move);
    game.apply(&mut state, report.best_move);
    agent.observe(&game, &state, reply);
    game.apply(&mut state, reply);
    agent.choose(&game, Position::new(&state), &Budget::iterations(10)).unwrap();
    assert!(agent.carried_over() > 0);
}

#[test]
fn gumbel_search_decides_early_and_a_time_budget_is_kept() {
    let game = ConnectFour::standard();
    let state = game.initial_state();
    // One move considered: the root's evaluation decides it.
    let mut agent = Puct::gumbel(model(&game, 13)).with_mode(Mode::Gumbel { considered: 1 });
    let report = agent.choose(&game, Position::new(&state), &Budget::iterations(1000)).unwrap();
    assert_eq!(report.iterations, 1);
    // Two considered: one phase, shared evenly.
    let mut agent = Puct::gumbel(model(&game, 13)).with_mode(Mode::Gumbel { considered: 2 });
    let report = agent.choose(&game, Position::new(&state), &Budget::iterations(101)).unwrap();
    assert_eq!(report.iterations, 101);
    let started = Instant::now();
    let mut agent = Puct::new(model(&game, 13));
    agent.choose(&game, Position::new(&state), &Budget::time(Duration::from_millis(50))).unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn self_play_noise_changes_the_priors_but_not_the_legality() {
    let game = ConnectFour::standard();
    let state = game.initial_state();
    let noise = Some(Noise { alpha: 0.3, fraction: 0.25 });
    let mut agent = Puct::new(model(&game, 17)).with_noise(noise).with_seed(4);
    let report = agent.choose(&game, Position::new(&state), &Budget::iterations(50)).unwrap();
    let mut moves = MoveList::new();
    game.generate_moves(&state, &mut moves);
    assert!(moves.contains(&report.best_move));
    // The same position again starts afresh rather than noising the noised priors.
    agent.choose(&game, Position::new(&state), &Budget::iterations(50)).unwrap();
    assert_eq!(agent.carried_over(), 0);
}
