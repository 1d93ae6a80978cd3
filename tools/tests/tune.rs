//! `tune generate`, `tune merge` and `tune fit` on tic-tac-toe: resumable, shardable,
//! reproducible data without duplicate positions, and a weights file the evaluation reads
//! back.

use std::path::{Path, PathBuf};

use ply::eval::{Evaluator, Features, LinearEval, Weights};
use ply::games::{TicTacToe, TicTacToeState};
use ply::{Game, Notation, Player};
use ply_tools::registry::AgentKit;
use ply_tools::tune::data::{self, DataReader, GameBlock, StateCodec, RESULT_SCALE};
use ply_tools::tune::generate::{self, GenerateArgs};
use ply_tools::tune::{fit, FitArgs};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ply-tune-{}-{name}", std::process::id()))
}

fn args(games: u64, threads: usize, out: &Path) -> GenerateArgs {
    GenerateArgs {
        games,
        engine: "alphabeta:depth=2".parse().unwrap(),
        random_plies: 2,
        random_rate: 0.1,
        max_plies: 400,
        label: Some("alphabeta:depth=9".parse().unwrap()),
        seed: 3,
        threads,
        shard: None,
        out: out.to_path_buf(),
    }
}

fn run(args: &GenerateArgs) -> Result<(), ply_tools::error::ToolError> {
    generate::run(&TicTacToe, "tictactoe", &AgentKit::default(), StateCodec::packed(), args)
}

fn blocks(path: &Path) -> Vec<GameBlock> {
    let mut blocks = DataReader::open(path).unwrap().blocks().unwrap();
    blocks.sort_by_key(|b| b.game);
    blocks
}

#[test]
fn generated_games_resume_shard_and_do_not_depend_on_threads() {
    let game = TicTacToe;
    let codec = StateCodec::<TicTacToe>::packed();
    let [a, b, s1, s2, merged] =
        ["a", "b", "s1", "s2", "merged"].map(|n| temp(&format!("{n}.plyd")));
    for f in [&a, &b, &s1, &s2, &merged] {
        let _ = std::fs::remove_file(f);
    }
    run(&args(6, 1, &a)).unwrap();
    let first = blocks(&a);
    assert_eq!(first.iter().map(|g| g.game).collect::<Vec<_>>(), (0..6).collect::<Vec<_>>());
    let mut keys = std::collections::HashSet::new();
    for block in &first {
        for sample in &block.samples {
            assert!(keys.insert(sample.key()), "each position once");
            let state = codec.decode(&game, &sample.state).unwrap();
            assert!(game.outcome(&state).is_none());
            assert!([0, RESULT_SCALE / 2, RESULT_SCALE].contains(&sample.result));
            // A depth-9 search solves tic-tac-toe: every label is a proven value or a draw,
            // except where the only move is answered without a search.
            let mut legal = ply::MoveList::new();
            game.generate_moves(&state, &mut legal);
            match sample.search() {
                Some(s) => assert!(s.is_infinite() || s == 0.0, "{}", game.format_state(&state)),
                None => assert_eq!(legal.len(), 1, "{}", game.format_state(&state)),
            }
        }
    }
    // A stop in the middle of a block: the cut block is dropped and its game played again.
    let bytes = std::fs::read(&a).unwrap();
    std::fs::write(&a, &bytes[..bytes.len() - 2]).unwrap();
    run(&args(10, 2, &a)).unwrap();
    let resumed = blocks(&a);
    assert_eq!(resumed.len(), 10);
    assert_eq!(resumed[..5], first[..5], "finished games are kept as they were");
    // Two threads from scratch play the same games, and so do two shards merged (the
    // positions each game keeps depend on which games came first, the set does not).
    run(&args(10, 2, &b)).unwrap();
    let fresh = blocks(&b);
    let games = |bs: &[GameBlock]| bs.iter().map(|b| b.game).collect::<Vec<_>>();
    let positions = |bs: &[GameBlock]| {
        let mut keys: Vec<u64> =
            bs.iter().flat_map(|b| b.samples.iter().map(|s| s.key())).collect();
        keys.sort_unstable();
        keys
    };
    assert_eq!(games(&resumed), games(&fresh));
    assert_eq!(positions(&resumed), positions(&fresh));
    run(&GenerateArgs { shard: Some((1, 2)), ..args(10, 1, &s1) }).unwrap();
    run(&GenerateArgs { shard: Some((2, 2)), ..args(10, 1, &s2) }).unwrap();
    assert_eq!(games(&blocks(&s1)), [0, 2, 4, 6, 8]);
    let (n, _) = data::merge(&[s1.clone(), s2.clone()], &merged).unwrap();
    assert_eq!(n, 10);
    assert_eq!(positions(&blocks(&merged)), positions(&fresh));
    // Bad input is an error, not a panic.
    let mut bad = args(1, 0, &b);
    assert!(run(&bad).unwrap_err().to_string().contains("--threads"));
    bad.threads = 1;
    bad.engine = "alphabeta:eval=nosuch".parse().unwrap();
    let e = run(&bad).unwrap_err();
    assert!(e.to_string().contains("unknown evaluation \"nosuch\""), "{e}");
    assert_eq!(e.kind(), ply_tools::error::ErrorKind::Spec);
    let text = generate::run(
        &game,
        "tictactoe",
        &AgentKit::default(),
        StateCodec::text(),
        &args(1, 1, &b),
    );
    assert!(text.unwrap_err().to_string().contains("not tictactoe (0 bytes a state)"));
    std::fs::write(&b, "{\"game\": 0}\n").unwrap();
    assert!(DataReader::open(&b).err().unwrap().to_string().contains("not a ply data file"));
    assert!(data::merge(std::slice::from_ref(&a), &a)
        .unwrap_err()
        .to_string()
        .contains("both an input and the output"));
    for f in [&a, &b, &s1, &s2, &merged] {
        let _ = std::fs::remove_file(f);
    }
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

/// `tune fit` over `data` into `out`: 30 epochs of minibatches of 64, about one game in five held
/// out, labels from the results alone.
fn fit_args(data: &Path, out: &Path) -> FitArgs {
    FitArgs {
        data: vec![data.to_path_buf()],
        out: out.to_path_buf(),
        features: None,
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
    }
}

#[test]
fn fitted_weights_are_written_and_read_back() {
    let game = TicTacToe;
    let (data, out) = (temp("fit.plyd"), temp("weights.txt"));
    let _ = std::fs::remove_file(&data);
    let mut gen = args(300, 2, &data);
    gen.label = None;
    gen.engine = "random".parse().unwrap();
    gen.random_plies = 0;
    run(&gen).unwrap();
    let fit_args = fit_args(&data, &out);
    fit::run(&game, StateCodec::packed(), &Squares, &fit_args).unwrap();
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
    assert!(fit::run(&game, StateCodec::packed(), &Squares, &bad).is_err());
    // A fit that diverges writes nothing.
    let diverging = FitArgs { learning_rate: 1e300, out: temp("diverged.txt"), ..fit_args.clone() };
    let e = fit::run(&game, StateCodec::packed(), &Squares, &diverging).unwrap_err();
    assert!(e.to_string().contains("nothing written"), "{e}");
    assert!(!diverging.out.exists());
    // A start weight far beyond the logistic model's range is refused.
    let mut huge = weights.clone();
    huge.entries[0].1 = 1e12;
    let start = temp("huge-start.txt");
    std::fs::write(&start, huge.to_text()).unwrap();
    let from_huge = FitArgs { start: Some(start.clone()), ..fit_args.clone() };
    let e = fit::run(&game, StateCodec::packed(), &Squares, &from_huge).unwrap_err();
    assert!(e.to_string().contains("start weight must lie within"), "{e}");
    // A start file naming some of the features starts the others at 0; one naming a feature
    // the set lacks is refused.
    std::fs::write(&start, "centre 0.5\n").unwrap();
    fit::run(&game, StateCodec::packed(), &Squares, &from_huge).unwrap();
    let refit = Weights::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(refit.entries.len(), 3);
    std::fs::write(&start, "centre 0.5\nsides 1\n").unwrap();
    let e = fit::run(&game, StateCodec::packed(), &Squares, &from_huge).unwrap_err();
    assert!(e.to_string().contains("sides, which is not a feature"), "{e}");
    let _ = (std::fs::remove_file(&data), std::fs::remove_file(&start));
    searches_with_the_weights_file(&out);
    let _ = std::fs::remove_file(&out);
}

/// The centre alone: a second feature set for tic-tac-toe.
#[derive(Clone)]
struct CentreOnly;

impl Features<TicTacToe> for CentreOnly {
    fn count(&self) -> usize {
        1
    }
    fn name(&self, _: usize) -> String {
        "centre_only".to_string()
    }
    fn extract(
        &self,
        _: &TicTacToe,
        s: &TicTacToeState,
        p: Player,
        sink: &mut impl FnMut(usize, f32),
    ) {
        match s.at(4) {
            Some(q) if q == p => sink(0, 1.0),
            Some(_) => sink(0, -1.0),
            None => {}
        }
    }
}

/// Agent specs search with a `tune fit` file (`weights=FILE`) over whichever of the game's
/// feature sets its names match, and `tune fit --features NAME` picks the set to fit.
fn searches_with_the_weights_file(squares: &Path) {
    use ply::search::{Budget, Position};
    use ply_tools::registry::{GameEntry, GameOptions, RegisteredGame};
    use ply_tools::tune::TuneCommand;
    let game = TicTacToe;
    let entry = GameEntry::new("ttt", "tic-tac-toe", |_| Ok(TicTacToe))
        .features(Squares)
        .features_named("centre", CentreOnly);
    let kit = entry.kit_for(&game, &GameOptions::default());
    let spec = |text: String| text.parse::<ply_tools::spec::AgentSpec>().unwrap();
    let centre = temp("centre-only.txt");
    std::fs::write(&centre, "# scale 100\ncentre_only 50\n").unwrap();
    let other = temp("other-weights.txt");
    std::fs::write(&other, "# scale 100\nedges_only 1\n").unwrap();
    let (squares, centre_text) = (squares.display().to_string(), centre.display().to_string());
    // Both files are searched with; x to move wins at once on the top row.
    let won = game.parse_state("xx.oo....").unwrap();
    for file in [&squares, &centre_text] {
        let mut agent = kit.build(&spec(format!("alphabeta:depth=3,weights={file}")), 1).unwrap();
        let report = agent.choose(&game, Position::new(&won), &Budget::depth(3)).unwrap();
        assert_eq!(game.format_move(&won, report.best_move), game.format_move(&won, 2), "{file}");
    }
    let refused = |text: String| kit.build(&spec(text), 1).err().expect("refused").to_string();
    let other_text = other.display().to_string();
    for (text, key, says) in [
        (format!("alphabeta:weights={squares}.missing"), "weights", "missing"),
        (format!("alphabeta:weights={other_text}"), "weights", "not the learned features"),
        (format!("alphabeta:weights={other_text}"), "weights", "not the centre features"),
        (format!("alphabeta:weights={squares},eval=default"), "weights", "one of eval="),
        (format!("alphabeta:weights={squares},net={squares}"), "net", "one of eval="),
    ] {
        let e = refused(text.clone());
        assert!(e.contains(says) && e.starts_with(key), "{text}: {e}");
    }
    let plain = GameEntry::new("ttt", "tic-tac-toe", |_| Ok(TicTacToe));
    let e = plain.kit.build(&spec(format!("alphabeta:weights={squares}")), 1).err().unwrap();
    assert!(e.to_string().contains("lists no evaluation features"), "{e}");
    // `tune fit --features` names a set the game lists, or is refused with the list.
    let set_args = |features: &str| FitArgs {
        features: Some(features.to_string()),
        epochs: 1,
        ..fit_args(&temp("no-such-data.plyd"), &temp("never-written.txt"))
    };
    let options = GameOptions::default();
    let e = entry.tune(&options, &TuneCommand::Fit(set_args("corners"))).unwrap_err().to_string();
    assert!(e.contains("no feature set \"corners\"") && e.contains("learned, centre"), "{e}");
    // A set it lists gets as far as reading the data.
    let e = entry.tune(&options, &TuneCommand::Fit(set_args("centre"))).unwrap_err().to_string();
    assert!(e.contains("no-such-data"), "{e}");
    let _ = (std::fs::remove_file(&centre), std::fs::remove_file(&other));
}

/// A mark of the player to move or of the other on each square: 18 inputs, one bucket.
#[derive(Clone)]
struct Marks;

impl ply::eval::net::NetInputs<TicTacToe> for Marks {
    fn inputs(&self) -> usize {
        18
    }
    fn buckets(&self) -> usize {
        1
    }
    fn active(&self, game: &TicTacToe, s: &TicTacToeState, sink: &mut impl FnMut(usize)) -> usize {
        let me = game.to_move(s);
        for sq in 0..9u8 {
            match s.at(sq) {
                Some(p) if p == me => sink(usize::from(sq)),
                Some(_) => sink(9 + usize::from(sq)),
                None => {}
            }
        }
        0
    }
}

#[test]
fn a_trained_network_is_written_and_read_back() {
    use ply::eval::net::{NetEval, Network};
    use ply_tools::tune::train::{self, TrainArgs};
    let game = TicTacToe;
    let (data, out) = (temp("train.plyd"), temp("net.bin"));
    let _ = std::fs::remove_file(&data);
    let mut gen = args(400, 2, &data);
    gen.engine = "random".parse().unwrap();
    gen.random_plies = 0;
    run(&gen).unwrap();
    let train_args = TrainArgs {
        data: vec![data.clone()],
        out: out.clone(),
        start: None,
        hidden: 16,
        buckets: None,
        epochs: 40,
        patience: 40,
        learning_rate: 0.01,
        batch: 64,
        search_weight: 1.0,
        search_scale: 100.0,
        holdout_every: 5,
        threads: 2,
        max_positions: None,
        seed: 1,
    };
    train::run(&game, StateCodec::packed(), &Marks, &train_args).unwrap();
    let net = Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!((net.inputs, net.hidden, net.buckets), (18, 16, 1));
    // Labelled by a perfect search: a won position scores above a lost one.
    let eval = NetEval::new(Marks, &net, 100.0).unwrap();
    let won = game.parse_state("xx.oo....").unwrap(); // x to move, wins at once
    let lost = game.parse_state("xox.x..o.").unwrap(); // o to move, x threatens twice
    let score = |s: &TicTacToeState| eval.evaluate(&game, s, game.to_move(s));
    assert!(score(&won) > 0 && score(&lost) < 0, "{} {}", score(&won), score(&lost));
    // Bad settings are refused.
    let mut bad = train_args.clone();
    bad.search_weight = 2.0;
    assert!(train::run(&game, StateCodec::packed(), &Marks, &bad).is_err());
    // Inputs of one phase split refuse more buckets, from random weights or from a start.
    for start in [None, Some(out.clone())] {
        let more = TrainArgs { buckets: Some(2), start, ..train_args.clone() };
        let e = train::run(&game, StateCodec::packed(), &Marks, &more).unwrap_err().to_string();
        assert!(e.contains("do not split into 2 phase buckets"), "{e}");
    }

    // Agent specs search with the file (`net=FILE`): the win in one is found.
    use ply::search::{Budget, Position};
    use ply_tools::registry::{GameEntry, GameOptions};
    let entry = GameEntry::new("ttt", "tic-tac-toe", |_| Ok(TicTacToe)).net_inputs(|_| Marks);
    let kit = entry.kit_for(&game, &GameOptions::default());
    let spec = |text: String| text.parse::<ply_tools::spec::AgentSpec>().unwrap();
    let out_text = out.display().to_string();
    let mut agent = kit.build(&spec(format!("alphabeta:depth=3,net={out_text}")), 1).unwrap();
    let report = agent.choose(&game, Position::new(&won), &Budget::depth(3)).unwrap();
    assert_eq!(game.format_move(&won, report.best_move), game.format_move(&won, 2));
    // A file that is missing, not a network, or a network of other inputs is refused by name.
    let refused = |text: String| kit.build(&spec(text), 1).err().expect("refused").to_string();
    let data_text = data.display().to_string();
    let other = temp("other-net.bin");
    std::fs::write(&other, Network::random(30, 8, 1, 2).to_bytes()).unwrap();
    let other_text = other.display().to_string();
    for (text, says) in [
        (format!("alphabeta:net={out_text}.missing"), "missing"),
        (format!("alphabeta:net={data_text}"), "not a network file"),
        (format!("alphabeta:net={other_text}"), "30 inputs"),
        (format!("alphabeta:net={out_text},eval=default"), "one of eval="),
    ] {
        let e = refused(text.clone());
        assert!(e.contains(says) && e.starts_with("net"), "{text}: {e}");
    }
    let plain = GameEntry::new("ttt", "tic-tac-toe", |_| Ok(TicTacToe));
    let e = plain.kit.build(&spec(format!("alphabeta:net={out_text}")), 1).err().unwrap();
    assert!(e.to_string().contains("no network inputs"), "{e}");
    let _ = (std::fs::remove_file(&data), std::fs::remove_file(&out), std::fs::remove_file(&other));
}
