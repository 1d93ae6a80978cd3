//! The Hub protocol's text: one parser for the lines of both sides (the client and the
//! engine), the `level` limits, and the codec that maps a game's positions and moves to the
//! protocol's text.

use std::time::Duration;

use crate::engines::EngineError;
use ply::search::{Budget, Clock, Deadline};
use ply::Game;

/// What the caller should do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was received.
    Quit,
}

/// The search limit set by `level`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Level {
    /// `level depth=N`.
    Depth(u32),
    /// `level move-time=S`: seconds per move.
    MoveTime(Duration),
    /// `level [moves=M] time=T [inc=I]`: the game clock.
    Clock(Clock),
    /// `level infinite`: search until `stop`.
    Infinite,
}

impl Level {
    /// The budget of a search at this level (an infinite search gets a day, in practice
    /// until `stop`).
    pub fn budget(self) -> Budget {
        match self {
            Level::Depth(d) => Budget::depth(d),
            Level::MoveTime(t) => Budget::time(t),
            Level::Clock(c) => Budget::clock(c),
            Level::Infinite => Budget::time(Duration::from_secs(86_400)),
        }
    }

    /// The budget of a `go ponder` search at this level: no time limit (in practice until
    /// `ponder-hit` ends it under [`Level::time_after_ponder_hit`], or `stop`), but the depth of
    /// a depth level.
    pub fn ponder_budget(self) -> Budget {
        match self {
            Level::Depth(d) => Budget::depth(d),
            _ => Level::Infinite.budget(),
        }
    }

    /// How long a ponder search may go on after `ponder-hit`, counted from it: the move time
    /// (less [`Deadline::OVERHEAD`], as a search given that time would keep back), the clock's
    /// allotment for this move ([`Clock::allotment`]), or `None` for a depth level (it ends at
    /// its depth) and an infinite one (it ends on `stop`).
    pub fn time_after_ponder_hit(self) -> Option<Duration> {
        match self {
            Level::MoveTime(t) => Some(t.saturating_sub(Deadline::OVERHEAD)),
            Level::Clock(c) => Some(c.allotment()),
            Level::Depth(_) | Level::Infinite => None,
        }
    }

    /// The `level` command that sets this level.
    pub fn command(self) -> String {
        match self {
            Level::Depth(d) => format!("level depth={d}"),
            Level::MoveTime(t) => format!("level move-time={:.3}", t.as_secs_f64()),
            Level::Clock(c) => {
                let moves = c.moves_to_go.map(|m| format!(" moves={m}")).unwrap_or_default();
                format!(
                    "level{moves} time={:.3} inc={:.3}",
                    c.remaining.as_secs_f64(),
                    c.increment.as_secs_f64()
                )
            }
            Level::Infinite => "level infinite".to_string(),
        }
    }
}

/// Reads an engine's move text as a legal move of a position.
pub type MoveReader<G> =
    fn(&G, &<G as Game>::State, &str) -> crate::error::ToolResult<<G as Game>::Move>;

/// Reads a `pos=` text as a position.
pub type PositionReader<G> = fn(&G, &str) -> crate::error::ToolResult<<G as Game>::State>;

/// How a game's positions and moves read in the Hub protocol. Plain functions, so a
/// registration builds one from the ruleset's own formatters.
pub struct HubCodec<G: Game> {
    /// The value of the `variant` parameter (`normal` for international draughts).
    pub variant: &'static str,
    /// The text of `pos=` for a position (international draughts: `W` or `B`, then one of
    /// `w b W B e` per square).
    pub position: fn(&G, &G::State) -> String,
    /// Reads a `pos=` text.
    pub parse_position: PositionReader<G>,
    /// The text of a move (`32-28`, `28x19x23`).
    pub format_move: fn(&G, G::Move) -> String,
    /// Reads a move's text as a legal move of the position.
    pub parse_move: MoveReader<G>,
}

impl<G: Game> Clone for HubCodec<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for HubCodec<G> {}

/// A command and its `name=value` arguments.
pub type ParsedLine = (String, Vec<(String, String)>);

/// Splits a line into its command and `name=value` arguments (values may be quoted).
///
/// # Errors
/// An unterminated quote.
pub fn parse_line(line: &str) -> Result<Option<ParsedLine>, EngineError> {
    let mut tokens = Vec::new();
    let mut chars = line.trim().chars().peekable();
    while chars.peek().is_some() {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut token = String::new();
        let mut quoted = false;
        while let Some(&c) = chars.peek() {
            if c == '"' {
                quoted = !quoted;
                chars.next();
                continue;
            }
            if c.is_whitespace() && !quoted {
                break;
            }
            token.push(c);
            chars.next();
        }
        if quoted {
            return Err(EngineError::Protocol(format!("unterminated quote in: {}", line.trim())));
        }
        if !token.is_empty() {
            tokens.push(token);
        }
    }
    let mut it = tokens.into_iter();
    let Some(command) = it.next() else { return Ok(None) };
    let args = it
        .map(|t| match t.split_once('=') {
            Some((n, v)) => (n.to_string(), v.to_string()),
            None => (t, String::new()),
        })
        .collect();
    Ok(Some((command, args)))
}

/// Writes a parsed line back as text that [`parse_line`] reads as the same line: a part
/// with white space in it is quoted, an argument with an empty value is its name alone.
///
/// ```
/// use ply_tools::engines::hub::protocol::{parse_line, write_line};
///
/// let line = ("info".to_string(), vec![("pv".to_string(), "32-28 19-23".to_string())]);
/// assert_eq!(write_line(&line), "info pv=\"32-28 19-23\"");
/// assert_eq!(parse_line(&write_line(&line)), Ok(Some(line)));
/// ```
pub fn write_line((command, args): &ParsedLine) -> String {
    let quoted = |text: &str| {
        if text.chars().any(char::is_whitespace) {
            format!("\"{text}\"")
        } else {
            text.to_string()
        }
    };
    let mut line = quoted(command);
    for (name, value) in args {
        line.push(' ');
        line.push_str(&quoted(name));
        if !value.is_empty() {
            line.push('=');
            line.push_str(&quoted(value));
        }
    }
    line
}

/// The value of argument `name` in a parsed line.
pub fn arg<'a>(args: &'a [(String, String)], name: &str) -> Option<&'a str> {
    args.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

/// `error message="..."`.
pub fn error_line(message: &str) -> String {
    format!("error message=\"{}\"", message.replace('"', "'"))
}

/// Reads the arguments of a `level` command.
///
/// # Errors
/// A message naming the bad value, or a level with no limit.
pub fn parse_level(args: &[(String, String)]) -> Result<Level, EngineError> {
    let get = |name: &str| args.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    // Durations beyond the longest deadline mean "no practical limit" and are capped there.
    let seconds = |name: &str, v: &str| -> Result<Duration, EngineError> {
        v.parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(|s| {
                Duration::try_from_secs_f64(s).unwrap_or(Deadline::LONGEST).min(Deadline::LONGEST)
            })
            .ok_or_else(|| EngineError::Protocol(format!("bad {name}: {v}")))
    };
    if get("infinite").is_some() {
        return Ok(Level::Infinite);
    }
    if let Some(d) = get("depth") {
        return match d.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(Level::Depth(n)),
            _ => Err(EngineError::Protocol(format!("bad depth: {d}"))),
        };
    }
    if let Some(t) = get("move-time") {
        return Ok(Level::MoveTime(seconds("move-time", t)?));
    }
    if let Some(t) = get("time") {
        let remaining = seconds("time", t)?;
        let increment = match get("inc") {
            Some(i) => seconds("inc", i)?,
            None => Duration::ZERO,
        };
        let moves_to_go = match get("moves") {
            Some(m) => Some(
                m.parse::<u32>().map_err(|_| EngineError::Protocol(format!("bad moves: {m}")))?,
            ),
            None => None,
        };
        return Ok(Level::Clock(Clock { remaining, increment, moves_to_go }));
    }
    Err(EngineError::protocol("level needs depth=, move-time=, time= or infinite"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_into_command_and_quoted_arguments() {
        let (c, a) =
            parse_line("info depth=7 score=0.12 pv=\"32-28 19-23\" nodes=100").unwrap().unwrap();
        assert_eq!(c, "info");
        assert_eq!(arg(&a, "pv"), Some("32-28 19-23"));
        assert_eq!(arg(&a, "nodes"), Some("100"));
        assert_eq!(parse_line("   ").unwrap(), None);
        assert!(parse_line("id name=\"ply").is_err());
    }

    /// Random and mutated lines: an error or a line, never a panic; every line read writes
    /// back to text that reads as the same line.
    #[test]
    fn random_and_mutated_lines_parse_or_fail_cleanly() {
        let lines: Vec<Option<ParsedLine>> = [
            "hub",
            "init",
            "level move-time=1.5",
            "pos pos=Wxxxxxxxxxxxxxxxxxxxx..........ooooooooooooooooooooo moves=\"32-28 19-23\"",
            "info depth=7 score=0.12 pv=\"32-28 19-23\" nodes=100",
            "go think",
            "done move=32x21 ponder=16-21",
            "id name=ply version=0.1.0 author=\"ply authors\"",
            "error message=\"unknown command\"",
            "",
        ]
        .iter()
        .map(|l| parse_line(l).unwrap())
        .collect();
        let write = |l: &Option<ParsedLine>| l.as_ref().map_or(String::new(), write_line);
        ply::testing::check_parser(&lines, write, parse_line, 10_000, 21)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn ponder_budgets_keep_only_the_depth_and_the_time_counts_from_ponder_hit() {
        let clock = Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: Some(30),
        };
        assert_eq!(Level::Depth(5).ponder_budget().depth, Some(5));
        assert_eq!(Level::Depth(5).time_after_ponder_hit(), None);
        for level in [Level::MoveTime(Duration::from_millis(100)), Level::Clock(clock)] {
            let budget = level.ponder_budget();
            assert_eq!((budget.depth, budget.clock), (None, None), "{level:?}");
            assert!(budget.time.is_some_and(|t| t >= Duration::from_secs(3600)), "{level:?}");
        }
        assert_eq!(
            Level::MoveTime(Duration::from_millis(100)).time_after_ponder_hit(),
            Some(Duration::from_millis(100) - Deadline::OVERHEAD)
        );
        assert_eq!(Level::Clock(clock).time_after_ponder_hit(), Some(clock.allotment()));
        assert_eq!(Level::Infinite.time_after_ponder_hit(), None);
    }

    #[test]
    fn levels_read_and_write() {
        let read = |t: &str| parse_level(&parse_line(t).unwrap().unwrap().1);
        for level in [
            Level::Depth(7),
            Level::MoveTime(Duration::from_millis(250)),
            Level::Infinite,
            Level::Clock(Clock {
                remaining: Duration::from_secs(60),
                increment: Duration::from_secs(1),
                moves_to_go: Some(40),
            }),
        ] {
            assert_eq!(read(&level.command()), Ok(level), "{}", level.command());
        }
        assert!(read("level depth=0").is_err());
        assert!(read("level move-time=-1").is_err());
        assert!(read("level").is_err());
        // Huge values are capped, never a panic.
        assert_eq!(read("level move-time=1e300"), Ok(Level::MoveTime(Deadline::LONGEST)));
        assert!(read("level time=1 inc=7e18").is_ok());
    }
}
