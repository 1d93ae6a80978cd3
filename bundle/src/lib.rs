//! The games bundled with ply, registered once: [`registry`] gives every tool (the example
//! programs, the benchmarks, the Python package) the same list.
//!
//! [`registry`] is what a user's own crate writes to give its games the tools: one
//! [`GameEntry`] per game, with the options it reads and, where it has them, named
//! evaluations, engine specs, external-engine codecs, opening books and endgame tables. A
//! crate that adds its own game starts from this list:
//!
//! ```
//! let mut games = ply_bundle::registry();
//! games.add(ply_tools::registry::GameEntry::new("tiny-tictactoe", "tic-tac-toe again", |_| {
//!     Ok(ply::games::TicTacToe)
//! }));
//! assert!(games.get("tiny-tictactoe").is_ok());
//! ```

use std::sync::Arc;

use ply::games::{ConnectFour, ThreeHeaps, TicTacToe};
use ply_breakthrough::Breakthrough;
use ply_checkers::{EnglishCheckers, Rules};
use ply_draughts::InternationalDraughts;
use ply_impasse::Impasse;
use ply_kalah::{Capture, Kalah};
use ply_reversi::Reversi;
use ply_tools::engines::dxp::DxpCodec;
use ply_tools::engines::hub::HubCodec;
use ply_tools::engines::jsonl::{JsonlCodec, OtherBoards};
use ply_tools::engines::nboard::NBoardCodec;
use ply_tools::error::ToolError;
use ply_tools::registry::{bad, parse_dims, parse_number, GameEntry, Registry, RegistryError};

/// Every bundled game: the rulesets and the core's small games.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    r.add(english_checkers());
    r.add(international_draughts());
    r.add(impasse());
    r.add(reversi());
    r.add(breakthrough());
    r.add(kalah());
    r.add(tictactoe());
    r.add(connect_four());
    r.add(three_heaps());
    r
}

/// English checkers, the flagship: `--rules deepomatic|standard`, `--size N`.
pub fn english_checkers() -> GameEntry<EnglishCheckers> {
    GameEntry::new("english-checkers", "English checkers / draughts (the flagship)", |o| {
        let rules = match o.rules.as_deref() {
            Some(r) => r.parse::<Rules>().map_err(|e| bad("english-checkers", "--rules", r, e))?,
            None => Rules::Deepomatic,
        };
        let size = parse_number("english-checkers", "--size", o.size.as_deref(), 8)?;
        EnglishCheckers::new(size, rules)
            .map_err(|e| bad("english-checkers", "--size", &size.to_string(), e))
    })
    .accepts(
        &["rules", "size"],
        "--rules deepomatic|standard (default deepomatic), --size N (even, 4..=16, default 8); \
         positions as PDN FEN",
    )
    .seat_names(&["Black", "White"])
    // The networks beat the learned evaluation under both rule sets on 8x8 (BENCHMARKS.md),
    // so specs without `eval=` use them; on other sizes `net` is `learned`, which there is
    // the hand-set one.
    // ProbCut wins under both rule sets (+36 and +65 Elo at 100 ms); LMR on top of it (+34)
    // and the table kept from move to move (+19) under the standard rules, the two together
    // (+40) under the Deepomatic ones, BENCHMARKS.md; the same options as `ply_checkers::engine`.
    .engines(
        "alphabeta:time=1s,probcut=50,lmr=true,reuse=true",
        "alphabeta:time=50ms,probcut=50,lmr=true,reuse=true",
    )
    .engine(checkers_jsonl_codec())
    .evaluator("classic", ply_checkers::eval::Classic::default())
    .evaluator("material", ply_checkers::eval::Classic::new(ply_checkers::Weights::material_only()))
    .evaluator("learned", ply_checkers::CheckersLearned::default())
    .default_evaluator("net", ply_checkers::net::CheckersNet::default())
    .features(ply_checkers::CheckersFeatures)
    .net_inputs(ply_checkers::net::CheckersNetInputs::new)
    .packed()
    .endgame()
    // Built by `book` under the Deepomatic rules on 8x8; other rules and sizes have none.
    .opening_book(ply_checkers::book::opening_book)
}

/// International draughts (FMJD rules); Hub engines such as Scan play it.
pub fn international_draughts() -> GameEntry<InternationalDraughts> {
    GameEntry::new("international-draughts", "international draughts on 10x10", |_| {
        Ok(InternationalDraughts::new())
    })
    .accepts(&[], "no options; positions as PDN FEN")
    .seat_names(&["White", "Black"])
    // The learned evaluation plays +145 Elo over the hand-set one, and the network beats the
    // learned one by SPRT (BENCHMARKS.md), so specs without `eval=` use the network.
    // ProbCut wins with it (+32 Elo at 100 ms, BENCHMARKS.md), and late-move reductions
    // with both (+50), growing with depth and move number (+22).
    .engines(
        "alphabeta:time=2s,probcut=50,lmr=true,lmrlog=1.25",
        "alphabeta:time=50ms,probcut=50,lmr=true,lmrlog=1.25",
    )
    .evaluator("classic", ply_draughts::eval::Classic)
    .evaluator("material", ply_draughts::eval::Material)
    .evaluator("learned", ply_draughts::learned())
    .default_evaluator("net", ply_draughts::net::DraughtsNet::default())
    .features(ply_draughts::DraughtsFeatures)
    // Scan-like region patterns, fitted with `tune fit --features regions` (no weights ship).
    .features_named("regions", ply_draughts::regions::DraughtsRegions)
    .net_inputs(|_| ply_draughts::net::DraughtsNetInputs::default())
    .packed()
    .endgame()
    .engine(draughts_hub_codec())
    .engine(draughts_dxp_codec())
    .opening_book(ply_draughts::book::opening_book)
}

/// English checkers in the JSON-lines protocol of `english_checkers moves` and `play` (the
/// seed's board rows and colour; a move as the squares it visits), both ways: boards are read
/// under the rules of the server's game, and the seed's boards with pieces on both colours of
/// square are answered as two boards.
///
/// ```
/// use ply_checkers::{EnglishCheckers, Rules};
/// use ply_tools::engines::jsonl;
///
/// let game = EnglishCheckers::new(8, Rules::Deepomatic)?;
/// let line = r#"{"board": ["________","__b_b___","_w______","______b_","_______b","________","________","________"], "color": "w"}"#;
/// let reply = jsonl::answer_moves(line, &game, ply_bundle::checkers_jsonl_codec());
/// assert_eq!(reply, "[[[2,1],[0,3],[2,5]]]");
/// # Ok::<(), ply_checkers::Error>(())
/// ```
pub fn checkers_jsonl_codec() -> JsonlCodec<EnglishCheckers> {
    use ply_checkers::seed;
    JsonlCodec {
        request: |game, state| {
            Ok((seed::board_rows(game, state), seed::color_to_move(game, state)))
        },
        parse_path: |game, state, path| {
            seed::find_move(game, state, path)
                .ok_or_else(|| ToolError::Input(format!("illegal move {path:?}")))
        },
        read_board: |game, board, color| {
            seed::parse_board(board, color, game.rules()).map_err(ToolError::input)
        },
        legal_paths: |game, state| Ok(seed::legal_paths(game, state)),
        other_boards: Some(OtherBoards {
            moves: |game, board, color| {
                if !seed::is_split(board, color, game.rules()) {
                    return Ok(None);
                }
                seed::allowed_moves_with(game.rules(), board, color)
                    .map(Some)
                    .map_err(ToolError::input)
            },
            play: |game, board, color, budget| {
                if !seed::is_split(board, color, game.rules()) {
                    return Ok(None);
                }
                seed::play_budget(game.rules(), board, color, budget)
                    .map(Some)
                    .map_err(ToolError::internal)
            },
        }),
    }
}

/// International draughts in the Hub protocol (Scan's): the ruleset's text forms.
pub fn draughts_hub_codec() -> HubCodec<InternationalDraughts> {
    use ply_draughts::hub;
    HubCodec {
        variant: "normal",
        position: |_, s| hub::format_position(s),
        parse_position: |_, t| hub::parse_position(t).map_err(ToolError::input),
        format_move: |_, m| hub::format_hub_move(m),
        parse_move: |g, s, t| hub::parse_hub_move(g, s, t).map_err(ToolError::input),
    }
}

/// International draughts in DamExchange (DXP, Scan's `dxp` mode): the Hub position with
/// `Z` for black (`Z`/`z` for black kings and men, `W`/`w` for white's, `e` for empty), and a
/// move's squares as the ruleset numbers them (1..=50).
///
/// ```
/// let codec = ply_bundle::draughts_dxp_codec();
/// let game = ply_draughts::InternationalDraughts::new();
/// let start = (codec.position)(&game, &ply::Game::initial_state(&game));
/// assert_eq!(start, "Wzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
/// assert_eq!((codec.parse_position)(&game, &start), Ok(ply::Game::initial_state(&game)));
/// ```
pub fn draughts_dxp_codec() -> DxpCodec<InternationalDraughts> {
    DxpCodec {
        position: |_, s| ply_draughts::dxp::format_position(s),
        parse_position: |_, t| ply_draughts::dxp::parse_position(t).map_err(ToolError::input),
        move_squares: |_, m| (m.from(), m.to(), m.captured_squares().collect()),
    }
}

/// Reversi for 2 to 4 players: `--size N`, `--players P`; NBoard engines on 2-player 8x8.
pub fn reversi() -> GameEntry<Reversi> {
    GameEntry::new("reversi", "Reversi / Othello for 2 to 4 players", |o| {
        let size = parse_number("reversi", "--size", o.size.as_deref(), 8)?;
        let players = o.players.unwrap_or(2);
        Reversi::new(size, players)
            .map_err(|e| bad("reversi", "--size/--players", &format!("{size}/{players}"), e))
    })
    .accepts(
        &["size", "players"],
        "--size N (4..=16, default 8), --players P (2..=4, default 2); \
         positions in the ruleset's notation",
    )
    .seat_names(&["Black", "White"])
    // On Othello's board the learned evaluation plays +366 Elo over the hand-set one and
    // late-move reductions +40 more (BENCHMARKS.md); on other boards `learned` is the
    // standard evaluation.
    .engines("alphabeta:time=1s,lmr=true", "alphabeta:time=20ms,lmr=true")
    .evaluator("standard", ply_reversi::Evaluation::Standard)
    .evaluator("discs", ply_reversi::Evaluation::Discs)
    .default_evaluator("learned", ply_reversi::OthelloLearned::default())
    .features(ply_reversi::OthelloFeatures)
    .net_inputs(ply_reversi::net::DiscNetInputs::new)
    .engine(reversi_nboard_codec())
    .learned_network(|game| {
        // Trained by `tune zero` from the rules alone (docs/learned.md), on Othello's board.
        (game.size() == 8 && game.players() == 2)
            .then_some(&include_bytes!("../nets/othello.pv")[..])
    })
    // `solve`'s first tests fall outside the disc difference's range: answered at once.
    .for_solving(|game| Ok(game.with_margin_bounds(true)))
}

/// 2-player 8x8 Reversi (Othello) in the NBoard protocol: GGF game records and upper-case
/// squares (`F5`, `PA` for a pass), the ruleset's forms.
///
/// ```
/// use ply::Game;
/// let codec = ply_bundle::reversi_nboard_codec();
/// let game = ply_reversi::Reversi::new(8, 2)?;
/// let start = game.initial_state();
/// let f5 = (codec.parse_move)(&game, &start, "F5").unwrap();
/// assert_eq!((codec.format_move)(&game, &start, f5), "F5");
/// let record = (codec.game_record)(&game, &start).unwrap();
/// assert_eq!((codec.read_game)(&game, &record).unwrap(), (start, vec![]));
/// # Ok::<(), ply_reversi::Error>(())
/// ```
pub fn reversi_nboard_codec() -> NBoardCodec<Reversi> {
    NBoardCodec {
        game_record: |g, s| ply_reversi::nboard::format_ggf(g, s).map_err(ToolError::input),
        read_game: |g, t| ply_reversi::ggf::read(g, t).map_err(ToolError::input),
        format_move: ply_reversi::nboard::format_move,
        parse_move: |g, s, t| ply::Notation::parse_move(g, s, t).map_err(ToolError::input),
    }
}

/// Breakthrough, the second tutorial: `--size COLSxROWS` (default 8x8).
pub fn breakthrough() -> GameEntry<Breakthrough> {
    GameEntry::new("breakthrough", "Breakthrough (Dan Troyka), the second tutorial", |o| {
        let size = o.size.as_deref().unwrap_or("8x8");
        let (cols, rows) = parse_dims("breakthrough", size)?;
        Breakthrough::new(cols, rows).map_err(|e| bad("breakthrough", "--size", size, e))
    })
    .accepts(&["size"], "--size COLSxROWS (default 8x8, at most 64 squares)")
    .seat_names(&["White", "Black"])
    .evaluator("standard", ply_breakthrough::Standard::DEFAULT)
    .evaluator("material", ply_breakthrough::Material)
    // The learned evaluation plays +186 Elo over the hand-set one, and on 8x8 the network
    // +132 over the learned one (BENCHMARKS.md), so specs without `eval=` use the network.
    .evaluator("learned", ply_breakthrough::learned())
    .default_evaluator("net", ply_breakthrough::net::network())
    .features(ply_breakthrough::PawnFeatures)
    .net_inputs(ply_breakthrough::net::PawnNetInputs::new)
    .learned_network(|game| {
        // Trained by `tune zero` from the rules alone (docs/learned.md), on the 8x8 board.
        (game.cols() == 8 && game.rows() == 8)
            .then_some(&include_bytes!("../nets/breakthrough.pv")[..])
    })
}

/// Kalah(m,n), the game with extra turns: `--variant pits=M`, `--variant seeds=N`,
/// `--variant capture=empty|standard|none`.
pub fn kalah() -> GameEntry<Kalah> {
    GameEntry::new("kalah", "Kalah(m,n), the mancala game with extra turns", |o| {
        let number = |key: &'static str, default: usize| match o.variant(key) {
            Some(v) => v.parse().map_err(|_| bad("kalah", key, v, "expected a number")),
            None => Ok(default),
        };
        let (pits, seeds) = (number("pits", 6)?, number("seeds", 4)?);
        let capture = match o.variant("capture") {
            Some(c) => c.parse::<Capture>().map_err(|e| bad("kalah", "capture", c, e))?,
            None => Capture::default(),
        };
        Kalah::new(pits, seeds, capture)
            .map_err(|e| bad("kalah", "pits/seeds", &format!("{pits}/{seeds}"), e))
    })
    .accepts(
        &["variant:pits", "variant:seeds", "variant:capture"],
        "--variant pits=M (houses per side, 1..=8, default 6), --variant seeds=N (per house, \
         1..=15, default 4), --variant capture=empty|standard|none (default empty); moves \
         are house numbers 1..M, positions as 4,4,4,4,4,4/0/4,4,4,4,4,4/0 s",
    )
    .seat_names(&["South", "North"])
    .learned_network(|game| {
        // Trained by `tune zero` from the rules alone (docs/learned.md), on Kalah(6,4) with
        // the empty-house capture.
        (game.pits() == 6 && game.seeds() == 4 && game.capture() == Capture::Empty)
            .then_some(&include_bytes!("../nets/kalah.pv")[..])
    })
    .engines("alphabeta:time=1s", "alphabeta:time=50ms")
    .evaluator("stores", ply_kalah::Weighted::STORES)
    // The store difference alone beat adding the seeds on each side in arena runs
    // (rulesets/kalah/README.md), so `stores` is the game's own evaluation.
    .evaluator("houses", ply_kalah::Weighted { store: 4, side: 1 })
    .endgame()
    // `solve` proves with the store bound (the final margin lies within the store difference
    // plus or minus the seeds in the houses), the seed tables built into the endgame
    // directory (`kalah_solve --dir`, docs/solving.md) and leaves the search to the generic
    // prover.
    .for_solving(|game| {
        let game = game.with_exact_seeds(Some(0));
        match kalah_seed_table(&game)? {
            Some(table) => game.with_table(table).map_err(|e| kalah_tables_error(e.to_string())),
            None => Ok(game),
        }
    })
}

/// The seed table of `game`'s rules in the endgame directory ([`ply::endgame::default_dir`]),
/// read once per process; `None` when the directory holds none.
fn kalah_seed_table(game: &Kalah) -> Result<Option<Arc<ply_kalah::SeedTable>>, RegistryError> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static READ: OnceLock<Mutex<HashMap<String, Option<Arc<ply_kalah::SeedTable>>>>> =
        OnceLock::new();
    let Some(dir) = ply::endgame::default_dir() else { return Ok(None) };
    let set = ply::endgame::MarginIndex::margin_set(game);
    let mut read = READ.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner());
    if let Some(table) = read.get(&set) {
        return Ok(table.clone());
    }
    let table = ply_kalah::SeedTable::open(game, &dir)
        .map_err(|e| kalah_tables_error(e.to_string()))?
        .map(Arc::new);
    read.insert(set, table.clone());
    Ok(table)
}

/// A [`RegistryError::Tables`] of Kalah.
fn kalah_tables_error(reason: String) -> RegistryError {
    RegistryError::Tables { game: "kalah".into(), reason }
}

/// Impasse, as the CodinGame referee plays it.
pub fn impasse() -> GameEntry<Impasse> {
    GameEntry::new("impasse", "Impasse (Mark Steere) on 8x8", |_| Ok(Impasse::new()))
        .accepts(&[], "no options; positions in the ruleset's notation")
        .seat_names(&["White", "Black"])
        .engines("alphabeta:time=1s", "alphabeta:depth=4")
        .evaluator("learned", ply_impasse::learned())
        .features(ply_impasse::ImpasseFeatures)
        .net_inputs(|_| ply_impasse::net::StackNetInputs)
        // Trained by `tune zero` from the rules alone (docs/learned.md).
        .learned_network(|_| Some(&include_bytes!("../nets/impasse.pv")[..]))
}

/// Tic-tac-toe, played perfectly by the default engine.
pub fn tictactoe() -> GameEntry<TicTacToe> {
    GameEntry::new("tictactoe", "tic-tac-toe on 3x3", |_| Ok(TicTacToe))
        .accepts(&[], "no options; positions as 9 characters of x, o, . (top row first)")
        .seat_names(&["X", "O"])
        .engines("alphabeta:depth=9", "alphabeta:depth=9")
        .packed()
}

/// Connect Four: `--size COLSxROWS`, `--variant connect=K`.
pub fn connect_four() -> GameEntry<ConnectFour> {
    GameEntry::new("connect-four", "Connect Four, any board from 4x4 to 9x9", |o| {
        let size = o.size.as_deref().unwrap_or("7x6");
        let (cols, rows) = parse_dims("connect-four", size)?;
        let connect = match o.variant("connect") {
            Some(k) => {
                k.parse().map_err(|_| bad("connect-four", "connect", k, "expected a number"))?
            }
            None => 4,
        };
        ConnectFour::new(cols, rows, connect).map_err(|e| bad("connect-four", "--size", size, e))
    })
    .seat_names(&["x", "o"])
    .learned_network(|game| {
        // Trained by `tune zero` from the rules alone (docs/learned.md), on the standard board.
        (*game == ConnectFour::standard()).then_some(&include_bytes!("../nets/connect-four.pv")[..])
    })
    .accepts(
        &["size", "variant:connect"],
        "--size COLSxROWS (default 7x6), --variant connect=K (default 4); \
         positions as rows top first, e.g. ......./......./...x...",
    )
}

/// The three-player take-away game: `--variant heaps=A,B,C`.
pub fn three_heaps() -> GameEntry<ThreeHeaps> {
    GameEntry::new("three-heaps", "a three-player take-away game (scores per player)", |o| {
        let text = o.variant("heaps").unwrap_or("3,4,5");
        let heaps: Vec<u8> = text.split(',').filter_map(|h| h.trim().parse().ok()).collect();
        let heaps: [u8; 3] = heaps
            .try_into()
            .map_err(|_| bad("three-heaps", "heaps", text, "expected three sizes such as 3,4,5"))?;
        ThreeHeaps::new(heaps).map_err(|e| bad("three-heaps", "heaps", text, e))
    })
    .accepts(
        &["variant:heaps"],
        "--variant heaps=A,B,C (default 3,4,5; each at most 20); \
         positions as heaps;scores;player, e.g. 3,4,5;0,0,0;0",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_tools::registry::{GameOptions, RegistryError};

    fn options(rules: Option<&str>, size: Option<&str>, players: Option<usize>) -> GameOptions {
        GameOptions {
            rules: rules.map(String::from),
            size: size.map(String::from),
            players,
            ..GameOptions::default()
        }
    }

    #[test]
    fn the_checkers_engine_specs_search_as_the_shipped_engine() {
        let shipped = ply_checkers::engine::options();
        let info = english_checkers().info().clone();
        for text in [&info.engine, &info.batch_engine] {
            let spec: ply_tools::spec::AgentSpec = text.parse().unwrap();
            assert_eq!(spec.probcut, Some(shipped.probcut), "{text}");
            assert_eq!(spec.lmr.unwrap_or(false), shipped.lmr, "{text}");
            assert_eq!(spec.reuse.unwrap_or(false), shipped.keep_tt, "{text}");
        }
    }

    #[test]
    fn the_draughts_engine_specs_search_as_the_shipped_engine() {
        let shipped = ply_draughts::engine::options();
        let info = international_draughts().info().clone();
        for text in [&info.engine, &info.batch_engine] {
            let spec: ply_tools::spec::AgentSpec = text.parse().unwrap();
            assert_eq!(spec.probcut, Some(shipped.probcut), "{text}");
            assert_eq!(spec.lmr.unwrap_or(false), shipped.lmr, "{text}");
            assert_eq!(spec.lmr_log.unwrap_or(0.0), shipped.lmr_log, "{text}");
            assert_eq!(spec.probcut_ratio.unwrap_or(0.0), shipped.probcut_ratio, "{text}");
        }
    }

    #[test]
    fn every_game_builds_with_its_defaults_and_every_agent_spec() {
        let r = registry();
        assert_eq!(
            r.names(),
            vec![
                "english-checkers",
                "international-draughts",
                "impasse",
                "reversi",
                "breakthrough",
                "kalah",
                "tictactoe",
                "connect-four",
                "three-heaps"
            ]
        );
        for game in r.games() {
            let name = &game.info().name;
            let spec = if name == "three-heaps" { "paranoid:depth=2" } else { "alphabeta:depth=2" };
            game.check_spec(&GameOptions::default(), &spec.parse().unwrap())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn options_are_checked_by_the_game() {
        let r = registry();
        let checkers = r.get("english-checkers").unwrap();
        let spec = "alphabeta:depth=1".parse().unwrap();
        assert!(checkers.check_spec(&options(Some("standard"), Some("10"), None), &spec).is_ok());
        let e = checkers
            .check_spec(&options(Some("turkish"), None, None), &spec)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--rules") && e.contains("turkish"), "{e}");
        let e =
            checkers.check_spec(&options(None, Some("7"), None), &spec).unwrap_err().to_string();
        assert!(e.contains("--size"), "{e}");
        let e = checkers.check_spec(&options(None, None, Some(3)), &spec).unwrap_err().to_string();
        assert!(e.contains("does not take --players"), "{e}");
        let e = r.get("chess").err().unwrap();
        assert!(matches!(e, RegistryError::UnknownGame { .. }), "{e}");
        let e = r.get("breakthrough").unwrap();
        let msg = e.check_spec(&options(None, Some("9x9"), None), &spec).unwrap_err().to_string();
        assert!(msg.contains("breakthrough: bad --size"), "{msg}");
    }

    #[test]
    fn kalah_takes_houses_seeds_and_capture_rule_as_variants() {
        let kalah = registry();
        let kalah = kalah.get("kalah").unwrap();
        let spec = "alphabeta:depth=1,endgame=true".parse().unwrap();
        let variants = |pairs: &[(&str, &str)]| GameOptions {
            variants: pairs.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect(),
            ..GameOptions::default()
        };
        let ok = variants(&[("pits", "4"), ("seeds", "3"), ("capture", "standard")]);
        assert!(kalah.check_spec(&ok, &spec).is_ok());
        for (bad, what) in [
            (variants(&[("capture", "sideways")]), "capture"),
            (variants(&[("pits", "9")]), "pits"),
            (variants(&[("seeds", "many")]), "seeds"),
        ] {
            let e = kalah.check_spec(&bad, &spec).unwrap_err().to_string();
            assert!(e.contains("kalah: bad") && e.contains(what), "{e}");
        }
        let e = kalah.check_spec(&options(None, Some("6"), None), &spec).unwrap_err().to_string();
        assert!(e.contains("does not take --size"), "{e}");
    }

    #[test]
    fn named_evaluations_and_engine_codecs_are_per_game() {
        let r = registry();
        let none = GameOptions::default();
        let draughts = r.get("international-draughts").unwrap();
        assert!(draughts.check_spec(&none, &"alphabeta:eval=material".parse().unwrap()).is_ok());
        assert!(draughts.check_spec(&none, &"hub:cmd=scan".parse().unwrap()).is_ok());
        let dxp = "dxp:addr=127.0.0.1:27531,time=1s".parse().unwrap();
        assert!(draughts.check_spec(&none, &dxp).is_ok());
        let e = draughts
            .check_spec(&none, &"nboard:cmd=edax".parse().unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("nboard"), "{e}");
        let e = draughts
            .check_spec(&none, &"alphabeta:eval=discs".parse().unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("classic, material"), "{e}");
        let checkers = r.get("english-checkers").unwrap();
        assert!(checkers.check_spec(&none, &"alphabeta:eval=material".parse().unwrap()).is_ok());
        assert!(checkers.check_spec(&none, &"jsonl:cmd=cake".parse().unwrap()).is_ok());
        let reversi = r.get("reversi").unwrap();
        assert!(reversi.check_spec(&none, &"mcts:iters=9,eval=discs".parse().unwrap()).is_ok());
        assert!(reversi.check_spec(&none, &"nboard:cmd=edax".parse().unwrap()).is_ok());
    }
}
