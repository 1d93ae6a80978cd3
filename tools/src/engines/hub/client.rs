//! The client side of the Hub protocol: an external draughts engine as an [`Agent`] for any
//! game with a [`HubCodec`]. Both versions are spoken, told apart by the handshake: version 2
//! (Scan 3.x: `id name=...`, `pos pos=... moves="..."`, `level move-time=S`, `go think`,
//! `done move=...`) and version 1 (Scan 2.0: `name ...`, `pos <w|b><squares>`, `move M`,
//! `time MS` / `depth N`, `go`, `move M [ponder]`).
//!
//! The engine is started on the first move. The client keeps the game's moves (from
//! [`Agent::observe`]) and sends the position as the game's start plus its moves, so the
//! engine sees repetitions; a position that is not the game's continuation is sent alone.

use std::io;
use std::time::{Duration, Instant};

use ply::search::{Agent, Budget, Position, SearchError, SearchReport, Value};
use ply::Game;

use super::protocol::{arg, parse_line, HubCodec, Level};
use crate::engines::process::{recv_answer, EngineProcess, Transport};
use crate::engines::EngineError;

/// How long the handshake may take.
const STARTUP: Duration = Duration::from_secs(30);

/// The protocol version an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HubVersion {
    /// Scan 2.0's protocol.
    V1,
    /// Scan 3.x's protocol.
    V2,
}

/// The connection, opened on first use.
enum Link {
    Command(String),
    Open(Box<dyn Transport>),
    Failed(EngineError),
}

/// An external engine speaking the Hub protocol.
pub struct HubClient<G: Game> {
    codec: HubCodec<G>,
    link: Link,
    name: String,
    version: Option<HubVersion>,
    new_game: bool,
    /// The game so far: where it started and the moves played since.
    game_start: Option<G::State>,
    moves: Vec<G::Move>,
}

impl<G: Game> HubClient<G> {
    /// A client that starts `command` (through the shell) when it is first asked to move.
    pub fn new(command: &str, codec: HubCodec<G>) -> Self {
        Self::with_link(Link::Command(command.to_string()), codec)
    }

    /// A client over an open connection (the handshake is still to do).
    pub fn with_transport(transport: Box<dyn Transport>, codec: HubCodec<G>) -> Self {
        Self::with_link(Link::Open(transport), codec)
    }

    fn with_link(link: Link, codec: HubCodec<G>) -> Self {
        HubClient {
            codec,
            link,
            name: "hub".into(),
            version: None,
            new_game: true,
            game_start: None,
            moves: Vec::new(),
        }
    }

    /// The protocol version the engine spoke in the handshake (`None` before it).
    pub fn version(&self) -> Option<HubVersion> {
        self.version
    }

    fn failed(e: EngineError) -> SearchError {
        SearchError::Engine { engine: "hub", reason: e.to_string() }
    }

    /// Starts the engine's program if it has not started.
    fn start(&mut self) -> Result<(), EngineError> {
        if let Link::Command(cmd) = &self.link {
            let cmd = cmd.clone();
            self.link = match EngineProcess::start(&cmd) {
                Ok(p) => Link::Open(Box::new(p)),
                Err(e) => Link::Failed(EngineError::Start { command: cmd, reason: e.to_string() }),
            };
        }
        match &self.link {
            Link::Failed(e) => Err(e.clone()),
            _ => Ok(()),
        }
    }

    /// Starts the engine if needed and does the handshake once.
    fn connect(&mut self) -> Result<(&mut Box<dyn Transport>, HubVersion), EngineError> {
        if let Link::Command(cmd) = &self.link {
            let cmd = cmd.clone();
            self.link = match EngineProcess::start(&cmd) {
                Ok(p) => Link::Open(Box::new(p)),
                Err(e) => {
                    Link::Failed(EngineError::Start { command: cmd.clone(), reason: e.to_string() })
                }
            };
        }
        if self.version.is_none() {
            if let Link::Open(t) = &mut self.link {
                match handshake(t.as_mut()) {
                    Ok((name, version)) => {
                        self.name = format!("hub({name})");
                        self.version = Some(version);
                    }
                    Err(e) => {
                        self.link = Link::Failed(EngineError::Protocol(format!("handshake: {e}")))
                    }
                }
            }
        }
        match (&mut self.link, self.version) {
            (Link::Open(t), Some(v)) => Ok((t, v)),
            (Link::Failed(e), _) => Err(e.clone()),
            _ => Err(EngineError::Protocol("no engine connection".into())),
        }
    }

    /// The game's start and moves if `state` is where they lead.
    fn history_to(&self, game: &G, state: &G::State) -> Option<(&G::State, &[G::Move])> {
        let start = self.game_start.as_ref()?;
        let mut s = start.clone();
        for &mv in &self.moves {
            game.apply(&mut s, mv);
        }
        (s == *state).then_some((start, self.moves.as_slice()))
    }
}

/// `hub` until `wait` (version 2 names itself with `id name=...`, version 1 with
/// `name ...`), then `init` until `ready`; returns the engine's name and version.
fn handshake(t: &mut dyn Transport) -> io::Result<(String, HubVersion)> {
    t.send("hub")?;
    let mut name = "engine".to_string();
    let mut version = HubVersion::V1;
    let deadline = Instant::now() + STARTUP;
    loop {
        let line = t.recv_until(deadline)?;
        let line = line.trim();
        if let Ok(Some((command, args))) = parse_line(line) {
            if command == "id" {
                version = HubVersion::V2;
                if let Some(n) = arg(&args, "name") {
                    name = n.to_string();
                }
            }
        }
        if let Some(n) = line.strip_prefix("name ") {
            name = n.trim().to_string();
        }
        if line == "wait" {
            break;
        }
    }
    t.send("init")?;
    while t.recv_until(deadline)?.trim() != "ready" {}
    Ok((name, version))
}

/// The version 2 `level` command for a budget: depth if set, else the time per move, else
/// the game clock as it stands (`level moves=M time=T inc=I`, sent before every search).
pub(crate) fn level_command(budget: &Budget) -> String {
    match (budget.depth, budget.time, budget.clock) {
        (Some(d), _, _) => Level::Depth(d).command(),
        (None, Some(t), _) => Level::MoveTime(t).command(),
        (None, None, Some(c)) => Level::Clock(c).command(),
        (None, None, None) => "level move-time=1".to_string(),
    }
}

/// The version 1 limit for a budget: `depth N` if set, else `time MS` per move (under a game
/// clock, the clock's allotment for this move: version 1 has no clock).
pub(crate) fn level_command_v1(budget: &Budget) -> String {
    match (budget.depth, budget.time.or(budget.clock.map(|c| c.allotment()))) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(t)) => format!("time {}", t.as_millis().max(1)),
        (None, None) => "time 1000".to_string(),
    }
}

/// One search request: the position (as the game's start and moves where known).
struct Request<'a, G: Game> {
    codec: HubCodec<G>,
    game: &'a G,
    state: &'a G::State,
    history: Option<(&'a G::State, &'a [G::Move])>,
    budget: &'a Budget,
    new_game: bool,
}

fn think<G: Game>(
    t: &mut dyn Transport,
    version: HubVersion,
    r: Request<'_, G>,
) -> Result<SearchReport<G::Move>, EngineError> {
    let io = |e: io::Error| EngineError::from(e);
    let (codec, game) = (r.codec, r.game);
    let moves_text = |moves: &[G::Move]| -> Vec<String> {
        moves.iter().map(|&m| (codec.format_move)(game, m)).collect()
    };
    match version {
        HubVersion::V2 => {
            if r.new_game {
                t.send("new-game").map_err(io)?;
            }
            let pos = match r.history {
                Some((start, moves)) if !moves.is_empty() => format!(
                    "pos pos={} moves=\"{}\"",
                    (codec.position)(game, start),
                    moves_text(moves).join(" ")
                ),
                _ => format!("pos pos={}", (codec.position)(game, r.state)),
            };
            t.send(&pos).map_err(io)?;
            t.send(&level_command(r.budget)).map_err(io)?;
        }
        HubVersion::V1 => {
            if r.new_game {
                t.send("new").map_err(io)?;
            }
            // Version 1 writes the side to move in lower case.
            let v1 = |s: &G::State| {
                let text = (codec.position)(game, s);
                let mut chars = text.chars();
                chars.next().map(|c| c.to_ascii_lowercase().to_string()).unwrap_or_default()
                    + chars.as_str()
            };
            match r.history {
                Some((start, moves)) => {
                    t.send(&format!("pos {}", v1(start))).map_err(io)?;
                    for m in moves_text(moves) {
                        t.send(&format!("move {m}")).map_err(io)?;
                    }
                }
                None => t.send(&format!("pos {}", v1(r.state))).map_err(io)?,
            }
            t.send(&level_command_v1(r.budget)).map_err(io)?;
        }
    }
    let start = Instant::now();
    t.send(if version == HubVersion::V2 { "go think" } else { "go" }).map_err(io)?;
    let (mut depth, mut nodes, mut value) = (0, 0, Value::Unknown);
    loop {
        let line = recv_answer(t, r.budget, start)?;
        let Ok(Some((command, args))) = parse_line(&line) else { continue };
        let get = |key: &str| arg(&args, key);
        let found = |text: &str| -> Result<SearchReport<G::Move>, EngineError> {
            let mv = (codec.parse_move)(game, r.state, text)?;
            let mut report = SearchReport::instant(mv, start.elapsed());
            (report.depth, report.nodes, report.value) = (depth, nodes, value);
            Ok(report)
        };
        match (version, command.as_str()) {
            (HubVersion::V2, "info") => {
                depth = get("depth").and_then(|d| d.parse().ok()).unwrap_or(depth);
                nodes = get("nodes").and_then(|n| n.parse().ok()).unwrap_or(nodes);
                if let Some(s) = get("score").and_then(|s| s.parse::<f64>().ok()) {
                    value = Value::Heuristic(s * 100.0);
                }
            }
            // Version 1: `info <depth> <avg-depth> <score> <nodes> <seconds> <Mnps> <pv...>`.
            (HubVersion::V1, "info") => {
                let field = |i: usize| args.get(i).map(|(n, _)| n.as_str());
                depth = field(0).and_then(|d| d.parse().ok()).unwrap_or(depth);
                nodes = field(3).and_then(|n| n.parse().ok()).unwrap_or(nodes);
                if let Some(s) = field(2).and_then(|s| s.parse::<f64>().ok()) {
                    value = Value::Heuristic(s * 100.0);
                }
            }
            (HubVersion::V2, "done") => {
                return found(
                    get("move")
                        .ok_or_else(|| EngineError::Protocol(format!("no move in {line:?}")))?,
                );
            }
            (HubVersion::V1, "move") => {
                let text = args.first().map(|(n, _)| n.as_str());
                return found(
                    text.ok_or_else(|| EngineError::Protocol(format!("no move in {line:?}")))?,
                );
            }
            (_, "error") => {
                return Err(EngineError::Protocol(format!(
                    "engine error: {}",
                    get("message").unwrap_or(&line)
                )))
            }
            _ => {}
        }
    }
}

impl<G: Game> Agent<G> for HubClient<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        let new_game = self.new_game;
        let codec = self.codec;
        let history = self.history_to(game, position.state).map(|(s, m)| (s.clone(), m.to_vec()));
        let (t, version) = self.connect().map_err(Self::failed)?;
        let request = Request {
            codec,
            game,
            state: position.state,
            history: history.as_ref().map(|(s, m)| (s, m.as_slice())),
            budget,
            new_game,
        };
        let result = think(t.as_mut(), version, request);
        self.new_game = false;
        result.map_err(Self::failed)
    }

    fn ready(&mut self) -> Result<(), SearchError> {
        self.start().map_err(Self::failed)
    }

    fn observe(&mut self, _game: &G, state_before: &G::State, mv: G::Move) {
        if self.game_start.is_none() {
            self.game_start = Some(state_before.clone());
        }
        self.moves.push(mv);
    }

    fn new_game(&mut self) {
        self.new_game = true;
        self.game_start = None;
        self.moves.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::hub::HubEngine;
    use crate::engines::process::Loopback;
    use ply::search::baseline::Greedy;
    use ply::MoveList;
    use ply_draughts::hub::{format_hub_move, format_position, parse_hub_move, parse_position};
    use ply_draughts::InternationalDraughts;

    fn codec() -> HubCodec<InternationalDraughts> {
        HubCodec {
            variant: "normal",
            position: |_, s| format_position(s),
            parse_position: |_, t| parse_position(t).map_err(crate::error::ToolError::input),
            format_move: |_, m| format_hub_move(m),
            parse_move: |g, s, t| parse_hub_move(g, s, t).map_err(crate::error::ToolError::input),
        }
    }

    fn client() -> HubClient<InternationalDraughts> {
        logged_client(Log::default())
    }

    #[test]
    fn plays_legal_moves_against_plys_hub_engine() {
        let game = InternationalDraughts::new();
        let mut state = game.initial_state();
        let mut agent = client();
        let mut legal = MoveList::new();
        for _ in 0..12 {
            if game.outcome(&state).is_some() {
                break;
            }
            let report = agent.choose(&game, Position::new(&state), &Budget::depth(1)).unwrap();
            game.generate_moves(&state, &mut legal);
            assert!(legal.contains(&report.best_move));
            game.apply(&mut state, report.best_move);
        }
        assert!(agent.name().starts_with("hub(ply"), "{}", agent.name());
    }

    /// Lines the fake engine received, shared with the test.
    type Log = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

    /// A client over ply's own Hub engine (version 2) that logs what the engine receives.
    fn logged_client(log: Log) -> HubClient<InternationalDraughts> {
        let mut engine =
            HubEngine::new(InternationalDraughts::new(), codec(), Greedy::with_seed(3));
        let handler = move |line: &str| {
            log.lock().unwrap().push(line.to_string());
            let mut out = Vec::new();
            engine.handle(line, &mut out);
            out
        };
        HubClient::with_transport(
            Box::new(Loopback { handler, pending: Default::default() }),
            codec(),
        )
    }

    #[test]
    fn the_game_so_far_is_sent_as_moves_so_the_engine_sees_repetitions() {
        let log = Log::default();
        let mut agent = logged_client(log.clone());
        let game = InternationalDraughts::new();
        let mut state = game.initial_state();
        for _ in 0..3 {
            let report = agent.choose(&game, Position::new(&state), &Budget::depth(1)).unwrap();
            agent.observe(&game, &state, report.best_move);
            game.apply(&mut state, report.best_move);
        }
        let positions: Vec<String> =
            log.lock().unwrap().iter().filter(|l| l.starts_with("pos ")).cloned().collect();
        assert!(!positions[0].contains("moves="), "{positions:?}");
        assert!(positions[2].contains("moves=\"") && positions[2].matches('-').count() >= 2);
        assert_eq!(agent.version(), Some(HubVersion::V2));
        // A position off the game's line is sent alone.
        let other = game.initial_state();
        agent.choose(&game, Position::new(&other), &Budget::depth(1)).unwrap();
        assert!(!log
            .lock()
            .unwrap()
            .iter()
            .rev()
            .find(|l| l.starts_with("pos "))
            .unwrap()
            .contains("moves="));
    }

    /// Scan 2.0's protocol, as its `hub_loop` answers.
    #[test]
    fn version_1_engines_are_recognised_and_driven() {
        let log = Log::default();
        let seen = log.clone();
        let handler = move |line: &str| -> Vec<String> {
            seen.lock().unwrap().push(line.to_string());
            match line.split_whitespace().next().unwrap_or("") {
                "hub" => {
                    vec!["name Scan 2.0".into(), "author Fabien Letouzey".into(), "wait".into()]
                }
                "init" => vec!["init eval".into(), "ready".into()],
                "go" => vec![
                    "info 5 7.2 0.12 1234 0.01 0.12 32-28 19-23".into(),
                    "move 32-28 19-23".into(),
                ],
                _ => Vec::new(),
            }
        };
        let mut agent = HubClient::with_transport(
            Box::new(Loopback { handler, pending: Default::default() }),
            codec(),
        );
        let game = InternationalDraughts::new();
        let state = game.initial_state();
        let report = agent
            .choose(&game, Position::new(&state), &Budget::time(Duration::from_millis(250)))
            .unwrap();
        assert_eq!(format_hub_move(report.best_move), "32-28");
        assert_eq!((report.depth, report.nodes), (5, 1234));
        assert_eq!(agent.version(), Some(HubVersion::V1));
        assert_eq!(agent.name(), "hub(Scan 2.0)");
        let sent = log.lock().unwrap().clone();
        assert!(
            sent.contains(&"pos wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww".to_string()),
            "{sent:?}"
        );
        assert!(
            sent.contains(&"time 250".to_string()) && sent.contains(&"go".to_string()),
            "{sent:?}"
        );
    }

    #[test]
    fn levels() {
        assert_eq!(level_command(&Budget::depth(7)), "level depth=7");
        assert_eq!(
            level_command(&Budget::time(Duration::from_millis(250))),
            "level move-time=0.250"
        );
        let clock = ply::search::Clock {
            remaining: Duration::from_millis(61_500),
            increment: Duration::from_secs(1),
            moves_to_go: Some(12),
        };
        assert_eq!(level_command(&Budget::clock(clock)), "level moves=12 time=61.500 inc=1.000");
        // Version 1 has no clock: the clock's allotment (61.48 s / 12 + 0.75 s) per move.
        assert_eq!(level_command_v1(&Budget::clock(clock)), "time 5873");
    }

    #[test]
    fn a_missing_program_is_an_error_not_a_panic() {
        let game = InternationalDraughts::new();
        let state = game.initial_state();
        let mut agent = HubClient::new("/nonexistent/engine-xyz", codec());
        let e = agent.choose(&game, Position::new(&state), &Budget::depth(1)).unwrap_err();
        assert!(matches!(e, SearchError::Engine { engine: "hub", .. }), "{e}");
    }
}
