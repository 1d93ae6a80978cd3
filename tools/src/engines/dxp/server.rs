//! The follower's side of DamExchange: a ply agent served on a TCP port, one connection at a
//! time, for any game with a [`DxpCodec`] (`international_draughts dxp --listen HOST:PORT`).
//!
//! A game request of version 1 is accepted (`0`) from the initial position or any position
//! the codec reads (else `3`; another version gets `1`). The agent plays the follower's
//! colour, thinking `minutes * 60 / moves` seconds a move less a tenth and 10 ms (moves `000`
//! count as 75). When the game is over on its turn (the rules' end, or the request's number
//! of moves played) the server says so with `GAMEEND`; a `GAMEEND` from the initiator is
//! answered with one, and stop code `1` or the end of input ends the connection. `BACKREQ`
//! takes the game back to that move (`K0`), or is declined (`K2`) for a move the game has not
//! reached. Anything else the protocol does not allow (a malformed message, an illegal move,
//! a move out of turn, silence past the idle limit) ends the connection with `GAMEEND` (`0`,
//! stop code `1`); [`DxpServer::listen`] reports it on stderr and waits for the next one.

use std::io;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use ply::record::Record;
use ply::search::{Agent, Budget, Position};
use ply::{Game, Outcome, Player};

use super::protocol::{
    write_message, Acceptance, BackAnswer, Color, DxpCodec, EndReason, Message, MessageReader,
    ReadError, StopCode, TimeControl, VERSION,
};
use crate::engines::EngineError;

/// How long the server waits for the initiator's next message before it ends the connection.
pub const IDLE_LIMIT: Duration = Duration::from_secs(600);

/// How long a write may block (an initiator that stopped reading).
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// The least time the agent is given for a move.
const LEAST_THINK: Duration = Duration::from_millis(10);

/// The agent's time per move under a time control: the average less a tenth and 10 ms (at
/// least 10 ms).
///
/// ```
/// use std::time::Duration;
/// use ply_tools::engines::dxp::{server::think_time, TimeControl};
///
/// let tc = TimeControl { minutes: 3, moves: 180 };
/// assert_eq!(think_time(tc), Duration::from_millis(890));
/// ```
pub fn think_time(tc: TimeControl) -> Duration {
    let per_move = tc.per_move();
    per_move.saturating_sub(per_move / 10 + Duration::from_millis(10)).max(LEAST_THINK)
}

/// A ply agent serving DamExchange games.
pub struct DxpServer<G: Game, A: Agent<G>> {
    game: G,
    codec: DxpCodec<G>,
    agent: A,
    name: String,
    idle: Duration,
}

/// The game a connection is playing.
struct Session<'g, G: Game> {
    record: Record<'g, G>,
    /// The agent's player and colour.
    me: Player,
    /// The colour to move at the start (for move numbers).
    start_colour: Color,
    think: Duration,
    /// The request's number of moves (0: no limit).
    moves: u16,
}

impl<G: Game, A: Agent<G>> DxpServer<G, A> {
    /// A server of `agent` playing `game`, named `ply` and its version in its answers.
    pub fn new(game: G, codec: DxpCodec<G>, agent: A) -> Self {
        DxpServer {
            game,
            codec,
            agent,
            name: format!("ply {}", env!("CARGO_PKG_VERSION")),
            idle: IDLE_LIMIT,
        }
    }

    /// The name in the server's `GAMEACC` (cut to 32 characters of ASCII).
    pub fn with_name(mut self, name: &str) -> Self {
        self.name = name.chars().filter(char::is_ascii).take(32).collect();
        self
    }

    /// How long the initiator may stay silent ([`IDLE_LIMIT`] by default).
    pub fn with_idle_limit(mut self, idle: Duration) -> Self {
        self.idle = idle;
        self
    }

    /// Serves the connections of `listener` one after the other, for ever; a connection that
    /// ends in error is reported on stderr.
    pub fn listen(&mut self, listener: &TcpListener) -> ! {
        loop {
            match listener.accept() {
                Ok((stream, peer)) => {
                    if let Err(e) = self.serve(stream) {
                        eprintln!("dxp: connection from {peer} ended: {e}");
                    }
                }
                Err(e) => {
                    eprintln!("dxp: accept: {e}");
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        }
    }

    /// Serves one connection until the initiator ends it (stop code `1` or the end of input).
    ///
    /// # Errors
    /// A message saying what went wrong, after the server has sent `GAMEEND` (`0`, stop code
    /// `1`) and closed the connection: a malformed, unexpected or illegal message, the idle
    /// limit passed, a failed connection or a failing agent.
    pub fn serve(&mut self, stream: TcpStream) -> crate::error::ToolResult<()> {
        let io = |e: io::Error| EngineError::from(e).into_tool("dxp");
        stream.set_nodelay(true).map_err(io)?;
        stream.set_write_timeout(Some(WRITE_TIMEOUT)).map_err(io)?;
        let mut writer = stream.try_clone().map_err(io)?;
        let mut reader = MessageReader::new(stream);
        let result = self.run(&mut reader, &mut writer);
        if result.is_err() {
            let end = Message::GameEnd { reason: EndReason::Unknown, stop: StopCode::NoMoreGames };
            let _ = write_message(&mut writer, &end);
        }
        let _ = writer.shutdown(Shutdown::Both);
        result.map_err(|e| e.into_tool("dxp"))
    }

    fn run(
        &mut self,
        reader: &mut MessageReader<TcpStream>,
        writer: &mut TcpStream,
    ) -> Result<(), EngineError> {
        let DxpServer { game, codec, agent, name, idle } = self;
        let (game, codec, idle) = (&*game, *codec, *idle);
        let mut send = |m: Message| {
            write_message(writer, &m)
                .map_err(|e| EngineError::Protocol(format!("sending {m}: {e}")))
        };
        let mut session: Option<Session<'_, G>> = None;
        loop {
            let message = match reader.read(Some(Instant::now() + idle)) {
                Ok(Some(m)) => m,
                Ok(None) => return Ok(()),
                Err(ReadError::TimedOut) => {
                    return Err(EngineError::Protocol(format!(
                        "silent for {} s",
                        idle.as_secs_f64()
                    )))
                }
                Err(e) => return Err(EngineError::protocol(e)),
            };
            // A move after the end (by this game's rules) is answered with the end.
            let is_move = matches!(message, Message::Move(_));
            match message {
                Message::GameReq(request) => {
                    session = None;
                    let answer = |code| Message::GameAcc { name: name.clone(), code };
                    if request.version != VERSION {
                        send(answer(Acceptance::Version))?;
                        continue;
                    }
                    let start = match &request.position {
                        None => game.initial_state(),
                        Some(text) => match (codec.parse_position)(game, text) {
                            Ok(s) => s,
                            Err(_) => {
                                send(answer(Acceptance::Terms))?;
                                continue;
                            }
                        },
                    };
                    let start_colour = codec.to_move(game, &start)?;
                    let first = game.to_move(&start);
                    let me = if start_colour == request.follower {
                        first
                    } else {
                        Player(1 - first.0.min(1))
                    };
                    agent.new_game();
                    let clock = TimeControl { minutes: request.minutes, moves: request.moves };
                    session = Some(Session {
                        record: Record::new(game, start),
                        me,
                        start_colour,
                        think: think_time(clock),
                        moves: request.moves,
                    });
                    send(answer(Acceptance::Accepted))?;
                }
                Message::Move(m) => {
                    let s = session.as_mut().ok_or_else(|| {
                        EngineError::Protocol(format!("a move {m} outside a game"))
                    })?;
                    let state = s.record.state();
                    if s.record.outcome().is_none() {
                        if game.to_move(state) == s.me {
                            return Err(EngineError::Protocol(format!(
                                "a move {m} when it is my turn"
                            )));
                        }
                        let mv = codec.find_move(game, state, &m)?;
                        let before = state.clone();
                        s.record
                            .play(mv)
                            .map_err(|e| EngineError::Protocol(format!("move {m}: {e}")))?;
                        agent.observe(game, &before, mv);
                    }
                }
                Message::GameEnd { stop, .. } => {
                    if session.take().is_some() {
                        send(Message::GameEnd { reason: EndReason::Unknown, stop })?;
                    }
                    if stop == StopCode::NoMoreGames {
                        return Ok(());
                    }
                }
                Message::Chat(_) | Message::BackAcc(_) => {}
                Message::BackReq { move_number, to_move } => {
                    let Some(s) = session.as_mut() else {
                        send(Message::BackAcc(BackAnswer::Declined))?;
                        continue;
                    };
                    let black = |c: Color| i64::from(c == Color::Black);
                    let ply =
                        2 * (i64::from(move_number) - 1) + black(to_move) - black(s.start_colour);
                    let Some(ply) =
                        usize::try_from(ply).ok().filter(|&p| p <= s.record.moves().len())
                    else {
                        send(Message::BackAcc(BackAnswer::Declined))?;
                        continue;
                    };
                    let moves = s.record.moves()[..ply].to_vec();
                    let mut record = Record::new(game, s.record.start().clone());
                    for mv in moves {
                        record
                            .play(mv)
                            .map_err(|e| EngineError::Protocol(format!("taking back: {e}")))?;
                    }
                    s.record = record;
                    agent.new_game();
                    send(Message::BackAcc(BackAnswer::Accepted))?;
                }
                Message::GameAcc { .. } => {
                    return Err(EngineError::protocol(
                        "a GAMEACC, but this server requests no games",
                    ));
                }
            }
            // The agent's turn, if it is one: the end of the game, or a move.
            let Some(s) = session.as_mut() else { continue };
            let state = s.record.state();
            if let Some(outcome) = s.record.outcome() {
                let reason = match outcome {
                    Outcome::Winner(w) if w == s.me => EndReason::Win,
                    Outcome::Winner(_) => EndReason::Lose,
                    Outcome::Draw => EndReason::Draw,
                    Outcome::Scores(_) => EndReason::Unknown,
                };
                if game.to_move(state) == s.me || is_move {
                    send(Message::GameEnd { reason, stop: StopCode::NextGame })?;
                    session = None;
                }
                continue;
            }
            if game.to_move(state) != s.me {
                continue;
            }
            let played = s.record.moves().len();
            if s.moves > 0 && played >= 2 * usize::from(s.moves) {
                send(Message::GameEnd { reason: EndReason::Unknown, stop: StopCode::NextGame })?;
                send(Message::Chat(format!("game ended ({} moves played)", s.moves)))?;
                session = None;
                continue;
            }
            let started = Instant::now();
            let position = Position::with_history(state, s.record.hashes());
            let report = agent
                .choose(game, position, &Budget::time(s.think))
                .map_err(|e| EngineError::Protocol(format!("the engine failed: {e}")))?;
            let before = state.clone();
            let mv = report.best_move;
            s.record
                .play(mv)
                .map_err(|e| EngineError::Protocol(format!("the engine's move {mv:?}: {e}")))?;
            agent.observe(game, &before, mv);
            let seconds = started.elapsed().as_secs_f64().round().min(9999.0) as u16;
            send(Message::Move(codec.move_message(game, mv, seconds)))?;
        }
    }
}
