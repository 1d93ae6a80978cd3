//! The game registry of the tools (perft, arena): a game name and its options become a call
//! of a [`GameVisitor`] with the concrete game type. Adding a game is one [`GAMES`] entry and
//! one arm of the `match` in [`visit_game`].

use std::fmt::Write as _;

use ply::games::{ConnectFour, ThreeHeaps, TicTacToe};
use ply::{Game, Notation};
use ply_checkers::{EnglishCheckers, Rules};
use ply_draughts::InternationalDraughts;
use ply_impasse::Impasse;
use ply_reversi::Reversi;

/// Game options from the command line. Each game accepts some of them (see [`GAMES`]); giving
/// one it does not accept is an error rather than silently ignored.
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    /// Rule set, where the game has several (see the list of games).
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// Board size: N for an N x N board, or COLSxROWS (connect-four).
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// Number of players, where the game allows several.
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// A variant flag KEY=VALUE, repeatable (connect-four: connect=K).
    #[arg(long = "variant", value_name = "KEY=VALUE", value_parser = parse_key_value)]
    pub variants: Vec<(String, String)>,
}

/// Reads `key=value`.
///
/// # Errors
/// If there is no `=` or the key is empty.
pub fn parse_key_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("expected KEY=VALUE, got {text:?}")),
    }
}

impl GameOptions {
    /// The value of variant flag `key`, if given.
    pub fn variant(&self, key: &str) -> Option<&str> {
        self.variants.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The options as command-line flags (`--size 7x6 --variant connect=4`), for records.
    pub fn to_args(&self) -> String {
        let mut parts = Vec::new();
        if let Some(r) = &self.rules {
            parts.push(format!("--rules {r}"));
        }
        if let Some(s) = &self.size {
            parts.push(format!("--size {s}"));
        }
        if let Some(p) = self.players {
            parts.push(format!("--players {p}"));
        }
        for (k, v) in &self.variants {
            parts.push(format!("--variant {k}={v}"));
        }
        parts.join(" ")
    }
}

/// A registered game: its name and the options it accepts.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The name on the command line.
    pub name: &'static str,
    /// One line about it.
    pub summary: &'static str,
    /// The options it accepts, as flag names: `rules`, `size`, `players`, or `variant:KEY`.
    pub accepts: &'static [&'static str],
    /// The accepted values and defaults, for help texts.
    pub options_help: &'static str,
}

/// Every registered game.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "english-checkers",
        summary: "English checkers / draughts (the flagship)",
        accepts: &["rules", "size"],
        options_help: "--rules deepomatic|standard (default deepomatic), --size N (even, 4..=16, \
                       default 8); positions as PDN FEN",
    },
    GameInfo {
        name: "international-draughts",
        summary: "international draughts on 10x10",
        accepts: &[],
        options_help: "no options; positions as PDN FEN",
    },
    GameInfo {
        name: "impasse",
        summary: "Impasse (Mark Steere) on 8x8",
        accepts: &[],
        options_help: "no options; positions in the ruleset's notation",
    },
    GameInfo {
        name: "reversi",
        summary: "Reversi / Othello for 2 to 4 players",
        accepts: &["size", "players"],
        options_help: "--size N (4..=16, default 8), --players P (2..=4, default 2); \
                       positions in the ruleset's notation",
    },
    GameInfo {
        name: "tictactoe",
        summary: "tic-tac-toe on 3x3",
        accepts: &[],
        options_help: "no options; positions as 9 characters of x, o, . (top row first)",
    },
    GameInfo {
        name: "connect-four",
        summary: "Connect Four, any board from 4x4 to 9x9",
        accepts: &["size", "variant:connect"],
        options_help: "--size COLSxROWS (default 7x6), --variant connect=K (default 4); \
                       positions as rows top first, e.g. ......./......./...x...",
    },
    GameInfo {
        name: "three-heaps",
        summary: "a three-player take-away game (scores per player)",
        accepts: &["variant:heaps"],
        options_help: "--variant heaps=A,B,C (default 3,4,5; each at most 20); \
                       positions as heaps;scores;player, e.g. 3,4,5;0,0,0;0",
    },
];

/// The list of games and their options, for `--help`.
pub fn games_help() -> String {
    let mut out = String::from("Games:\n");
    for g in GAMES {
        let _ = writeln!(out, "  {:<24} {}\n  {:<24}   {}", g.name, g.summary, "", g.options_help);
    }
    out
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// No game by that name.
    #[error("unknown game {name:?}; known games: {known}")]
    UnknownGame {
        /// The name given.
        name: String,
        /// The registered names.
        known: String,
    },
    /// An option the game does not take.
    #[error("{game} does not take {option}; it accepts: {help}")]
    UnsupportedOption {
        /// The game.
        game: &'static str,
        /// The option, as a flag.
        option: String,
        /// What it accepts.
        help: &'static str,
    },
    /// An option value the game cannot use.
    #[error("{game}: bad {option} {value:?}: {reason}")]
    BadOption {
        /// The game.
        game: &'static str,
        /// The option, as a flag.
        option: &'static str,
        /// The value given.
        value: String,
        /// Why.
        reason: String,
    },
}

/// Something to do with a game whose type is only known once its name is read.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;

    /// Does the work with the concrete game.
    fn visit<G: Game + Notation + Sync + Send + 'static>(self, game: G) -> Self::Output;
}

/// The registered game called `name`.
///
/// # Errors
/// [`RegistryError::UnknownGame`] listing the known names.
pub fn game_info(name: &str) -> Result<&'static GameInfo, RegistryError> {
    GAMES.iter().find(|g| g.name == name).ok_or_else(|| RegistryError::UnknownGame {
        name: name.to_string(),
        known: GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", "),
    })
}

fn check_accepted(info: &'static GameInfo, options: &GameOptions) -> Result<(), RegistryError> {
    let mut given: Vec<String> = Vec::new();
    if options.rules.is_some() {
        given.push("rules".into());
    }
    if options.size.is_some() {
        given.push("size".into());
    }
    if options.players.is_some() {
        given.push("players".into());
    }
    given.extend(options.variants.iter().map(|(k, _)| format!("variant:{k}")));
    match given.into_iter().find(|g| !info.accepts.contains(&g.as_str())) {
        Some(option) => Err(RegistryError::UnsupportedOption {
            game: info.name,
            option: match option.strip_prefix("variant:") {
                Some(k) => format!("--variant {k}=..."),
                None => format!("--{option}"),
            },
            help: info.options_help,
        }),
        None => Ok(()),
    }
}

fn bad(
    game: &'static str,
    option: &'static str,
    value: &str,
    reason: impl ToString,
) -> RegistryError {
    RegistryError::BadOption { game, option, value: value.to_string(), reason: reason.to_string() }
}

/// A whole number option, or `default` when not given.
fn parse_number(
    game: &'static str,
    option: &'static str,
    text: Option<&str>,
    default: usize,
) -> Result<usize, RegistryError> {
    match text {
        None => Ok(default),
        Some(t) => t.trim().parse().map_err(|_| bad(game, option, t, "expected a whole number")),
    }
}

/// `COLSxROWS`.
fn parse_dims(game: &'static str, text: &str) -> Result<(usize, usize), RegistryError> {
    let parsed = text
        .split_once(['x', 'X'])
        .and_then(|(c, r)| Some((c.trim().parse().ok()?, r.trim().parse().ok()?)));
    parsed.ok_or_else(|| bad(game, "--size", text, "expected COLSxROWS such as 7x6"))
}

/// Sets up the game `name` with `options` and calls `visitor` with it.
///
/// # Errors
/// An unknown name, an option the game does not take, or a value it cannot use.
pub fn visit_game<V: GameVisitor>(
    name: &str,
    options: &GameOptions,
    visitor: V,
) -> Result<V::Output, RegistryError> {
    let info = game_info(name)?;
    check_accepted(info, options)?;
    match info.name {
        "english-checkers" => {
            let rules = match options.rules.as_deref() {
                Some(r) => r.parse::<Rules>().map_err(|e| bad(info.name, "--rules", r, e))?,
                None => Rules::Deepomatic,
            };
            let size = parse_number(info.name, "--size", options.size.as_deref(), 8)?;
            let game = EnglishCheckers::new(size, rules)
                .map_err(|e| bad(info.name, "--size", &size.to_string(), e))?;
            Ok(visitor.visit(game))
        }
        "international-draughts" => Ok(visitor.visit(InternationalDraughts::new())),
        "impasse" => Ok(visitor.visit(Impasse::new())),
        "reversi" => {
            let size = parse_number(info.name, "--size", options.size.as_deref(), 8)?;
            let players = options.players.unwrap_or(2);
            let game = Reversi::new(size, players)
                .map_err(|e| bad(info.name, "--size/--players", &format!("{size}/{players}"), e))?;
            Ok(visitor.visit(game))
        }
        "tictactoe" => Ok(visitor.visit(TicTacToe)),
        "connect-four" => {
            let size = options.size.as_deref().unwrap_or("7x6");
            let (cols, rows) = parse_dims(info.name, size)?;
            let connect = match options.variant("connect") {
                Some(k) => {
                    k.parse().map_err(|_| bad(info.name, "connect", k, "expected a number"))?
                }
                None => 4,
            };
            let game = ConnectFour::new(cols, rows, connect)
                .map_err(|e| bad(info.name, "--size", size, e))?;
            Ok(visitor.visit(game))
        }
        "three-heaps" => {
            let text = options.variant("heaps").unwrap_or("3,4,5");
            let heaps: Vec<u8> = text.split(',').filter_map(|h| h.trim().parse().ok()).collect();
            let heaps: [u8; 3] = heaps
                .try_into()
                .map_err(|_| bad(info.name, "heaps", text, "expected three sizes such as 3,4,5"))?;
            let game = ThreeHeaps::new(heaps).map_err(|e| bad(info.name, "heaps", text, e))?;
            Ok(visitor.visit(game))
        }
        _ => Err(RegistryError::UnknownGame { name: name.to_string(), known: String::new() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reports the game's player count and its start position's move count.
    struct Describe;

    impl GameVisitor for Describe {
        type Output = (usize, u64);
        fn visit<G: Game + Notation + Sync + Send + 'static>(self, game: G) -> (usize, u64) {
            (game.num_players(), game.count_moves(&game.initial_state()))
        }
    }

    fn opts(size: Option<&str>, variants: &[(&str, &str)]) -> GameOptions {
        GameOptions {
            size: size.map(String::from),
            variants: variants.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            ..GameOptions::default()
        }
    }

    #[test]
    fn every_registered_game_builds_with_defaults() {
        for info in GAMES {
            let (players, moves) = visit_game(info.name, &GameOptions::default(), Describe)
                .unwrap_or_else(|e| panic!("{}: {e}", info.name));
            assert!(players >= 1 && moves > 0, "{}", info.name);
        }
        assert_eq!(visit_game("tictactoe", &GameOptions::default(), Describe), Ok((2, 9)));
    }

    #[test]
    fn connect_four_options() {
        assert_eq!(visit_game("connect-four", &opts(Some("8x7"), &[]), Describe), Ok((2, 8)));
        assert_eq!(
            visit_game("connect-four", &opts(Some("5x4"), &[("connect", "3")]), Describe),
            Ok((2, 5))
        );
        let e = visit_game("connect-four", &opts(Some("12x6"), &[]), Describe).unwrap_err();
        assert!(matches!(e, RegistryError::BadOption { option: "--size", .. }), "{e}");
        let e = visit_game("connect-four", &opts(Some("seven"), &[]), Describe).unwrap_err();
        assert!(e.to_string().contains("COLSxROWS"), "{e}");
    }

    #[test]
    fn ruleset_options() {
        let checkers = |rules: Option<&str>, size: Option<&str>| GameOptions {
            rules: rules.map(String::from),
            size: size.map(String::from),
            ..GameOptions::default()
        };
        assert_eq!(visit_game("english-checkers", &checkers(None, None), Describe), Ok((2, 7)));
        let o = checkers(Some("standard"), Some("10"));
        assert_eq!(visit_game("english-checkers", &o, Describe), Ok((2, 9)));
        let e = visit_game("english-checkers", &checkers(Some("turkish"), None), Describe);
        assert!(matches!(e, Err(RegistryError::BadOption { option: "--rules", .. })), "{e:?}");
        let e = visit_game("english-checkers", &checkers(None, Some("7")), Describe);
        assert!(matches!(e, Err(RegistryError::BadOption { option: "--size", .. })), "{e:?}");
        let reversi = |players| GameOptions { players: Some(players), ..GameOptions::default() };
        assert_eq!(visit_game("reversi", &reversi(3), Describe).map(|r| r.0), Ok(3));
        assert!(visit_game("reversi", &reversi(9), Describe).is_err());
        let e = visit_game("impasse", &checkers(Some("standard"), None), Describe).unwrap_err();
        assert!(matches!(e, RegistryError::UnsupportedOption { .. }), "{e}");
    }

    #[test]
    fn three_heaps_options() {
        assert_eq!(visit_game("three-heaps", &GameOptions::default(), Describe), Ok((3, 9)));
        let o = opts(None, &[("heaps", "1,0,2")]);
        assert_eq!(visit_game("three-heaps", &o, Describe), Ok((3, 3)));
        for bad in ["1,2", "30,1,1", "a,b,c"] {
            let o = opts(None, &[("heaps", bad)]);
            let e = visit_game("three-heaps", &o, Describe).unwrap_err();
            assert!(matches!(e, RegistryError::BadOption { option: "heaps", .. }), "{bad}: {e}");
        }
    }

    #[test]
    fn unknown_names_and_options_are_errors() {
        let e = visit_game("chess", &GameOptions::default(), Describe).unwrap_err();
        assert!(e.to_string().contains("reversi, tictactoe, connect-four, three-heaps"), "{e}");
        let e = visit_game("tictactoe", &opts(Some("4"), &[]), Describe).unwrap_err();
        assert!(
            matches!(&e, RegistryError::UnsupportedOption { option, .. } if option == "--size")
        );
        let e =
            visit_game("connect-four", &opts(None, &[("gravity", "off")]), Describe).unwrap_err();
        assert!(e.to_string().contains("--variant gravity"), "{e}");
    }

    #[test]
    fn key_values() {
        assert_eq!(parse_key_value("connect=3"), Ok(("connect".into(), "3".into())));
        assert!(parse_key_value("connect").is_err());
        assert!(parse_key_value("=3").is_err());
    }
}
