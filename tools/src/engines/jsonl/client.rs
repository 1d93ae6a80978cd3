//! The JSON-lines client: an external engine that speaks the protocol (the Deepomatic
//! challenge's `play(board, color)` as one request line `{"board": [...], "color": "b",
//! "time_ms": N}` and one answer line, the move as the list of `[row, col]` squares it visits,
//! or `{"error": "..."}`), as an [`Agent`] for any game with a [`JsonlCodec`]. ply's own
//! `english_checkers play` and any engine wrapped in the same protocol (Cake's
//! `cake_play.py`) become arena agents: `jsonl:time=100ms,cmd=COMMAND`.

use std::time::{Duration, Instant};

use ply::search::{Agent, Budget, Position, SearchError, SearchReport};
use ply::Game;

use super::JsonlCodec;
use crate::engines::process::{EngineProcess, Transport};
use crate::engines::EngineError;

/// The time per move when the budget gives none.
const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// An external engine speaking JSON lines.
pub struct JsonlClient<G: Game> {
    codec: JsonlCodec<G>,
    command: String,
    process: Option<Box<dyn Transport>>,
}

impl<G: Game> JsonlClient<G> {
    /// A client that starts `command` (through the shell) when it is first asked to move.
    pub fn new(command: &str, codec: JsonlCodec<G>) -> Self {
        JsonlClient { codec, command: command.to_string(), process: None }
    }

    /// A client over an open connection.
    pub fn with_transport(transport: Box<dyn Transport>, codec: JsonlCodec<G>) -> Self {
        JsonlClient { codec, command: String::new(), process: Some(transport) }
    }

    /// The engine's connection, starting it if it has not started.
    fn start(&mut self) -> Result<&mut Box<dyn Transport>, EngineError> {
        if self.process.is_none() {
            let p = EngineProcess::start(&self.command).map_err(|e| EngineError::Start {
                command: self.command.clone(),
                reason: e.to_string(),
            })?;
            self.process = Some(Box::new(p));
        }
        let command = &self.command;
        self.process
            .as_mut()
            .ok_or_else(|| EngineError::Protocol(format!("`{command}` is not running")))
    }

    fn think(
        &mut self,
        game: &G,
        state: &G::State,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, EngineError> {
        let codec = self.codec;
        let (board, color) = (codec.request)(game, state)?;
        let t = self.start()?;
        // Under a game clock, the clock's allotment for this move: the protocol has no clock.
        let time = budget.time.or(budget.clock.map(|c| c.allotment())).unwrap_or(DEFAULT_TIME);
        let request = serde_json::json!({
            "board": board,
            "color": color.to_string(),
            "time_ms": time.as_millis().max(1) as u64,
        });
        let start = Instant::now();
        t.send(&request.to_string()).map_err(EngineError::protocol)?;
        let deadline = start + time.saturating_mul(5).saturating_add(Duration::from_secs(5));
        let answer = t.recv_until(deadline).map_err(EngineError::protocol)?;
        let value: serde_json::Value = serde_json::from_str(&answer)
            .map_err(|e| EngineError::Protocol(format!("answer {answer:?}: {e}")))?;
        if let Some(e) = value.get("error") {
            return Err(EngineError::Protocol(format!("engine error: {e}")));
        }
        let path: Vec<(usize, usize)> = serde_json::from_value::<Vec<[usize; 2]>>(value)
            .map_err(|e| {
                EngineError::Protocol(format!("answer {answer:?} is not a list of [row, col]: {e}"))
            })?
            .into_iter()
            .map(|[r, c]| (r, c))
            .collect();
        let mv = (codec.parse_path)(game, state, &path)?;
        Ok(SearchReport::instant(mv, start.elapsed()))
    }
}

impl<G: Game> Agent<G> for JsonlClient<G> {
    fn name(&self) -> String {
        "jsonl".to_string()
    }

    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        self.think(game, position.state, budget)
            .map_err(|e| SearchError::Engine { engine: "jsonl", reason: e.to_string() })
    }

    fn ready(&mut self) -> Result<(), SearchError> {
        match self.start() {
            Ok(_) => Ok(()),
            Err(e) => Err(SearchError::Engine { engine: "jsonl", reason: e.to_string() }),
        }
    }
}
