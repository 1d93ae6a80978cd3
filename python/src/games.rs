//! Every game of a registry behind one interface, for the Python API (`ply_games.load`,
//! `ply_games.search`, `ply_games.perft`): [`load`] builds the game from its registry entry
//! (so names, options and their errors are the command line's) and returns it as a
//! [`DynGame`] ([`ply_tools::dynamic`]). No code here names a game: the package serves the
//! games of [`ply_bundle::registry`], or the registry a crate of its own gives
//! [`use_registry`] before the first call (a user's game reaches Python that way).
//!
//! ```
//! use ply_games::games::{self, GameOptions};
//!
//! let options = GameOptions { size: Some("4x4".into()), ..GameOptions::default() };
//! let game = games::load("connect-four", &options)?;
//! let mut state = game.initial_state();
//! while !game.is_terminal(&state)? {
//!     state = game.apply_index(&state, 0)?;
//! }
//! assert_eq!(game.returns(&state)?.iter().sum::<f64>(), 1.0);
//! let again = game.parse_state(&game.format_state(&state)?)?;
//! assert!(game.equal(&state, &again)?);
//! # Ok::<(), ply_games::Error>(())
//! ```

use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ply_tools::play::Seat;
use ply_tools::registry::Registry;
use ply_tools::spec::{format_duration, AgentSpec};

pub use ply_tools::dynamic::view;
pub use ply_tools::dynamic::{DynGame, DynSession, Monitor, SearchResult, State, TERMINAL};
pub use ply_tools::registry::GameOptions;

use crate::checkers::parse_seconds;
use crate::{Error, Result};

/// The package's one default search time: the time per move of a search that sets no limit
/// (no depth, time, nodes or iterations), and of the checkers `play` given neither a time nor
/// a depth (the JSON mode's `--time-ms 1000`).
pub const DEFAULT_SEARCH_TIME: Duration = Duration::from_millis(1000);

/// The games the package serves: those given to [`use_registry`], else the bundled ones.
static REGISTRY: OnceLock<Registry> = OnceLock::new();

fn registry() -> &'static Registry {
    REGISTRY.get_or_init(ply_bundle::registry)
}

/// Makes the package serve the games of `registry` in place of the bundled ones
/// ([`ply_bundle::registry`]): a crate with games of its own calls it when its Python module
/// starts, before any other call.
///
/// # Errors
/// [`Error::Internal`] if the package already serves a registry (this one or the bundled
/// one, after any call that loads a game).
pub fn use_registry(registry: Registry) -> Result<()> {
    REGISTRY.set(registry).map_err(|_| {
        Error::Internal("the package already serves its games: give the registry first".into())
    })
}

/// The names of the games [`load`] knows, in the registry's order.
pub fn names() -> Vec<String> {
    registry().names().into_iter().map(String::from).collect()
}

/// The game called `name` with `options`, as the command line builds it (`--rules`, `--size`,
/// `--players`, `--variant KEY=VALUE`).
///
/// # Errors
/// [`Error::Game`] with the registry's message for an unknown game, an option the game does
/// not take, or a value it refuses.
pub fn load(name: &str, options: &GameOptions) -> Result<Arc<dyn DynGame>> {
    load_from(registry(), name, options)
}

/// [`load`] from `registry`.
///
/// # Errors
/// As [`load`].
pub fn load_from(
    registry: &Registry,
    name: &str,
    options: &GameOptions,
) -> Result<Arc<dyn DynGame>> {
    registry.get(name)?.load(options)
}

/// The agent spec for `algorithm` (a name such as `alphabeta`, or a whole spec such as
/// `mcts:iters=500`) with the extra `options` (`("depth", "4")`; see
/// [`ply_tools::spec::accepted`]) and `time` in seconds. A search that ends up with no limit
/// (no depth, time, nodes or iterations) gets [`DEFAULT_SEARCH_TIME`].
///
/// ```
/// let spec = ply_games::games::agent_spec("alphabeta", &[("depth".into(), "4".into())], None)?;
/// assert_eq!(spec.to_string(), "alphabeta:depth=4");
/// let spec = ply_games::games::agent_spec("mcts:c=2", &[], Some(0.25))?;
/// assert_eq!(spec.to_string(), "mcts:time=250ms,c=2");
/// assert_eq!(ply_games::games::agent_spec("alphabeta", &[], None)?.to_string(),
///            "alphabeta:time=1s");
/// # Ok::<(), ply_games::Error>(())
/// ```
///
/// # Errors
/// [`Error::Spec`] with the spec parser's message for an unknown agent, option or value;
/// a time that is not a positive number of seconds.
pub fn agent_spec(
    algorithm: &str,
    options: &[(String, String)],
    time: Option<f64>,
) -> Result<AgentSpec> {
    let algorithm = algorithm.trim();
    let (name, rest) = algorithm.split_once(':').unwrap_or((algorithm, ""));
    // `cmd=` takes the rest of a spec, so it goes last.
    let (rest, mut cmd) = match rest.find("cmd=") {
        Some(i) => (&rest[..i], Some(rest[i..].to_string())),
        None => (rest, None),
    };
    let mut items: Vec<String> =
        rest.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
    for (key, value) in options {
        if key == "cmd" && cmd.is_none() {
            cmd = Some(format!("cmd={value}"));
        } else {
            items.push(format!("{key}={value}"));
        }
    }
    if let Some(t) = time {
        items.push(format!("time={}", format_duration(parse_seconds(t)?)));
    }
    items.extend(cmd);
    let text =
        if items.is_empty() { name.to_string() } else { format!("{name}:{}", items.join(",")) };
    let mut spec: AgentSpec = text.parse()?;
    let unlimited =
        spec.depth.is_none() && spec.time.is_none() && spec.nodes.is_none() && spec.iters.is_none();
    if unlimited && spec.algorithm.accepts("time") {
        spec.time = Some(DEFAULT_SEARCH_TIME);
    }
    Ok(spec)
}

/// A game in play of `game` (`Game.session()` in Python): `seats` has one entry per seat,
/// `None` for a person or an agent spec (`alphabeta:depth=4`); no seats is a person in the
/// first seat and the game's engine in the others. Engines are seeded from `seed` (the
/// clock's when `None`).
///
/// ```
/// let game = ply_games::games::load("tictactoe", &Default::default())?;
/// let mut session = ply_games::games::session(&game, &[None, Some("alphabeta:depth=9".into())], Some(1))?;
/// session.play_text("b2")?;
/// let report = session.engine_move()?;
/// assert_eq!(session.view(None)?.moves.len(), 2);
/// assert!(!report.best.is_empty());
/// # Ok::<(), ply_games::Error>(())
/// ```
///
/// # Errors
/// [`Error::Spec`] for a spec that does not parse or build for this game, [`Error::Input`]
/// for a wrong number of seats.
pub fn session(
    game: &Arc<dyn DynGame>,
    seats: &[Option<String>],
    seed: Option<u64>,
) -> Result<Box<dyn DynSession>> {
    let seats = match seats.is_empty() {
        true => (0..game.num_players())
            .map(|i| match i {
                0 => Seat::Human,
                _ => Seat::Engine(game.default_engine().clone()),
            })
            .collect(),
        false => seats
            .iter()
            .map(|seat| match seat {
                None => Ok(Seat::Human),
                Some(text) => Ok(Seat::Engine(text.parse::<AgentSpec>()?)),
            })
            .collect::<Result<Vec<Seat>>>()?,
    };
    game.session(seats, seed.unwrap_or_else(clock_seed), None)
}

/// A seed for agents that are given none: the clock's nanoseconds.
pub fn clock_seed() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(pairs: &[(&str, &str)]) -> GameOptions {
        let mut o = GameOptions::default();
        for &(k, v) in pairs {
            match k {
                "rules" => o.rules = Some(v.into()),
                "size" => o.size = Some(v.into()),
                "players" => o.players = Some(v.parse().unwrap()),
                _ => o.variants.push((k.into(), v.into())),
            }
        }
        o
    }

    #[test]
    fn every_registered_game_loads() {
        let names = names();
        assert_eq!(names.len(), 9);
        for name in &names {
            let game =
                load(name, &GameOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(game.name(), name);
            let s = game.initial_state();
            assert!(!game.legal_moves(&s).unwrap().is_empty(), "{name}");
        }
    }

    #[test]
    fn random_games_end_with_sensible_returns() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            ("english-checkers", &[]),
            ("english-checkers", &[("rules", "standard"), ("size", "6")]),
            ("international-draughts", &[]),
            ("impasse", &[]),
            ("reversi", &[]),
            ("reversi", &[("size", "6"), ("players", "3")]),
            ("breakthrough", &[("size", "5x5")]),
            ("kalah", &[]),
            ("kalah", &[("pits", "4"), ("seeds", "3"), ("capture", "standard")]),
            ("tictactoe", &[]),
            ("connect-four", &[("size", "5x4"), ("connect", "3")]),
            ("three-heaps", &[("heaps", "2,3,4")]),
        ];
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
        for &(name, o) in cases {
            let game = load(name, &opts(o)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut state = game.initial_state();
            let mut plies = 0;
            while !game.is_terminal(&state).unwrap() {
                let moves = game.legal_moves(&state).unwrap();
                assert_eq!(moves.len(), game.legal_move_keys(&state).unwrap().len());
                assert!(game.current_player(&state).unwrap() >= 0);
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let i = (rng % moves.len() as u64) as usize;
                let by_index = game.apply_index(&state, i).unwrap();
                {
                    let by_text = game.apply(&state, &moves[i]).unwrap();
                    // Two moves may print alike (Impasse); the text names the first.
                    let first = moves.iter().position(|m| *m == moves[i]).unwrap();
                    assert!(game
                        .equal(&by_text, &game.apply_index(&state, first).unwrap())
                        .unwrap());
                }
                let text = game.format_state(&by_index).unwrap();
                let back = game.parse_state(&text).unwrap();
                assert_eq!(game.format_state(&back).unwrap(), text, "{name}");
                state = by_index;
                plies += 1;
                assert!(plies < 5000, "{name} does not end");
            }
            assert_eq!(game.current_player(&state).unwrap(), TERMINAL);
            let returns = game.returns(&state).unwrap();
            let n = game.num_players() as f64;
            assert!((returns.iter().sum::<f64>() - n / 2.0).abs() < 1e-9, "{name}: {returns:?}");
            assert!(returns.iter().all(|r| (0.0..=1.0).contains(r)));
        }
    }

    /// A session plays, undoes, hints, analyses and saves, every game through the same calls.
    #[test]
    fn sessions_play_every_game() {
        for name in names() {
            let game = load(&name, &GameOptions::default()).unwrap();
            let players = game.num_players();
            let mut seats = vec![None; players];
            seats[1] = Some("random:seed=4".to_string());
            let mut s = session(&game, &seats, Some(3)).unwrap();
            // The person plays until the engine's seat is to move (Kalah's extra turns).
            while s.view(None).unwrap().to_move == Some(0) {
                s.play_index(0).unwrap();
            }
            let before = s.view(None).unwrap().moves.len();
            let report = s.engine_move().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(s.view(None).unwrap().moves[before].text, report.best, "{name}");
            assert!(s.undo(), "{name}");
            assert!(s.view(None).unwrap().moves.len() < before, "{name}");
            assert!(s.redo(), "{name}");
            let played = s.view(None).unwrap().moves.len();
            let saved = s.save();
            s.new_game();
            assert_eq!(s.load(&saved.text).unwrap(), played, "{name}");
            let analysis = s.analyse(&"random:seed=1".parse().unwrap()).unwrap();
            assert_eq!((analysis.moves.len(), analysis.stopped), (played, false), "{name}");
            if s.view(None).unwrap().result.is_none() {
                assert!(s.hint().is_ok(), "{name}");
            }
        }
        let game = load("tictactoe", &GameOptions::default()).unwrap();
        let e = session(&game, &[None], None).err().unwrap();
        assert_eq!(e.kind(), ply_tools::error::ErrorKind::Input);
        let e = session(&game, &[None, Some("nonsense".into())], None).err().unwrap();
        assert_eq!(e.kind(), ply_tools::error::ErrorKind::Spec);
        let mut s = session(&game, &[], None).unwrap();
        assert!(s.view(None).unwrap().seats[1].is_some(), "the game's engine in the other seat");
        assert!(s.play_text("z9").is_err());
        assert!(s.engine_move().is_err(), "a person is to move");
    }

    #[test]
    fn states_stay_with_their_game() {
        let eight = load("english-checkers", &GameOptions::default()).unwrap();
        let ten = load("english-checkers", &opts(&[("size", "10")])).unwrap();
        let again = load("english-checkers", &GameOptions::default()).unwrap();
        let s = eight.initial_state();
        let e = ten.legal_moves(&s).unwrap_err();
        assert!(e.to_string().contains("another game"), "{e}");
        assert_eq!(again.legal_moves(&s).unwrap().len(), 7);
        let ttt = load("tictactoe", &GameOptions::default()).unwrap();
        assert!(ttt.perft(&s, 1).is_err());
    }

    #[test]
    fn errors_are_the_registrys_and_the_notations() {
        let e = load("chess", &GameOptions::default()).unwrap_err();
        assert!(e.to_string().starts_with("unknown game \"chess\"; known games: english-checkers"));
        let e = load("english-checkers", &opts(&[("rules", "turkish")])).unwrap_err();
        assert!(e.to_string().contains("--rules") && e.to_string().contains("turkish"), "{e}");
        let e = load("tictactoe", &opts(&[("size", "4")])).unwrap_err();
        assert!(e.to_string().contains("does not take --size"), "{e}");
        let game = load("english-checkers", &GameOptions::default()).unwrap();
        let s = game.initial_state();
        assert!(matches!(game.apply(&s, "11-16x"), Err(Error::Input(_))));
        assert!(matches!(game.apply(&s, "22-18"), Err(Error::Input(_))));
        assert!(matches!(game.apply_index(&s, 7), Err(Error::Input(_))));
        assert!(matches!(game.parse_state("X:W1"), Err(Error::Input(_))));
        assert!(matches!(game.evaluate(&s, 2), Err(Error::Input(_))));
        assert!(matches!(game.divide(&s, 0), Err(Error::Input(_))));
    }

    /// Searches use the opening book of the rules asked: the Deepomatic rules have one, the
    /// standard rules none, so there the engine searches.
    #[test]
    fn searches_use_the_book_of_the_rules_asked() {
        let spec = agent_spec("alphabeta", &[("depth".into(), "3".into())], None).unwrap();
        for (rules, from_book) in [("deepomatic", true), ("standard", false)] {
            let checkers = load("english-checkers", &opts(&[("rules", rules)])).unwrap();
            let r = checkers.search(&checkers.initial_state(), &spec, 1).unwrap();
            assert_eq!(r.nodes == 0, from_book, "{rules}: depth {}, nodes {}", r.depth, r.nodes);
        }
    }

    #[test]
    fn search_builds_every_kind_of_agent() {
        let checkers = load("english-checkers", &GameOptions::default()).unwrap();
        let s = checkers.initial_state();
        let legal = checkers.legal_moves(&s).unwrap();
        for (algorithm, options, time) in [
            ("alphabeta", vec![("depth", "3")], None),
            ("alphabeta", vec![], Some(0.02)),
            ("alphabeta:plain=true", vec![("depth", "2")], None),
            ("mcts", vec![("iters", "200"), ("seed", "1")], None),
            ("greedy", vec![], None),
            ("random", vec![("seed", "3")], None),
        ] {
            let options: Vec<_> =
                options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let spec = agent_spec(algorithm, &options, time).unwrap();
            let r = checkers.search(&s, &spec, 7).unwrap();
            assert_eq!(legal[r.index], r.best_move, "{algorithm}");
            assert_eq!(r.pv.first(), Some(&r.best_move), "{algorithm}");
        }
        let draughts = load("international-draughts", &GameOptions::default()).unwrap();
        let spec =
            agent_spec("alphabeta", &[("eval".into(), "material".into())], Some(0.02)).unwrap();
        draughts.search(&draughts.initial_state(), &spec, 0).unwrap();
        let spec = agent_spec("alphabeta", &[("eval".into(), "discs".into())], None).unwrap();
        let e = draughts.search(&draughts.initial_state(), &spec, 0).unwrap_err();
        assert!(e.to_string().contains("classic, material"), "{e}");
        let heaps = load("three-heaps", &GameOptions::default()).unwrap();
        let spec = agent_spec("paranoid", &[("depth".into(), "2".into())], None).unwrap();
        heaps.search(&heaps.initial_state(), &spec, 0).unwrap();
        let spec = agent_spec("alphabeta", &[("depth".into(), "2".into())], None).unwrap();
        let e = heaps.search(&heaps.initial_state(), &spec, 0).unwrap_err();
        assert!(matches!(e, Error::Input(_)), "{e}");
    }

    #[test]
    fn agent_specs_from_parts() {
        let spec = |a: &str, o: &[(&str, &str)], t| {
            let o: Vec<_> = o.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            agent_spec(a, &o, t).map(|s| s.to_string())
        };
        assert_eq!(spec("greedy", &[], None).unwrap(), "greedy");
        assert_eq!(spec("random", &[("seed", "2")], None).unwrap(), "random:seed=2");
        assert_eq!(spec("mcts", &[("iters", "50")], None).unwrap(), "mcts:iters=50");
        assert_eq!(
            spec("hub:cmd=scan hub", &[("depth", "3")], Some(1.0)).unwrap(),
            "hub:depth=3,time=1s,cmd=scan hub"
        );
        assert_eq!(
            spec("nboard", &[("cmd", "edax -x"), ("depth", "2")], None).unwrap(),
            "nboard:depth=2,cmd=edax -x"
        );
        let e = spec("alphabta", &[], None).unwrap_err();
        assert!(e.to_string().starts_with("unknown agent \"alphabta\""), "{e}");
        let e = spec("greedy", &[], Some(1.0)).unwrap_err();
        assert!(e.to_string().contains("greedy: unknown option \"time\""), "{e}");
        let e = spec("alphabeta:time=1s", &[], Some(1.0)).unwrap_err();
        assert!(e.to_string().contains("given twice"), "{e}");
        assert!(spec("alphabeta", &[], Some(-1.0)).is_err());
        assert!(spec("alphabeta", &[("depth", "0")], None).is_err());
    }

    #[test]
    fn perft_and_divide() {
        let game = load("english-checkers", &opts(&[("rules", "standard")])).unwrap();
        let s = game.initial_state();
        assert_eq!(game.perft(&s, 4).unwrap(), 1469);
        let d = game.divide(&s, 3).unwrap();
        assert_eq!(d.len(), 7);
        assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 302);
    }
}
