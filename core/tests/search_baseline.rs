//! Baselines: the random agent is uniform-ish and reproducible; greedy takes wins in one,
//! avoids losing moves, breaks ties at random among the best moves only, and plays N-player
//! games.

use std::collections::BTreeSet;

use ply::games::{ConnectFour, TicTacToe};
use ply::search::baseline::{Greedy, RandomAgent};
use ply::search::{Agent, Budget, Position, SearchError, Value};
use ply::{Game, MoveList, Notation, Outcome, Player};

/// Plays a whole game of `game` with `agent` moving for every seat; returns the moves.
fn self_play<G: Game, A: Agent<G>>(game: &G, agent: &mut A) -> Vec<G::Move> {
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    while game.outcome(&state).is_none() {
        let r = agent.choose(game, Position::new(&state), &Budget::default()).unwrap();
        let mut legal = MoveList::new();
        game.generate_moves(&state, &mut legal);
        assert!(legal.contains(&r.best_move));
        game.apply(&mut state, r.best_move);
        moves.push(r.best_move);
    }
    moves
}

#[test]
fn random_is_reproducible() {
    let game = ConnectFour::standard();
    let a = self_play(&game, &mut RandomAgent::new(17));
    assert_eq!(a, self_play(&game, &mut RandomAgent::new(17)));
    assert!((18..40).any(|s| self_play(&game, &mut RandomAgent::new(s)) != a));
}

#[test]
fn random_plays_every_move() {
    let game = TicTacToe;
    let state = game.initial_state();
    let mut seen = BTreeSet::new();
    for seed in 0..200 {
        let mut agent = RandomAgent::new(seed);
        for _ in 0..3 {
            let r = agent.choose(&game, Position::new(&state), &Budget::default()).unwrap();
            assert_eq!(r.value, Value::Unknown);
            seen.insert(r.best_move);
        }
    }
    assert_eq!(seen, (0..9).collect());
}

#[test]
fn terminal_positions_have_no_move() {
    let game = TicTacToe;
    let over = game.parse_state("xxxoo....").unwrap();
    let pos = Position::new(&over);
    let b = Budget::default();
    assert_eq!(RandomAgent::new(0).choose(&game, pos, &b).unwrap_err(), SearchError::NoLegalMoves);
    assert_eq!(Greedy::new().choose(&game, pos, &b).unwrap_err(), SearchError::NoLegalMoves);
}

#[test]
fn greedy_takes_a_win_in_one() {
    let game = TicTacToe;
    // X X .
    // O O .
    // . . .   X to move: c3 wins (and b1, a1 would not).
    let state = game.parse_state("xx.oo....").unwrap();
    for seed in 0..20 {
        let r = Greedy::with_seed(seed).choose(&game, Position::new(&state), &Budget::default());
        let r = r.unwrap();
        assert_eq!(r.best_move, 2, "seed {seed}");
        assert_eq!(r.value, Value::Win(1));
        assert_eq!(r.nodes, 5);
    }
}

#[test]
fn greedy_breaks_ties_at_random_among_the_best() {
    let game = TicTacToe;
    // O to move after X took the centre: the corners evaluate alike, and best.
    let state = game.parse_state("....x....").unwrap();
    let mover = game.to_move(&state);
    let mut moves = MoveList::new();
    game.generate_moves(&state, &mut moves);
    let score = |mv: u8| {
        let mut s = state;
        game.apply(&mut s, mv);
        game.evaluate(&s, mover)
    };
    let best = moves.iter().map(|&m| score(m)).max().unwrap();
    let best_moves: BTreeSet<u8> = moves.iter().copied().filter(|&m| score(m) == best).collect();
    assert!(best_moves.len() > 1, "the position must have tied best moves");
    let mut seen = BTreeSet::new();
    for seed in 0..60 {
        let r = Greedy::with_seed(seed).choose(&game, Position::new(&state), &Budget::default());
        let r = r.unwrap();
        assert_eq!(r.value, Value::Heuristic(f64::from(best)));
        seen.insert(r.best_move);
    }
    assert_eq!(seen, best_moves);
    // The same seed always makes the same choice.
    let pick = |seed| {
        let mut g = Greedy::with_seed(seed);
        g.choose(&game, Position::new(&state), &Budget::default()).unwrap().best_move
    };
    assert_eq!(pick(5), pick(5));
    let mut g = Greedy::new();
    assert_eq!(
        g.choose(&game, Position::new(&state), &Budget::default()).unwrap().best_move,
        pick(0)
    );
}

/// A three-player game given as an explicit tree: each inner node names the seat to move and
/// its children; each leaf has a score per seat.
struct TreeGame {
    nodes: Vec<(u8, Vec<u8>, [i32; 3], i32)>,
}

impl Game for TreeGame {
    type State = u8;
    type Move = u8;
    type Score = i32;
    fn initial_state(&self) -> u8 {
        0
    }
    fn num_players(&self) -> usize {
        3
    }
    fn to_move(&self, s: &u8) -> Player {
        Player::new(self.nodes[*s as usize].0 as usize)
    }
    fn generate_moves(&self, s: &u8, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.extend(self.nodes[*s as usize].1.iter().copied());
    }
    fn apply(&self, s: &mut u8, mv: u8) {
        *s = mv;
    }
    fn outcome(&self, s: &u8) -> Option<Outcome> {
        let node = &self.nodes[*s as usize];
        node.1.is_empty().then(|| Outcome::from_scores(&node.2))
    }
    /// The node's heuristic value for seat 2 (the seat that moves first here); 0 for others.
    fn evaluate(&self, s: &u8, p: Player) -> i32 {
        if p.index() == 2 {
            self.nodes[*s as usize].3
        } else {
            0
        }
    }
}

#[test]
fn greedy_plays_three_player_games() {
    // Seat 2 to move at node 0 with four moves:
    //   1: ends the game with seat 2 last        -> worst
    //   2: an inner node worth +5 to seat 2
    //   3: an inner node worth +9 to seat 2      -> best heuristic
    //   4: ends the game with seat 2 second      -> counts as 0
    let inner = |v| (0, vec![5], [0; 3], v);
    let game = TreeGame {
        nodes: vec![
            (2, vec![1, 2, 3, 4], [0; 3], 0),
            (0, vec![], [3, 2, 1], 0),
            inner(5),
            inner(9),
            (0, vec![], [3, 1, 2], 0),
            (0, vec![], [1, 1, 1], 0),
        ],
    };
    for seed in 0..10 {
        let r = Greedy::with_seed(seed).choose(&game, Position::new(&0), &Budget::default());
        assert_eq!(r.unwrap().best_move, 3, "seed {seed}");
    }
    // Without the +9 node the middle-rank ending (0) loses to +5 and beats the last place.
    let mut game = game;
    game.nodes[0].1 = vec![1, 4, 2];
    game.nodes[2].3 = -5;
    let r = Greedy::new().choose(&game, Position::new(&0), &Budget::default()).unwrap();
    assert_eq!(r.best_move, 4);
    // A sole win beats everything.
    game.nodes[1].2 = [0, 0, 7];
    let r = Greedy::new().choose(&game, Position::new(&0), &Budget::default()).unwrap();
    assert_eq!((r.best_move, r.value), (1, Value::Win(1)));
    // And random plays it too, from any seed, with only legal moves.
    for seed in 0..20 {
        let r = RandomAgent::new(seed).choose(&game, Position::new(&0), &Budget::default());
        assert!([1, 4, 2].contains(&r.unwrap().best_move));
    }
}

#[test]
fn greedy_beats_random_at_connect_four() {
    let game = ConnectFour::standard();
    let mut greedy_wins = 0;
    let games = 20;
    for g in 0..games {
        let mut greedy = Greedy::with_seed(g);
        let mut random = RandomAgent::new(g);
        let seat = Player::new(g as usize % 2);
        let mut state = game.initial_state();
        while game.outcome(&state).is_none() {
            let pos = Position::new(&state);
            let r = if game.to_move(&state) == seat {
                greedy.choose(&game, pos, &Budget::default())
            } else {
                random.choose(&game, pos, &Budget::default())
            };
            game.apply(&mut state, r.unwrap().best_move);
        }
        greedy_wins += usize::from(game.outcome(&state) == Some(Outcome::Winner(seat)));
    }
    assert!(greedy_wins >= 14, "greedy won only {greedy_wins} of {games}");
}
