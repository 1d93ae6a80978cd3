//! Learned search for every game: `tune zero` trains a network and `puct:`/`gumbel:` play
//! with it on every registered game and on a game written only against the trait (Hex, the
//! `hex` example's rules); a game without a network gets an error naming the training command; and policy
//! entries are told apart among legal moves.

#[path = "../../examples/hex/rules.rs"]
mod hex;

use std::path::PathBuf;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use hex::Hex;
use ply::eval::planes::ActionSpace;
use ply::{Game, MoveList, Notation};
use ply_tools::registry::{GameEntry, GameOptions, RegisteredGame, Registry};
use ply_tools::spec::AgentSpec;
use ply_tools::tune::{TuneCommand, ZeroArgs};

/// A tiny `tune zero` run into `dir`: two games, two training steps, every trainee promoted.
fn tiny_run(dir: PathBuf) -> ZeroArgs {
    ZeroArgs {
        generations: 1,
        games: 2,
        sims: 4,
        considered: 4,
        hidden: 8,
        window: 1,
        steps: 2,
        batch: 4,
        temperature_plies: 0,
        max_plies: 30,
        gate_pairs: 0,
        threads: 1,
        ..ZeroArgs::with_dir(dir)
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-learned-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Trains a tiny network for `entry` with `options` and plays a move with each learned search
/// over it.
fn trains_and_plays(entry: &dyn RegisteredGame, options: &GameOptions) {
    let name = entry.info().name.clone();
    let dir = scratch(&name);
    let run = TuneCommand::Zero(Box::new(tiny_run(dir.clone())));
    let game = entry.load(options).unwrap();
    let state = game.initial_state();
    if game.diagram(&state).unwrap().is_none() {
        // Nothing to derive inputs from: a clear refusal, before any file is written.
        let error = entry.tune(options, &run).unwrap_err().to_string();
        assert!(error.contains("diagram"), "{name}: {error}");
        return;
    }
    entry.tune(options, &run).unwrap_or_else(|e| panic!("{name}: tune zero: {e}"));
    let net = dir.join("best.pv");
    assert!(net.is_file(), "{name}: no network written");
    let legal = game.legal_moves(&state).unwrap();
    for agent in ["puct", "gumbel"] {
        let spec: AgentSpec =
            format!("{agent}:iters=8,book=off,net={}", net.display()).parse().unwrap();
        let found = game.search(&state, &spec, 1).unwrap_or_else(|e| panic!("{name} {spec}: {e}"));
        assert!(
            legal.contains(&found.best_move),
            "{name} {spec}: {} is not legal",
            found.best_move
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_registered_game_trains_a_network_and_plays_with_it() {
    let registry = ply_bundle::registry();
    for entry in registry.games() {
        trains_and_plays(entry, &GameOptions::default());
    }
}

#[test]
fn a_game_written_only_against_the_trait_learns_too() {
    let mut registry = Registry::default();
    registry.add(hex::entry());
    let small = GameOptions { size: Some("4".into()), ..GameOptions::default() };
    trains_and_plays(registry.get("hex").unwrap(), &small);
}

#[test]
fn without_a_network_a_learned_search_names_the_training_command() {
    let registry = ply_bundle::registry();
    let entry = registry.get("breakthrough").unwrap();
    for agent in ["puct", "gumbel:m=4"] {
        let spec: AgentSpec = agent.parse().unwrap();
        let draughts = registry.get("international-draughts").unwrap();
        let error = draughts.check_spec(&GameOptions::default(), &spec).unwrap_err().to_string();
        assert!(error.contains("tune zero"), "{error}");
    }
    // A network of another game is refused with both descriptions.
    let dir = scratch("mismatch");
    let tictactoe = registry.get("tictactoe").unwrap();
    tictactoe
        .tune(&GameOptions::default(), &TuneCommand::Zero(Box::new(tiny_run(dir.clone()))))
        .unwrap();
    let spec: AgentSpec = format!("puct:net={}", dir.join("best.pv").display()).parse().unwrap();
    let error = entry.check_spec(&GameOptions::default(), &spec).unwrap_err().to_string();
    assert!(error.contains("planes 3x3") && error.contains("planes 8x8"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn five_games_ship_networks_for_their_standard_rules() {
    let registry = ply_bundle::registry();
    let size = |s: &str| GameOptions { size: Some(s.into()), ..GameOptions::default() };
    let pits =
        GameOptions { variants: vec![("pits".into(), "5".into())], ..GameOptions::default() };
    let three = GameOptions { players: Some(3), ..GameOptions::default() };
    for (name, elsewhere) in [
        ("connect-four", Some(size("8x7"))),
        ("kalah", Some(pits)),
        ("breakthrough", Some(size("6x6"))),
        ("reversi", Some(three)),
        ("impasse", None),
    ] {
        let entry = registry.get(name).unwrap();
        let game = entry.load(&GameOptions::default()).unwrap();
        let state = game.initial_state();
        for spec in ["puct:iters=64", "gumbel:iters=64,m=4"] {
            let found = game.search(&state, &spec.parse().unwrap(), 1).unwrap();
            assert!(game.legal_moves(&state).unwrap().contains(&found.best_move), "{name} {spec}");
        }
        let Some(elsewhere) = elsewhere else { continue };
        let error = entry.check_spec(&elsewhere, &"gumbel".parse().unwrap()).unwrap_err();
        let error = error.to_string();
        assert!(error.contains("ships no trained network for these rules"), "{name}: {error}");
    }
}

/// The share of positions, along random games, whose legal moves all have policy entries of
/// their own.
fn distinct_entries<G: Game + Notation>(game: &G, games: usize) -> f64 {
    let actions = ActionSpace::new(game).expect("an action space");
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut distinct, mut positions) = (0, 0);
    let mut moves = MoveList::new();
    for _ in 0..games {
        let mut state = game.initial_state();
        for _ in 0..200 {
            if game.outcome(&state).is_some() {
                break;
            }
            game.generate_moves(&state, &mut moves);
            let mut entries: Vec<usize> =
                moves.iter().map(|&m| actions.index(game, &state, m)).collect();
            assert!(entries.iter().all(|&e| e < actions.len()));
            entries.sort_unstable();
            entries.dedup();
            positions += 1;
            distinct += usize::from(entries.len() == moves.len());
            let mv = moves[rng.gen_range(0..moves.len())];
            game.apply(&mut state, mv);
        }
    }
    distinct as f64 / positions as f64
}

/// Every bundled game's legal moves have policy entries of their own, except where a game's
/// moves may share a key by design: captures in checkers and draughts with the same ends
/// (none along these games), and Impasse's moves that touch the same squares (17% of these
/// positions have two such moves). Those get the same logit, so the same prior, and the search
/// still keeps them as separate children; the floors keep the share measured.
#[test]
fn legal_moves_have_policy_entries_of_their_own() {
    fn rate<G: ply_tools::agents::ToolGame>(entry: GameEntry<G>, games: usize) -> f64 {
        distinct_entries(&entry.build(&GameOptions::default()).unwrap(), games)
    }
    let exact = [
        ("tictactoe", rate(ply_bundle::tictactoe(), 50)),
        ("connect-four", rate(ply_bundle::connect_four(), 50)),
        ("three-heaps", rate(ply_bundle::three_heaps(), 50)),
        ("breakthrough", rate(ply_bundle::breakthrough(), 20)),
        ("kalah", rate(ply_bundle::kalah(), 50)),
        ("reversi", rate(ply_bundle::reversi(), 20)),
        ("hex", distinct_entries(&Hex::new(7).unwrap(), 50)),
    ];
    for (name, rate) in exact {
        assert_eq!(rate, 1.0, "{name}");
    }
    let shared = [
        ("english-checkers", rate(ply_bundle::english_checkers(), 20), 0.98),
        ("international-draughts", rate(ply_bundle::international_draughts(), 10), 0.95),
        ("impasse", rate(ply_bundle::impasse(), 20), 0.80),
    ];
    for (name, rate, floor) in shared {
        assert!(rate >= floor, "{name}: {rate}");
    }
}
