//! `tune generate` and `tune fit` on tic-tac-toe: resumable, reproducible data, and a weights
//! file the evaluation reads back.

use std::path::{Path, PathBuf};

use ply::eval::{Evaluator, Features, LinearEval, Weights};
use ply::games::{TicTacToe, TicTacToeState};
use ply::{Game, Notation, Player};
use ply_tools::registry::AgentKit;
use ply_tools::tune::generate::{self, read_games, GenerateArgs};
use ply_tools::tune::{fit, FitArgs};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ply-tune-{}-{name}", std::process::id()))
}

fn args(games: u64, threads: usize, out: &Path) -> GenerateArgs {
    GenerateArgs {
        games,
        engine: "alphabeta:depth=2".parse().unwrap(),
        random_plies: 2,
        max_plies: 400,
        label: Some("alphabeta:depth=9".parse().unwrap()),
        seed: 3,
        threads,
        out: out.to_path_buf(),
    }
}

#[test]
fn generated_games_resume_and_do_not_depend_on_threads() {
    let (game, kit) = (TicTacToe, AgentKit::default());
    let (a, b) = (temp("a.jsonl"), temp("b.jsonl"));
    let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));
    generate::run(&game, &kit, &args(6, 1, &a)).unwrap();
    let first = read_games(&a).unwrap();
    assert_eq!(first.iter().map(|g| g.game).collect::<Vec<_>>(), (0..6).collect::<Vec<_>>());
    for g in &first {
        assert!((g.rewards.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{g:?}");
        for p in &g.positions {
            let state = game.parse_state(&p.position).unwrap();
            assert_eq!(game.to_move(&state).index(), p.to_move);
            assert!(game.outcome(&state).is_none());
            // A depth-9 search solves tic-tac-toe: every label is a proven value, except
            // where the only move is answered without a search.
            let mut legal = ply::MoveList::new();
            game.generate_moves(&state, &mut legal);
            match p.search {
                Some(search) => assert!(search.abs() == generate::PROVEN || search == 0.0),
                None => assert_eq!(legal.len(), 1, "{}", p.position),
            }
        }
    }
    // A stop in the middle of a line: the cut line is dropped and its game played again.
    let text = std::fs::read_to_string(&a).unwrap();
    std::fs::write(&a, &text[..text.len() - 10]).unwrap();
    generate::run(&game, &kit, &args(10, 2, &a)).unwrap();
    let mut resumed = read_games(&a).unwrap();
    assert_eq!(resumed.len(), 10);
    assert_eq!(resumed[..5], first[..5], "finished games are kept as they were");
    // Two threads from scratch play the same games.
    generate::run(&game, &kit, &args(10, 2, &b)).unwrap();
    let mut fresh = read_games(&b).unwrap();
    resumed.sort_by_key(|g| g.game);
    fresh.sort_by_key(|g| g.game);
    assert_eq!(resumed, fresh);
    // Bad input is an error, not a panic.
    let mut bad = args(1, 0, &b);
    assert!(generate::run(&game, &kit, &bad).unwrap_err().contains("--threads"));
    bad.threads = 1;
    bad.engine = "alphabeta:eval=nosuch".parse().unwrap();
    assert!(generate::run(&game, &kit, &bad).unwrap_err().contains("--engine"));
    std::fs::write(&b, "{\"game\": 0}\nnot json\n{}\n").unwrap();
    assert!(read_games(&b).unwrap_err().contains(":1: not a game"));
    let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));
}

/// Centre, corners and edges, own minus the opponent's.
#[derive(Clone)]
struct Squares;

impl Features<TicTacToe> for Squares {
    fn count(&self) -> usize {
        3
    }
    fn name(&self, index: usize) -> String {
        ["centre", "corners", "edges"][index].to_string()
    }
    fn extract(
        &self,
        _: &TicTacToe,
        state: &TicTacToeState,
        player: Player,
        sink: &mut impl FnMut(usize, f32),
    ) {
        for sq in 0..9u8 {
            let kind = match sq {
                4 => 0,
                0 | 2 | 6 | 8 => 1,
                _ => 2,
            };
            match state.at(sq) {
                Some(p) if p == player => sink(kind, 1.0),
                Some(_) => sink(kind, -1.0),
                None => {}
            }
        }
    }
}

#[test]
fn fitted_weights_are_written_and_read_back() {
    let (game, kit) = (TicTacToe, AgentKit::default());
    let (data, out) = (temp("fit.jsonl"), temp("weights.txt"));
    let _ = std::fs::remove_file(&data);
    let mut gen = args(300, 2, &data);
    gen.label = None;
    gen.engine = "random".parse().unwrap();
    gen.random_plies = 0;
    generate::run(&game, &kit, &gen).unwrap();
    let fit_args = FitArgs {
        data: vec![data.clone()],
        out: out.to_path_buf(),
        start: None,
        epochs: 30,
        patience: 5,
        learning_rate: 0.05,
        batch: 64,
        l2: 0.0,
        holdout_every: 5,
        search_weight: 0.0,
        search_scale: 100.0,
        scale: 100.0,
        seed: 1,
    };
    fit::run(&game, &Squares, &fit_args).unwrap();
    let weights = Weights::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(weights.entries.len(), 3);
    assert!(weights.comments.iter().any(|c| c.contains("Held-out loss")));
    let eval = LinearEval::new(Squares, &weights).unwrap();
    // Between random players the centre is worth more than an edge.
    let w: Vec<f32> = weights.entries.iter().map(|e| e.1).collect();
    assert!(w[0] > w[2], "{w:?}");
    let mut state = game.initial_state();
    let centre = game.parse_move(&state, "b2").unwrap();
    game.apply(&mut state, centre);
    assert!(eval.evaluate(&game, &state, Player::FIRST) > 0);
    // Bad settings are refused.
    let mut bad = fit_args.clone();
    bad.search_weight = 2.0;
    assert!(fit::run(&game, &Squares, &bad).is_err());
    let _ = (std::fs::remove_file(&data), std::fs::remove_file(&out));
}
