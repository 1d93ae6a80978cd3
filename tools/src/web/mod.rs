//! The web board: `PROGRAM serve [--port N]` starts a local HTTP server (on 127.0.0.1 only)
//! whose page draws the board of any registered game from its
//! [`Notation::diagram`](ply::Notation::diagram), lets a person play by clicking, and shows
//! the engines thinking. See `docs/web.md`.
//!
//! - [`game`]: a game and a session of any type behind object-safe traits, answering JSON;
//! - [`server`]: the HTTP server, its API and the embedded page (`assets/`).
//!
//! ```no_run
//! use ply_tools::registry::{GameEntry, GameOptions, Registry};
//! use ply_tools::web::{offers, WebServer};
//!
//! let mut registry = Registry::new();
//! registry.add(GameEntry::new("tictactoe", "noughts and crosses", |_| Ok(ply::games::TicTacToe)));
//! let server = WebServer::bind(offers(registry, "tictactoe", &GameOptions::default(), None), 0)?;
//! println!("open {}", server.url());
//! server.run();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod game;
pub mod server;

use std::process::ExitCode;
use std::sync::Arc;

use crate::agents::ToolGame;
use crate::error::{ToolError, ToolResult};
use crate::registry::{GameEntry, GameOptions, Registry};
use crate::spec::AgentSpec;
pub use server::{Board, Offer};

/// The options of `serve`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ServeArgs {
    /// The port to listen on, on 127.0.0.1 only (default: a free port, printed).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// The engine of new engine seats, e.g. alphabeta:time=2s (default: the game's own).
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<AgentSpec>,
    /// The game's options (rules, size, players, variants).
    #[command(flatten)]
    pub options: GameOptions,
}

/// The `serve` subcommand of a game's program.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum ServeCommand {
    /// Play in a browser: a local web server on 127.0.0.1 (the address is printed; Ctrl-C
    /// stops it).
    Serve(Box<ServeArgs>),
}

/// The games of `registry` for the web board, `first` first with `options` (the others with
/// their defaults), each built when a page first asks for it; engine seats get `engine` or
/// each game's own engine.
pub fn offers(
    registry: Registry,
    first: &str,
    options: &GameOptions,
    engine: Option<AgentSpec>,
) -> Vec<Offer> {
    let mut games: Vec<_> = registry.into_games().into_iter().map(Arc::from).collect();
    games.sort_by_key(|g: &Arc<dyn crate::registry::RegisteredGame>| g.info().name != first);
    games
        .into_iter()
        .map(|entry| {
            let info = entry.info().clone();
            let options = match info.name == first {
                true => options.clone(),
                false => GameOptions::default(),
            };
            let engine = engine.clone();
            Offer::new(&info.name, &info.summary, move || entry.web(&options, engine.as_ref()))
        })
        .collect()
}

/// A web board bound to its port, not yet serving.
pub struct WebServer {
    server: Arc<tiny_http::Server>,
    board: Arc<Board>,
    url: String,
}

impl WebServer {
    /// Listens on 127.0.0.1 at `port` (0: a free one) for a board offering `offers`.
    ///
    /// # Errors
    /// A port that cannot be bound (in use, or not allowed).
    pub fn bind(offers: Vec<Offer>, port: u16) -> ToolResult<WebServer> {
        let server = tiny_http::Server::http(("127.0.0.1", port))
            .map_err(|e| ToolError::Failed(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
        let port = server.server_addr().to_ip().map_or(port, |a| a.port());
        Ok(WebServer {
            server: Arc::new(server),
            board: Arc::new(Board::new(offers)),
            url: format!("http://127.0.0.1:{port}/"),
        })
    }

    /// The page's address.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Serves until the process ends.
    pub fn run(&self) {
        self.board.run(&self.server);
    }

    /// Serves on a thread of its own until the returned handle is stopped (tests).
    pub fn spawn(self) -> Running {
        let server = self.server.clone();
        let board = self.board.clone();
        let thread = std::thread::spawn(move || board.run(&server));
        Running { server: self.server, url: self.url, thread: Some(thread) }
    }
}

/// A web board serving on its own thread; dropping it stops the server.
pub struct Running {
    server: Arc<tiny_http::Server>,
    url: String,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// The page's address.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// `serve` for the games of `registry`, `first` first with the options of `args`.
pub fn serve_registry(registry: Registry, first: &str, args: &ServeArgs) -> ExitCode {
    serve(offers(registry, first, &args.options, args.engine.clone()), args.port)
}

/// `serve` for one game's program.
pub fn serve_entry<G: ToolGame>(entry: GameEntry<G>, args: &ServeArgs) -> ExitCode {
    let name = entry.info().name.clone();
    let mut registry = Registry::new();
    registry.add(entry);
    serve_registry(registry, &name, args)
}

/// Binds `port` on 127.0.0.1, loads the first game (so that bad options fail at once),
/// prints the address and serves `offers` until Ctrl-C.
pub fn serve(offers: Vec<Offer>, port: u16) -> ExitCode {
    if let Some(Err(e)) = offers.first().map(Offer::game) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    match WebServer::bind(offers, port) {
        Ok(server) => {
            println!("ply web board: {} (Ctrl-C stops it)", server.url());
            server.run();
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
