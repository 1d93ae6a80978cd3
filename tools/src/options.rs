//! What a game is called and set up with: [`GameOptions`] (the command line's `--rules`,
//! `--size`, `--players`, `--variant`), [`GameInfo`] (name, help, seat names, engine specs)
//! and [`RegistryError`], with the parsers that builders share.

/// Game options from the command line. Each game accepts some of them (see [`GameInfo::accepts`]); giving
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
/// [`RegistryError::NotKeyValue`] if there is no `=` or the key is empty.
pub fn parse_key_value(text: &str) -> Result<(String, String), RegistryError> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(RegistryError::NotKeyValue { text: text.to_string() }),
    }
}

impl GameOptions {
    /// The value of variant flag `key`, if given.
    pub fn variant(&self, key: &str) -> Option<&str> {
        self.variants.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The options as command-line flags (`--size 7x6 --variant connect=4`), for records.
    pub(crate) fn to_args(&self) -> String {
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

/// A registered game's name and options, for help texts and errors.
#[derive(Clone, Debug, Default)]
pub struct GameInfo {
    /// The name on the command line.
    pub name: String,
    /// One line about it.
    pub summary: String,
    /// The options it accepts, as flag names: `rules`, `size`, `players`, or `variant:KEY`.
    pub accepts: Vec<String>,
    /// The accepted values and defaults, for help texts.
    pub options_help: String,
    /// A name per seat for the terminal (`Black`, `White`); empty for "player N".
    pub seat_names: Vec<String>,
    /// The engine spec of the terminal when a human plays.
    pub engine: String,
    /// The engine spec of the terminal when engines play each other (short: the mode of
    /// scripts and smoke tests).
    pub batch_engine: String,
    /// True when the game has an endgame index: `egdb` builds its tables and searches take
    /// `egdb=` ([`crate::registry::GameEntry::endgame`]).
    pub endgame_tables: bool,
}

impl GameInfo {
    /// The terminal's defaults for this game: its engines and seat names.
    ///
    /// ```
    /// use ply_tools::registry::GameInfo;
    ///
    /// let info = GameInfo { engine: "alphabeta:time=1s".into(), ..GameInfo::default() };
    /// assert_eq!(info.play_defaults().engine, "alphabeta:time=1s");
    /// ```
    pub fn play_defaults(&self) -> Defaults<'_> {
        Defaults { engine: &self.engine, batch_engine: &self.batch_engine, names: &self.seat_names }
    }
}

impl GameInfo {
    /// Checks that every option in `options` is one this game accepts.
    ///
    /// # Errors
    /// [`RegistryError::UnsupportedOption`] naming the first option it does not take.
    pub fn check(&self, options: &GameOptions) -> Result<(), RegistryError> {
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
        match given.into_iter().find(|g| !self.accepts.contains(g)) {
            Some(option) => Err(RegistryError::UnsupportedOption {
                game: self.name.clone(),
                option: match option.strip_prefix("variant:") {
                    Some(k) => format!("--variant {k}=..."),
                    None => format!("--{option}"),
                },
                help: self.options_help.clone(),
            }),
            None => Ok(()),
        }
    }
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
        game: String,
        /// The option, as a flag.
        option: String,
        /// What it accepts.
        help: String,
    },
    /// A `--variant` that is not `KEY=VALUE`.
    #[error("expected KEY=VALUE, got {text:?}")]
    NotKeyValue {
        /// The text given.
        text: String,
    },
    /// An option value the game cannot use.
    #[error("{game}: bad {option} {value:?}: {reason}")]
    BadOption {
        /// The game.
        game: String,
        /// The option, as a flag.
        option: &'static str,
        /// The value given.
        value: String,
        /// Why.
        reason: String,
    },
    /// The game's endgame tables are there but cannot be used (damaged, or of other rules).
    #[error("{game}: endgame tables: {reason}")]
    Tables {
        /// The game.
        game: String,
        /// What is wrong.
        reason: String,
    },
}

/// A [`RegistryError::BadOption`] for `game`.
pub fn bad(game: &str, option: &'static str, value: &str, reason: impl ToString) -> RegistryError {
    RegistryError::BadOption {
        game: game.to_string(),
        option,
        value: value.to_string(),
        reason: reason.to_string(),
    }
}

/// A whole number option, or `default` when not given.
pub fn parse_number(
    game: &str,
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
pub fn parse_dims(game: &str, text: &str) -> Result<(usize, usize), RegistryError> {
    let parsed = text
        .split_once(['x', 'X'])
        .and_then(|(c, r)| Some((c.trim().parse().ok()?, r.trim().parse().ok()?)));
    parsed.ok_or_else(|| bad(game, "--size", text, "expected COLSxROWS such as 7x6"))
}

/// What a game program passes to [`crate::play::run_program`] besides its parsed options:
/// the game's engine specs and seat names ([`GameInfo::play_defaults`]).
#[derive(Clone, Copy, Debug)]
pub struct Defaults<'a> {
    /// The engine spec when `--engine` is not given and a human plays.
    pub engine: &'a str,
    /// The engine spec when `--engine` is not given and engines play each other (keep it
    /// short: this is the mode of scripts and smoke tests).
    pub batch_engine: &'a str,
    /// A name per seat (`["Black", "White"]`); empty for "player 1", "player 2", ...
    pub names: &'a [String],
}
