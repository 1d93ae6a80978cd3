//! The client side of the Hub protocol (version 2, Scan's protocol): an external draughts engine as an
//! [`Agent`] for any game with a [`HubCodec`]. The engine is started on the first move; each
//! move sends the position (`pos pos=...`), the limit (`level depth=N` or
//! `level move-time=S`) and `go think`, and reads `info` lines up to `done move=...`.

use std::io;
use std::time::{Duration, Instant};

use ply::search::{Agent, Budget, Position, SearchError, SearchReport, Value};
use ply::Game;

use super::protocol::{arg, parse_line, HubCodec};
use crate::engines::process::{EngineProcess, Transport};

/// How long the handshake may take.
const STARTUP: Duration = Duration::from_secs(30);

/// The connection, opened on first use.
enum Link {
    Command(String),
    Open(Box<dyn Transport>),
    Failed(String),
}

/// An external engine speaking the Hub protocol.
pub struct HubClient<G: Game> {
    codec: HubCodec<G>,
    link: Link,
    name: String,
    ready: bool,
    new_game: bool,
}

impl<G: Game> HubClient<G> {
    /// A client that starts `command` (through the shell) when it is first asked to move.
    pub fn new(command: &str, codec: HubCodec<G>) -> Self {
        HubClient {
            codec,
            link: Link::Command(command.to_string()),
            name: "hub".into(),
            ready: false,
            new_game: true,
        }
    }

    /// A client over an open connection (the handshake is still to do).
    pub fn with_transport(transport: Box<dyn Transport>, codec: HubCodec<G>) -> Self {
        HubClient {
            codec,
            link: Link::Open(transport),
            name: "hub".into(),
            ready: false,
            new_game: true,
        }
    }

    fn failed(reason: String) -> SearchError {
        SearchError::Engine { engine: "hub", reason }
    }

    /// Starts the engine if needed and does the handshake once (`hub` ... `wait`, `init`
    /// ... `ready`).
    fn connect(&mut self) -> Result<&mut Box<dyn Transport>, String> {
        if let Link::Command(cmd) = &self.link {
            let cmd = cmd.clone();
            self.link = match EngineProcess::start(&cmd) {
                Ok(p) => Link::Open(Box::new(p)),
                Err(e) => Link::Failed(format!("cannot start `{cmd}`: {e}")),
            };
        }
        if !self.ready {
            if let Link::Open(t) = &mut self.link {
                match handshake(t.as_mut()) {
                    Ok(name) => {
                        self.name = format!("hub({name})");
                        self.ready = true;
                    }
                    Err(e) => self.link = Link::Failed(format!("handshake: {e}")),
                }
            }
        }
        match &mut self.link {
            Link::Open(t) => Ok(t),
            Link::Failed(e) => Err(e.clone()),
            Link::Command(_) => unreachable!("the command was started above"),
        }
    }
}

/// `hub` until `wait`, then `init` until `ready`; returns the engine's name.
fn handshake(t: &mut dyn Transport) -> io::Result<String> {
    t.send("hub")?;
    let mut name = "engine".to_string();
    let deadline = Instant::now() + STARTUP;
    loop {
        let line = t.recv_until(deadline)?;
        if let Ok(Some((command, args))) = parse_line(&line) {
            if let (true, Some(n)) = (command == "id", arg(&args, "name")) {
                name = n.to_string();
            }
        }
        if line.trim() == "wait" {
            break;
        }
    }
    t.send("init")?;
    while t.recv_until(deadline)?.trim() != "ready" {}
    Ok(name)
}

/// The `level` command for a budget: depth if set, else the time per move.
pub fn level_command(budget: &Budget) -> String {
    match (budget.depth, budget.time) {
        (Some(d), _) => format!("level depth={d}"),
        (None, Some(t)) => format!("level move-time={:.3}", t.as_secs_f64()),
        (None, None) => "level move-time=1".to_string(),
    }
}

/// How long to wait for `done`: well past the budget, so only a hung engine times out.
fn answer_timeout(budget: &Budget) -> Duration {
    match budget.time {
        Some(t) => t.saturating_mul(5).saturating_add(Duration::from_secs(5)),
        None => Duration::from_secs(600),
    }
}

fn think<G: Game>(
    t: &mut dyn Transport,
    codec: HubCodec<G>,
    game: &G,
    state: &G::State,
    budget: &Budget,
    new_game: bool,
) -> Result<SearchReport<G::Move>, String> {
    let io = |e: io::Error| e.to_string();
    if new_game {
        t.send("new-game").map_err(io)?;
    }
    t.send(&format!("pos pos={}", (codec.position)(game, state))).map_err(io)?;
    t.send(&level_command(budget)).map_err(io)?;
    let start = Instant::now();
    t.send("go think").map_err(io)?;
    let deadline = start + answer_timeout(budget);
    let (mut depth, mut nodes, mut value) = (0, 0, Value::Unknown);
    loop {
        let line = t.recv_until(deadline).map_err(io)?;
        let Ok(Some((command, args))) = parse_line(&line) else { continue };
        let get = |key: &str| arg(&args, key);
        match command.as_str() {
            "info" => {
                depth = get("depth").and_then(|d| d.parse().ok()).unwrap_or(depth);
                nodes = get("nodes").and_then(|n| n.parse().ok()).unwrap_or(nodes);
                if let Some(s) = get("score").and_then(|s| s.parse::<f64>().ok()) {
                    value = Value::Heuristic(s * 100.0);
                }
            }
            "done" => {
                let text = get("move").ok_or_else(|| format!("no move in {line:?}"))?;
                let mv = (codec.parse_move)(game, state, text)?;
                let mut report = SearchReport::instant(mv, start.elapsed());
                (report.depth, report.nodes, report.value) = (depth, nodes, value);
                return Ok(report);
            }
            "error" => return Err(format!("engine error: {}", get("message").unwrap_or(&line))),
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
        let t = self.connect().map_err(Self::failed)?;
        let result = think(t.as_mut(), codec, game, position.state, budget, new_game);
        self.new_game = false;
        result.map_err(Self::failed)
    }

    fn new_game(&mut self) {
        self.new_game = true;
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
            parse_position: |_, t| parse_position(t).map_err(|e| e.to_string()),
            format_move: |_, m| format_hub_move(m),
            parse_move: parse_hub_move,
        }
    }

    fn client() -> HubClient<InternationalDraughts> {
        let mut engine =
            HubEngine::new(InternationalDraughts::new(), codec(), Greedy::with_seed(3));
        let handler = move |line: &str| {
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

    #[test]
    fn levels() {
        assert_eq!(level_command(&Budget::depth(7)), "level depth=7");
        assert_eq!(
            level_command(&Budget::time(Duration::from_millis(250))),
            "level move-time=0.250"
        );
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
