//! The initiator's side of DamExchange: an engine listening on a TCP port (Scan's `dxp` mode,
//! ply's `international_draughts dxp`) as an [`Agent`] for any game with a [`DxpCodec`].
//!
//! On its first move of a game the client connects (starting the server program first when
//! it has one), sends a game request from the game's start with the engine playing the side
//! to move, and once it is accepted sends the moves the other seat played since the start.
//! From then on each move sends the opponent's moves and reads the engine's. The connection
//! lasts from game to game, across clients too: a client dropped after a clean game parks its
//! connection (and the server program it started), and the next client of the same address
//! takes it, so that a match plays all its games on one connection, one `GAMEREQ` each (a
//! server such as Scan's serves one connection). A game left unfinished is ended with
//! `GAMEEND` (`0`, stop code `0` between games). Anything the protocol does not allow (a
//! malformed or illegal message, a `GAMEEND` mid-game, silence past the deadline) is an
//! engine error: the game is forfeited, the connection closed (with stop code `1`, and the
//! server program killed), and the next game connects afresh.

use std::io;
use std::net::{Shutdown, SocketAddr, TcpStream, ToSocketAddrs};
use std::process::{Child, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ply::search::{Agent, Budget, Position, SearchError, SearchReport};
use ply::Game;

use super::protocol::{
    write_message, Acceptance, BackAnswer, Color, DxpCodec, EndReason, GameRequest, Message,
    MessageReader, ReadError, StopCode, TimeControl, VERSION,
};
use crate::engines::process::answer_deadline;
use crate::engines::EngineError;

/// How long one connection attempt may take.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a server program started by the client may take to accept a connection, and a
/// server to answer a game request.
pub(crate) const STARTUP: Duration = Duration::from_secs(30);

/// How long a write may block (a server that stopped reading).
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// The name ply gives in its game requests.
pub(crate) const INITIATOR: &str = "ply";

/// The server program started by `cmd=`, in a process group of its own.
struct ServerProcess {
    command: String,
    child: Child,
}

impl ServerProcess {
    fn start(command: &str) -> io::Result<ServerProcess> {
        let mut shell = crate::engines::process::command_of(command);
        shell.stdin(Stdio::null()).stdout(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut shell, 0);
        let child = shell.stderr(Stdio::null()).spawn()?;
        Ok(ServerProcess { command: command.to_string(), child })
    }

    /// The program's exit, if it has ended.
    fn exited(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            Ok(None) => None,
            Err(e) => Some(e.to_string()),
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // A server ends by itself when its connection closes (Scan does): give it a moment,
        // then end whatever is left of its group.
        for _ in 0..40 {
            if self.exited().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        crate::engines::process::kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

/// An open connection.
struct Link {
    writer: TcpStream,
    reader: MessageReader<TcpStream>,
}

impl Link {
    fn open(stream: TcpStream) -> io::Result<Link> {
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let reader = MessageReader::new(stream.try_clone()?);
        Ok(Link { writer: stream, reader })
    }

    fn send(&mut self, message: &Message) -> Result<(), EngineError> {
        write_message(&mut self.writer, message)
            .map_err(|e| EngineError::Protocol(format!("sending {message}: {e}")))
    }

    /// Closes the connection from this side first, so that the server's port is not held in
    /// TIME_WAIT and a server started again can listen on it at once.
    fn close(self) {
        let _ = self.writer.shutdown(Shutdown::Both);
    }
}

/// A connection between games, waiting for the next client of its address and command.
struct Parked {
    addr: String,
    command: Option<String>,
    link: Link,
    server: Option<ServerProcess>,
}

/// The connections parked between games (see the [module docs](self)).
static PARKED: Mutex<Vec<Parked>> = Mutex::new(Vec::new());

/// Ends the games of the connections parked for `addr` (`GAMEEND`, stop code `1`: no more
/// games) and closes them, stopping the server programs started for them: the end of a match.
pub fn close_parked(addr: &str) {
    let closing: Vec<Parked> = {
        let mut parked = PARKED.lock().unwrap_or_else(|p| p.into_inner());
        let (closing, kept) =
            std::mem::take(&mut *parked).into_iter().partition(|p| p.addr == addr);
        *parked = kept;
        closing
    };
    for mut p in closing {
        let _ = p
            .link
            .send(&Message::GameEnd { reason: EndReason::Unknown, stop: StopCode::NoMoreGames });
        p.link.close();
    }
}

/// The parked connection of `addr` and `command`, if there is one.
fn unpark(addr: &str, command: Option<&str>) -> Option<(Link, Option<ServerProcess>)> {
    let mut parked = PARKED.lock().unwrap_or_else(|p| p.into_inner());
    let i = parked.iter().position(|p| p.addr == addr && p.command.as_deref() == command)?;
    let p = parked.swap_remove(i);
    Some((p.link, p.server))
}

/// The DamExchange game the engine is playing.
struct Session<G: Game> {
    /// Where in the client's game the session's start is: `moves[offset..]` are its moves.
    offset: usize,
    /// The moves the engine knows (sent to it or received from it), from the session's start.
    known: Vec<G::Move>,
    /// The engine's colour.
    colour: Color,
    /// The game's time control and the time the engine has used of it.
    clock: TimeControl,
    used: Duration,
}

/// An engine speaking DamExchange on a TCP port.
pub struct DxpClient<G: Game> {
    codec: DxpCodec<G>,
    addr: String,
    command: Option<String>,
    name: String,
    server: Option<ServerProcess>,
    link: Option<Link>,
    session: Option<Session<G>>,
    /// The game so far: where it started and the moves played since.
    game_start: Option<G::State>,
    moves: Vec<G::Move>,
}

impl<G: Game> DxpClient<G> {
    /// A client of the server at `addr` (`HOST:PORT`); with `command`, the server program is
    /// started through the shell before the first connection (and again after a failure),
    /// and killed with its process group when the client is dropped.
    pub fn new(addr: &str, command: Option<&str>, codec: DxpCodec<G>) -> Self {
        DxpClient {
            codec,
            addr: addr.to_string(),
            command: command.map(str::to_string),
            name: "dxp".into(),
            server: None,
            link: None,
            session: None,
            game_start: None,
            moves: Vec::new(),
        }
    }

    fn address(&self) -> Result<SocketAddr, EngineError> {
        self.addr
            .to_socket_addrs()
            .map_err(|e| EngineError::Protocol(format!("bad address {}: {e}", self.addr)))?
            .next()
            .ok_or_else(|| EngineError::Protocol(format!("{} has no address", self.addr)))
    }

    /// Starts the server program of `cmd=`, if there is one and it is not running.
    fn start_server(&mut self) -> Result<(), EngineError> {
        if let (Some(command), None) = (&self.command, &self.server) {
            let p = ServerProcess::start(command).map_err(|e| EngineError::Start {
                command: command.clone(),
                reason: e.to_string(),
            })?;
            self.server = Some(p);
        }
        Ok(())
    }

    /// The open connection: a parked one of the same server, or a new one (starting the
    /// server program first if needed).
    fn link(&mut self) -> Result<&mut Link, EngineError> {
        if self.link.is_none() && self.server.is_none() {
            if let Some((link, server)) = unpark(&self.addr, self.command.as_deref()) {
                self.link = Some(link);
                self.server = server;
            }
        }
        if self.link.is_none() {
            let addr = self.address()?;
            let stream = match &self.command {
                None => TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT).map_err(|e| {
                    EngineError::Protocol(format!("cannot connect to {}: {e}", self.addr))
                })?,
                Some(_) => {
                    self.start_server()?;
                    let server = self
                        .server
                        .as_mut()
                        .ok_or_else(|| EngineError::protocol("no server program"))?;
                    connect_to_started(server, addr, &self.addr)?
                }
            };
            let link = Link::open(stream)
                .map_err(|e| EngineError::Protocol(format!("{}: {e}", self.addr)))?;
            self.link = Some(link);
        }
        self.link.as_mut().ok_or_else(|| EngineError::Protocol("no connection".into()))
    }

    /// Ends the game in progress, if any, with `GAMEEND` (reason unknown).
    fn end_session(&mut self, stop: StopCode) -> Result<(), EngineError> {
        if self.session.take().is_some() {
            if let Some(link) = &mut self.link {
                link.send(&Message::GameEnd { reason: EndReason::Unknown, stop })?;
            }
        }
        Ok(())
    }

    /// After a failure: the connection and the server program go, the next move starts a
    /// new game on a new connection.
    fn break_link(&mut self) {
        let _ = self.end_session(StopCode::NoMoreGames);
        if let Some(link) = self.link.take() {
            link.close();
        }
        self.server = None;
    }

    /// True if `state` is where the game's start and moves lead.
    fn leads_to(&self, game: &G, state: &G::State) -> bool {
        let Some(start) = &self.game_start else { return false };
        let mut s = start.clone();
        for &mv in &self.moves {
            game.apply(&mut s, mv);
        }
        s == *state
    }

    /// True if none of `self.moves[from..]` was played by `colour`.
    fn only_opponent_moved(
        &self,
        game: &G,
        from: usize,
        colour: Color,
    ) -> Result<bool, EngineError> {
        let Some(start) = &self.game_start else { return Ok(false) };
        let mut s = start.clone();
        for (i, &mv) in self.moves.iter().enumerate() {
            if i >= from && self.codec.to_move(game, &s)? == colour {
                return Ok(false);
            }
            game.apply(&mut s, mv);
        }
        Ok(true)
    }

    /// The state after `self.moves[..n]`.
    fn state_after(&self, game: &G, n: usize) -> Option<G::State> {
        let mut s = self.game_start.clone()?;
        for &mv in &self.moves[..n] {
            game.apply(&mut s, mv);
        }
        Some(s)
    }

    /// True if the session in progress is this game, with only the opponent's moves since
    /// the engine's last.
    fn session_continues(&self, game: &G, colour: Color) -> Result<bool, EngineError> {
        let Some(session) = &self.session else { return Ok(false) };
        let known_end = session.offset + session.known.len();
        Ok(session.colour == colour
            && known_end <= self.moves.len()
            && self.moves[session.offset..known_end] == session.known[..]
            && self.only_opponent_moved(game, known_end, colour)?)
    }

    /// Starts a DamExchange game at `self.moves[offset..]` with the engine playing `colour`.
    fn request_game(
        &mut self,
        game: &G,
        offset: usize,
        colour: Color,
        budget: &Budget,
    ) -> Result<(), EngineError> {
        let start =
            self.state_after(game, offset).ok_or_else(|| EngineError::protocol("no game start"))?;
        let text = (self.codec.position)(game, &start);
        let position = (text != (self.codec.position)(game, &game.initial_state())).then_some(text);
        let per_move =
            budget.time.or(budget.clock.map(|c| c.allotment())).unwrap_or(Duration::from_secs(1));
        let clock = TimeControl::for_move_time(per_move);
        let request = Message::GameReq(GameRequest {
            version: VERSION,
            initiator: INITIATOR.into(),
            follower: colour,
            minutes: clock.minutes,
            moves: clock.moves,
            position,
        });
        let link = self.link()?;
        link.send(&request)?;
        let started = Instant::now();
        let name = loop {
            match read(link, started + STARTUP, "answer to the game request", started)? {
                Message::GameAcc { name, code: Acceptance::Accepted } => break name,
                Message::GameAcc { code, .. } => {
                    return Err(EngineError::Protocol(format!(
                        "the game request was refused: {code}"
                    )));
                }
                // What is left of an earlier game (the server's reply to our GAMEEND), talk.
                Message::GameEnd { .. } | Message::Chat(_) => {}
                Message::BackReq { .. } => {
                    link.send(&Message::BackAcc(BackAnswer::NotSupported))?;
                }
                other => {
                    return Err(EngineError::Protocol(format!(
                        "{other} instead of an answer to the game request"
                    )))
                }
            }
        };
        if !name.trim().is_empty() {
            self.name = format!("dxp({})", name.trim());
        }
        self.session =
            Some(Session { offset, known: Vec::new(), colour, clock, used: Duration::ZERO });
        Ok(())
    }

    fn try_choose(
        &mut self,
        game: &G,
        state: &G::State,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, EngineError> {
        let started = Instant::now();
        if !self.leads_to(game, state) {
            // Not this game's continuation: a game of its own from here.
            self.end_session(StopCode::NextGame)?;
            self.game_start = Some(state.clone());
            self.moves.clear();
        }
        let colour = self.codec.to_move(game, state)?;
        if !self.session_continues(game, colour)? {
            self.end_session(StopCode::NextGame)?;
            // From the game's start if the engine has not had to move since, else from here.
            let offset =
                if self.only_opponent_moved(game, 0, colour)? { 0 } else { self.moves.len() };
            self.request_game(game, offset, colour, budget)?;
        }
        // The opponent's moves the engine has not seen.
        let session =
            self.session.as_mut().ok_or_else(|| EngineError::protocol("no game in progress"))?;
        let unsent = self.moves[session.offset + session.known.len()..].to_vec();
        let link = self.link.as_mut().ok_or_else(|| EngineError::protocol("no connection"))?;
        for mv in unsent {
            link.send(&Message::Move(self.codec.move_message(game, mv, 0)))?;
            session.known.push(mv);
        }
        // The engine's move: within the budget's deadline, or its clock's if that is later
        // (an engine may spend more than the average on a move).
        let left = session.clock.total().saturating_sub(session.used);
        let deadline = answer_deadline(budget, started, Instant::now())
            .max(started + left + Duration::from_secs(5));
        loop {
            match read(link, deadline, "move", started)? {
                Message::Move(m) => {
                    let mv = self.codec.find_move(game, state, &m)?;
                    let elapsed = started.elapsed();
                    session.known.push(mv);
                    session.used += elapsed;
                    return Ok(SearchReport::instant(mv, elapsed));
                }
                Message::Chat(_) => {}
                Message::BackReq { .. } => {
                    link.send(&Message::BackAcc(BackAnswer::NotSupported))?;
                }
                Message::GameEnd { reason, .. } => {
                    return Err(EngineError::Protocol(format!(
                        "the engine ended the game: reason {reason}"
                    )));
                }
                other => {
                    return Err(EngineError::Protocol(format!(
                        "unexpected {other} instead of a move"
                    )))
                }
            }
        }
    }
}

/// Connects to a server program just started, retrying until it listens.
fn connect_to_started(
    server: &mut ServerProcess,
    addr: SocketAddr,
    name: &str,
) -> Result<TcpStream, EngineError> {
    let deadline = Instant::now() + STARTUP;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match TcpStream::connect_timeout(
            &addr,
            left.clamp(Duration::from_millis(1), CONNECT_TIMEOUT),
        ) {
            Ok(stream) => return Ok(stream),
            Err(e) => {
                if let Some(status) = server.exited() {
                    return Err(EngineError::Protocol(format!(
                        "`{}` ended ({status}) before accepting a connection on {name}",
                        server.command
                    )));
                }
                if Instant::now() >= deadline {
                    return Err(EngineError::Protocol(format!(
                        "`{}` did not accept a connection on {name} within {} s: {e}",
                        server.command,
                        STARTUP.as_secs()
                    )));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

/// The next message, or an error that says what was awaited since when.
fn read(
    link: &mut Link,
    deadline: Instant,
    awaited: &str,
    since: Instant,
) -> Result<Message, EngineError> {
    match link.reader.read(Some(deadline)) {
        Ok(Some(m)) => Ok(m),
        Ok(None) => Err(EngineError::Protocol(format!(
            "the server closed the connection (awaiting its {awaited})"
        ))),
        Err(ReadError::TimedOut) => Err(EngineError::Protocol(format!(
            "no {awaited}: silent for {:.1} s",
            since.elapsed().as_secs_f64()
        ))),
        Err(e) => Err(EngineError::protocol(e)),
    }
}

impl<G: Game> Agent<G> for DxpClient<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        if self.game_start.is_none() {
            self.game_start = Some(position.state.clone());
            self.moves.clear();
        }
        self.try_choose(game, position.state, budget).map_err(|reason| {
            self.break_link();
            SearchError::Engine { engine: "dxp", reason: format!("{}: {reason}", self.addr) }
        })
    }

    /// Starts the server program of `cmd=`; a server without one is reached on the first
    /// move (a connection opened only to check it would be the one a single-connection
    /// server serves).
    fn ready(&mut self) -> Result<(), SearchError> {
        self.start_server()
            .map_err(|e| SearchError::Engine { engine: "dxp", reason: e.to_string() })
    }

    fn observe(&mut self, _game: &G, state_before: &G::State, mv: G::Move) {
        if self.game_start.is_none() {
            self.game_start = Some(state_before.clone());
        }
        self.moves.push(mv);
    }

    fn new_game(&mut self) {
        if self.end_session(StopCode::NextGame).is_err() {
            self.break_link();
        }
        self.game_start = None;
        self.moves.clear();
    }
}

impl<G: Game> Drop for DxpClient<G> {
    /// Parks a connection that is between games for the next client (see the
    /// [module docs](self)); closes one in trouble.
    fn drop(&mut self) {
        if self.link.is_some() && self.end_session(StopCode::NextGame).is_ok() {
            if let Some(link) = self.link.take() {
                let parked = Parked {
                    addr: self.addr.clone(),
                    command: self.command.clone(),
                    link,
                    server: self.server.take(),
                };
                PARKED.lock().unwrap_or_else(|p| p.into_inner()).push(parked);
                return;
            }
        }
        self.break_link();
    }
}
