//! Multiplayer search: paranoid, max^n and best-reply search against brute-force references.

use std::time::{Duration, Instant};

use ply::games::{ThreeHeaps, TicTacToe};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::multiplayer::{
    normalised_values, MultiplayerOptions, MultiplayerSearch, OpponentModel,
};
use ply::search::{Agent, Budget, Position, SearchError, Value};
use ply::testing::agreement::random_positions;
use ply::{Game, MoveList, Notation, Outcome, Player, Score};

const TEMPERATURE: f64 = 50.0;

fn moves<G: Game>(game: &G, s: &G::State) -> Vec<G::Move> {
    let mut m = MoveList::new();
    game.generate_moves(s, &mut m);
    m.to_vec()
}

fn child<G: Game>(game: &G, s: &G::State, mv: G::Move) -> G::State {
    let mut c = s.clone();
    game.apply(&mut c, mv);
    c
}

fn terminal(o: &Outcome, root: Player, ply: u32) -> i32 {
    match o.margin(root).signum() {
        1 => i32::win_in(ply),
        -1 => -i32::win_in(ply),
        _ => 0,
    }
}

/// Plain paranoid minimax: the root player maximises, everybody else minimises.
fn paranoid<G: Game<Score = i32>>(g: &G, s: &G::State, depth: u32, ply: u32, root: Player) -> i32 {
    if let Some(o) = g.outcome(s) {
        return terminal(&o, root, ply);
    }
    if depth == 0 {
        return g.evaluate(s, root);
    }
    let values =
        moves(g, s).into_iter().map(|m| paranoid(g, &child(g, s, m), depth - 1, ply + 1, root));
    if g.to_move(s) == root {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// Plain best-reply search (BRS+ form) at a position where `root` moves.
fn brs<G: Game<Score = i32>>(g: &G, s: &G::State, depth: u32, ply: u32, root: Player) -> i32 {
    if let Some(o) = g.outcome(s) {
        return terminal(&o, root, ply);
    }
    if depth == 0 {
        return g.evaluate(s, root);
    }
    moves(g, s)
        .into_iter()
        .filter_map(|m| layer(g, &child(g, s, m), depth - 1, ply + 1, root, false, false))
        .max()
        .unwrap()
}

/// The opponents' layer: one opponent replies with any move, the others play their first.
fn layer<G: Game<Score = i32>>(
    g: &G,
    s: &G::State,
    depth: u32,
    ply: u32,
    root: Player,
    replied: bool,
    entered: bool,
) -> Option<i32> {
    if let Some(o) = g.outcome(s) {
        return Some(terminal(&o, root, ply));
    }
    if g.to_move(s) == root {
        return match (entered, replied) {
            (false, _) => Some(brs(g, s, depth, ply, root)),
            (true, true) => Some(brs(g, s, depth - 1, ply, root)),
            (true, false) => None,
        };
    }
    if !entered && depth == 0 {
        return Some(g.evaluate(s, root));
    }
    let ms = moves(g, s);
    let mut lines: Vec<(G::Move, bool)> = Vec::new();
    if !replied {
        lines.extend(ms.iter().map(|&m| (m, true)));
    }
    lines.push((ms[0], replied));
    lines
        .into_iter()
        .filter_map(|(m, r)| layer(g, &child(g, s, m), depth, ply + 1, root, r, true))
        .min()
}

/// Plain max^n: the player to move takes the first child with the largest own share.
fn maxn<G: Game>(g: &G, s: &G::State, depth: u32) -> Vec<f64> {
    if depth == 0 || g.outcome(s).is_some() {
        return normalised_values(g, s, TEMPERATURE).to_vec();
    }
    let me = g.to_move(s).index();
    let mut best: Option<Vec<f64>> = None;
    for m in moves(g, s) {
        let v = maxn(g, &child(g, s, m), depth - 1);
        match &best {
            Some(b) if b[me] >= v[me] => {}
            _ => best = Some(v),
        }
    }
    best.unwrap()
}

/// The report's form of a reference score (a draw and a heuristic zero compare equal).
fn as_value(v: i32) -> Value {
    match v.plies_to_end() {
        Some(n) if v > 0 => Value::Win(n),
        Some(n) => Value::Loss(n),
        None => Value::Heuristic(f64::from(v)),
    }
}

fn normal(v: Value) -> Value {
    if v == Value::Draw {
        Value::Heuristic(0.0)
    } else {
        v
    }
}

fn option_sets() -> Vec<MultiplayerOptions> {
    let base = MultiplayerOptions { tt_mb: 1, temperature: TEMPERATURE, ..Default::default() };
    vec![
        base.clone(),
        MultiplayerOptions { tt: false, killers: false, history: false, ..base.clone() },
        MultiplayerOptions { shallow_pruning: false, history: false, ..base },
    ]
}

/// Checks every model and option set against the references on `positions` at `depths`.
fn check_models<G: Game<Score = i32>>(game: &G, positions: &[G::State], depths: &[u32]) {
    let models = [OpponentModel::Paranoid, OpponentModel::BestReply, OpponentModel::MaxN];
    let mut engines: Vec<(OpponentModel, MultiplayerOptions, MultiplayerSearch)> = Vec::new();
    for options in option_sets() {
        for model in models {
            let engine = MultiplayerSearch::new(model).with_options(options.clone());
            engines.push((model, options.clone(), engine));
        }
    }
    for s in positions {
        let ms = moves(game, s);
        if ms.len() < 2 {
            continue;
        }
        let root = game.to_move(s);
        let at = |m| child(game, s, m);
        for &depth in depths {
            // The reference value, and the reference values of every root move.
            let paranoid_value = paranoid(game, s, depth, 0, root);
            let brs_value = brs(game, s, depth, 0, root);
            let maxn_value = maxn(game, s, depth)[root.index()];
            for (model, options, engine) in engines.iter_mut() {
                let r = engine.choose(game, Position::new(s), &Budget::depth(depth)).unwrap();
                let ctx = format!("{model:?} {options:?} depth {depth} at {s:?}");
                let m = r.best_move;
                match model {
                    OpponentModel::MaxN => {
                        assert_eq!(r.value, Value::Reward(maxn_value), "{ctx}");
                        let mine = maxn(game, &at(m), depth - 1)[root.index()];
                        assert_eq!(mine, maxn_value, "best move {m:?}: {ctx}");
                    }
                    OpponentModel::Paranoid => {
                        assert_eq!(normal(r.value), as_value(paranoid_value), "{ctx}");
                        let mine = paranoid(game, &at(m), depth - 1, 1, root);
                        assert_eq!(mine, paranoid_value, "best move {m:?}: {ctx}");
                    }
                    OpponentModel::BestReply => {
                        assert_eq!(normal(r.value), as_value(brs_value), "{ctx}");
                        let mine = layer(game, &at(m), depth - 1, 1, root, false, false);
                        assert_eq!(mine, Some(brs_value), "best move {m:?}: {ctx}");
                    }
                }
            }
        }
    }
}

#[test]
fn three_player_models_match_brute_force() {
    let game = ThreeHeaps::new([4, 5, 6]).unwrap();
    let positions = random_positions(&game, 12, 8, 3);
    assert!(positions.len() >= 10);
    check_models(&game, &positions[..6], &[1, 2, 3, 4, 5]);
    // Late positions, searched to the end.
    let late = random_positions(&game, 12, 12, 4);
    let objects = |s: &_| -> u32 {
        let text = game.format_state(s);
        text.split(';').next().unwrap().split(',').map(|n| n.parse::<u32>().unwrap()).sum()
    };
    let late: Vec<_> = late.into_iter().filter(|s| objects(s) <= 7).collect();
    assert!(late.len() >= 3);
    check_models(&game, &late, &[16]);
}

#[test]
fn three_player_models_solve_small_games_exactly() {
    let game = ThreeHeaps::new([2, 3, 3]).unwrap();
    let s = game.initial_state();
    check_models(&game, &[s], &[12]);
    let r = MultiplayerSearch::new(OpponentModel::Paranoid)
        .with_tt_mb(1)
        .choose(&game, Position::new(&s), &Budget::depth(12))
        .unwrap();
    assert!(matches!(r.value, Value::Win(_) | Value::Loss(_) | Value::Draw), "{:?}", r.value);
}

#[test]
fn two_player_models_equal_alpha_beta() {
    let game = TicTacToe;
    let positions = random_positions(&game, 15, 5, 1);
    check_models(&game, &positions, &[1, 2, 3, 5]);
    for s in &positions {
        if moves(&game, s).len() < 2 {
            continue;
        }
        let plain = AlphaBetaOptions::plain();
        let ab = AlphaBeta::with_options(plain).choose(&game, Position::new(s), &Budget::depth(3));
        // With two players a best-reply layer is one opponent move, so both are alpha-beta.
        for model in [OpponentModel::Paranoid, OpponentModel::BestReply] {
            let mut engine = MultiplayerSearch::new(model).with_tt_mb(1);
            let r = engine.choose(&game, Position::new(s), &Budget::depth(3)).unwrap();
            assert_eq!(normal(r.value), normal(ab.as_ref().unwrap().value), "{model:?} {s:?}");
        }
    }
}

#[test]
fn shallow_pruning_prunes_and_keeps_the_value() {
    // Pruning needs shares that sum past 1 for two players, which finished games give.
    let game = ThreeHeaps::new([2, 3, 3]).unwrap();
    let s = game.initial_state();
    let run = |pruning: bool| {
        let options =
            MultiplayerOptions { shallow_pruning: pruning, tt: false, ..Default::default() };
        MultiplayerSearch::new(OpponentModel::MaxN)
            .with_options(options)
            .choose(&game, Position::new(&s), &Budget::depth(8))
            .unwrap()
    };
    let (with, without) = (run(true), run(false));
    assert_eq!(with.value, without.value);
    assert!(with.nodes < without.nodes, "{} vs {}", with.nodes, without.nodes);
}

#[test]
fn budgets_are_respected() {
    let game = ThreeHeaps::new([20, 20, 20]).unwrap();
    let s = game.initial_state();
    for model in [OpponentModel::Paranoid, OpponentModel::MaxN, OpponentModel::BestReply] {
        let mut engine = MultiplayerSearch::new(model).with_tt_mb(1);
        // The bound is on the search, not on the scheduler: on a loaded machine one of three
        // runs must keep it.
        let times: Vec<Duration> = (0..3)
            .map(|_| {
                let start = Instant::now();
                let budget = Budget::time(Duration::from_millis(40));
                let r = engine.choose(&game, Position::new(&s), &budget).unwrap();
                assert!(r.depth >= 1);
                start.elapsed()
            })
            .collect();
        assert!(times.iter().any(|&t| t < Duration::from_millis(60)), "{model:?}: {times:?}");
        let a = engine.choose(&game, Position::new(&s), &Budget::nodes(5000)).unwrap();
        let b = engine.choose(&game, Position::new(&s), &Budget::nodes(5000)).unwrap();
        assert!(a.nodes <= 5000);
        assert_eq!((a.best_move, a.value, &a.pv), (b.best_move, b.value, &b.pv));
    }
}

#[test]
fn single_move_and_finished_games() {
    let game = ThreeHeaps::standard();
    let one = game.parse_state("0,0,1;3,4,5;2").unwrap();
    let mut engine = MultiplayerSearch::new(OpponentModel::MaxN).with_tt_mb(1);
    let r = engine.choose(&game, Position::new(&one), &Budget::depth(3)).unwrap();
    assert_eq!((r.best_move, r.value, r.nodes), ((2, 1), Value::Unknown, 0));
    let mut over = one;
    game.apply(&mut over, (2, 1));
    let err = engine.choose(&game, Position::new(&over), &Budget::depth(3)).unwrap_err();
    assert_eq!(err, SearchError::NoLegalMoves);
}

/// Prints nodes per second (run in release with `--nocapture` for meaningful figures).
#[test]
fn measure_nodes_per_second() {
    let game = ThreeHeaps::new([8, 8, 8]).unwrap();
    let s = game.initial_state();
    for (model, depth) in
        [(OpponentModel::Paranoid, 7), (OpponentModel::MaxN, 6), (OpponentModel::BestReply, 7)]
    {
        let mut engine = MultiplayerSearch::new(model);
        engine.prepare::<ThreeHeaps>();
        let r = engine.choose(&game, Position::new(&s), &Budget::depth(depth)).unwrap();
        println!(
            "three heaps 8,8,8, {model:?}: depth {}, {} nodes in {:.1} ms, {:.0} nodes/s",
            r.depth,
            r.nodes,
            r.elapsed.as_secs_f64() * 1e3,
            r.nps()
        );
    }
}

#[test]
fn iterations_are_reported() {
    use std::sync::{Arc, Mutex};
    let game = ThreeHeaps::standard();
    let s = game.initial_state();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let mut engine = MultiplayerSearch::new(OpponentModel::MaxN).with_tt_mb(1).with_info(Box::new(
        move |info| {
            let pv = info.pv::<(u8, u8)>().unwrap();
            log.lock().unwrap().push((info.depth, pv.len()));
        },
    ));
    let r = engine.choose(&game, Position::new(&s), &Budget::depth(3)).unwrap();
    assert_eq!(*seen.lock().unwrap(), vec![(1, 1), (2, 2), (3, 3)]);
    assert_eq!(r.pv.len(), 3);
}
