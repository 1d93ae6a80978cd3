//! The web board: `PROGRAM serve [--port N]` starts a local HTTP server (on 127.0.0.1
//! unless `--listen` says otherwise) whose page draws the board of any registered game from
//! its [`Notation::diagram`](ply::Notation::diagram), lets a person play by clicking, and
//! shows the engines thinking. See `docs/web.md`, and its "Security" section for what the
//! server trusts.
//!
//! - [`gate`]: who may use the server (host, origin, content type, the launch's token);
//! - [`policy`]: what a client may ask of the engines;
//! - [`server`]: the HTTP server, its API and the embedded page (`assets/`).
//!
//! ```no_run
//! use ply_tools::registry::{GameEntry, GameOptions, Registry};
//! use ply_tools::web::{offers, ServeArgs, WebServer};
//!
//! let mut registry = Registry::new();
//! registry.add(GameEntry::new("tictactoe", "noughts and crosses", |_| Ok(ply::games::TicTacToe)));
//! let offered = offers(registry, "tictactoe", &GameOptions::default(), None);
//! let server = WebServer::bind(offered, &ServeArgs::default())?;
//! println!("open {}", server.url()); // http://127.0.0.1:PORT/?token=...
//! server.run();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod gate;
pub mod policy;
pub mod server;

use std::net::{IpAddr, Ipv4Addr};
use std::process::ExitCode;
use std::sync::Arc;

use crate::agents::ToolGame;
use crate::error::{ToolError, ToolResult};
use crate::registry::{GameEntry, GameOptions, Registry};
use crate::spec::AgentSpec;
pub use gate::Gate;
pub use policy::SpecPolicy;
pub use server::{Board, Offer};

/// The options of `serve`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ServeArgs {
    /// The port to listen on (default: a free port, printed).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// The address to listen on (default 127.0.0.1: this machine only). Another address
    /// (0.0.0.0: every interface) exposes the board to every machine that reaches it: anyone
    /// with the printed address and its token can then play, and the engines run here.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<IpAddr>,
    /// A host name the board may be reached by besides 127.0.0.1, localhost and [::1] (and
    /// any IP address, with --listen); repeat for more.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
    /// The engine of new engine seats, e.g. alphabeta:time=2s (default: the game's own); the
    /// page may also choose it when it names a command or a file.
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<AgentSpec>,
    /// An engine the page may choose although it runs a command (cmd=), reaches an address
    /// (addr=) or reads a file (book=, net=, weights=, egdb=DIR); the page may change its
    /// other options. Repeat for more. Without it the page may choose only ply's own engines.
    #[arg(long = "allow-spec", value_name = "SPEC")]
    pub allow_specs: Vec<AgentSpec>,
    /// The most search threads the page may ask for (default: this machine's cores).
    #[arg(long, value_name = "N")]
    pub max_threads: Option<usize>,
    /// The largest transposition table the page may ask for, in MiB (default 256).
    #[arg(long = "max-tt", value_name = "MB")]
    pub max_tt_mb: Option<usize>,
    /// The game's options (rules, size, players, variants).
    #[command(flatten)]
    pub options: GameOptions,
}

impl ServeArgs {
    /// The address listened on.
    pub fn address(&self) -> IpAddr {
        self.listen.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
    }

    /// What a client may ask of the engines: the `--engine` preset and the `--allow-spec`
    /// specs, within the caps.
    pub fn policy(&self) -> SpecPolicy {
        let allowed = self.engine.iter().chain(&self.allow_specs).cloned().collect();
        SpecPolicy::new(allowed, self.max_threads, self.max_tt_mb)
    }
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
            Offer::new(&info.name, &info.summary, engine.clone(), move || entry.load(&options))
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
    /// Listens at the address and port of `args` (port 0: a free one) for a board offering
    /// `offers`, with a fresh token and the policy of `args`.
    ///
    /// # Errors
    /// A port that cannot be bound (in use, or not allowed).
    pub fn bind(offers: Vec<Offer>, args: &ServeArgs) -> ToolResult<WebServer> {
        let (address, port) = (args.address(), args.port);
        let server = tiny_http::Server::http((address, port)).map_err(|e| {
            ToolError::Internal(format!("cannot listen on {address} port {port}: {e}"))
        })?;
        let port = server.server_addr().to_ip().map_or(port, |a| a.port());
        let gate = Gate::new(port, address, &args.allow_hosts);
        // The address printed: the one listened on, or loopback for every interface.
        let shown = match address {
            a if a.is_unspecified() || a.is_loopback() => "127.0.0.1".to_string(),
            IpAddr::V6(a) => format!("[{a}]"),
            a => a.to_string(),
        };
        let url = format!("http://{shown}:{port}/?token={}", gate.token());
        Ok(WebServer {
            server: Arc::new(server),
            board: Arc::new(Board::new(offers, gate, args.policy())),
            url,
        })
    }

    /// The page's address, with the token (`http://127.0.0.1:PORT/?token=...`).
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
    /// The page's address, with the token.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The address without the token: where the server listens (`http://127.0.0.1:PORT/`).
    pub fn base(&self) -> &str {
        self.url.split_once('?').map_or(&self.url, |(base, _)| base)
    }

    /// The token every request needs.
    pub fn token(&self) -> &str {
        self.url.rsplit_once("token=").map_or("", |(_, token)| token)
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
    serve(offers(registry, first, &args.options, args.engine.clone()), args)
}

/// `serve` for one game's program.
pub fn serve_entry<G: ToolGame>(entry: GameEntry<G>, args: &ServeArgs) -> ExitCode {
    let name = entry.info().name.clone();
    let mut registry = Registry::new();
    registry.add(entry);
    serve_registry(registry, &name, args)
}

/// Binds the address and port of `args`, loads the first game (so that bad options fail at
/// once), prints the address with its token and serves `offers` until Ctrl-C.
pub fn serve(offers: Vec<Offer>, args: &ServeArgs) -> ExitCode {
    if let Some(Err(e)) = offers.first().map(Offer::game) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    if !args.address().is_loopback() {
        eprintln!(
            "warning: listening on {}: every machine that reaches it can play here with the \
             address's token, and the engines run on this machine",
            args.address()
        );
    }
    match WebServer::bind(offers, args) {
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
