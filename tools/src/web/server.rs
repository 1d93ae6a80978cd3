//! The web board's HTTP server: the page's three files, embedded in the binary, and a JSON
//! API on sessions, one per browser tab, each driving a [`WebSession`].
//!
//! Every request runs on a thread of its own (a search holds its request until it ends; the
//! event stream of a tab stays open). A session is locked while one request works on it; a
//! second request to a busy session gets `409` at once rather than waiting. Bad input gets a
//! `4xx` answer with `{"error": "..."}`; nothing a request sends reaches another session.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};
use tiny_http::{Header, Method, Request, Response};

use super::game::{lock, Live, WebGame, WebSession};
use crate::error::{ToolError, ToolResult};
use crate::play::Seat;
use crate::spec::AgentSpec;

/// The page.
const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's script.
const BOARD_JS: &str = include_str!("assets/board.js");
/// The page's style sheet.
const BOARD_CSS: &str = include_str!("assets/board.css");

/// The most sessions kept; a new one replaces the one unused longest.
const MAX_SESSIONS: usize = 64;
/// The most requests served at once (event streams included); more get `503`.
const MAX_REQUESTS: usize = 128;
/// The largest request body read (a game's text for `load`).
const MAX_BODY: usize = 1 << 20;
/// How often the event stream looks at a running search.
const EVENT_EVERY: Duration = Duration::from_millis(150);
/// How often the event stream sends something even when nothing changed, so that a closed
/// tab is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(5);

/// A game the server offers: its name and summary, and how to load it on first use.
pub struct Offer {
    /// The registry name.
    pub name: String,
    /// One line about it.
    pub summary: String,
    load: Box<dyn Fn() -> ToolResult<Arc<dyn WebGame>> + Send + Sync>,
    loaded: OnceLock<Arc<dyn WebGame>>,
}

impl Offer {
    /// A game called `name` that `load` builds when a page first asks for it.
    pub fn new(
        name: &str,
        summary: &str,
        load: impl Fn() -> ToolResult<Arc<dyn WebGame>> + Send + Sync + 'static,
    ) -> Offer {
        Offer {
            name: name.into(),
            summary: summary.into(),
            load: Box::new(load),
            loaded: OnceLock::new(),
        }
    }

    /// The game, loaded now if no page asked for it yet.
    ///
    /// # Errors
    /// Options the game refuses.
    pub fn game(&self) -> ToolResult<Arc<dyn WebGame>> {
        if let Some(game) = self.loaded.get() {
            return Ok(game.clone());
        }
        let game = (self.load)()?;
        Ok(self.loaded.get_or_init(|| game).clone())
    }
}

/// One session: the game in play and what its searches show.
struct Slot {
    session: Mutex<Box<dyn WebSession>>,
    game: Arc<dyn WebGame>,
    live: Live,
    used: Mutex<Instant>,
    closed: AtomicBool,
}

/// The server's state: the games offered and the sessions.
pub struct Board {
    offers: Vec<Offer>,
    sessions: Mutex<HashMap<String, Arc<Slot>>>,
    running: AtomicUsize,
}

/// An answer that is not a success: its status and message.
#[derive(Debug)]
struct Failure {
    status: u16,
    message: String,
}

impl Failure {
    fn new(status: u16, message: impl Into<String>) -> Failure {
        Failure { status, message: message.into() }
    }
}

impl From<ToolError> for Failure {
    fn from(e: ToolError) -> Failure {
        let status = match e {
            ToolError::Failed(_) => 500,
            _ => 400,
        };
        Failure::new(status, e.to_string())
    }
}

/// What a request gets back.
enum Reply {
    Json(Json),
    /// A file to show: its content type and text.
    File(&'static str, &'static str),
    /// A file to download: its name and text.
    Download(String, String),
}

type Answer = Result<Reply, Failure>;

impl Board {
    /// A server state offering `offers` (the first is the page's default game).
    pub fn new(offers: Vec<Offer>) -> Board {
        Board { offers, sessions: Mutex::new(HashMap::new()), running: AtomicUsize::new(0) }
    }

    /// Serves `server`'s requests until it is unblocked, each on a thread of its own.
    pub fn run(self: &Arc<Self>, server: &tiny_http::Server) {
        for request in server.incoming_requests() {
            if self.running.fetch_add(1, Ordering::AcqRel) >= MAX_REQUESTS {
                self.running.fetch_sub(1, Ordering::AcqRel);
                respond(request, Err(Failure::new(503, "too many requests at once")));
                continue;
            }
            let board = Arc::clone(self);
            std::thread::spawn(move || {
                // Counted out even if the request's thread panics.
                let _done = Finished(&board.running);
                board.handle(request);
            });
        }
    }

    fn handle(&self, mut request: Request) {
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let query = parse_query(query);
        if request.method() == &Method::Get && path == "/api/events" {
            return match self.slot(&query) {
                Ok(slot) => stream_events(request, &slot),
                Err(e) => respond(request, Err(e)),
            };
        }
        let answer = match request.method() {
            Method::Get => self.get(path, &query),
            Method::Post => match read_body(&mut request) {
                Ok(body) => self.post(path, &body),
                Err(e) => Err(e),
            },
            _ => Err(Failure::new(405, "only GET and POST")),
        };
        respond(request, answer);
    }

    fn get(&self, path: &str, query: &HashMap<String, String>) -> Answer {
        match path {
            "/" | "/index.html" => Ok(Reply::File("text/html; charset=utf-8", INDEX_HTML)),
            "/board.js" => Ok(Reply::File("text/javascript; charset=utf-8", BOARD_JS)),
            "/board.css" => Ok(Reply::File("text/css; charset=utf-8", BOARD_CSS)),
            "/api/games" => Ok(Reply::Json(json!({
                "games": self.offers.iter().map(|o| json!({"name": o.name, "summary": o.summary}))
                    .collect::<Vec<_>>(),
            }))),
            "/api/view" => {
                let slot = self.slot(query)?;
                let at = match query.get("at") {
                    Some(text) => Some(text.parse::<usize>().map_err(|_| {
                        Failure::new(400, format!("at must be a number of moves, not {text:?}"))
                    })?),
                    None => None,
                };
                let session = busy(&slot)?;
                Ok(Reply::Json(session.view(at)?))
            }
            "/api/save" => {
                let slot = self.slot(query)?;
                let (text, extension) = busy(&slot)?.save();
                Ok(Reply::Download(format!("{}.{extension}", slot.game.name()), text))
            }
            _ => Err(Failure::new(404, format!("no page {path}"))),
        }
    }

    fn post(&self, path: &str, body: &Json) -> Answer {
        if path == "/api/new" {
            return self.new_session(body);
        }
        let slot = self.slot_of(body)?;
        if path == "/api/stop" {
            slot.live.watch.stop.store(true, Ordering::Release);
            return Ok(Reply::Json(json!({ "stopped": true })));
        }
        let mut session = busy(&slot)?;
        let extra = match path {
            "/api/play" => {
                let index = optional_usize(body, "index")?;
                let text = body.get("move").and_then(Json::as_str);
                session.play(index, text)?;
                Json::Null
            }
            "/api/engine" => session.engine_move()?,
            "/api/hint" => return Ok(Reply::Json(session.hint()?)),
            "/api/undo" => json!(session.undo()),
            "/api/redo" => json!(session.redo()),
            "/api/restart" => {
                session.new_game();
                Json::Null
            }
            "/api/takeback" => {
                let at = optional_usize(body, "at")?.ok_or_else(|| missing("at"))?;
                json!(session.take_back_to(at))
            }
            "/api/seat" => {
                let seat = optional_usize(body, "seat")?.ok_or_else(|| missing("seat"))?;
                let engine = optional_spec(body, "engine")?;
                session.set_seat(seat, engine)?;
                Json::Null
            }
            "/api/load" => {
                let text =
                    body.get("text").and_then(Json::as_str).ok_or_else(|| missing("text"))?;
                json!(session.load(text)?)
            }
            "/api/analyse" => {
                let spec = optional_spec(body, "engine")?
                    .unwrap_or_else(|| slot.game.default_engine().clone());
                return Ok(Reply::Json(session.analyse(&spec)?));
            }
            _ => return Err(Failure::new(404, format!("no action {path}"))),
        };
        Ok(Reply::Json(json!({ "done": extra, "view": session.view(None)? })))
    }

    /// Starts a session: `{"game": NAME, "seats": [null | SPEC, ...], "seed": N}`, every
    /// field optional (the first game; a person in the first seat and the game's engine in
    /// the others).
    fn new_session(&self, body: &Json) -> Answer {
        let offer = match body.get("game").and_then(Json::as_str) {
            Some(name) => self.offers.iter().find(|o| o.name == name).ok_or_else(|| {
                let known: Vec<&str> = self.offers.iter().map(|o| o.name.as_str()).collect();
                Failure::new(400, format!("no game {name:?}; known: {}", known.join(", ")))
            })?,
            None => self.offers.first().ok_or_else(|| Failure::new(500, "no games offered"))?,
        };
        let game = offer.game()?;
        let players = game.seat_names().len();
        let seats = match body.get("seats") {
            None | Some(Json::Null) => (0..players)
                .map(|i| match i {
                    0 => Seat::Human,
                    _ => Seat::Engine(game.default_engine().clone()),
                })
                .collect(),
            Some(Json::Array(list)) => list.iter().map(seat_of).collect::<Result<_, _>>()?,
            Some(_) => return Err(Failure::new(400, "seats must be a list")),
        };
        let seed = match body.get("seed") {
            None | Some(Json::Null) => rand::random::<u32>() as u64,
            Some(v) => v.as_u64().ok_or_else(|| Failure::new(400, "seed must be a number"))?,
        };
        let live = Live::default();
        let session = game.start(seats, seed, live.clone())?;
        let view = session.view(None)?;
        let id = format!("{:016x}", rand::random::<u64>());
        let slot = Arc::new(Slot {
            session: Mutex::new(session),
            game: game.clone(),
            live,
            used: Mutex::new(Instant::now()),
            closed: AtomicBool::new(false),
        });
        self.keep(id.clone(), slot);
        Ok(Reply::Json(json!({
            "session": id,
            "game": {
                "name": game.name(),
                "title": game.title(),
                "names": game.seat_names(),
                "engine": game.default_engine().to_string(),
                "seed": seed,
            },
            "view": view,
        })))
    }

    /// Keeps `slot` as session `id`, dropping the session unused longest when there are too
    /// many.
    fn keep(&self, id: String, slot: Arc<Slot>) {
        let mut sessions = lock(&self.sessions);
        if sessions.len() >= MAX_SESSIONS {
            let oldest = sessions
                .iter()
                .min_by_key(|(_, s)| *lock(&s.used))
                .map(|(k, _)| k.clone())
                .expect("a full map has an entry");
            if let Some(old) = sessions.remove(&oldest) {
                old.closed.store(true, Ordering::Release);
            }
        }
        sessions.insert(id, slot);
    }

    fn slot(&self, query: &HashMap<String, String>) -> Result<Arc<Slot>, Failure> {
        let id = query.get("session").ok_or_else(|| missing("session"))?;
        self.find(id)
    }

    fn slot_of(&self, body: &Json) -> Result<Arc<Slot>, Failure> {
        let id = body.get("session").and_then(Json::as_str).ok_or_else(|| missing("session"))?;
        self.find(id)
    }

    fn find(&self, id: &str) -> Result<Arc<Slot>, Failure> {
        let slot = lock(&self.sessions).get(id).cloned().ok_or_else(|| {
            Failure::new(404, format!("no session {id:?} (the server may have restarted)"))
        })?;
        *lock(&slot.used) = Instant::now();
        Ok(slot)
    }
}

/// Takes one from the count of running requests when dropped.
struct Finished<'a>(&'a AtomicUsize);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The session of `slot`, or `409` when another request is working on it.
fn busy(slot: &Slot) -> Result<std::sync::MutexGuard<'_, Box<dyn WebSession>>, Failure> {
    match slot.session.try_lock() {
        Ok(session) => Ok(session),
        Err(std::sync::TryLockError::Poisoned(e)) => Ok(e.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => {
            Err(Failure::new(409, "busy: the engine is thinking (stop it, or wait)"))
        }
    }
}

fn missing(field: &str) -> Failure {
    Failure::new(400, format!("the request has no {field:?}"))
}

fn optional_usize(body: &Json, field: &str) -> Result<Option<usize>, Failure> {
    match body.get(field) {
        None | Some(Json::Null) => Ok(None),
        Some(v) => {
            v.as_u64().and_then(|n| usize::try_from(n).ok()).map(Some).ok_or_else(|| {
                Failure::new(400, format!("{field} must be a whole number, not {v}"))
            })
        }
    }
}

fn optional_spec(body: &Json, field: &str) -> Result<Option<AgentSpec>, Failure> {
    match body.get(field) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(text)) => {
            text.parse().map(Some).map_err(|e| Failure::new(400, format!("engine {text:?}: {e}")))
        }
        Some(v) => Err(Failure::new(400, format!("{field} must be an agent spec, not {v}"))),
    }
}

/// A seat of `/api/new`: `null` for a person, a spec for an engine.
fn seat_of(value: &Json) -> Result<Seat, Failure> {
    match value {
        Json::Null => Ok(Seat::Human),
        Json::String(text) => text
            .parse()
            .map(Seat::Engine)
            .map_err(|e| Failure::new(400, format!("engine {text:?}: {e}"))),
        v => Err(Failure::new(400, format!("a seat is null or an agent spec, not {v}"))),
    }
}

/// `key=value&...` (no escapes are needed by the API's values: ids and numbers).
fn parse_query(query: &str) -> HashMap<String, String> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The request's body as JSON (`{}` when empty).
fn read_body(request: &mut Request) -> Result<Json, Failure> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(Failure::new(413, format!("the body is larger than {MAX_BODY} bytes")));
    }
    let mut bytes = Vec::new();
    let read = request.as_reader().take(MAX_BODY as u64 + 1).read_to_end(&mut bytes);
    read.map_err(|e| Failure::new(400, format!("cannot read the body: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(Failure::new(413, format!("the body is larger than {MAX_BODY} bytes")));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    serde_json::from_slice(&bytes).map_err(|e| Failure::new(400, format!("bad JSON: {e}")))
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn respond(request: Request, answer: Answer) {
    let (status, body, content_type, disposition) = match answer {
        Ok(Reply::Json(json)) => (200, json.to_string(), "application/json", None),
        Ok(Reply::File(content_type, text)) => (200, text.to_string(), content_type, None),
        Ok(Reply::Download(name, text)) => {
            let disposition = format!("attachment; filename=\"{name}\"");
            (200, text, "text/plain; charset=utf-8", Some(disposition))
        }
        Err(f) => (f.status, json!({ "error": f.message }).to_string(), "application/json", None),
    };
    let mut response = Response::from_string(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"));
    if let Some(d) = disposition {
        response = response.with_header(header("Content-Disposition", &d));
    }
    // A client that went away is no concern of the server's.
    let _ = request.respond(response);
}

/// Server-sent events for one tab: the session's [`Live::snapshot`] whenever it changes
/// (every [`EVENT_EVERY`] at most), until the tab goes away or the session is dropped.
fn stream_events(request: Request, slot: &Slot) {
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
                Connection: close\r\n\r\n";
    if out.write_all(head.as_bytes()).and_then(|()| out.flush()).is_err() {
        return;
    }
    let mut last = String::new();
    let mut sent = Instant::now();
    while !slot.closed.load(Ordering::Acquire) {
        let now = slot.live.snapshot().to_string();
        let line = if now != last {
            format!("data: {now}\n\n")
        } else if sent.elapsed() >= KEEP_ALIVE {
            ": keep-alive\n\n".to_string()
        } else {
            std::thread::sleep(EVENT_EVERY);
            continue;
        };
        if out.write_all(line.as_bytes()).and_then(|()| out.flush()).is_err() {
            return;
        }
        last = now;
        sent = Instant::now();
        std::thread::sleep(EVENT_EVERY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_split_into_pairs() {
        let q = parse_query("session=ab12&at=3&junk");
        assert_eq!(q["session"], "ab12");
        assert_eq!(q["at"], "3");
        assert_eq!(q.len(), 2);
    }

    #[test]
    fn fields_are_checked() {
        let body = json!({"index": -1, "engine": 5, "seat": 1});
        assert!(optional_usize(&body, "index").is_err());
        assert_eq!(optional_usize(&body, "seat").unwrap(), Some(1));
        assert_eq!(optional_usize(&body, "none").unwrap(), None);
        assert!(optional_spec(&body, "engine").is_err());
        assert!(seat_of(&json!("nonsense:x=1")).is_err());
        assert_eq!(seat_of(&Json::Null).unwrap(), Seat::Human);
    }
}
