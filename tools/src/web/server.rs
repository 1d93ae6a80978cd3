//! The web board's HTTP server: the page's three files, embedded in the binary, and a JSON
//! API on sessions, one per browser tab, each a [`DynSession`]. This layer routes requests
//! and writes JSON; the games and sessions are [`crate::dynamic`]'s.
//!
//! Every request passes the [`Gate`] first (host, origin, content type, token), then runs on
//! a thread of its own (a search holds its request until it ends; the event stream of a tab
//! stays open). A session is locked while one request works on it; a second request to a
//! busy session gets `409` at once rather than waiting, except `stop`, which reaches the
//! running job. Engine specs from a client pass the [`SpecPolicy`]. Bad input gets a `4xx`
//! answer with `{"error": "..."}`; nothing a request sends reaches another session.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};
use tiny_http::{Header, Method, Request, Response};

use super::gate::{Gate, Refused};
use super::policy::SpecPolicy;
use crate::dynamic::{lock, DynGame, DynSession, Monitor};
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

/// A game the server offers: its name and summary, how to load it on first use, and the
/// engine of its new engine seats (`serve --engine`, or the game's own).
pub struct Offer {
    /// The registry name.
    pub name: String,
    /// One line about it.
    pub summary: String,
    engine: Option<AgentSpec>,
    load: Box<dyn Fn() -> ToolResult<Arc<dyn DynGame>> + Send + Sync>,
    loaded: OnceLock<Arc<dyn DynGame>>,
}

impl Offer {
    /// A game called `name` that `load` builds when a page first asks for it, its engine
    /// seats given `engine` (`None`: the game's own).
    pub fn new(
        name: &str,
        summary: &str,
        engine: Option<AgentSpec>,
        load: impl Fn() -> ToolResult<Arc<dyn DynGame>> + Send + Sync + 'static,
    ) -> Offer {
        Offer {
            name: name.into(),
            summary: summary.into(),
            engine,
            load: Box::new(load),
            loaded: OnceLock::new(),
        }
    }

    /// The game, loaded now if no page asked for it yet.
    ///
    /// # Errors
    /// Options the game refuses.
    pub fn game(&self) -> ToolResult<Arc<dyn DynGame>> {
        if let Some(game) = self.loaded.get() {
            return Ok(game.clone());
        }
        let game = (self.load)()?;
        Ok(self.loaded.get_or_init(|| game).clone())
    }

    /// The engine of new engine seats in `game` (this offer's game).
    fn engine(&self, game: &dyn DynGame) -> AgentSpec {
        self.engine.clone().unwrap_or_else(|| game.default_engine().clone())
    }
}

/// How many stopped job ids a session remembers (stops that came before their job).
const STOPS_KEPT: usize = 16;

/// One session: the game in play and what its searches show.
struct Slot {
    session: Mutex<Box<dyn DynSession>>,
    game: Arc<dyn DynGame>,
    /// The engine of new engine seats, and of analyses that name none.
    engine: AgentSpec,
    monitor: Monitor,
    used: Mutex<Instant>,
    closed: AtomicBool,
    jobs: Mutex<Jobs>,
}

/// A session's jobs (an engine move, a hint, an analysis): the one running and the ids a
/// `stop` named, so that a stop is kept when it arrives before its job starts.
#[derive(Default)]
struct Jobs {
    /// The running job, and its id if the client gave one.
    running: Option<Option<u64>>,
    /// The ids stopped lately, the latest last.
    stopped: std::collections::VecDeque<u64>,
}

/// The server's state: the games offered, the sessions, and who may ask what.
pub struct Board {
    offers: Vec<Offer>,
    sessions: Mutex<HashMap<String, Arc<Slot>>>,
    running: AtomicUsize,
    gate: Gate,
    policy: SpecPolicy,
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

impl From<Refused> for Failure {
    fn from(r: Refused) -> Failure {
        Failure::new(r.status, r.message)
    }
}

impl From<ToolError> for Failure {
    fn from(e: ToolError) -> Failure {
        Failure::new(e.kind().http_status(), e.to_string())
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
    /// A server state offering `offers` (the first is the page's default game), letting
    /// through what `gate` admits and the engine specs `policy` allows.
    pub fn new(offers: Vec<Offer>, gate: Gate, policy: SpecPolicy) -> Board {
        Board {
            offers,
            sessions: Mutex::new(HashMap::new()),
            running: AtomicUsize::new(0),
            gate,
            policy,
        }
    }

    /// Serves `server`'s requests until it is unblocked, each on a thread of its own.
    pub fn run(self: &Arc<Self>, server: &tiny_http::Server) {
        for request in server.incoming_requests() {
            if self.running.fetch_add(1, Ordering::AcqRel) >= MAX_REQUESTS {
                self.running.fetch_sub(1, Ordering::AcqRel);
                respond(request, Err(Failure::new(503, "too many requests at once")), None);
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
        let admitted = match self.gate.check(&request, &query) {
            Ok(admitted) => admitted,
            Err(refused) => return respond(request, Err(refused.into()), None),
        };
        let cookie = admitted.set_cookie.then(|| self.gate.cookie());
        if request.method() == &Method::Get && path == "/api/events" {
            return match self.slot(&query) {
                Ok(slot) => stream_events(request, &slot),
                Err(e) => respond(request, Err(e), None),
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
        respond(request, answer, cookie.as_deref());
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
                Ok(Reply::Json(to_json(&session.view(at)?)))
            }
            "/api/save" => {
                let slot = self.slot(query)?;
                let saved = busy(&slot)?.save();
                let name = format!("{}.{}", slot.game.name(), saved.extension);
                Ok(Reply::Download(name, saved.text))
            }
            _ => Err(Failure::new(404, format!("no page {path}"))),
        }
    }

    fn post(&self, path: &str, body: &Json) -> Answer {
        if path == "/api/new" {
            return self.new_session(body);
        }
        let slot = self.slot_of(body)?;
        let job = optional_u64(body, "job")?;
        if path == "/api/stop" {
            return Ok(Reply::Json(json!({ "stopped": stop(&slot, job) })));
        }
        // What builds or runs engines: checked against the policy before the session is
        // locked, and bounded in number.
        let engine = match path {
            "/api/seat" | "/api/analyse" => self.optional_spec(body, "engine", &slot.engine)?,
            _ => None,
        };
        let _permit = match path {
            "/api/engine" | "/api/hint" | "/api/analyse" => Some(self.engine_permit()?),
            "/api/seat" if engine.is_some() => Some(self.engine_permit()?),
            _ => None,
        };
        let mut session = busy(&slot)?;
        let extra = match path {
            "/api/play" => {
                match (optional_usize(body, "index")?, body.get("move").and_then(Json::as_str)) {
                    (Some(index), _) => session.play_index(index)?,
                    (None, Some(text)) => session.play_text(text)?,
                    (None, None) => return Err(Failure::new(400, "give a move: index or text")),
                }
                Json::Null
            }
            "/api/engine" => {
                let _job = begin_job(&slot, job);
                to_json(&session.engine_move()?)
            }
            "/api/hint" => {
                let _job = begin_job(&slot, job);
                return Ok(Reply::Json(to_json(&session.hint()?)));
            }
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
                session.set_seat(seat, engine)?;
                Json::Null
            }
            "/api/load" => {
                let text =
                    body.get("text").and_then(Json::as_str).ok_or_else(|| missing("text"))?;
                json!(session.load(text)?)
            }
            "/api/analyse" => {
                let spec = engine.unwrap_or_else(|| slot.engine.clone());
                let _job = begin_job(&slot, job);
                return Ok(Reply::Json(to_json(&session.analyse(&spec)?)));
            }
            _ => return Err(Failure::new(404, format!("no action {path}"))),
        };
        Ok(Reply::Json(json!({ "done": extra, "view": to_json(&session.view(None)?) })))
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
        let engine = offer.engine(&*game);
        let players = game.num_players();
        let seats: Vec<Seat> = match body.get("seats") {
            None | Some(Json::Null) => (0..players)
                .map(|i| match i {
                    0 => Seat::Human,
                    _ => Seat::Engine(engine.clone()),
                })
                .collect(),
            Some(Json::Array(list)) => {
                list.iter().map(|seat| self.seat_of(seat, &engine)).collect::<Result<_, _>>()?
            }
            Some(_) => return Err(Failure::new(400, "seats must be a list")),
        };
        let _permit = match seats.iter().any(|s| matches!(s, Seat::Engine(_))) {
            true => Some(self.engine_permit()?),
            false => None,
        };
        let seed = match body.get("seed") {
            None | Some(Json::Null) => rand::random::<u32>() as u64,
            Some(v) => v.as_u64().ok_or_else(|| Failure::new(400, "seed must be a number"))?,
        };
        let session = game.session(seats, seed, Some(&engine))?;
        let view = session.view(None)?;
        let id = format!("{:016x}", rand::random::<u64>());
        let slot = Arc::new(Slot {
            monitor: session.monitor(),
            session: Mutex::new(session),
            game: game.clone(),
            engine: engine.clone(),
            used: Mutex::new(Instant::now()),
            closed: AtomicBool::new(false),
            jobs: Mutex::new(Jobs::default()),
        });
        self.keep(id.clone(), slot);
        Ok(Reply::Json(json!({
            "session": id,
            "game": {
                "name": game.name(),
                "title": game.title(),
                "names": game.seat_names(),
                "engine": engine.to_string(),
                "seed": seed,
            },
            "view": to_json(&view),
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

    /// A permit to build or run engines, or `503` when too many requests hold one.
    fn engine_permit(&self) -> Result<super::policy::EnginePermit<'_>, Failure> {
        self.policy.engine_permit().ok_or_else(|| {
            Failure::new(503, "too many engine requests at once; try again when one ends")
        })
    }

    /// The engine spec in `field` of a client's body (`None` for a person), if the policy
    /// allows it (the game's `engine` is allowed as it is).
    fn optional_spec(
        &self,
        body: &Json,
        field: &str,
        engine: &AgentSpec,
    ) -> Result<Option<AgentSpec>, Failure> {
        match body.get(field) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(text)) => self.spec(text, engine).map(Some),
            Some(v) => Err(Failure::new(400, format!("{field} must be an agent spec, not {v}"))),
        }
    }

    /// A seat of `/api/new`: `null` for a person, a spec for an engine.
    fn seat_of(&self, value: &Json, engine: &AgentSpec) -> Result<Seat, Failure> {
        match value {
            Json::Null => Ok(Seat::Human),
            Json::String(text) => self.spec(text, engine).map(Seat::Engine),
            v => Err(Failure::new(400, format!("a seat is null or an agent spec, not {v}"))),
        }
    }

    /// The spec `text` from a client, parsed and checked against the policy (the game's
    /// `engine` is allowed as it is).
    fn spec(&self, text: &str, engine: &AgentSpec) -> Result<AgentSpec, Failure> {
        let spec: AgentSpec =
            text.parse().map_err(|e| Failure::new(400, format!("engine {text:?}: {e}")))?;
        self.policy
            .check(&spec, &[engine])
            .map_err(|e| Failure::new(e.status, format!("engine {text:?}: {}", e.message)))?;
        Ok(spec)
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

/// A job of `slot` starts (its session locked): its stop flag is lowered, or raised if a
/// `stop` named its id already. The job is over when the guard is dropped.
fn begin_job(slot: &Slot, id: Option<u64>) -> JobGuard<'_> {
    let mut jobs = lock(&slot.jobs);
    let stopped = id.is_some_and(|id| jobs.stopped.contains(&id));
    slot.monitor.handle().begin(stopped);
    jobs.running = Some(id);
    JobGuard(slot)
}

/// Marks a session's job over when dropped.
struct JobGuard<'a>(&'a Slot);

impl Drop for JobGuard<'_> {
    fn drop(&mut self) {
        lock(&self.0.jobs).running = None;
    }
}

/// Stops the job `id` of `slot` (kept if it has not started yet), or without an id the job
/// running now: whether a running job was stopped.
fn stop(slot: &Slot, id: Option<u64>) -> bool {
    let mut jobs = lock(&slot.jobs);
    if let Some(id) = id {
        if jobs.stopped.len() >= STOPS_KEPT {
            jobs.stopped.pop_front();
        }
        jobs.stopped.push_back(id);
    }
    let hit = match jobs.running {
        Some(running) => id.is_none() || running == id,
        None => false,
    };
    if hit {
        slot.monitor.stop();
    }
    hit
}

/// The session of `slot`, or `409` when another request is working on it.
fn busy(slot: &Slot) -> Result<std::sync::MutexGuard<'_, Box<dyn DynSession>>, Failure> {
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

fn optional_u64(body: &Json, field: &str) -> Result<Option<u64>, Failure> {
    match body.get(field) {
        None | Some(Json::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| Failure::new(400, format!("{field} must be a whole number, not {v}"))),
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

/// `value` as JSON (the views are plain data: this cannot fail).
fn to_json(value: &impl serde::Serialize) -> Json {
    serde_json::to_value(value).unwrap_or_else(|e| json!({ "error": e.to_string() }))
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

/// Answers `request`, setting the token's cookie when `cookie` is given. A failure is JSON
/// (`{"error": ...}`) on the API and plain text elsewhere, for a person who opened a page.
fn respond(request: Request, answer: Answer, cookie: Option<&str>) {
    let api = request.url().starts_with("/api/");
    let (status, body, content_type, disposition) = match answer {
        Ok(Reply::Json(json)) => (200, json.to_string(), "application/json", None),
        Ok(Reply::File(content_type, text)) => (200, text.to_string(), content_type, None),
        Ok(Reply::Download(name, text)) => {
            let disposition = format!("attachment; filename=\"{name}\"");
            (200, text, "text/plain; charset=utf-8", Some(disposition))
        }
        Err(f) if api => {
            (f.status, json!({ "error": f.message }).to_string(), "application/json", None)
        }
        Err(f) => (f.status, format!("ply web board: {}\n", f.message), "text/plain", None),
    };
    let mut response = Response::from_string(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"))
        // Not framed by other pages, not sniffed as another type, and the token in the
        // page's address is never sent on as a referrer.
        .with_header(header("X-Frame-Options", "DENY"))
        .with_header(header("Content-Security-Policy", "frame-ancestors 'none'"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header("Referrer-Policy", "no-referrer"));
    if let Some(d) = disposition {
        response = response.with_header(header("Content-Disposition", &d));
    }
    if let Some(cookie) = cookie {
        response = response.with_header(header("Set-Cookie", cookie));
    }
    // A client that went away is no concern of the server's.
    let _ = request.respond(response);
}

/// Server-sent events for one tab: the session's [`Monitor::snapshot`] whenever it changes
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
        let now = to_json(&slot.monitor.snapshot()).to_string();
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
        let body = json!({"index": -1, "engine": 5, "seat": 1, "job": "x"});
        assert!(optional_usize(&body, "index").is_err());
        assert_eq!(optional_usize(&body, "seat").unwrap(), Some(1));
        assert_eq!(optional_usize(&body, "none").unwrap(), None);
        assert!(optional_u64(&body, "job").is_err());
        assert_eq!(optional_u64(&body, "seat").unwrap(), Some(1));
    }
}
