//! Cross-game speed: perft, alpha-beta (paranoid and max^n for three or four players) and MCTS
//! on every bundled game, through the generic `Game` and `Agent` interfaces only, so the
//! figures compare games and algorithms on equal terms.
//!
//! Benchmarks are named `<game>/<algorithm>/<position>/<budget>`, so
//! `cargo bench --bench games -- reversi` runs every Reversi benchmark and
//! `cargo bench --bench games -- /mcts/` every MCTS one. The positions are the start and a
//! middle-game position reached by [`MIDDLE_PLIES`] seeded random moves (see [`middle`]).
//!
//! Throughput is leaves per second for perft, nodes per second for alpha-beta and the
//! multiplayer searches (the node count of the search's own report) and iterations per second
//! for MCTS. Every answer is computed once before timing; perft counts are checked against the
//! published figures where `REFERENCE.md` gives them, and inside the timed loop as well.

use criterion::measurement::WallTime;
use criterion::{black_box, criterion_main, BenchmarkGroup, Criterion, SamplingMode, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

use ply::games::ConnectFour;
use ply::search::alphabeta::AlphaBeta;
use ply::search::mcts::Mcts;
use ply::search::multiplayer::{MultiplayerSearch, OpponentModel};
use ply::search::{Agent, Budget, Position};
use ply::{perft, Game, MoveList, PerftMode};
use ply_checkers::{EnglishCheckers, Rules};
use ply_draughts::InternationalDraughts;
use ply_impasse::Impasse;
use ply_reversi::Reversi;

/// Plies of random moves from the start to the middle-game position.
const MIDDLE_PLIES: usize = 20;

/// English checkers, standard rules, perft from the start (Aart Bik), depths 0..=9.
const CHECKERS_STANDARD: [u64; 10] =
    [1, 7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_680];

/// International draughts perft from the start, duplicate captures counted once (Aart Bik),
/// depths 0..=8.
const DRAUGHTS: [u64; 9] = [1, 9, 81, 658, 4_265, 27_117, 167_140, 1_049_442, 6_483_961];

/// Othello perft from the start, a forced pass counted as a move (Aart Bik), depths 0..=9.
const OTHELLO: [u64; 10] = [1, 4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288];

/// The fixed work of one game's benchmarks.
struct Plan {
    /// Perft depth from the start.
    perft_depth: u32,
    /// The published perft count at that depth, if there is one.
    published: Option<u64>,
    /// Alpha-beta (two players) or paranoid (more) depth from the start and from the
    /// middle-game position.
    search_depth: [u32; 2],
    /// Max^n depth from the start and from the middle-game position (unused with two players).
    maxn_depth: [u32; 2],
    /// MCTS iterations from the start and from the middle-game position.
    mcts_iterations: [u64; 2],
}

/// A group of ten samples with the same iteration count each (every benchmark here runs for
/// milliseconds to tens of milliseconds), so the whole bench takes a few minutes.
fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    group
}

/// The position after [`MIDDLE_PLIES`] uniformly random moves from the start: seeds 1, 2, ...
/// of a ChaCha8 generator are tried in turn until a game is still going after those plies and
/// has a choice of at least two moves.
fn middle<G: Game>(game: &G) -> G::State {
    let mut moves = MoveList::new();
    'seeds: for seed in 1.. {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = game.initial_state();
        for _ in 0..MIDDLE_PLIES {
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                continue 'seeds;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.apply(&mut state, mv);
        }
        game.generate_moves(&state, &mut moves);
        if game.outcome(&state).is_none() && moves.len() >= 2 {
            return state;
        }
    }
    unreachable!("some seed reaches a middle-game position")
}

/// Perft from the start at `depth`, checked against `published` when given.
fn bench_perft<G: Game>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    game: &G,
    depth: u32,
    published: Option<u64>,
) {
    let start = game.initial_state();
    let leaves = perft(game, &start, depth, PerftMode::Bulk);
    if let Some(expected) = published {
        assert_eq!(leaves, expected, "perft({depth}) against the published count");
    }
    assert!(leaves > 0, "perft({depth}) finds leaves");
    group.throughput(Throughput::Elements(leaves));
    group.bench_function(format!("perft/start/depth{depth}"), |b| {
        b.iter(|| {
            let n = perft(game, black_box(&start), depth, PerftMode::Bulk);
            assert_eq!(n, leaves);
            n
        })
    });
}

/// A fixed-depth search by `agent` of `state`, with the node count of a first search as
/// throughput. The agent forgets its table before every search.
fn bench_depth<G: Game, A: Agent<G>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    game: &G,
    mut agent: A,
    id: String,
    state: &G::State,
    depth: u32,
) {
    let budget = Budget::depth(depth);
    let report = agent.choose(game, Position::new(state), &budget).expect("a legal move");
    assert!(report.nodes > 0, "{id} searches");
    group.throughput(Throughput::Elements(report.nodes));
    group.bench_function(id, |b| {
        b.iter(|| {
            agent.new_game();
            agent.choose(game, Position::new(black_box(state)), &budget).map(|r| r.nodes)
        })
    });
}

/// MCTS with seed 1 for `iterations` playouts from `state`, a new tree every time.
fn bench_mcts<G: Game + Sync>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    game: &G,
    position: &str,
    state: &G::State,
    iterations: u64,
) {
    let budget = Budget::iterations(iterations);
    let search = || Mcts::new().with_seed(1).choose(game, Position::new(black_box(state)), &budget);
    let report = search().expect("a legal move");
    assert!(report.iterations > 0, "mcts on {position} runs playouts");
    group.throughput(Throughput::Elements(report.iterations));
    group.bench_function(format!("mcts/{position}/iters{iterations}"), |b| {
        b.iter(|| search().map(|r| r.iterations))
    });
}

/// Every benchmark of one game: perft, then for the start and the middle-game position
/// alpha-beta (two players) or paranoid and max^n (more players), then MCTS.
fn bench_game<G: Game + Sync>(c: &mut Criterion, name: &str, game: &G, plan: &Plan) {
    let start = game.initial_state();
    let middle_game = middle(game);
    let mut group = group(c, name);
    bench_perft(&mut group, game, plan.perft_depth, plan.published);
    for (i, (position, state)) in
        [("start", &start), ("middle", &middle_game)].into_iter().enumerate()
    {
        if game.num_players() == 2 {
            let depth = plan.search_depth[i];
            let mut agent = AlphaBeta::new();
            agent.prepare::<G>();
            let id = format!("alphabeta/{position}/depth{depth}");
            bench_depth(&mut group, game, agent, id, state, depth);
        } else {
            for (model, depth) in [
                (OpponentModel::Paranoid, plan.search_depth[i]),
                (OpponentModel::MaxN, plan.maxn_depth[i]),
            ] {
                let mut agent = MultiplayerSearch::new(model);
                agent.prepare::<G>();
                let id = format!("{model}/{position}/depth{depth}");
                bench_depth(&mut group, game, agent, id, state, depth);
            }
        }
    }
    for (i, (position, state)) in
        [("start", &start), ("middle", &middle_game)].into_iter().enumerate()
    {
        bench_mcts(&mut group, game, position, state, plan.mcts_iterations[i]);
    }
    group.finish();
}

fn connect_four(c: &mut Criterion) {
    let plan = Plan {
        perft_depth: 8,
        published: None,
        search_depth: [10, 16],
        maxn_depth: [0; 2],
        mcts_iterations: [30_000; 2],
    };
    bench_game(c, "connect_four", &ConnectFour::standard(), &plan);
}

fn english_checkers(c: &mut Criterion) {
    let game = EnglishCheckers::new(8, Rules::Standard).expect("8x8 standard");
    let plan = Plan {
        perft_depth: 9,
        published: Some(CHECKERS_STANDARD[9]),
        search_depth: [10, 10],
        maxn_depth: [0; 2],
        mcts_iterations: [5_000; 2],
    };
    bench_game(c, "english_checkers", &game, &plan);
    // The default (Deepomatic) rules have no published perft: the count computed before
    // timing is the reference.
    let deepomatic = EnglishCheckers::new(8, Rules::Deepomatic).expect("8x8 deepomatic");
    let mut group = group(c, "english_checkers_deepomatic");
    bench_perft(&mut group, &deepomatic, 9, None);
    group.finish();
}

fn international_draughts(c: &mut Criterion) {
    let plan = Plan {
        perft_depth: 8,
        published: Some(DRAUGHTS[8]),
        search_depth: [10, 8],
        maxn_depth: [0; 2],
        mcts_iterations: [5_000; 2],
    };
    bench_game(c, "international_draughts", &InternationalDraughts::new(), &plan);
}

fn impasse(c: &mut Criterion) {
    let plan = Plan {
        perft_depth: 5,
        published: None,
        search_depth: [7, 9],
        maxn_depth: [0; 2],
        mcts_iterations: [2_000; 2],
    };
    bench_game(c, "impasse", &Impasse::new(), &plan);
}

fn reversi(c: &mut Criterion) {
    let othello = Reversi::new(8, 2).expect("8x8, 2 players");
    let plan = Plan {
        perft_depth: 9,
        published: Some(OTHELLO[9]),
        search_depth: [10, 8],
        maxn_depth: [0; 2],
        mcts_iterations: [5_000; 2],
    };
    bench_game(c, "reversi_8x8_2p", &othello, &plan);
    let three = Reversi::new(9, 3).expect("9x9, 3 players");
    let plan = Plan {
        perft_depth: 6,
        published: None,
        search_depth: [6, 6],
        maxn_depth: [5, 4],
        mcts_iterations: [1_500, 2_500],
    };
    bench_game(c, "reversi_9x9_3p", &three, &plan);
    // Four players start with few moves each, so the tree is narrow and perft goes deeper.
    let four = Reversi::new(10, 4).expect("10x10, 4 players");
    let plan = Plan {
        perft_depth: 12,
        published: None,
        search_depth: [12, 7],
        maxn_depth: [9, 5],
        mcts_iterations: [1_000; 2],
    };
    bench_game(c, "reversi_10x10_4p", &four, &plan);
}

/// The `criterion_group!` function, in a private module because it has no doc comment.
mod groups {
    use super::{connect_four, english_checkers, impasse, international_draughts, reversi};
    criterion::criterion_group!(
        benches,
        connect_four,
        english_checkers,
        international_draughts,
        impasse,
        reversi
    );
}

criterion_main!(groups::benches);
