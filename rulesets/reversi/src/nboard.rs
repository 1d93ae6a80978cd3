//! The NBoard protocol (version 2) for a 2-player 8x8 engine: the line protocol Othello GUIs
//! such as NBoard use to drive engines like Edax and NTest.
//!
//! [`NBoard`] holds the protocol state; [`NBoard::handle`] takes one line from the GUI and
//! returns the lines to send back, so a session is easy to test without a process:
//!
//! ```
//! use ply_reversi::nboard::NBoard;
//! # use ply::search::{Agent, Budget, Position, SearchError, SearchReport};
//! # use ply::{Game, MoveList};
//! # use ply_reversi::{Reversi, ReversiMove, ReversiState};
//! # struct First;
//! # impl Agent<Reversi> for First {
//! #     fn name(&self) -> String { "first".into() }
//! #     fn choose(&mut self, g: &Reversi, p: Position<'_, ReversiState>, _: &Budget)
//! #         -> Result<SearchReport<ReversiMove>, SearchError> {
//! #         let mut m = MoveList::new();
//! #         g.generate_moves(p.state, &mut m);
//! #         Ok(SearchReport::instant(m[0], Default::default()))
//! #     }
//! # }
//! let mut engine = NBoard::new(First, "ply");
//! assert_eq!(engine.handle("nboard 2"), ["set myname ply"]);
//! engine.handle("set depth 4");
//! engine.handle("set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)");
//! assert_eq!(engine.handle("ping 1"), ["pong 1"]);
//! let reply = engine.handle("go");
//! assert!(reply.iter().any(|l| l.starts_with("=== ")));
//! ```
//!
//! Commands understood: `nboard <version>` (answered with `set myname`), `set depth <n>`
//! (the search depth of later `go` and `hint`), `set game <GGF>` (the position at the end of
//! the game record), `set contempt` (ignored), `move <move>[/<eval>/<time>]` (and a bare
//! two-letter move, as NBoard 1.1 sends), `hint <n>` (answered with `search <pv> <eval> 0
//! <depth>`), `go` (answered with `=== <move>/<eval>/<time>`; the engine does not play the
//! move: the GUI sends `move`), `ping <n>` (answered with `pong <n>`), `learn` (answered
//! with `learned`) and `quit`. Other lines are ignored, as the protocol asks; malformed input
//! is answered with a `status` line saying what was wrong.

use std::time::Instant;

use ply::search::{Agent, Budget, Position, Value};
use ply::{Game, MoveList, Notation, Player};

use crate::{Reversi, ReversiMove, ReversiState};

/// An engine speaking NBoard: the rules, the current game and the agent that searches it.
pub struct NBoard<A> {
    game: Reversi,
    state: ReversiState,
    history: Vec<u64>,
    agent: A,
    name: String,
    depth: u32,
    version: u32,
    quit: bool,
}

/// The position as a GGF game record with no moves, the form [`parse_ggf`] reads and NBoard
/// engines take in `set game`: `(;GM[Othello]PC[ply]TY[8]BO[8 <64 cells> <side>];)`, cells row
/// by row from a1 with `*` for player 1 (black), `O` for player 2, `-` for empty.
///
/// # Errors
/// If the game is not 2-player 8x8 Othello, which is all GGF describes.
pub fn format_ggf(game: &Reversi, state: &ReversiState) -> Result<String, String> {
    if game.num_players() != 2 || state.size() != 8 {
        return Err("NBoard game records describe 2-player 8x8 Othello only".to_string());
    }
    let cells: String = state
        .rows()
        .iter()
        .flat_map(|r| r.chars())
        .map(|c| match c {
            '1' => '*',
            '2' => 'O',
            _ => '-',
        })
        .collect();
    let side = if state.to_move() == Player(0) { '*' } else { 'O' };
    Ok(format!("(;GM[Othello]PC[ply]TY[8]BO[8 {cells} {side}];)"))
}

/// Reads the position at the end of a GGF game record: the `BO[8 <64 cells> <side>]` board
/// (`*` black, `O` white, `-` empty, row by row from a1) followed by the `B[..]`/`W[..]`
/// moves (`PA` for a pass, an optional `/eval/time` after the move).
///
/// # Errors
/// A message naming what is missing or illegal.
pub fn parse_ggf(game: &Reversi, ggf: &str) -> Result<(ReversiState, Vec<u64>), String> {
    let bo_at = ggf.find("BO[").ok_or("no BO[...] board in the game record")?;
    let rest = &ggf[bo_at + 3..];
    let end = rest.find(']').ok_or("unterminated BO[...]")?;
    let mut parts = rest[..end].split_whitespace();
    if parts.next() != Some("8") {
        return Err(format!("board {:?}: only 8x8 is supported", &rest[..end]));
    }
    let cells: Vec<char> = parts.next().ok_or("BO[...] has no cells")?.chars().collect();
    if cells.len() != 64 {
        return Err(format!("BO[...] has {} cells, expected 64", cells.len()));
    }
    let side = match parts.next() {
        Some("*") => Player(0),
        Some("O") => Player(1),
        other => return Err(format!("side to move {other:?}: expected * or O")),
    };
    let mut rows = Vec::with_capacity(8);
    for r in 0..8 {
        let mut row = String::with_capacity(8);
        for &ch in &cells[r * 8..r * 8 + 8] {
            row.push(match ch {
                '*' | 'X' | 'x' | 'B' | 'b' => '1',
                'O' | 'o' | 'W' | 'w' => '2',
                '-' | '.' => '.',
                other => return Err(format!("BO[...] cell {other:?}: expected *, O or -")),
            });
        }
        rows.push(row);
    }
    let mut state = game.state_from_rows(&rows, side).map_err(|e| e.to_string())?;
    let mut history = vec![state.hash];
    let mut tail = &rest[end + 1..];
    // Moves are B[..] or W[..] properties after the board.
    while let Some(open) = tail.find('[') {
        let key = tail[..open].trim_end();
        let close = tail[open..].find(']').map(|c| c + open).ok_or("unterminated property")?;
        let value = &tail[open + 1..close];
        let tag = key.rsplit(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
        if tag == "B" || tag == "W" {
            let expected = if tag == "B" { Player(0) } else { Player(1) };
            if state.to_move() != expected {
                return Err(format!("{tag}[{value}] played out of turn"));
            }
            let text = value.split('/').next().unwrap_or("");
            let mv = game.parse_move(&state, text).map_err(|e| e.to_string())?;
            game.apply(&mut state, mv);
            history.push(state.hash);
        }
        tail = &tail[close + 1..];
    }
    Ok((state, history))
}

impl<A: Agent<Reversi>> NBoard<A> {
    /// An engine called `name` that searches with `agent`, from the Othello start, depth 6.
    pub fn new(agent: A, name: &str) -> Self {
        let game = Reversi::new(8, 2).expect("8x8 with 2 players is valid");
        let state = game.initial_state();
        NBoard {
            history: vec![state.hash],
            game,
            state,
            agent,
            name: name.to_string(),
            depth: 6,
            version: 0,
            quit: false,
        }
    }

    /// The current position.
    pub fn state(&self) -> &ReversiState {
        &self.state
    }

    /// The search depth set by `set depth`.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The protocol version the GUI announced (0 before `nboard`).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// True once `quit` was received.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Handles one line from the GUI and returns the lines to send back.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        match command {
            "nboard" => match args.parse() {
                Ok(v) => {
                    self.version = v;
                    vec![format!("set myname {}", self.name)]
                }
                Err(_) => vec![format!("status bad protocol version {args:?}")],
            },
            "set" => self.set(args),
            "move" => self.play(args),
            "ping" => vec![format!("pong {args}")],
            "go" => self.go(),
            "hint" => self.hint(),
            "learn" => vec!["learned".to_string()],
            "quit" => {
                self.quit = true;
                Vec::new()
            }
            // NBoard 1.1 sends a bare move ("F5") instead of "move F5".
            c if c.len() == 2 && args.is_empty() && c.as_bytes()[0].is_ascii_alphabetic() => {
                self.play(c)
            }
            _ => Vec::new(),
        }
    }

    fn set(&mut self, args: &str) -> Vec<String> {
        let (what, value) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
        match what {
            "depth" => match value.trim().parse::<u32>() {
                Ok(d) if d >= 1 => {
                    self.depth = d;
                    Vec::new()
                }
                _ => vec![format!("status bad depth {:?}", value.trim())],
            },
            "game" => match parse_ggf(&self.game, value) {
                Ok((state, history)) => {
                    self.state = state;
                    self.history = history;
                    self.agent.new_game();
                    Vec::new()
                }
                Err(e) => vec![format!("status bad game: {e}")],
            },
            _ => Vec::new(),
        }
    }

    fn play(&mut self, args: &str) -> Vec<String> {
        let text = args.split('/').next().unwrap_or("").trim();
        match self.game.parse_move(&self.state, text) {
            Ok(mv) => {
                self.agent.observe(&self.game, &self.state, mv);
                self.game.apply(&mut self.state, mv);
                self.history.push(self.state.hash);
                Vec::new()
            }
            Err(e) => vec![format!("status bad move: {e}")],
        }
    }

    /// The NBoard text of a move: upper-case square or `PA`.
    fn move_text(&self, mv: ReversiMove) -> String {
        match mv {
            ReversiMove::Pass => "PA".to_string(),
            m => self.game.format_move(&self.state, m).to_ascii_uppercase(),
        }
    }

    /// Searches the current position: the move, its value in NBoard's units and the PV.
    fn search(&mut self) -> Result<(ReversiMove, String, String, f64), String> {
        let mut moves = MoveList::new();
        self.game.generate_moves(&self.state, &mut moves);
        if moves.is_empty() {
            return Err("the game is over".to_string());
        }
        let start = Instant::now();
        let budget = Budget::depth(self.depth);
        let position = Position::with_history(&self.state, &self.history);
        let report = self.agent.choose(&self.game, position, &budget).map_err(|e| e.to_string())?;
        let eval = match report.value {
            Value::Heuristic(v) => format!("{:.2}", v / 10.0),
            Value::Win(_) => "64.00".to_string(),
            Value::Loss(_) => "-64.00".to_string(),
            Value::Draw => "0.00".to_string(),
            Value::Reward(r) => format!("{:.2}", (r - 0.5) * 128.0),
            Value::Unknown => "0.00".to_string(),
        };
        let mut pv = String::new();
        let mut s = self.state;
        for &m in &report.pv {
            let mut legal = MoveList::new();
            self.game.generate_moves(&s, &mut legal);
            if !legal.contains(&m) {
                break;
            }
            if !pv.is_empty() {
                pv.push('-');
            }
            let t = match m {
                ReversiMove::Pass => "PA".to_string(),
                m => self.game.format_move(&s, m).to_ascii_uppercase(),
            };
            pv.push_str(&t);
            self.game.apply(&mut s, m);
        }
        if pv.is_empty() {
            pv = self.move_text(report.best_move);
        }
        Ok((report.best_move, eval, pv, start.elapsed().as_secs_f64()))
    }

    fn go(&mut self) -> Vec<String> {
        match self.search() {
            Ok((mv, eval, _, time)) => {
                vec![format!("=== {}/{eval}/{time:.1}", self.move_text(mv))]
            }
            Err(e) => vec![format!("status cannot move: {e}")],
        }
    }

    fn hint(&mut self) -> Vec<String> {
        let depth = self.depth;
        match self.search() {
            Ok((_, eval, pv, _)) => {
                vec![
                    "status thinking".to_string(),
                    format!("search {pv} {eval} 0 {depth}"),
                    "status".to_string(),
                ]
            }
            Err(e) => vec![format!("status cannot hint: {e}")],
        }
    }
}
