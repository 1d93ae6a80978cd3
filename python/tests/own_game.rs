//! A game defined outside ply reaches the Python API through its registration alone: the
//! package's generic interface loads it, plays it, searches it and runs perft on it, with no
//! code of the package that names it.

use ply::search::alphabeta::AlphaBeta;
use ply::{Game, MoveList, Notation, Outcome, Player};
use ply_games::games::{self, agent_spec, GameOptions, TERMINAL};
use ply_tools::registry::{parse_number, GameEntry, Registry};

/// Subtraction Nim: `stones` on the table, each turn takes 1 to 3, whoever takes the last wins.
#[derive(Clone, Debug)]
struct Nim {
    stones: u32,
}

/// Stones left and the seat to move.
#[derive(Clone, Debug, PartialEq, Eq)]
struct NimState {
    left: u32,
    to_move: usize,
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct NimError(String);

impl Game for Nim {
    type State = NimState;
    type Move = u32;
    type Score = i32;

    fn initial_state(&self) -> NimState {
        NimState { left: self.stones, to_move: 0 }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn to_move(&self, state: &NimState) -> Player {
        Player::new(state.to_move)
    }

    fn generate_moves(&self, state: &NimState, moves: &mut MoveList<u32>) {
        moves.clear();
        moves.extend(1..=state.left.min(3));
    }

    fn apply(&self, state: &mut NimState, mv: u32) {
        state.left -= mv;
        state.to_move = 1 - state.to_move;
    }

    fn outcome(&self, state: &NimState) -> Option<Outcome> {
        // The player who took the last stone is the one not to move.
        (state.left == 0).then(|| Outcome::Winner(Player::new(1 - state.to_move)))
    }

    fn evaluate(&self, state: &NimState, player: Player) -> i32 {
        let good_for_mover = !state.left.is_multiple_of(4);
        if good_for_mover == (player.index() == state.to_move) {
            1
        } else {
            -1
        }
    }
}

impl Notation for Nim {
    type Error = NimError;

    fn format_move(&self, _state: &NimState, mv: u32) -> String {
        format!("take{mv}")
    }

    fn parse_move(&self, state: &NimState, text: &str) -> Result<u32, NimError> {
        let n: u32 = text
            .trim()
            .strip_prefix("take")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| NimError(format!("{text:?}: a move is take1, take2 or take3")))?;
        match (1..=state.left.min(3)).contains(&n) {
            true => Ok(n),
            false => Err(NimError(format!("cannot take {n} of {} stones", state.left))),
        }
    }

    fn format_state(&self, state: &NimState) -> String {
        format!("{} {}", state.left, state.to_move)
    }

    fn parse_state(&self, text: &str) -> Result<NimState, NimError> {
        let bad = || NimError(format!("{text:?}: a position is \"STONES SEAT\""));
        let (left, seat) = text.trim().split_once(' ').ok_or_else(bad)?;
        let left = left.parse().map_err(|_| bad())?;
        let to_move = seat.parse().map_err(|_| bad())?;
        match left <= self.stones && to_move < 2 {
            true => Ok(NimState { left, to_move }),
            false => Err(bad()),
        }
    }
}

/// The registration a user's crate writes for its game.
fn nim_entry() -> GameEntry<Nim> {
    GameEntry::new("nim", "subtraction Nim: take 1 to 3, the last stone wins", |o| {
        let stones = parse_number("nim", "--size", o.size.as_deref(), 10)?;
        Ok(Nim { stones: stones.min(1000) as u32 })
    })
    .accepts(&["size"], "--size N stones (default 10)")
    .evaluator("plain", ply::eval::GameEval)
}

fn registry() -> Registry {
    let mut games = ply_bundle::registry();
    games.add(nim_entry());
    games
}

#[test]
fn a_game_registered_outside_ply_plays_through_the_generic_interface() {
    let registry = registry();
    let options = GameOptions { size: Some("7".into()), ..GameOptions::default() };
    let game = games::load_from(&registry, "nim", &options).unwrap();
    assert_eq!(game.name(), "nim");
    assert_eq!(game.num_players(), 2);
    let start = game.initial_state();
    assert_eq!(game.legal_moves(&start).unwrap(), ["take1", "take2", "take3"]);
    assert_eq!(game.perft(&start, 2).unwrap(), 9);

    // 7 stones: taking 3 leaves a multiple of 4, the only winning move.
    let spec = agent_spec("alphabeta", &[("depth".into(), "8".into())], None).unwrap();
    let found = game.search(&start, &spec, 1).unwrap();
    assert_eq!(found.best_move, "take3");
    let spec = agent_spec("alphabeta:eval=plain", &[("depth".into(), "8".into())], None).unwrap();
    assert_eq!(game.search(&start, &spec, 1).unwrap().best_move, "take3");

    let mut state = game.apply(&start, "take3").unwrap();
    assert!(game.apply(&state, "take4").is_err());
    assert!(game.parse_state("9 0").is_err(), "more stones than the game has");
    while !game.is_terminal(&state).unwrap() {
        state = game.apply_index(&state, 0).unwrap();
    }
    assert_eq!(game.current_player(&state).unwrap(), TERMINAL);
    assert_eq!(game.returns(&state).unwrap(), [1.0, 0.0], "{}", game.format_state(&state).unwrap());
    let again = game.parse_state(&game.format_state(&state).unwrap()).unwrap();
    assert!(game.equal(&state, &again).unwrap());

    let e = games::load_from(&registry, "nim", &GameOptions { rules: Some("x".into()), ..options });
    assert!(e.unwrap_err().to_string().contains("--rules"));
}

#[test]
fn every_bundled_game_loads_beside_the_outside_one() {
    let registry = registry();
    for name in registry.names() {
        let game = games::load_from(&registry, name, &GameOptions::default()).unwrap();
        assert!(!game.legal_moves(&game.initial_state()).unwrap().is_empty(), "{name}");
    }
    // The same search runs through the library directly and through the interface.
    let nim = Nim { stones: 10 };
    let mut direct = AlphaBeta::new();
    let budget = ply::search::Budget::depth(10);
    let report = ply::search::Agent::choose(
        &mut direct,
        &nim,
        ply::search::Position::new(&nim.initial_state()),
        &budget,
    )
    .unwrap();
    let game = games::load_from(&registry, "nim", &GameOptions::default()).unwrap();
    let spec = agent_spec("alphabeta", &[("depth".into(), "10".into())], None).unwrap();
    let found = game.search(&game.initial_state(), &spec, 1).unwrap();
    assert_eq!(found.best_move, nim.format_move(&nim.initial_state(), report.best_move));
}

#[test]
fn the_package_serves_a_registry_given_before_its_first_call() {
    games::use_registry(registry()).unwrap();
    assert!(games::names().contains(&"nim".to_string()));
    let game = games::load("nim", &GameOptions::default()).unwrap();
    assert_eq!(game.legal_moves(&game.initial_state()).unwrap().len(), 3);
    let e = games::use_registry(registry()).unwrap_err();
    assert!(e.to_string().contains("already"), "{e}");
}
