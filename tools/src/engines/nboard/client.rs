//! The client side of the NBoard protocol (version 1, as Edax and NTest speak it): an
//! external Othello engine (Edax, NTest, ply's own `reversi nboard` mode) as an [`Agent`] for
//! any game with an [`NBoardCodec`]. The protocol's only limit is a search depth: each move
//! sends `set depth N` (the budget's depth, else 8), the position as a GGF record (`set game
//! ...`) and `go`, and reads the `=== move` answer. Moves are read with the game's
//! [`Notation`].

use std::io;
use std::time::{Duration, Instant};

use ply::search::{Agent, Budget, Position, SearchError, SearchReport, Value};
use ply::{Game, Notation};

use super::NBoardCodec;
use crate::engines::process::{recv_answer, EngineProcess, Transport};
use crate::engines::EngineError;

/// The depth sent when the budget gives none.
pub const DEFAULT_DEPTH: u32 = 8;
/// How long the handshake may take.
const STARTUP: Duration = Duration::from_secs(30);

/// An external engine speaking the NBoard protocol.
pub struct NBoardClient<G: Game> {
    codec: NBoardCodec<G>,
    command: Option<String>,
    transport: Option<Box<dyn Transport>>,
    failure: Option<EngineError>,
    ready: bool,
    name: String,
}

impl<G: Game> NBoardClient<G> {
    /// A client that starts `command` (through the shell) when it is first asked to move.
    pub fn new(command: &str, codec: NBoardCodec<G>) -> Self {
        NBoardClient {
            codec,
            command: Some(command.to_string()),
            transport: None,
            failure: None,
            ready: false,
            name: "nboard".into(),
        }
    }

    /// A client over an open connection (the handshake is still to do).
    pub fn with_transport(transport: Box<dyn Transport>, codec: NBoardCodec<G>) -> Self {
        NBoardClient {
            codec,
            command: None,
            transport: Some(transport),
            failure: None,
            ready: false,
            name: "nboard".into(),
        }
    }

    /// Starts the engine's program if it has not started.
    fn start(&mut self) -> Result<(), EngineError> {
        if let Some(cmd) = self.command.take() {
            match EngineProcess::start(&cmd) {
                Ok(p) => self.transport = Some(Box::new(p)),
                Err(e) => {
                    let reason = e.to_string();
                    self.failure = Some(EngineError::Start { command: cmd.clone(), reason });
                }
            }
        }
        match &self.failure {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    fn connect(&mut self) -> Result<&mut Box<dyn Transport>, EngineError> {
        if let Some(cmd) = self.command.take() {
            match EngineProcess::start(&cmd) {
                Ok(p) => self.transport = Some(Box::new(p)),
                Err(e) => {
                    let reason = e.to_string();
                    self.failure = Some(EngineError::Start { command: cmd.clone(), reason });
                }
            }
        }
        if let Some(e) = &self.failure {
            return Err(e.clone());
        }
        let t =
            self.transport.as_mut().ok_or_else(|| EngineError::protocol("no engine connection"))?;
        if !self.ready {
            match handshake(t.as_mut()) {
                Ok(name) => {
                    self.name = format!("nboard({name})");
                    self.ready = true;
                }
                Err(e) => {
                    self.failure = Some(EngineError::Protocol(format!("handshake: {e}")));
                    return Err(EngineError::Protocol(format!("handshake: {e}")));
                }
            }
        }
        Ok(self.transport.as_mut().expect("connected"))
    }
}

/// `nboard 1` (the version Edax and NTest speak; later versions only add commands), then
/// `ping 1` until `pong 1` (collecting `set myname`); returns the name.
fn handshake(t: &mut dyn Transport) -> io::Result<String> {
    t.send("nboard 1")?;
    t.send("ping 1")?;
    let mut name = "engine".to_string();
    let deadline = Instant::now() + STARTUP;
    loop {
        let line = t.recv_until(deadline)?;
        if let Some(n) = line.strip_prefix("set myname ") {
            name = n.trim().to_string();
        }
        if line.trim() == "pong 1" {
            return Ok(name);
        }
    }
}

/// The move of an `=== F5/1.00/0.5` answer.
pub fn parse_answer<G: Notation>(
    game: &G,
    state: &G::State,
    line: &str,
) -> Result<(G::Move, Option<f64>), EngineError> {
    let body = line
        .trim()
        .strip_prefix("===")
        .ok_or_else(|| EngineError::Protocol(format!("not an answer: {line:?}")))?;
    // `=== f5/1.00/0.5` (NBoard 2) or `=== f5 1.00 0.5` (Edax, NBoard 1); `pa` is a pass.
    let mut parts =
        body.trim().split(|c: char| c == '/' || c.is_whitespace()).filter(|p| !p.is_empty());
    let mut text = parts.next().unwrap_or("").to_ascii_lowercase();
    if text == "pa" {
        text = "pass".to_string();
    }
    let eval = parts.next().and_then(|e| e.parse::<f64>().ok());
    let mv = game
        .parse_move(state, &text)
        .map_err(|e| EngineError::Protocol(format!("engine move {text:?}: {e}")))?;
    Ok((mv, eval))
}

fn think<G: Notation>(
    t: &mut dyn Transport,
    game: &G,
    state: &G::State,
    record: &str,
    budget: &Budget,
) -> Result<SearchReport<G::Move>, EngineError> {
    let io = |e: io::Error| EngineError::from(e);
    let depth = budget.depth.unwrap_or(DEFAULT_DEPTH);
    t.send(&format!("set depth {depth}")).map_err(io)?;
    t.send(&format!("set game {record}")).map_err(io)?;
    let start = Instant::now();
    t.send("go").map_err(io)?;
    loop {
        let line = recv_answer(t, budget, start)?;
        if line.starts_with("===") {
            let (mv, eval) = parse_answer(game, state, &line)?;
            let mut report = SearchReport::instant(mv, start.elapsed());
            report.depth = depth;
            if let Some(e) = eval {
                report.value = Value::Heuristic(e * 10.0);
            }
            return Ok(report);
        }
        if let Some(status) = line.strip_prefix("status bad") {
            return Err(EngineError::Protocol(format!("engine: bad{status}")));
        }
    }
}

impl<G: Notation> Agent<G> for NBoardClient<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn ready(&mut self) -> Result<(), SearchError> {
        self.start().map_err(|e| SearchError::Engine { engine: "nboard", reason: e.to_string() })
    }

    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        let unsupported = |reason| SearchError::Unsupported { algorithm: "nboard", reason };
        let record = (self.codec.game_record)(game, position.state)
            .map_err(|e| unsupported(e.to_string()))?;
        let failed =
            |e: EngineError| SearchError::Engine { engine: "nboard", reason: e.to_string() };
        let t = self.connect().map_err(failed)?;
        think(t.as_mut(), game, position.state, &record, budget).map_err(failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::nboard::{reversi_codec as codec, NBoardEngine};
    use crate::engines::process::Loopback;
    use ply::search::baseline::Greedy;
    use ply::MoveList;
    use ply_reversi::Reversi;

    #[test]
    fn plays_legal_moves_against_plys_nboard_engine() {
        let game = Reversi::new(8, 2).unwrap();
        let mut engine = NBoardEngine::new(game.clone(), codec(), Greedy::with_seed(1), "ply");
        let handler = move |line: &str| engine.handle(line);
        let mut agent = NBoardClient::with_transport(
            Box::new(Loopback { handler, pending: Default::default() }),
            codec(),
        );
        let mut state = game.initial_state();
        let mut legal = MoveList::new();
        for _ in 0..10 {
            let report = agent.choose(&game, Position::new(&state), &Budget::depth(1)).unwrap();
            game.generate_moves(&state, &mut legal);
            assert!(legal.contains(&report.best_move));
            game.apply(&mut state, report.best_move);
        }
        assert_eq!(agent.name(), "nboard(ply)");
    }

    #[test]
    fn answers() {
        let game = Reversi::new(8, 2).unwrap();
        let s = game.initial_state();
        let (mv, eval) = parse_answer(&game, &s, "=== F5/1.50/0.2").unwrap();
        assert_eq!(game.format_move(&s, mv), "f5");
        assert_eq!(eval, Some(1.5));
        let (mv, eval) = parse_answer(&game, &s, "=== f5 0.00 0.0").unwrap();
        assert_eq!((game.format_move(&s, mv).as_str(), eval), ("f5", Some(0.0)));
        assert!(parse_answer(&game, &s, "=== A1").is_err());
        assert!(parse_answer(&game, &s, "pong 1").is_err());
    }

    #[test]
    fn other_boards_are_refused() {
        let game = Reversi::new(6, 2).unwrap();
        let s = game.initial_state();
        let mut agent = NBoardClient::new("true", codec());
        let e = agent.choose(&game, Position::new(&s), &Budget::depth(1)).unwrap_err();
        assert!(e.to_string().contains("8x8"), "{e}");
    }
}
