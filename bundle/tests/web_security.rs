//! The web board attacked as a page from another site would: through real HTTP requests to
//! a running server (the bundled games, whose checkers program takes external engines), each
//! attack answered with a 4xx and a clear message, and nothing run. See "Security" in
//! `docs/web.md`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ply_tools::registry::GameOptions;
use ply_tools::web::{offers, Running, ServeArgs, WebServer};
use proptest::prelude::*;
use serde_json::{json, Value};

/// The fast engine of the board's engine seats.
const ENGINE: &str = "alphabeta:depth=2,book=off";

/// A board offering every bundled game, checkers first, started with `args`.
fn board_with(mut args: ServeArgs) -> Running {
    args.engine = Some(ENGINE.parse().unwrap());
    let offered = offers(
        ply_bundle::registry(),
        "english-checkers",
        &GameOptions::default(),
        args.engine.clone(),
    );
    WebServer::bind(offered, &args).unwrap().spawn()
}

fn board() -> Running {
    board_with(ServeArgs::default())
}

/// An answer: the status, the headers and the body.
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_else(|| panic!("no error: {}", self.body)).into()
    }
}

/// Sends `request` (the whole text) to the server and reads the answer.
fn send_raw(server: &Running, request: &[u8]) -> Answer {
    let address = server.base().trim_start_matches("http://").trim_end_matches('/').to_string();
    let mut stream = TcpStream::connect(&address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    stream.write_all(request).unwrap();
    let mut text = Vec::new();
    stream.read_to_end(&mut text).unwrap();
    let text = String::from_utf8_lossy(&text).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no answer: {text:?}"));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    Answer { status, head: head.to_string(), body: body.to_string() }
}

/// A request as the page sends it, with the host and extra headers given.
fn send(
    server: &Running,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Answer {
    let address = server.base().trim_start_matches("http://").trim_end_matches('/').to_string();
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request += &format!("Host: {address}\r\n");
    }
    for (k, v) in headers {
        request += &format!("{k}: {v}\r\n");
    }
    request += &format!("Content-Length: {}\r\n\r\n{body}", body.len());
    send_raw(server, request.as_bytes())
}

/// A POST of JSON with the token, as the page's own requests are.
fn post(server: &Running, path: &str, body: &Value) -> Answer {
    let token = server.token().to_string();
    let headers = [("Content-Type", "application/json"), ("X-Ply-Token", token.as_str())];
    send(server, "POST", path, &headers, Some(body))
}

/// A GET with the token.
fn get(server: &Running, path: &str) -> Answer {
    let token = server.token().to_string();
    send(server, "GET", path, &[("X-Ply-Token", token.as_str())], None)
}

/// A file in a fresh directory of this test's.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-web-security-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `Host` must name this server: a rebound DNS name is refused even with the token.
#[test]
fn a_forged_host_is_refused() {
    let server = board();
    let token = server.token().to_string();
    let port = server.base().rsplit(':').next().unwrap().trim_end_matches('/').to_string();
    for host in [format!("evil.example.com:{port}"), "127.0.0.1:1".into(), "localhost".into()] {
        let headers = [("Host", host.as_str()), ("X-Ply-Token", token.as_str())];
        let a = send(&server, "GET", "/api/games", &headers, None);
        assert_eq!(a.status, 403, "{host}: {}", a.body);
        assert!(a.error().contains("not to the host"), "{}", a.error());
        let a = send(&server, "GET", "/", &headers, None);
        assert_eq!(a.status, 403);
        assert!(
            a.body.starts_with("ply web board: ") && !a.body.contains("board.js"),
            "{}",
            a.body
        );
    }
    let two = format!("localhost:{port}");
    let headers = [("Host", two.as_str()), ("Host", "x"), ("X-Ply-Token", token.as_str())];
    let a = send(&server, "GET", "/api/games", &headers, None);
    assert!((400..500).contains(&a.status), "{}", a.body);
    let local = format!("localhost:{port}");
    let headers = [("Host", local.as_str()), ("X-Ply-Token", token.as_str())];
    assert_eq!(send(&server, "GET", "/api/games", &headers, None).status, 200);
}

/// A cross-site "simple" request (text/plain, another origin, no token) creates nothing;
/// nor does one that fixes any one of the three but not the others.
#[test]
fn cross_site_requests_are_refused() {
    let server = board();
    let token = server.token().to_string();
    let new = json!({"game": "english-checkers"});
    let evil = "http://evil.example.com";
    type Headers<'a> = Vec<(&'a str, &'a str)>;
    let cases: Vec<(Headers, u16, &str)> = vec![
        (vec![("Origin", evil), ("Content-Type", "text/plain")], 403, "Origin"),
        (vec![("Content-Type", "text/plain"), ("X-Ply-Token", &token)], 415, "application/json"),
        (
            vec![("Content-Type", "application/x-www-form-urlencoded"), ("X-Ply-Token", &token)],
            415,
            "application/json",
        ),
        (
            vec![("Origin", evil), ("Content-Type", "application/json"), ("X-Ply-Token", &token)],
            403,
            "origin",
        ),
        (
            vec![("Origin", "null"), ("Content-Type", "application/json"), ("X-Ply-Token", &token)],
            403,
            "origin",
        ),
        (
            vec![
                ("Sec-Fetch-Site", "cross-site"),
                ("Content-Type", "application/json"),
                ("X-Ply-Token", &token),
            ],
            403,
            "another site",
        ),
        (vec![("Content-Type", "application/json")], 403, "token"),
        (vec![("Content-Type", "application/json"), ("X-Ply-Token", "0123")], 403, "token"),
    ];
    for (headers, status, says) in cases {
        let a = send(&server, "POST", "/api/new", &headers, Some(&new));
        assert_eq!(a.status, status, "{headers:?}: {}", a.body);
        assert!(
            a.error().to_lowercase().contains(&says.to_lowercase()),
            "{headers:?}: {}",
            a.error()
        );
    }
    // The page's own requests: same origin, JSON, the token as a cookie.
    let origin = server.base().trim_end_matches('/').to_string();
    let cookie = format!(
        "ply-token-{}={token}",
        server.base().rsplit(':').next().unwrap().trim_end_matches('/')
    );
    let headers = [
        ("Origin", origin.as_str()),
        ("Sec-Fetch-Site", "same-origin"),
        ("Content-Type", "application/json; charset=utf-8"),
        ("Cookie", cookie.as_str()),
    ];
    let a = send(&server, "POST", "/api/new", &headers, Some(&new));
    assert_eq!(a.status, 200, "{}", a.body);
}

/// Without the token nothing is served; the address with it sets the cookie, strictly.
#[test]
fn the_token_is_required_and_set_as_a_cookie() {
    let server = board();
    for path in ["/", "/board.js", "/api/games", "/api/view?session=x", "/api/events?session=x"] {
        let a = send(&server, "GET", path, &[], None);
        assert_eq!(a.status, 403, "{path}: {}", a.body);
        assert!(a.body.contains("token"), "{path}: {}", a.body);
    }
    let a = send(&server, "GET", &format!("/?token={}", server.token()), &[], None);
    assert_eq!(a.status, 200);
    let cookie = a.head.lines().find(|l| l.starts_with("Set-Cookie:")).expect("a cookie");
    assert!(cookie.contains(server.token()) && cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Strict"), "{cookie}");
    assert!(
        a.head.contains("X-Frame-Options: DENY") && a.head.contains("Referrer-Policy: no-referrer")
    );
    let wrong = send(&server, "GET", "/?token=00", &[], None);
    assert_eq!(wrong.status, 403);
}

/// An engine spec that starts a program, or reads a file, is refused from the web, and
/// nothing runs; the board's own engines and plain searches are not.
#[test]
fn commands_and_files_in_specs_are_refused() {
    let server = board();
    let pwned = scratch("pwned");
    let _ = std::fs::remove_file(&pwned);
    let command = format!("jsonl:time=1s,cmd=touch {}", pwned.display());
    let a =
        post(&server, "/api/new", &json!({"game": "english-checkers", "seats": [command, null]}));
    assert_eq!(a.status, 403, "{}", a.body);
    assert!(a.error().contains("cmd=touch") && a.error().contains("--allow-spec"), "{}", a.error());
    let session =
        post(&server, "/api/new", &json!({"seats": [null, null]})).json()["session"].clone();
    for (path, body) in [
        ("/api/seat", json!({"session": session, "seat": 1, "engine": command})),
        ("/api/analyse", json!({"session": session, "engine": command})),
        ("/api/seat", json!({"session": session, "seat": 1, "engine": "alphabeta:book=/dev/zero"})),
        ("/api/seat", json!({"session": session, "seat": 1, "engine": "alphabeta:net=/dev/zero"})),
        (
            "/api/seat",
            json!({"session": session, "seat": 1, "engine": "alphabeta:weights=/etc/passwd"}),
        ),
        ("/api/seat", json!({"session": session, "seat": 1, "engine": "alphabeta:egdb=/"})),
        ("/api/seat", json!({"session": session, "seat": 1, "engine": "dxp:addr=10.0.0.1:27531"})),
        ("/api/seat", json!({"session": session, "seat": 1, "engine": "alphabeta:tt=16384"})),
        ("/api/seat", json!({"session": session, "seat": 1, "engine": "mcts:threads=256"})),
    ] {
        let a = post(&server, path, &body);
        assert_eq!(a.status, 403, "{path} {body}: {}", a.body);
        assert!(a.error().contains("web board"), "{}", a.error());
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(!pwned.exists(), "a command ran");
    // The board's own engine, and plain searches, are allowed.
    for spec in [ENGINE, "alphabeta:depth=3,book=off,egdb=off", "mcts:iters=200"] {
        let a = post(&server, "/api/seat", &json!({"session": session, "seat": 1, "engine": spec}));
        assert_eq!(a.status, 200, "{spec}: {}", a.body);
    }
}

/// What the person allowed when starting the server may be chosen; a network file whose
/// header asks for tens of gigabytes is then a clear error, not an abort.
#[test]
fn allowed_files_are_read_through_the_checks() {
    let huge = scratch("huge.net");
    let mut bytes = b"PLYNET1\0".to_vec();
    for n in [1u32 << 24, 1024, 64] {
        bytes.extend_from_slice(&n.to_le_bytes());
    }
    std::fs::write(&huge, bytes).unwrap();
    let net = format!("alphabeta:depth=2,book=off,net={}", huge.display());
    let zero = "alphabeta:depth=2,book=/dev/zero";
    let args = ServeArgs {
        allow_specs: vec![net.parse().unwrap(), zero.parse().unwrap()],
        ..ServeArgs::default()
    };
    let server = board_with(args);
    let a = post(&server, "/api/new", &json!({"seats": [null, net]}));
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.error().contains("expected") && a.error().contains("header"), "{}", a.error());
    let a = post(&server, "/api/new", &json!({"seats": [null, zero]}));
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.error().contains("not a regular file"), "{}", a.error());
    // The server still serves.
    assert_eq!(get(&server, "/api/games").status, 200);
}

/// A stop ends a whole analysis, not only the search it reaches; a stop that arrives before
/// its job starts is kept; a stop for another job, or with nothing running, stops nothing.
#[test]
fn stop_means_stop() {
    let server = board();
    let slow = "alphabeta:time=3s,book=off,egdb=off";
    let session =
        post(&server, "/api/new", &json!({"seats": [null, null]})).json()["session"].clone();
    for _ in 0..6 {
        let a = post(&server, "/api/play", &json!({"session": session, "index": 0}));
        assert_eq!(a.status, 200, "{}", a.body);
    }
    // A stop with nothing running, and one for another job, change nothing.
    let a = post(&server, "/api/stop", &json!({"session": session}));
    assert_eq!(a.json()["stopped"], json!(false));
    // Early: the stop for job 7 arrives before job 7 starts.
    let a = post(&server, "/api/stop", &json!({"session": session, "job": 7}));
    assert_eq!(a.json()["stopped"], json!(false));
    let begun = Instant::now();
    let a = post(&server, "/api/analyse", &json!({"session": session, "engine": slow, "job": 7}));
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["stopped"], json!(true));
    assert!(begun.elapsed() < Duration::from_secs(3), "{:?}", begun.elapsed());
    // During: seven positions of 3 s each, stopped after the first second.
    let stopper = {
        let (base, token) = (server.base().to_string(), server.token().to_string());
        let session = session.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            let address = base.trim_start_matches("http://").trim_end_matches('/').to_string();
            let body = json!({"session": session, "job": 8}).to_string();
            let mut stream = TcpStream::connect(&address).unwrap();
            write!(
                stream,
                "POST /api/stop HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\
                 Content-Type: application/json\r\nX-Ply-Token: {token}\r\n\
                 Content-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).unwrap();
            answer
        })
    };
    let begun = Instant::now();
    let a = post(&server, "/api/analyse", &json!({"session": session, "engine": slow, "job": 8}));
    let answer = stopper.join().unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["stopped"], json!(true));
    assert!(a.json()["moves"].as_array().unwrap().len() < 6, "{}", a.body);
    assert!(begun.elapsed() < Duration::from_secs(10), "{:?}", begun.elapsed());
    // The next job is not stopped by the last one's stop.
    let quick = "alphabeta:depth=2,book=off";
    let a = post(&server, "/api/analyse", &json!({"session": session, "engine": quick, "job": 9}));
    assert_eq!(a.json()["stopped"], json!(false), "{}", a.body);
    assert_eq!(a.json()["moves"].as_array().unwrap().len(), 6);
}

/// One request, drawn at random: a method, a path, headers (a good or bad host, origin,
/// content type and token) and a body.
#[derive(Clone, Debug)]
struct Attempt {
    method: &'static str,
    path: String,
    host: u8,
    origin: u8,
    content_type: u8,
    token: u8,
    body: String,
}

fn attempt() -> impl Strategy<Value = Attempt> {
    let method = prop::sample::select(vec!["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD"]);
    let path = prop_oneof![
        prop::sample::select(vec![
            "/",
            "/board.js",
            "/api/games",
            "/api/new",
            "/api/view",
            "/api/play",
            "/api/engine",
            "/api/stop",
            "/api/seat",
            "/api/load",
            "/api/analyse",
            "/api/save",
            "/api/events",
            "/api/undo",
            "/api/takeback",
            "/nope",
            "/api/../etc/passwd",
        ])
        .prop_map(String::from),
        "/[a-z/?=&%.]{0,30}",
    ];
    let body = prop_oneof![
        Just(String::new()),
        Just("{\"session\": \"0000000000000000\", \"index\": 0}".to_string()),
        Just("{\"seats\": [\"jsonl:cmd=touch /tmp/x\", null]}".to_string()),
        Just("{\"game\": 5, \"seed\": -1}".to_string()),
        "\\PC{0,60}",
    ];
    (method, path, 0..3u8, 0..3u8, 0..3u8, 0..3u8, body).prop_map(
        |(method, path, host, origin, content_type, token, body)| Attempt {
            method,
            path,
            host,
            origin,
            content_type,
            token,
            body,
        },
    )
}

/// Random requests never crash the server, never get a 5xx, and never touch the person's
/// session, whose id they do not know.
#[test]
fn random_requests_get_4xx_and_leave_the_session_alone() {
    let server = board();
    let session =
        post(&server, "/api/new", &json!({"seats": [null, null]})).json()["session"].clone();
    let a = post(&server, "/api/play", &json!({"session": session, "move": "11-15"}));
    assert_eq!(a.status, 200);
    let before = get(&server, &format!("/api/view?session={}", session.as_str().unwrap())).body;
    let address = server.base().trim_start_matches("http://").trim_end_matches('/').to_string();
    let token = server.token().to_string();
    let origin = server.base().trim_end_matches('/').to_string();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 150,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    runner
        .run(&attempt(), |t| {
            let host = [address.as_str(), "evil.example.com", ""][t.host as usize];
            let origin = [origin.as_str(), "http://evil.example.com", ""][t.origin as usize];
            let content_type = ["application/json", "text/plain", ""][t.content_type as usize];
            let token = [token.as_str(), "bad", ""][t.token as usize];
            let mut request = format!("{} {} HTTP/1.1\r\nConnection: close\r\n", t.method, t.path);
            for (k, v) in [
                ("Host", host),
                ("Origin", origin),
                ("Content-Type", content_type),
                ("X-Ply-Token", token),
            ] {
                if !v.is_empty() {
                    request += &format!("{k}: {v}\r\n");
                }
            }
            request += &format!("Content-Length: {}\r\n\r\n{}", t.body.len(), t.body);
            let mut stream = TcpStream::connect(&address).unwrap();
            stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
            stream.write_all(request.as_bytes()).unwrap();
            let mut text = Vec::new();
            // An event stream stays open: its first bytes are enough.
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stream.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                text.extend_from_slice(&chunk[..n]);
                if text.windows(4).any(|w| w == b"\r\n\r\n") && t.path.starts_with("/api/events") {
                    break;
                }
            }
            let text = String::from_utf8_lossy(&text);
            let status: u16 =
                text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
            prop_assert!((200..500).contains(&status), "{t:?}: {text}");
            let good = t.host == 0 && t.token == 0 && t.origin != 1;
            if !good {
                prop_assert!(status >= 400, "{t:?}: {text}");
            }
            Ok(())
        })
        .unwrap();
    let after = get(&server, &format!("/api/view?session={}", session.as_str().unwrap())).body;
    assert_eq!(before, after);
}
