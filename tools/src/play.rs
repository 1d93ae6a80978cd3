//! The terminal play loop shared by the game programs: any mix of human and engine seats on
//! any [`Game`] with [`Notation`], plus a quiet engine-vs-engine mode for scripts.
//!
//! A human types a move in the game's notation, the number of a move from the printed list
//! (`#3` forces the list reading where a number is also a move, as in Connect Four), Enter
//! alone for the only legal move, or a command ([`HELP`] lists them): `hint` and `go` (an
//! engine's move for the human, shown or played), `swap`, `undo` and `redo`, `list`,
//! `time T` and `depth N` (the engines' budget from now on), `new`, `save FILE` and
//! `load FILE` (in the game's record format, [`Notation::write_record`]), `resign`, `quit`. A mistyped command or move is explained
//! and asked again, with the game unchanged. End of input ends the game cleanly. A human
//! whose only legal move is a pass (written `pass`, as in Reversi) passes without being
//! asked.
//!
//! # Replaying a game
//!
//! Engines are seeded from the game's seed and their seat, and `hint`/`go` from the seed
//! too, so with depth, node or iteration budgets (and one search thread) the same seed
//! replays the same game. A time budget makes the depth reached depend on the machine and
//! its load, so those games vary; `save` keeps one.
//!
//! # Pondering
//!
//! With [`PlayConfig::ponder`] (`--ponder`), an engine thinks while a human types. The engine
//! that moved last expects the human's reply (the second move of its principal variation);
//! the engine seat that moves after that reply searches the position it leads to, on a
//! thread of its own, while the terminal reads the human's line exactly as without
//! pondering (`help`, `moves` and mistyped moves are answered at once and the search goes
//! on). When the human's move arrives:
//!
//! - it is the expected one (a *ponder hit*): the same search goes on, now under the engine's
//!   budget with its time counted from the move (a depth, node or iteration limit applies as
//!   usual, and a search that has already reached it answers at once). The engine's line says
//!   `(ponder hit)` and its time includes the pondering. Nothing is searched twice: the
//!   answer comes from the tree, table and depth reached while the human thought.
//! - it is another move: the search is stopped and dropped, and the engine searches the real
//!   position as usual. (Alpha-beta built from a spec starts each search with a fresh table,
//!   so nothing of a missed ponder carries over.)
//!
//! An engine that keeps its search across moves ([`Agent::ponders_before_reply`]: MCTS with
//! tree reuse, the default) ponders the human's own position instead, with or without an
//! expected move. Whatever the human plays, the engine keeps the subtree of that move and
//! its search, under its usual budget, goes on from it; its line says how much it kept:
//! `(pondered: 41.2k playouts kept)`.
//!
//! `undo`, `quit` and the end of input stop the search first. There is nothing to ponder
//! without an expected move: at a human's first turn, after an engine search whose principal
//! variation ends with its own move, or when the expected move ends the game.
//!
//! Pondering is off by default: a game is meant to replay from its printed seed, and with
//! pondering an engine's moves depend on how long the human took (and it keeps a second core
//! busy while the human thinks).

use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{SystemTime, UNIX_EPOCH};

use std::time::Duration;

use ply::arena::{play_game_with, ArenaError, Seat as ArenaSeat};
use ply::book::Book;
use ply::search::{Agent, Budget, Deadline, Position, Progress, SearchError, SearchReport};
use ply::zobrist::mix64;
use ply::{Game, MoveList, Notation, Outcome, Player, Record};

use crate::agents::AgentKit;
use crate::error::ToolResult;

pub mod analysis;
mod commands;
pub(crate) mod display;
mod interrupt;
pub mod search_handle;
pub mod session;

use crate::spec::{parse_duration, AgentSpec, BookChoice};
pub(crate) use commands::read_input;
pub use commands::{BudgetChange, Input, InputError, HELP};
pub(crate) use display::{
    book_line, describe_outcome, format_line, hint_line, score_sheet, status_line, tables_line,
    terminal_width,
};
pub use display::{engine_line, from_book, wrap};

/// Who plays a seat.
// A few seats per game: the size of a spec inline does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    /// A person at the terminal.
    Human,
    /// An engine built from this spec.
    Engine(AgentSpec),
}

/// Which seats the humans take (`--human`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HumanSide {
    /// The first player (moves first).
    First,
    /// The second player.
    Second,
    /// Every seat: humans play each other.
    Both,
    /// No seat: engines play each other.
    None,
}

impl HumanSide {
    /// The seats of a `players`-player game: humans where this says, engines elsewhere, the
    /// engines taking `engines` in turn (the last one repeated when there are fewer).
    ///
    /// # Panics
    /// If an engine seat is needed and `engines` is empty.
    pub fn seats(self, players: usize, engines: &[AgentSpec]) -> Vec<Seat> {
        let mut next_engine = 0;
        (0..players)
            .map(|s| {
                let human = match self {
                    HumanSide::First => s == 0,
                    HumanSide::Second => s == 1,
                    HumanSide::Both => true,
                    HumanSide::None => false,
                };
                if human {
                    Seat::Human
                } else {
                    let i = next_engine.min(engines.len() - 1);
                    next_engine += 1;
                    Seat::Engine(engines[i].clone())
                }
            })
            .collect()
    }
}

/// The command-line options every game program shares; flatten them into its clap parser.
#[derive(clap::Args, Clone, Debug)]
pub struct PlayArgs {
    /// Engine spec, e.g. alphabeta:time=1s or mcts:iters=20000 (repeat to give each engine
    /// seat its own, in seat order).
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<AgentSpec>,
    /// Seats played by humans. Default: first when stdin is a terminal, none otherwise.
    #[arg(long, value_enum, conflicts_with = "seats")]
    pub human: Option<HumanSide>,
    /// The side you play against the engines: its name (black, white, x, o...) or its number
    /// from 1 (the same as --seat N=human).
    #[arg(long, value_name = "SIDE", conflicts_with_all = ["human", "seats"])]
    pub color: Option<String>,
    /// Who plays a seat: N=human or N=SPEC (e.g. 2=mcts:time=200ms); repeatable. Seats not
    /// given are played by the engine.
    #[arg(long = "seat", value_name = "N=WHO")]
    pub seats: Vec<String>,
    /// Seed for the engines (default: from the clock; printed). With depth, node or
    /// iteration budgets the same seed replays the same game; engines on time (the default
    /// engines, --time) or on several threads search differently from run to run, so those
    /// games vary (use save to keep one).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start from this position, in the game's position notation (PDN FEN for checkers and
    /// draughts).
    #[arg(long, visible_alias = "fen", value_name = "P")]
    pub position: Option<String>,
    /// Time per engine move, e.g. 500ms or 2s (sets the time of every engine). Games on time
    /// vary from run to run, even with the same --seed.
    #[arg(long, value_name = "T", value_parser = parse_time)]
    pub time: Option<Duration>,
    /// Search depth of every engine, in plies.
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Let engines think while you type: the engine searches the position after the move it
    /// expects from you, and answers sooner (or deeper) when you play it. Off by default,
    /// so that a game replays from its seed (pondering makes engine moves depend on how long
    /// you think).
    #[arg(long)]
    pub ponder: bool,
    /// No colours in the terminal (the NO_COLOR environment variable does the same).
    #[arg(long)]
    pub no_color: bool,
    /// Turn the board round: by default the side of the first person playing is at the
    /// bottom (the first player's when engines play each other); --flip shows the other.
    #[arg(long)]
    pub flip: bool,
    /// The engines play without an opening book (by default, searches play from the game's
    /// own book while the game is in it, where the game has one).
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,
    /// The engines play from this opening book (a file written by the book program)
    /// instead of the game's own.
    #[arg(long, value_name = "FILE")]
    pub book: Option<String>,
    /// Watch engines play each other: every position is shown, with DELAY between moves
    /// (default 1s). Engines play every seat unless --human or --seat says otherwise.
    #[arg(long, value_name = "DELAY", num_args = 0..=1, default_missing_value = "1s",
          value_parser = parse_time)]
    pub watch: Option<Duration>,
}

/// The seat `--color` names: a seat name of `names` (any case) or a number from 1.
///
/// # Errors
/// If `text` is neither, with the sides there are.
pub fn side_index(text: &str, names: &[String], players: usize) -> ToolResult<usize> {
    let text = text.trim();
    if let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(text)) {
        return Ok(i);
    }
    match text.parse::<usize>() {
        Ok(n) if (1..=players).contains(&n) => Ok(n - 1),
        _ => {
            let mut sides: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
            if names.len() != players {
                sides = Vec::new();
            }
            sides.push(format!("1 to {players}"));
            Err(format!("bad --color {text:?}: the sides are {}", sides.join(", ")).into())
        }
    }
}

/// Reads `--seat N=WHO` options into one seat per player; seats not given get `default`.
///
/// # Errors
/// A malformed option, a seat outside `1..=players`, a bad spec, or a seat given twice.
pub(crate) fn parse_seats(
    texts: &[String],
    players: usize,
    default: &AgentSpec,
) -> Result<Vec<Seat>, String> {
    let mut seats: Vec<Option<Seat>> = vec![None; players];
    for text in texts {
        let (n, who) = text
            .split_once('=')
            .ok_or_else(|| format!("bad --seat {text:?}: expected N=human or N=SPEC"))?;
        let n: usize = n
            .trim()
            .parse()
            .ok()
            .filter(|n| (1..=players).contains(n))
            .ok_or_else(|| format!("bad --seat {text:?}: seat must be 1..={players}"))?;
        let seat = match who.trim() {
            "human" => Seat::Human,
            spec => Seat::Engine(
                spec.parse::<AgentSpec>().map_err(|e| format!("bad --seat {text:?}: {e}"))?,
            ),
        };
        if seats[n - 1].replace(seat).is_some() {
            return Err(format!("seat {n} is given twice"));
        }
    }
    Ok(seats.into_iter().map(|s| s.unwrap_or_else(|| Seat::Engine(default.clone()))).collect())
}

fn parse_time(text: &str) -> Result<Duration, String> {
    parse_duration(text).map_err(|e| e.to_string())
}

impl PlayArgs {
    /// The engine specs for a game of `players` players: `--engine`s, else `default`, with
    /// `--time`/`--depth` applied to every one (`--depth` alone drops the spec's time limit),
    /// and `--no-book`/`--book`; a default alpha-beta becomes paranoid search when there are
    /// not two players.
    ///
    /// # Errors
    /// If `default` is not a spec.
    pub(crate) fn engine_specs_for(
        &self,
        default: &str,
        players: usize,
    ) -> crate::error::ToolResult<Vec<AgentSpec>> {
        let mut specs = self.engines.clone();
        if specs.is_empty() {
            let mut spec: AgentSpec =
                default.parse().map_err(|e| format!("default engine: {e}"))?;
            if players != 2 && spec.algorithm == crate::spec::Algorithm::AlphaBeta {
                spec.algorithm = crate::spec::Algorithm::Paranoid;
                spec.plain = None;
            }
            specs.push(spec);
        }
        for spec in &mut specs {
            if self.time.is_some() {
                spec.time = self.time;
            }
            if self.depth.is_some() {
                spec.depth = self.depth;
                if self.time.is_none() {
                    spec.time = None;
                }
            }
            if self.no_book {
                spec.book = Some(BookChoice::Off);
            } else if let Some(file) = &self.book {
                spec.book = Some(BookChoice::File(file.clone()));
            }
        }
        Ok(specs)
    }
}

pub use crate::options::Defaults;
pub use session::Session;

/// The settings of one game in the terminal.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Who plays each seat.
    pub seats: Vec<Seat>,
    /// Engine seeds derive from it (seat `s` gets `mix64(seed ^ s)` unless its spec pins one).
    pub seed: u64,
    /// ANSI colours in board pictures.
    pub color: bool,
    /// A name per seat; missing ones are "player N".
    pub names: Vec<String>,
    /// Repeat each line read after the prompt (for input that is not typed at a terminal, so
    /// the transcript shows it).
    pub echo: bool,
    /// Engines think on the humans' time (see [pondering](self#pondering)).
    pub ponder: bool,
    /// The engine of `hint` and `go` for a seat where no engine has sat.
    pub assistant: AgentSpec,
    /// Show a status line with the time an engine has been thinking, redrawn in place (for
    /// a terminal).
    pub live: bool,
    /// The player whose side the board pictures put at the bottom.
    pub viewer: Player,
}

impl PlayConfig {
    fn name(&self, p: Player) -> String {
        self.names.get(p.index()).cloned().unwrap_or_else(|| p.to_string())
    }
}

/// How a terminal game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// The rules ended it.
    Finished(Outcome),
    /// A human typed `quit`.
    Quit,
    /// The input ran out (Ctrl-D, or a script's end).
    EndOfInput,
    /// The human of this seat typed `resign`.
    Resigned(Player),
}

/// A failure of the play loop itself (not of the players' input, which is asked again).
#[derive(Debug, thiserror::Error)]
pub enum PlayLoopError {
    /// Reading or writing the terminal failed.
    #[error("terminal i/o: {0}")]
    Io(#[from] io::Error),
    /// An engine could not move.
    #[error("engine {spec}: {source}")]
    Search {
        /// The engine's spec.
        spec: String,
        /// Why.
        source: SearchError,
    },
    /// An engine spec that cannot be built for this game.
    #[error("engine {spec}: {reason}")]
    Spec {
        /// The engine's spec.
        spec: String,
        /// Why.
        reason: String,
    },
    /// An engine answered a move that is not legal.
    #[error("engine {spec} answered an illegal move: {mv}")]
    IllegalMove {
        /// The engine's spec.
        spec: String,
        /// The move, in debug form.
        mv: String,
    },
}

/// The start position: `text` read in the game's position notation, or the initial state
/// when there is none.
///
/// # Errors
/// The notation's message, prefixed with the option the text came from (`bad --fen: ...`).
pub(crate) fn start_state<G: Notation>(
    game: &G,
    text: Option<&str>,
    option: &str,
) -> Result<G::State, String> {
    match text {
        Some(t) => game.parse_state(t).map_err(|e| format!("bad {option}: {e}")),
        None => Ok(game.initial_state()),
    }
}

/// The legal move `text` names in `state`: the game's notation first, then a number from the
/// list of legal moves (1-based, in generation order); `#N` is always a list number. In a game
/// whose moves are written as numbers (Connect Four's columns, Kalah's pits) a number is
/// always the move it writes: `1` is column 1, and an error if that column is full.
///
/// # Errors
/// [`InputError`] with the reason, the notation's own message for text it cannot read.
pub(crate) fn resolve_input<G: Notation>(
    game: &G,
    state: &G::State,
    text: &str,
) -> Result<G::Move, InputError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(InputError::Empty);
    }
    let mut legal = MoveList::new();
    game.generate_moves(state, &mut legal);
    let by_number = |n: usize| {
        n.checked_sub(1)
            .and_then(|i| legal.get(i).copied())
            .ok_or(InputError::NoSuchNumber { number: n, len: legal.len() })
    };
    if let Some(number) = text.strip_prefix('#') {
        return match number.trim().parse::<usize>() {
            Ok(n) => by_number(n),
            Err(_) => Err(InputError::Notation(format!("{text:?} is not a move number"))),
        };
    }
    let numbers_are_moves =
        legal.iter().any(|&mv| game.format_move(state, mv).bytes().all(|b| b.is_ascii_digit()));
    match game.parse_move(state, text) {
        Ok(mv) => Ok(mv),
        Err(e) => match text.parse::<usize>() {
            Ok(n) if !numbers_are_moves => by_number(n),
            _ => Err(InputError::Notation(e.to_string())),
        },
    }
}

/// The numbered legal moves on one line, `1. 11-15  2. 11-16 ...`, for [`wrap`].
pub(crate) fn numbered_moves<G: Notation>(game: &G, state: &G::State) -> String {
    let mut legal = MoveList::new();
    game.generate_moves(state, &mut legal);
    let items: Vec<String> = legal
        .iter()
        .enumerate()
        .map(|(i, &mv)| format!("{}. {}", i + 1, game.format_move(state, mv)))
        .collect();
    items.join("  ")
}

/// Where the continuation lines of a wrapped engine line start.
const ENGINE_INDENT: &str = "      ";

/// What the player chose at the end of a game.
enum AfterGame {
    /// `quit` or the end of the input: the finished game is the session's result.
    Leave,
    /// `undo`, `new` or `load`: play goes on.
    Resume,
}

/// The commands of a finished game.
const AFTER_GAME_HELP: &str = "the game is over: list (the moves), save FILE, undo (take back \
                               to your last move), new (a new game), load FILE, quit";

/// The prompt of a finished game with a human seat: the game stays open for `list`, `save`,
/// `undo`, `new` and `load` until `quit` or the end of the input.
fn after_the_game<G: Notation + Sync + 'static>(
    session: &mut Session<'_, G>,
    config: &PlayConfig,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<AfterGame, PlayLoopError> {
    let mut line = Vec::new();
    loop {
        write!(out, "game over> ")?;
        out.flush()?;
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            writeln!(out)?;
            return Ok(AfterGame::Leave);
        }
        let text = String::from_utf8_lossy(&line);
        if config.echo {
            writeln!(out, "{}", text.trim_end())?;
        }
        let state = session.record.state().clone();
        match read_input(session.game, &state, &text) {
            Ok(Input::Quit) => return Ok(AfterGame::Leave),
            Ok(Input::List) => writeln!(out, "{}", moves_line(&session.record))?,
            Ok(Input::Save(path)) => match session.save(&path) {
                Ok(n) => writeln!(out, "saved {n} moves to {path}")?,
                Err(e) => writeln!(out, "save: {e}")?,
            },
            Ok(Input::Undo) if session.can_undo() => {
                let taken = session.undo().expect("a human choice to go back to");
                writeln!(out, "took back {taken} moves")?;
                return Ok(AfterGame::Resume);
            }
            Ok(Input::Undo) => writeln!(out, "nothing to undo")?,
            Ok(Input::New) => {
                session.new_game();
                writeln!(out, "new game")?;
                return Ok(AfterGame::Resume);
            }
            Ok(Input::Load(path)) => match session.load(&path) {
                Ok(n) => {
                    writeln!(out, "loaded {n} moves from {path}")?;
                    return Ok(AfterGame::Resume);
                }
                Err(e) => writeln!(out, "load: {e}")?,
            },
            _ => writeln!(out, "{}", wrap(AFTER_GAME_HELP, terminal_width(), "  "))?,
        }
    }
}

/// The player whose side the pictures put at the bottom: the first human seat's (the first
/// player's when engines play each other), or with `flip` the next player's.
fn viewer_of(seats: &[Seat], flip: bool) -> Player {
    let first = seats.iter().position(|s| *s == Seat::Human).unwrap_or(0);
    Player::new(if flip { (first + 1) % seats.len().max(1) } else { first })
}

/// What leaving the game prints (`quit`, Ctrl-C): how many moves were played, then the
/// moves.
fn left_words<G: Notation>(record: &Record<'_, G>) -> String {
    let played = record.moves().len();
    format!("game left after {played} moves\n{}\n", moves_line(record))
}

/// The moves of the game so far as a score sheet, `moves: 1. ...`, wrapped.
fn moves_line<G: Notation>(record: &Record<'_, G>) -> String {
    let sheet = score_sheet(record.game(), record.start(), record.moves());
    wrap(&format!("moves: {sheet}"), terminal_width(), "       ")
}

/// True if stdout takes colours: a terminal, and `NO_COLOR` unset or empty.
pub(crate) fn color_enabled() -> bool {
    wants_color(false, std::env::var_os("NO_COLOR").as_deref(), io::stdout().is_terminal())
}

/// Whether to print colours: not with `--no-color` (`no_color_flag`), not when the
/// `NO_COLOR` environment variable is set to anything but the empty string
/// (<https://no-color.org>), and only to a terminal.
pub fn wants_color(
    no_color_flag: bool,
    no_color_env: Option<&std::ffi::OsStr>,
    terminal: bool,
) -> bool {
    let env_off = no_color_env.is_some_and(|v| !v.is_empty());
    terminal && !no_color_flag && !env_off
}

/// The first line of a game: who plays each seat and the seed, and whether the seed replays
/// the game (it does not when an engine searches on time or on more than one thread).
pub fn seats_line(seats: &[Seat], names: &[String], seed: u64) -> String {
    let describe: Vec<String> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = names.get(i).cloned().unwrap_or_else(|| Player::new(i).to_string());
            match s {
                Seat::Human => format!("{name}: human"),
                Seat::Engine(spec) => format!("{name}: {spec}"),
            }
        })
        .collect();
    let varies = seats.iter().any(|s| match s {
        Seat::Engine(spec) => spec.budget().time.is_some() || spec.threads.is_some_and(|t| t > 1),
        Seat::Human => false,
    });
    let replay = match varies {
        true => "; engines on time or threads: games vary from run to run",
        false => "; the same seed replays this game",
    };
    format!("{}  (seed {seed}{replay})", describe.join(", "))
}

/// A seed from the clock, for games that were not given one.
pub fn clock_seed() -> u64 {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    mix64(nanos as u64) % 1_000_000
}

/// An engine seat: its agent, budget, spec (as text) and opening book (to tell book moves).
type Engine<G> = (Box<dyn Agent<G> + Send>, Budget, String, Option<Arc<Book<G>>>);

fn build_engines<G: Notation + Sync + 'static>(
    seats: &[Seat],
    seed: u64,
    kit: &AgentKit<G>,
) -> Result<Vec<Option<Engine<G>>>, PlayLoopError> {
    seats
        .iter()
        .enumerate()
        .map(|(s, seat)| match seat {
            Seat::Human => Ok(None),
            Seat::Engine(spec) => {
                let fail = |e: crate::spec::SpecError| PlayLoopError::Spec {
                    spec: spec.to_string(),
                    reason: e.to_string(),
                };
                let book = kit.book_for(spec).map_err(fail)?;
                let mut agent = kit.build(spec, mix64(seed ^ s as u64)).map_err(fail)?;
                // Tables are allocated now, before the first move's clock starts.
                agent.new_game();
                Ok(Some((agent, spec.budget(), spec.to_string(), book)))
            }
        })
        .collect()
}

/// What a ponder search left for the engine's next move.
enum Pondered<M> {
    /// The human played the expected move: the report of the search of the position after it.
    Hit(SearchReport<M>),
    /// The engine searched the human's position; its next search goes on from the reply.
    BeforeReply,
}

/// Plays the engine of `seat`: the report of its ponder search after a hit, else a search
/// now. Returns the report.
fn engine_move<'g, G: Notation + Sync + 'static>(
    record: &mut Record<'g, G>,
    engines: &mut [Option<Engine<G>>],
    seat: usize,
    who: &str,
    pondered: Option<Pondered<G::Move>>,
    live: bool,
    out: &mut impl Write,
) -> Result<SearchReport<G::Move>, PlayLoopError> {
    let game = record.game();
    let (agent, budget, spec, book) = engines[seat].as_mut().expect("an engine seat");
    let hit = matches!(pondered, Some(Pondered::Hit(_)));
    let before_reply = matches!(pondered, Some(Pondered::BeforeReply));
    let report = match pondered {
        Some(Pondered::Hit(report)) => report,
        _ => {
            let position = Position::with_history(record.state(), record.hashes());
            let searched = match live {
                true => search_showing_time(game, position, agent, budget, who, out)?,
                false => agent.choose(game, position, budget),
            };
            searched.map_err(|source| PlayLoopError::Search { spec: spec.clone(), source })?
        }
    };
    let mut line = match from_book(book.as_deref(), game, record.state(), &report) {
        true => book_line(game, record.state(), who, &report),
        false => engine_line(game, record.state(), who, &report),
    };
    if hit {
        line += "  (ponder hit)";
    }
    let kept = agent.carried_over();
    if before_reply && kept > 0 {
        line += &format!("  (pondered: {} playouts kept)", crate::units::si(kept as f64));
    }
    writeln!(out, "{}", wrap(&line, terminal_width(), ENGINE_INDENT))?;
    let before = record.state().clone();
    record.play(report.best_move).map_err(|_| PlayLoopError::IllegalMove {
        spec: spec.clone(),
        mv: format!("{:?}", report.best_move),
    })?;
    observe_all(game, engines, &before, report.best_move, None);
    Ok(report)
}

/// How often the status line of a search is redrawn.
const STATUS_EVERY: Duration = Duration::from_millis(100);

/// Runs `agent`'s search on a thread of its own while a status line on `out` shows the time
/// it has taken and what the search has found so far ([`status_line`]: `White thinking 1.4s
/// depth 9  score +35  nps 1.2M  pv 11-15 23-19 ...`); the line is cleared when the search
/// ends.
fn search_showing_time<G: Notation + Sync + 'static>(
    game: &G,
    position: Position<'_, G::State>,
    agent: &mut Box<dyn Agent<G> + Send>,
    budget: &Budget,
    who: &str,
    out: &mut impl Write,
) -> Result<Result<SearchReport<G::Move>, SearchError>, io::Error> {
    let begun = std::time::Instant::now();
    let (done, finished) = mpsc::channel();
    let progress = Arc::new(Progress::new());
    let budget = budget.clone().with_progress(progress.clone());
    // One column spare: a line that fills the terminal would wrap before the `\r`.
    let columns = terminal_width().saturating_sub(1);
    let state = position.state;
    std::thread::scope(|scope| {
        let search = scope.spawn(move || {
            let result = agent.choose(game, position, &budget);
            let _ = done.send(());
            result
        });
        let mut width: usize = 0;
        let mut shown = Ok(());
        while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(STATUS_EVERY) {
            let info = progress.latest::<G::Move>();
            let status = status_line(game, state, who, begun.elapsed(), info.as_ref(), columns);
            let len = status.chars().count();
            let pad = width.saturating_sub(len);
            width = width.max(len);
            if shown.is_ok() {
                shown = write!(out, "\r{status}{:pad$}", "").and_then(|()| out.flush());
            }
        }
        let result = search.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        if width > 0 && shown.is_ok() {
            shown = write!(out, "\r{:width$}\r", "").and_then(|()| out.flush());
        }
        shown.map(|()| result)
    })
}

/// Tells every engine but the one of seat `skip` that `mv` was played.
fn observe_all<G: Game>(
    game: &G,
    engines: &mut [Option<Engine<G>>],
    before: &G::State,
    mv: G::Move,
    skip: Option<usize>,
) {
    for (s, engine) in engines.iter_mut().enumerate() {
        if let Some((agent, _, _, _)) = engine.as_mut().filter(|_| Some(s) != skip) {
            agent.observe(game, before, mv);
        }
    }
}

/// The move expected at the end of `moves`: the continuation of the principal variation
/// `line.1` of the search made when `line.0` moves had been played, if the moves since
/// followed it.
fn expected_move<M: Copy + PartialEq>(line: Option<&(usize, Vec<M>)>, moves: &[M]) -> Option<M> {
    let (from, pv) = line?;
    let since = moves.get(*from..)?;
    (pv.len() > since.len() && pv[..since.len()] == *since).then(|| pv[since.len()])
}

/// The time budget of a ponder search when the engine's own budget sets no limit that ends it
/// (in practice, until the human's move stops it).
const PONDER_TIME: Duration = Duration::from_secs(86_400);

/// What a ponder search hands back: the agent and its search.
type Pondering<G> =
    (Box<dyn Agent<G> + Send>, Result<SearchReport<<G as Game>::Move>, SearchError>);

/// An engine searching, on a thread of its own, the position after the move a human is
/// expected to play (see [pondering](self#pondering)). Its agent is out of its seat until
/// [`Ponder::finish`] puts it back; dropping a `Ponder` stops the search.
struct Ponder<'scope, G: Game> {
    /// The seat whose agent searches.
    seat: usize,
    /// The human move the search assumes; `None` when it searches the human's position.
    expected: Option<G::Move>,
    /// The seat's budget, spec and book, for its seat again.
    budget: Budget,
    spec: String,
    book: Option<Arc<Book<G>>>,
    /// How long the search may go on after a hit, counted from it.
    after_hit: Option<Duration>,
    stop: Arc<AtomicBool>,
    /// Receives (or is disconnected) when the search has ended.
    finished: mpsc::Receiver<()>,
    thread: Option<ScopedJoinHandle<'scope, Pondering<G>>>,
}

impl<'scope, G: Game> Ponder<'scope, G> {
    /// Starts pondering for the engine seat that moves after the human's reply: the position
    /// after `expected`, or the human's own position if that engine
    /// [ponders before the reply](Agent::ponders_before_reply). `None` if there is nothing
    /// to ponder: no expected move (for an engine that needs one), a reply that is illegal,
    /// ends the game or leads to a human's turn, or a position of the engine's book.
    fn start<'env>(
        scope: &'scope Scope<'scope, 'env>,
        record: &Record<'env, G>,
        engines: &mut [Option<Engine<G>>],
        expected: Option<G::Move>,
    ) -> Option<Self> {
        let game = record.game();
        let reply = match expected {
            Some(mv) => mv,
            None => {
                let mut legal = MoveList::new();
                game.generate_moves(record.state(), &mut legal);
                *legal.as_slice().first()?
            }
        };
        // The record after the reply, rules and repetitions checked as in play.
        let mut after = Record::new(game, record.start().clone());
        for &mv in record.moves().iter().chain([&reply]) {
            after.play(mv).ok()?;
        }
        if after.outcome().is_some() {
            return None;
        }
        let seat = game.to_move(after.state()).index();
        let (agent, _, _, book) = engines.get(seat)?.as_ref()?;
        let before_reply = agent.ponders_before_reply();
        let (pondered, expected) = match (before_reply, expected) {
            (true, _) => (record, None),
            (false, Some(mv)) => (&after, Some(mv)),
            (false, None) => return None,
        };
        // A position of the engine's book is answered from the book: nothing to ponder.
        if !before_reply && book.as_ref().is_some_and(|b| !b.moves(game, after.state()).is_empty())
        {
            return None;
        }
        let (mut agent, budget, spec, book) = engines.get_mut(seat)?.take()?;
        let stop = Arc::new(AtomicBool::new(false));
        let mut search = budget.clone();
        let after_hit = match (search.time.take(), search.clock.take()) {
            (Some(t), Some(c)) => Some(t.min(c.allotment())),
            (t, c) => t.or(c.map(|c| c.allotment())),
        }
        .map(|t| t.saturating_sub(Deadline::OVERHEAD));
        if search.is_unlimited() {
            search.time = Some(PONDER_TIME);
        }
        let search = search.with_stop(stop.clone());
        let (done, finished) = mpsc::channel();
        let (state, hashes) = (pondered.state().clone(), pondered.hashes().to_vec());
        let thread = scope.spawn(move || {
            let result = agent.choose(game, Position::with_history(&state, &hashes), &search);
            let _ = done.send(());
            (agent, result)
        });
        Some(Ponder {
            seat,
            expected,
            budget,
            spec,
            book,
            after_hit,
            stop,
            finished,
            thread: Some(thread),
        })
    }

    /// Ends the search and puts the agent back in its seat. After a hit (`hit`, only for a
    /// search of the position after the expected move) the search first goes on for the
    /// seat's time counted from now (or to its own limit), and its report is returned;
    /// otherwise it is stopped at once and its report dropped (an agent that pondered before
    /// the reply keeps its search for the next one).
    fn finish(
        mut self,
        engines: &mut [Option<Engine<G>>],
        hit: bool,
    ) -> Option<SearchReport<G::Move>> {
        if hit {
            // A disconnected channel means the search thread has ended (or failed).
            let _ = match self.after_hit {
                Some(limit) => self.finished.recv_timeout(limit).map_err(|_| ()),
                None => self.finished.recv().map_err(|_| ()),
            };
        }
        self.stop.store(true, Ordering::SeqCst);
        let thread = self.thread.take()?;
        let (agent, result) =
            thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        engines[self.seat] =
            Some((agent, self.budget.clone(), self.spec.clone(), self.book.clone()));
        if hit {
            result.ok()
        } else {
            None
        }
    }
}

impl<G: Game> Drop for Ponder<'_, G> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Prints the final picture, the result and the score sheet.
pub(crate) fn print_result<G: Notation>(
    record: &Record<'_, G>,
    names: &[String],
    (color, viewer): (bool, Player),
    out: &mut impl Write,
) -> io::Result<()> {
    let game = record.game();
    let last = record.moves().last().copied();
    writeln!(out, "\n{}\n", game.render_for(record.state(), last, color, viewer))?;
    if let Some(outcome) = record.outcome() {
        writeln!(
            out,
            "result: {}",
            describe_outcome(&outcome, names, record.is_repetition_draw())
        )?;
    }
    writeln!(out, "{}", moves_line(record))
}

/// Plays a game at the terminal: humans type their moves or commands ([`HELP`]) on `input`,
/// engines print a line of statistics per move, everything goes to `out`. Returns how it
/// ended and the record (of the game on the board at the end, after any `new` or `load`).
///
/// # Errors
/// If the terminal fails or an engine cannot move; bad human input is explained and asked
/// again instead.
pub fn play_terminal<'g, G: Notation + Sync + 'static>(
    game: &'g G,
    start: G::State,
    config: &PlayConfig,
    kit: &AgentKit<G>,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(Ending, Record<'g, G>), PlayLoopError> {
    let mut session = Session::new(game, start, config, kit)?;
    let mut line = Vec::new();
    // What the last ponder search left for the next engine move, and its seat.
    let mut pondered: Option<(usize, Pondered<G::Move>)> = None;
    loop {
        interrupt::remember(left_words(&session.record));
        if let Some(outcome) = session.record.outcome() {
            print_result(&session.record, &session.names, (config.color, config.viewer), out)?;
            if !session.seats.contains(&Seat::Human) {
                return Ok((Ending::Finished(outcome), session.record));
            }
            match after_the_game(&mut session, config, input, out)? {
                AfterGame::Leave => return Ok((Ending::Finished(outcome), session.record)),
                AfterGame::Resume => continue,
            }
        }
        let player = game.to_move(session.record.state());
        let seat = player.index();
        let who = session.names[seat].clone();
        if session.engine_to_move() {
            let ready = pondered.take().filter(|(s, _)| *s == seat).map(|(_, r)| r);
            session.engine_turn_pondered(ready, config.live, out)?;
            continue;
        }
        if let Some(pass) = session.forced_pass() {
            // A blocked or eliminated human seat has nothing to choose: it passes at once.
            session.play(pass).map_err(|_| PlayLoopError::IllegalMove {
                spec: "human".into(),
                mv: format!("{pass:?}"),
            })?;
            writeln!(out, "{who} passes (no other move)")?;
            continue;
        }
        let record = &session.record;
        let last = record.moves().last().copied();
        writeln!(
            out,
            "\n{}\n",
            game.render_for(record.state(), last, config.color, config.viewer)
        )?;
        writeln!(out, "{}", wrap(&numbered_moves(game, record.state()), terminal_width(), ""))?;
        if let Some(verdict) = kit.tables_verdict(game, record.state()) {
            writeln!(out, "{}", tables_line(&who, verdict))?;
        }
        let ending = std::thread::scope(|scope| -> Result<Option<Ending>, PlayLoopError> {
            let mut ponder = match config.ponder {
                true => {
                    let expected = expected_move(session.last_pv.as_ref(), session.record.moves());
                    Ponder::start(scope, &session.record, &mut session.engines, expected)
                }
                false => None,
            };
            loop {
                write!(out, "{who} to move> ")?;
                out.flush()?;
                line.clear();
                let moves_played = session.record.moves().len();
                if input.read_until(b'\n', &mut line)? == 0 {
                    stop_pondering(&mut ponder, &mut session.engines);
                    writeln!(out, "\nend of input: game left after {moves_played} moves")?;
                    writeln!(out, "{}", moves_line(&session.record))?;
                    return Ok(Some(Ending::EndOfInput));
                }
                let text = String::from_utf8_lossy(&line);
                if config.echo {
                    writeln!(out, "{}", text.trim_end())?;
                }
                let state = session.record.state();
                let chosen = match read_input(game, state, &text) {
                    Ok(Input::Move(mv)) => mv,
                    Ok(Input::Go) => match session.suggest_live(config.live, &who, out) {
                        Ok(report) => {
                            let by = format!("{who} (engine)");
                            let book = kit.book_for(session.helper()).ok().flatten();
                            let line = match from_book(book.as_deref(), game, state, &report) {
                                true => book_line(game, state, &by, &report),
                                false => engine_line(game, state, &by, &report),
                            };
                            writeln!(out, "{}", wrap(&line, terminal_width(), ENGINE_INDENT))?;
                            report.best_move
                        }
                        Err(e) => {
                            writeln!(out, "go: {e}")?;
                            continue;
                        }
                    },
                    Ok(Input::Hint) => {
                        match session.suggest_live(config.live, "hint:", out) {
                            Ok(report) => {
                                let book = kit.book_for(session.helper()).ok().flatten();
                                let line = match from_book(book.as_deref(), game, state, &report) {
                                    true => book_line(game, state, "hint:", &report).replacen(
                                        "hint: plays",
                                        "hint:",
                                        1,
                                    ),
                                    false => hint_line(game, state, &report),
                                };
                                writeln!(out, "{}", wrap(&line, terminal_width(), ENGINE_INDENT))?
                            }
                            Err(e) => writeln!(out, "hint: {e}")?,
                        }
                        continue;
                    }
                    Ok(Input::Help) => {
                        writeln!(out, "{HELP}")?;
                        continue;
                    }
                    Ok(Input::Moves) => {
                        writeln!(
                            out,
                            "{}",
                            wrap(&numbered_moves(game, state), terminal_width(), "")
                        )?;
                        continue;
                    }
                    Ok(Input::List) => {
                        match moves_played {
                            0 => writeln!(out, "no moves yet")?,
                            _ => writeln!(out, "{}", moves_line(&session.record))?,
                        }
                        continue;
                    }
                    Ok(Input::Quit) => {
                        stop_pondering(&mut ponder, &mut session.engines);
                        write!(out, "{}", left_words(&session.record))?;
                        return Ok(Some(Ending::Quit));
                    }
                    Ok(Input::Resign) => {
                        stop_pondering(&mut ponder, &mut session.engines);
                        writeln!(out, "{who} resigns after {moves_played} moves")?;
                        if session.names.len() == 2 {
                            writeln!(out, "result: {} wins", session.names[1 - seat])?;
                        }
                        writeln!(out, "{}", moves_line(&session.record))?;
                        return Ok(Some(Ending::Resigned(player)));
                    }
                    Ok(Input::Swap) => {
                        if !session.can_swap() {
                            writeln!(out, "swap: no engine plays in this game")?;
                            continue;
                        }
                        stop_pondering(&mut ponder, &mut session.engines);
                        let other = session.swap().expect("an engine seat");
                        let name = &session.names[other];
                        writeln!(out, "you now play {name}; the engine plays {who}")?;
                        return Ok(None);
                    }
                    Ok(Input::Budget(change)) => {
                        stop_pondering(&mut ponder, &mut session.engines);
                        let text = session.change_budget(change);
                        writeln!(out, "{}", wrap(&text, terminal_width(), "  "))?;
                        continue;
                    }
                    Ok(Input::Undo) => {
                        if !session.can_undo() {
                            writeln!(out, "nothing to undo")?;
                            continue;
                        }
                        stop_pondering(&mut ponder, &mut session.engines);
                        let taken = session.undo().expect("a human choice to go back to");
                        writeln!(out, "took back {taken} moves")?;
                        return Ok(None);
                    }
                    Ok(Input::Redo) => {
                        if !session.can_redo() {
                            writeln!(out, "nothing to redo")?;
                            continue;
                        }
                        stop_pondering(&mut ponder, &mut session.engines);
                        let count = session.redo().unwrap_or(0);
                        writeln!(out, "played again {count} moves")?;
                        return Ok(None);
                    }
                    Ok(Input::New) => {
                        stop_pondering(&mut ponder, &mut session.engines);
                        session.new_game();
                        writeln!(out, "new game")?;
                        return Ok(None);
                    }
                    Ok(Input::Save(path)) => {
                        match session.save(&path) {
                            Ok(n) => writeln!(out, "saved {n} moves to {path}")?,
                            Err(e) => writeln!(out, "save: {e}")?,
                        }
                        continue;
                    }
                    Ok(Input::Load(path)) => {
                        // Read first: a file that does not load leaves the game as it was.
                        let (start, moves) = match session.read_game(&path) {
                            Ok(game) => game,
                            Err(e) => {
                                writeln!(out, "load: {e}")?;
                                continue;
                            }
                        };
                        stop_pondering(&mut ponder, &mut session.engines);
                        session.resume(&start, &moves);
                        writeln!(out, "loaded {} moves from {path}", moves.len())?;
                        return Ok(None);
                    }
                    Err(e) => {
                        writeln!(out, "{}", wrap(&e.to_string(), terminal_width(), "  "))?;
                        if !matches!(e, InputError::BadArgument { .. }) {
                            let legal = format!("legal moves: {}", numbered_moves(game, state));
                            writeln!(out, "{}", wrap(&legal, terminal_width(), ""))?;
                        }
                        continue;
                    }
                };
                // After a hit the pondering agent has searched the position after `chosen`
                // already (an MCTS tree is rooted there): it is not told of it. An agent
                // that pondered before the reply is told, and keeps the subtree of `chosen`.
                let mut searched = None;
                let mut left = None;
                if let Some(p) = ponder.take() {
                    let (seat, hit) = (p.seat, p.expected == Some(chosen));
                    let before_reply = p.expected.is_none();
                    if let Some(report) = p.finish(&mut session.engines, hit) {
                        left = Some((seat, Pondered::Hit(report)));
                        searched = Some(seat);
                    } else if before_reply {
                        left = Some((seat, Pondered::BeforeReply));
                    }
                }
                // Only listed moves get here; a repetition draw is checked at the top of the
                // loop, so this cannot be refused.
                if let Err(e) = session.play_searched(chosen, searched) {
                    writeln!(out, "{e}")?;
                    continue;
                }
                if left.is_some() {
                    pondered = left;
                }
                return Ok(None);
            }
        })?;
        if let Some(ending) = ending {
            return Ok((ending, session.record));
        }
    }
}

/// The only legal move of `state` when it is a pass (written `pass` in the game's notation).
fn only_pass<G: Notation>(game: &G, state: &G::State) -> Option<G::Move> {
    let mut legal = MoveList::new();
    game.generate_moves(state, &mut legal);
    match legal.as_slice() {
        [only] if game.format_move(state, *only).eq_ignore_ascii_case("pass") => Some(*only),
        _ => None,
    }
}

/// Stops a ponder search, if one runs, and puts its agent back in its seat.
fn stop_pondering<G: Game>(ponder: &mut Option<Ponder<'_, G>>, engines: &mut [Option<Engine<G>>]) {
    if let Some(p) = ponder.take() {
        p.finish(engines, false);
    }
}

/// Keeps the moves of `redo` while play follows them, drops them once it leaves them.
fn note_played<M: PartialEq>(redo: &mut Vec<M>, mv: M) {
    if redo.last() == Some(&mv) {
        redo.pop();
    } else {
        redo.clear();
    }
}

/// For each ply of `record`, whether a human chose the move there (a human seat was to move
/// and had more than a pass to play): the plies `undo` goes back to.
fn human_choices<G: Notation>(record: &Record<'_, G>, seats: &[Seat]) -> Vec<bool> {
    let game = record.game();
    let mut state = record.start().clone();
    let mut choices = Vec::with_capacity(record.moves().len());
    for &mv in record.moves() {
        let seat = game.to_move(&state).index();
        choices.push(seats[seat] == Seat::Human && only_pass(game, &state).is_none());
        game.apply(&mut state, mv);
    }
    choices
}

/// A new record of `moves` from `start`, with every engine told of a new game and of each
/// move. Returns the index of the first move that cannot be played instead.
fn replay<'g, G: Game>(
    game: &'g G,
    start: &G::State,
    moves: &[G::Move],
    engines: &mut [Option<Engine<G>>],
) -> Result<Record<'g, G>, usize> {
    let mut record = Record::new(game, start.clone());
    for engine in engines.iter_mut().flatten() {
        engine.0.new_game();
    }
    for (i, &mv) in moves.iter().enumerate() {
        let before = record.state().clone();
        record.play(mv).map_err(|_| i)?;
        observe_all(game, engines, &before, mv, None);
    }
    Ok(record)
}

/// Seed salt of the engine that answers `hint` and `go`, so it does not share the seed of
/// the engine seat it may replace.
const ASSIST_SALT: u64 = 0x6869_6e74;

/// The move an engine built from `spec` suggests for the side to move (`hint`, `go`): the
/// only legal move at once, else a search from a fresh engine seeded from `seed` and the
/// seat, so the same game gives the same suggestion.
fn assist<G: Notation + Sync + 'static>(
    record: &Record<'_, G>,
    spec: &AgentSpec,
    seed: u64,
    kit: &AgentKit<G>,
    live: Option<(&str, &mut dyn Write)>,
    watch: Option<&search_handle::SearchHandle>,
) -> Result<SearchReport<G::Move>, String> {
    let game = record.game();
    let mut legal = MoveList::new();
    game.generate_moves(record.state(), &mut legal);
    if let [only] = legal.as_slice() {
        return Ok(SearchReport::instant(*only, Duration::ZERO));
    }
    let seat = game.to_move(record.state()).index() as u64;
    let mut agent = kit
        .build(spec, mix64(seed ^ seat ^ ASSIST_SALT))
        .map_err(|e| format!("engine {spec}: {e}"))?;
    agent.new_game();
    let position = Position::with_history(record.state(), record.hashes());
    let budget = match watch {
        Some(watch) => watch.arm(spec.budget()),
        None => spec.budget(),
    };
    let searched = match live {
        Some((who, mut out)) => {
            search_showing_time(game, position, &mut agent, &budget, who, &mut out)
                .map_err(|e| format!("output: {e}"))?
        }
        None => agent.choose(game, position, &budget),
    };
    searched.map_err(|e| format!("engine {spec}: {e}"))
}

/// Applies `change` to `spec` if its algorithm takes that limit; false if it does not.
fn rebudget(spec: &mut AgentSpec, change: BudgetChange) -> bool {
    let key = match change {
        BudgetChange::Time(_) => "time",
        BudgetChange::Depth(_) => "depth",
    };
    if !spec.algorithm.accepts(key) {
        return false;
    }
    spec.time = None;
    spec.depth = None;
    spec.nodes = None;
    spec.iters = None;
    match change {
        BudgetChange::Time(t) => spec.time = Some(t),
        BudgetChange::Depth(d) => spec.depth = Some(d),
    }
    true
}

/// Applies `change` to every engine seat and to the specs of `hint` and `go`; returns a line
/// saying what the engines are now (and which ones kept their budget).
fn change_budgets<G: Game>(
    seats: &mut [Seat],
    engines: &mut [Option<Engine<G>>],
    helpers: &mut [AgentSpec],
    change: BudgetChange,
) -> String {
    for spec in helpers.iter_mut() {
        rebudget(spec, change);
    }
    let mut now = Vec::new();
    let mut kept = Vec::new();
    for (seat, engine) in seats.iter_mut().zip(engines.iter_mut()) {
        let (Seat::Engine(spec), Some((_, budget, name, _))) = (seat, engine.as_mut()) else {
            continue;
        };
        if rebudget(spec, change) {
            *budget = spec.budget();
            *name = spec.to_string();
            now.push(name.clone());
        } else {
            kept.push(spec.to_string());
        }
    }
    let mut text = match now.is_empty() {
        true => "no engine takes that limit".to_string(),
        false => format!("engines now: {}", now.join(", ")),
    };
    if !kept.is_empty() {
        text += &format!(" (unchanged: {})", kept.join(", "));
    }
    text
}

/// Plays engines against each other from `start` to the end, one line per move on `out`, then
/// the final picture and the result. `seats[s]` plays seat `s`.
///
/// # Errors
/// If an engine cannot move or writing fails.
pub fn play_engines<'g, G: Notation + Sync + 'static>(
    game: &'g G,
    start: G::State,
    seats: &[AgentSpec],
    seed: u64,
    names: &[String],
    kit: &AgentKit<G>,
    out: &mut impl Write,
) -> Result<Record<'g, G>, PlayLoopError> {
    play_engines_watched(game, start, seats, seed, names, kit, None, out)
}

/// How `--watch` shows an engine-vs-engine game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    /// The pause after each move, so a person can follow.
    pub delay: Duration,
    /// ANSI colours in the pictures.
    pub color: bool,
    /// The player whose side the pictures put at the bottom.
    pub viewer: Player,
}

/// [`play_engines`], with the start position and the position after every move drawn when
/// `watch` is given, each move followed by its delay.
///
/// # Errors
/// If an engine cannot move or writing fails.
#[allow(clippy::too_many_arguments)]
pub fn play_engines_watched<'g, G: Notation + Sync + 'static>(
    game: &'g G,
    start: G::State,
    seats: &[AgentSpec],
    seed: u64,
    names: &[String],
    kit: &AgentKit<G>,
    watch: Option<Watch>,
    out: &mut impl Write,
) -> Result<Record<'g, G>, PlayLoopError> {
    assert_eq!(seats.len(), game.num_players(), "one seat per player");
    let names: Vec<String> = (0..game.num_players())
        .map(|i| names.get(i).cloned().unwrap_or_else(|| Player::new(i).to_string()))
        .collect();
    let specs: Vec<Seat> = seats.iter().cloned().map(Seat::Engine).collect();
    let mut books = Vec::with_capacity(seats.len());
    let mut arena_seats: Vec<ArenaSeat<G>> = build_engines(&specs, seed, kit)?
        .into_iter()
        .flatten()
        .map(|(agent, budget, _, book)| {
            books.push(book);
            ArenaSeat::new(agent, budget)
        })
        .collect();
    if let Some(w) = watch {
        writeln!(out, "\n{}\n", game.render_for(&start, None, w.color, w.viewer))?;
    }
    let mut failed: Option<io::Error> = None;
    let played = play_game_with(game, &start, &mut arena_seats, usize::MAX, |m| {
        if failed.is_none() {
            let line = match from_book(books[m.seat].as_deref(), game, m.before, m.report) {
                true => book_line(game, m.before, &names[m.seat], m.report),
                false => engine_line(game, m.before, &names[m.seat], m.report),
            };
            let line = format!("{:>3}. {line}", m.ply + 1);
            failed = writeln!(out, "{}", wrap(&line, terminal_width(), ENGINE_INDENT)).err();
        }
        if let (None, Some(w)) = (&failed, watch) {
            let mut after = m.before.clone();
            game.apply(&mut after, m.report.best_move);
            let picture = game.render_for(&after, Some(m.report.best_move), w.color, w.viewer);
            failed = writeln!(out, "\n{picture}\n").and_then(|()| out.flush()).err();
            std::thread::sleep(w.delay);
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let played = played.map_err(|e| match e {
        ArenaError::Search { seat, source } => {
            PlayLoopError::Search { spec: seats[seat].to_string(), source }
        }
    })?;
    let mut record = Record::new(game, start);
    for mv in played.moves {
        record.play(mv).expect("the arena played legal moves");
    }
    if let Some(f) = played.forfeit {
        writeln!(out, "{} ({}) forfeits: {}", names[f.seat], seats[f.seat], f.reason)?;
    }
    let (color, viewer) = watch.map_or((false, Player::FIRST), |w| (w.color, w.viewer));
    print_result(&record, &names, (color, viewer), out)?;
    Ok(record)
}

/// The whole program for a game: reads who plays from `args`, prints the seed, then plays at
/// the terminal (or engine against engine when no human plays) and returns the exit code.
/// Errors are printed to stderr with a non-zero code; end of input is a clean exit.
pub fn run<G: Notation + Sync + 'static>(
    game: &G,
    start: G::State,
    args: &PlayArgs,
    defaults: Defaults<'_>,
    kit: &AgentKit<G>,
) -> ExitCode {
    let stdin_is_terminal = io::stdin().is_terminal();
    let human = args.human.unwrap_or(if stdin_is_terminal && args.watch.is_none() {
        HumanSide::First
    } else {
        HumanSide::None
    });
    let side =
        match args.color.as_deref().map(|c| side_index(c, defaults.names, game.num_players())) {
            None => None,
            Some(Ok(i)) => Some(i),
            Some(Err(e)) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
    let humans_play = if side.is_some() {
        true
    } else if args.seats.is_empty() {
        human != HumanSide::None
    } else {
        args.seats.iter().any(|s| s.split_once('=').is_some_and(|(_, w)| w.trim() == "human"))
    };
    let default_spec = if humans_play { defaults.engine } else { defaults.batch_engine };
    let seats = args.engine_specs_for(default_spec, game.num_players()).and_then(|engines| {
        let seats = if let Some(i) = side {
            let mut next_engine = 0;
            (0..game.num_players())
                .map(|s| match s == i {
                    true => Seat::Human,
                    false => {
                        next_engine += 1;
                        Seat::Engine(engines[(next_engine - 1).min(engines.len() - 1)].clone())
                    }
                })
                .collect()
        } else if args.seats.is_empty() {
            human.seats(game.num_players(), &engines)
        } else {
            parse_seats(&args.seats, game.num_players(), &engines[0])?
        };
        Ok((seats, engines[0].clone()))
    });
    let (seats, assistant) = match seats {
        Ok(_) if humans_play && args.watch.is_some() => {
            eprintln!("error: --watch shows engines playing each other; no seat may be human");
            return ExitCode::FAILURE;
        }
        Ok(seats) => seats,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if game.outcome(&start).is_some() {
        eprintln!("error: the start position is already over");
        return ExitCode::FAILURE;
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    // Seat names fit one player count (Black and White): other counts number the players.
    let names: Vec<String> = if defaults.names.len() == game.num_players() {
        defaults.names.to_vec()
    } else {
        Vec::new()
    };
    let color = !args.no_color && color_enabled();
    let viewer = viewer_of(&seats, args.flip);
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{}", wrap(&seats_line(&seats, &names, seed), terminal_width(), "  "));
    if let Some(tables) = kit.tables_description(game) {
        let _ = writeln!(out, "{}", wrap(&tables, terminal_width(), "  "));
    }
    let result = if !humans_play {
        let specs: Vec<AgentSpec> = seats
            .into_iter()
            .filter_map(|s| match s {
                Seat::Engine(spec) => Some(spec),
                Seat::Human => None,
            })
            .collect();
        let watch = args.watch.map(|delay| Watch { delay, color, viewer });
        play_engines_watched(game, start, &specs, seed, &names, kit, watch, &mut out).map(|_| ())
    } else {
        let config = PlayConfig {
            seats,
            seed,
            color,
            names,
            echo: !stdin_is_terminal,
            ponder: args.ponder,
            assistant,
            live: io::stdout().is_terminal(),
            viewer,
        };
        let mut input = io::stdin().lock();
        interrupt::install();
        if stdin_is_terminal {
            let _ = writeln!(out, "type help for the commands");
        }
        play_terminal(game, start, &config, kit, &mut input, &mut out).map(|_| ())
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(PlayLoopError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// [`run`] from the start position of `--position` (or the game's initial state).
pub fn run_program<G: Notation + Sync + 'static>(
    game: &G,
    args: &PlayArgs,
    defaults: Defaults<'_>,
    kit: &AgentKit<G>,
) -> ExitCode {
    match start_state(game, args.position.as_deref(), "--position") {
        Ok(start) => run(game, start, args, defaults, kit),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::{ConnectFour, TicTacToe};

    fn spec(text: &str) -> AgentSpec {
        text.parse().unwrap()
    }

    #[test]
    fn input_by_notation_number_and_hash() {
        let g = TicTacToe;
        let s = g.initial_state();
        assert_eq!(resolve_input(&g, &s, " b2 \n"), Ok(4));
        assert_eq!(resolve_input(&g, &s, "1"), Ok(0));
        assert_eq!(resolve_input(&g, &s, "#9"), Ok(8));
        assert_eq!(
            resolve_input(&g, &s, "10"),
            Err(InputError::NoSuchNumber { number: 10, len: 9 })
        );
        assert_eq!(resolve_input(&g, &s, "0"), Err(InputError::NoSuchNumber { number: 0, len: 9 }));
        assert_eq!(resolve_input(&g, &s, ""), Err(InputError::Empty));
        let e = resolve_input(&g, &s, "z9").unwrap_err();
        assert!(e.to_string().contains("\"z9\""), "{e}");
    }

    #[test]
    fn notation_wins_over_list_numbers() {
        // Column 1 full: the list is 2..7, so "#1" is column 2 but "1" names column 1 and is
        // refused by the notation rather than read as a list number.
        let g = ConnectFour::standard();
        let s = g.parse_state("x....../o....../x....../o....../x....../o......").unwrap();
        assert_eq!(resolve_input(&g, &s, "#1"), Ok(1));
        assert_eq!(resolve_input(&g, &s, "2"), Ok(1));
        assert_eq!(resolve_input(&g, &s, "7"), Ok(6));
        // "1" names column 1, which is full: an error, never list number 1 (column 2).
        let e = resolve_input(&g, &s, "1").unwrap_err();
        assert!(matches!(e, InputError::Notation(_)), "{e}");
        // In a game whose moves are not numbers, a number is still a list number.
        let t = TicTacToe;
        assert_eq!(resolve_input(&t, &t.initial_state(), "9"), Ok(8));
    }

    #[test]
    fn book_switches_reach_every_engine() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            play: PlayArgs,
        }
        let parse = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("play").chain(args.iter().copied())).map(|c| c.play)
        };
        let specs =
            |args: &[&str]| parse(args).unwrap().engine_specs_for("alphabeta:time=1s", 2).unwrap();
        assert_eq!(specs(&[])[0].book, None);
        let off = specs(&["--no-book", "--engine", "mcts", "--engine", "alphabeta:book=x"]);
        assert!(off.iter().all(|s| s.book == Some(BookChoice::Off)), "{off:?}");
        let file = specs(&["--book", "my.txt"]);
        assert_eq!(file[0].book, Some(BookChoice::File("my.txt".into())));
        assert!(parse(&["--book", "x", "--no-book"]).is_err());
    }

    #[test]
    fn commands() {
        let g = TicTacToe;
        let s = g.initial_state();
        assert_eq!(read_input(&g, &s, "HELP"), Ok(Input::Help));
        assert_eq!(read_input(&g, &s, "undo"), Ok(Input::Undo));
        assert_eq!(read_input(&g, &s, "quit\n"), Ok(Input::Quit));
        assert_eq!(read_input(&g, &s, "moves"), Ok(Input::Moves));
        assert_eq!(read_input(&g, &s, "a1"), Ok(Input::Move(6)));
    }

    #[test]
    fn undo_skips_the_passes_made_for_a_human() {
        let g = ply_reversi::Reversi::new(4, 2).unwrap();
        let mut record = Record::new(&g, g.parse_state("21../..../..../.... 1").unwrap());
        for text in ["pass", "c1"] {
            let mv = g.parse_move(record.state(), text).unwrap();
            record.play(mv).unwrap();
        }
        assert_eq!(human_choices(&record, &[Seat::Human, Seat::Human]), vec![false, true]);
        let engine_second = [Seat::Human, Seat::Engine(spec("random"))];
        assert_eq!(human_choices(&record, &engine_second), vec![false, false]);
    }

    #[test]
    fn seats_from_human_side() {
        let e = [spec("greedy"), spec("random")];
        assert_eq!(HumanSide::First.seats(2, &e), vec![Seat::Human, Seat::Engine(e[0].clone())]);
        assert_eq!(HumanSide::None.seats(3, &e)[2], Seat::Engine(e[1].clone()));
        assert_eq!(HumanSide::Second.seats(2, &e)[1], Seat::Human);
    }

    fn play_script(script: &str, seats: Vec<Seat>) -> (Ending, Vec<u8>, String) {
        let g = TicTacToe;
        let config = PlayConfig {
            seats,
            seed: 1,
            color: false,
            names: vec![],
            echo: true,
            ponder: false,
            assistant: spec("alphabeta:depth=9"),
            live: false,
            viewer: ply::Player::FIRST,
        };
        let mut out = Vec::new();
        let (ending, record) = play_terminal(
            &g,
            g.initial_state(),
            &config,
            &AgentKit::default(),
            &mut script.as_bytes(),
            &mut out,
        )
        .unwrap();
        (ending, record.moves().to_vec(), String::from_utf8(out).unwrap())
    }

    #[test]
    fn human_game_to_the_end() {
        let (ending, moves, out) =
            play_script("a3\nb3\nnonsense\nb2\n6\na2\nb1\na1\n", vec![Seat::Human, Seat::Human]);
        assert_eq!(ending, Ending::Finished(Outcome::Winner(Player(0))));
        assert_eq!(moves, vec![0, 1, 4, 8, 3, 7, 6]);
        assert!(out.contains("invalid square \"nonsense\""), "{out}");
        assert!(out.contains("result: player 1 wins"), "{out}");
        assert!(out.contains("moves: 1. a3 b3 2. b2 c1 3. a2 b1 4. a1"), "{out}");
    }

    /// A finished game stays open: `list`, `save`, `undo` and `new` work, other input gets
    /// the list of what does, and `quit` (or the end of the input) leaves it.
    #[test]
    fn a_finished_game_stays_open_until_quit() {
        let dir = std::env::temp_dir().join(format!("ply-after-game-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("won.txt");
        let won = "a3\nb3\nb2\n6\na2\nb1\na1\n";
        let script = format!("{won}list\nsave {}\nb3\nundo\na1\nquit\n", path.display());
        let (ending, moves, out) = play_script(&script, vec![Seat::Human, Seat::Human]);
        assert_eq!(ending, Ending::Finished(Outcome::Winner(Player(0))), "{out}");
        assert_eq!(moves, vec![0, 1, 4, 8, 3, 7, 6], "{out}");
        // The result's score sheet, `list`, and the result again after `undo` and `a1`.
        assert_eq!(out.matches("moves: 1. a3 b3 2. b2 c1 3. a2 b1 4. a1").count(), 3, "{out}");
        assert!(out.contains("saved 7 moves to"), "{out}");
        assert!(std::fs::read_to_string(&path).unwrap().contains("a1"));
        assert!(out.contains("the game is over: list"), "{out}");
        assert!(out.contains("took back 1 moves"), "{out}");
        // `new` starts again; the end of the input leaves the game as it stands.
        let (ending, moves, out) =
            play_script(&format!("{won}new\na3\n"), vec![Seat::Human, Seat::Human]);
        assert_eq!((ending, moves), (Ending::EndOfInput, vec![0]), "{out}");
        assert!(out.contains("new game"), "{out}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn truncated_input_ends_cleanly() {
        let (ending, moves, out) = play_script("a3\nb3", vec![Seat::Human, Seat::Human]);
        assert_eq!(ending, Ending::EndOfInput);
        assert_eq!(moves, vec![0, 1]);
        assert!(out.contains("end of input"), "{out}");
        let (ending, _, _) = play_script("", vec![Seat::Human, Seat::Human]);
        assert_eq!(ending, Ending::EndOfInput);
    }

    #[test]
    fn undo_and_quit_against_an_engine() {
        let seats = vec![Seat::Human, Seat::Engine(spec("random:seed=3"))];
        let (ending, moves, out) = play_script("b2\n1\nundo\nundo\nundo\na1\nquit\n", seats);
        assert_eq!(ending, Ending::Quit);
        // b2, engine, the first listed move, engine; undo -> back before the listed move; undo -> back before b2; nothing
        // left; a1, engine reply.
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0], 6);
        assert_eq!(out.matches("took back 2 moves").count(), 2, "{out}");
        assert!(out.contains("nothing to undo"), "{out}");
        assert!(out.contains("player 2 plays"), "{out}");
    }

    /// A terminal game on Connect Four fed through a pipe, so the test types each line when it
    /// chooses, with the output readable while the game runs.
    struct PipedGame {
        writer: io::PipeWriter,
        output: Arc<std::sync::Mutex<Vec<u8>>>,
        game: std::thread::JoinHandle<(Ending, Vec<u8>)>,
    }

    /// A writer the test reads while the game writes to it.
    struct SharedOut(Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for SharedOut {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl PipedGame {
        fn start(engine: &str, ponder: bool) -> PipedGame {
            let (reader, writer) = io::pipe().unwrap();
            let output = Arc::new(std::sync::Mutex::new(Vec::new()));
            let mut out = SharedOut(output.clone());
            let seats = vec![Seat::Human, Seat::Engine(spec(engine))];
            let game = std::thread::spawn(move || {
                let g = ConnectFour::standard();
                let config = PlayConfig {
                    seats,
                    seed: 1,
                    color: false,
                    names: vec![],
                    echo: true,
                    ponder,
                    assistant: spec("alphabeta:depth=6"),
                    live: false,
                    viewer: ply::Player::FIRST,
                };
                let mut input = io::BufReader::new(reader);
                let (ending, record) = play_terminal(
                    &g,
                    g.initial_state(),
                    &config,
                    &AgentKit::default(),
                    &mut input,
                    &mut out,
                )
                .unwrap();
                (ending, record.moves().to_vec())
            });
            PipedGame { writer, output, game }
        }

        fn send(&mut self, line: &str) {
            writeln!(self.writer, "{line}").unwrap();
            self.writer.flush().unwrap();
        }

        fn text(&self) -> String {
            String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
        }

        /// The engine's lines, once there are `count` of them.
        fn engine_lines(&self, count: usize) -> Vec<String> {
            let begun = std::time::Instant::now();
            loop {
                let text = self.text();
                let mut lines: Vec<String> = Vec::new();
                let mut in_engine_line = false;
                for l in text.lines() {
                    if l.contains(" plays ") {
                        lines.push(l.to_string());
                        in_engine_line = true;
                    } else if in_engine_line && l.starts_with(ENGINE_INDENT) {
                        let last = lines.last_mut().expect("an engine line");
                        *last = format!("{last} {}", l.trim_start());
                    } else {
                        in_engine_line = false;
                    }
                }
                if lines.len() >= count || begun.elapsed() > Duration::from_secs(30) {
                    assert!(lines.len() >= count, "{}", self.text());
                    return lines;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }

        fn finish(self) -> (Ending, Vec<u8>, String) {
            drop(self.writer);
            let (ending, moves) = self.game.join().unwrap();
            let text = String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned();
            (ending, moves, text)
        }
    }

    /// The second move of the principal variation an engine line shows.
    fn expected_reply(engine_line: &str) -> String {
        let pv = engine_line.split("  pv ").nth(1).expect("a pv");
        pv.split_whitespace().nth(1).expect("a second pv move").to_string()
    }

    /// Plays column 4, then the reply the engine expects (or another one), with time to
    /// ponder in between and a `help` typed while it ponders.
    fn ponder_game(ponder: bool, hit: bool) -> (Vec<u8>, Vec<String>) {
        let mut game = PipedGame::start("alphabeta:depth=6", ponder);
        game.send("4");
        let expected = expected_reply(&game.engine_lines(1)[0]);
        std::thread::sleep(Duration::from_millis(200));
        game.send("help");
        std::thread::sleep(Duration::from_millis(100));
        assert!(game.text().contains("moves      show the legal moves again"), "{}", game.text());
        let reply =
            if hit { expected } else { (expected.parse::<usize>().unwrap() % 7 + 1).to_string() };
        game.send(&reply);
        let lines = game.engine_lines(2);
        game.send("quit");
        let (ending, moves, _) = game.finish();
        assert_eq!(ending, Ending::Quit);
        (moves, lines)
    }

    /// A ponder hit answers from the ponder search, and (a depth-limited search starting from
    /// a fresh table either way) with the same move as without pondering; a miss searches
    /// again and plays as without pondering too.
    #[test]
    fn pondering_engines_answer_hits_from_the_ponder_search_and_play_the_same_moves() {
        for hit in [true, false] {
            let (plain_moves, plain_lines) = ponder_game(false, hit);
            let (moves, lines) = ponder_game(true, hit);
            assert_eq!(moves, plain_moves, "hit {hit}");
            assert_eq!(moves.len(), 4, "hit {hit}");
            assert!(!plain_lines.iter().any(|l| l.contains("ponder hit")), "{plain_lines:?}");
            assert!(!lines[0].contains("ponder hit"), "{lines:?}");
            assert_eq!(lines[1].contains("(ponder hit)"), hit, "{lines:?}");
        }
    }

    /// MCTS ponders the human's own position, so that whatever the human plays its next
    /// search starts from the subtree of that move.
    #[test]
    fn mcts_keeps_the_pondered_subtree_of_any_reply() {
        for ponder in [false, true] {
            let mut game = PipedGame::start("mcts:iters=3000,seed=5", ponder);
            game.send("4");
            let first = game.engine_lines(1)[0].clone();
            // Let the ponder search (3,000 playouts of the human's position) end.
            std::thread::sleep(Duration::from_millis(300));
            // A reply other than the expected one.
            let expected = expected_reply(&first);
            game.send(if expected == "1" { "7" } else { "1" });
            let lines = game.engine_lines(2);
            game.send("quit");
            let (ending, moves, text) = game.finish();
            assert_eq!(ending, Ending::Quit);
            assert_eq!(moves.len(), 4, "{text}");
            // With pondering on, the engine ponders the opening position from the start, so
            // its first reply keeps playouts when the human's first move arrives late (a busy
            // machine); without pondering it never does.
            assert!(ponder || !lines[0].contains("pondered"), "{lines:?}");
            assert!(!lines[1].contains("ponder hit"), "{lines:?}");
            assert_eq!(lines[1].contains("(pondered: "), ponder, "{lines:?}");
        }
    }

    /// `undo` and the end of input while an engine ponders stop it and leave a sound game.
    #[test]
    fn undo_and_end_of_input_while_pondering() {
        let mut game = PipedGame::start("alphabeta:depth=6", true);
        game.send("4");
        game.engine_lines(1);
        game.send("undo");
        game.send("3");
        game.engine_lines(2);
        let (ending, moves, text) = game.finish();
        assert_eq!(ending, Ending::EndOfInput);
        assert_eq!(moves.len(), 2, "{text}");
        assert_eq!(moves[0], 2, "{text}");
        assert!(text.contains("took back 2 moves"), "{text}");
    }

    /// Waits, while the ponder search runs, until the stop flag is set or its time is up;
    /// plays the first legal move.
    struct Patient;

    impl Agent<TicTacToe> for Patient {
        fn name(&self) -> String {
            "patient".into()
        }
        fn choose(
            &mut self,
            game: &TicTacToe,
            position: Position<'_, <TicTacToe as Game>::State>,
            budget: &Budget,
        ) -> Result<SearchReport<u8>, SearchError> {
            let begun = std::time::Instant::now();
            while !budget.stop_requested() && budget.time.is_none_or(|t| begun.elapsed() < t) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let mut moves = MoveList::new();
            game.generate_moves(position.state, &mut moves);
            Ok(SearchReport::instant(moves[0], begun.elapsed()))
        }
    }

    fn patient_seats(time: Duration) -> Vec<Option<Engine<TicTacToe>>> {
        let agent: Box<dyn Agent<TicTacToe> + Send> = Box::new(Patient);
        vec![None, Some((agent, Budget::time(time), "patient".into(), None))]
    }

    #[test]
    fn a_ponder_hit_goes_on_for_the_seat_time_counted_from_the_hit() {
        let g = TicTacToe;
        let record = Record::new(&g, g.initial_state());
        let mut engines = patient_seats(Duration::from_millis(200));
        std::thread::scope(|scope| {
            let ponder =
                Ponder::start(scope, &record, &mut engines, Some(4)).expect("a ponder search");
            assert!(engines[1].is_none(), "the agent is out of its seat while it ponders");
            // Far beyond the seat's 200 ms: the search waits for the human all the same.
            std::thread::sleep(Duration::from_millis(600));
            assert!(!ponder.thread.as_ref().unwrap().is_finished(), "pondering ended on its own");
            let hit = std::time::Instant::now();
            let report = ponder.finish(&mut engines, true).expect("the pondered report");
            let after = hit.elapsed();
            assert!(after >= Duration::from_millis(100), "answered {after:?} after the hit");
            assert!(after < Duration::from_secs(5), "answered {after:?} after the hit");
            assert!(report.elapsed >= Duration::from_millis(600), "{:?}", report.elapsed);
        });
        assert!(engines[1].is_some(), "the agent is back in its seat");
    }

    #[test]
    fn a_missed_or_dropped_ponder_stops_at_once() {
        let g = TicTacToe;
        let record = Record::new(&g, g.initial_state());
        let mut engines = patient_seats(Duration::from_secs(60));
        std::thread::scope(|scope| {
            let ponder = Ponder::start(scope, &record, &mut engines, Some(4)).unwrap();
            std::thread::sleep(Duration::from_millis(100));
            let missed = std::time::Instant::now();
            assert!(ponder.finish(&mut engines, false).is_none());
            assert!(missed.elapsed() < Duration::from_secs(5), "{:?}", missed.elapsed());
        });
        assert!(engines[1].is_some());
        // Dropped (an error on the way out of a turn): the scope still ends.
        let dropped = std::time::Instant::now();
        std::thread::scope(|scope| {
            let ponder = Ponder::start(scope, &record, &mut engines, Some(4)).unwrap();
            drop(ponder);
        });
        assert!(dropped.elapsed() < Duration::from_secs(5), "{:?}", dropped.elapsed());
    }

    #[test]
    fn nothing_is_pondered_without_an_expected_move_for_an_engine() {
        let g = TicTacToe;
        let record = Record::new(&g, g.initial_state());
        let mut engines = patient_seats(Duration::from_secs(60));
        std::thread::scope(|scope| {
            // Illegal, or leading to a seat with no engine.
            assert!(Ponder::start(scope, &record, &mut engines, Some(9)).is_none());
            // No expected move: an agent that does not ponder before the reply waits.
            assert!(Ponder::start(scope, &record, &mut engines, None).is_none());
            let mut both_human: Vec<Option<Engine<TicTacToe>>> = vec![None, None];
            assert!(Ponder::start(scope, &record, &mut both_human, Some(4)).is_none());
        });
        assert_eq!(expected_move(Some(&(1, vec![4, 0, 8])), &[3, 4]), Some(0));
        assert_eq!(expected_move(Some(&(1, vec![4, 0, 8])), &[3, 2]), None);
        assert_eq!(expected_move(Some(&(1, vec![4])), &[3, 4]), None);
        assert_eq!(expected_move::<u8>(None, &[3]), None);
    }

    #[test]
    fn engines_play_to_the_end() {
        let g = TicTacToe;
        let specs = [spec("alphabeta:depth=9"), spec("random:seed=5")];
        let mut out = Vec::new();
        let record =
            play_engines(&g, g.initial_state(), &specs, 7, &[], &AgentKit::default(), &mut out)
                .unwrap();
        let outcome = record.outcome().unwrap();
        assert!(outcome.reward(Player(0), 2) >= 0.5, "perfect play never loses");
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches(" plays ").count(), record.moves().len());
        assert!(text.contains("result: "), "{text}");
    }

    #[test]
    fn outcome_words() {
        let names = vec!["Black".to_string(), "White".to_string()];
        assert_eq!(describe_outcome(&Outcome::Winner(Player(1)), &names, false), "White wins");
        assert_eq!(describe_outcome(&Outcome::Draw, &names, true), "draw by repetition");
        assert_eq!(
            describe_outcome(&Outcome::from_scores(&[40, 24]), &names, false),
            "scores: Black 40, White 24 (Black wins)"
        );
        assert_eq!(
            describe_outcome(&Outcome::from_scores(&[5, 9, 9]), &[], false),
            "scores: player 1 5, player 2 9, player 3 9 (tie between player 2 and player 3)"
        );
    }
}
