//! The web board in a real browser: headless Chromium driven through ChromeDriver
//! (WebDriver, with the `fantoccini` client). A person's whole checkers game played by
//! clicking, the move list stepped through, the PDN saved and compared with the moves; an
//! engine-against-engine draughts game watched to the end; and a screenshot of every game on
//! a light and a dark page, written to `target/web-screenshots/`.
//!
//! These tests need Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Where
//! they are missing the tests say so and pass, unless `PLY_BROWSER_TESTS=required` (as in
//! CI), which makes a missing browser a failure.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use ply_tools::registry::GameOptions;
use ply_tools::web::{offers, Running, ServeArgs, WebServer};
use serde_json::{json, Value};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The fast engine the tests play against.
const ENGINE: &str = "alphabeta:depth=2,book=off";

/// ChromeDriver on a port of its own, stopped when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// ChromeDriver, or `None` (after saying why) where the browser is not installed and not
/// required.
fn driver() -> Option<Driver> {
    let present = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !present {
        let required = std::env::var("PLY_BROWSER_TESTS").is_ok_and(|v| v == "required");
        assert!(
            !required,
            "PLY_BROWSER_TESTS=required but {CHROMIUM} or {CHROMEDRIVER} is missing"
        );
        eprintln!("skipped: install chromium and chromium-driver to run the browser tests");
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let url = format!("http://127.0.0.1:{port}");
    let begun = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(begun.elapsed() < Duration::from_secs(20), "chromedriver does not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(Driver { child, url })
}

/// A headless Chromium session with its own profile directory.
async fn browser(driver: &Driver) -> Client {
    static SESSIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let profile = std::env::temp_dir().join(format!("ply-chromium-{}-{n}", std::process::id()));
    let args = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
    ];
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), json!({ "binary": CHROMIUM, "args": args }));
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a browser session")
}

/// A web board offering every bundled game, `first` first, with the fast engine.
fn board(first: &str) -> Running {
    let spec = ENGINE.parse().unwrap();
    let offered = offers(ply_bundle::registry(), first, &GameOptions::default(), Some(spec));
    WebServer::bind(offered, &ServeArgs::default()).unwrap().spawn()
}

/// `window.ply[field]` in the page, once its script has set `window.ply` (a loaded machine may
/// run the test's first look before the page's script).
async fn page(client: &Client, field: &str) -> Value {
    let begun = Instant::now();
    let ready = "return typeof window.ply !== 'undefined';";
    while client.execute(ready, vec![]).await.unwrap() != Value::Bool(true)
        && begun.elapsed() < Duration::from_secs(30)
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    client.execute(&format!("return window.ply.{field};"), vec![]).await.unwrap()
}

/// Waits until `check` holds of the page's view (`window.ply.view`), up to `limit`.
async fn wait_view(client: &Client, limit: Duration, check: impl Fn(&Value) -> bool) -> Value {
    let begun = Instant::now();
    loop {
        let view = page(client, "view").await;
        let busy = page(client, "busy").await;
        if !view.is_null() && busy == json!(false) && check(&view) {
            return view;
        }
        assert!(begun.elapsed() < limit, "timed out; the page shows {view}");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Waits until the page shows the position after `at` moves.
async fn wait_shown(client: &Client, at: usize) {
    let begun = Instant::now();
    while page(client, "shown.at").await != json!(at) {
        assert!(begun.elapsed() < Duration::from_secs(10), "the page never shows move {at}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

fn human_to_move(view: &Value) -> bool {
    !view["to_move"].is_null()
        && view["seats"][view["to_move"].as_u64().unwrap() as usize].is_null()
}

fn over(view: &Value) -> bool {
    view["result"].is_string()
}

async fn click_cell(client: &Client, cell: u64) {
    let selector = format!("[data-cell=\"{cell}\"]");
    client.find(Locator::Css(&selector)).await.unwrap().click().await.unwrap();
}

/// Plays the legal move numbered `index` of `view` with the mouse: its first cell, then its
/// last; where the page asks which move, the button with the move's text.
async fn click_move(client: &Client, view: &Value, index: usize) {
    let mv = &view["legal"][index];
    let cells: Vec<u64> =
        mv["cells"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    assert!(!cells.is_empty(), "every checkers move has cells: {mv}");
    click_cell(client, cells[0]).await;
    if cells.len() > 1 {
        click_cell(client, *cells.last().unwrap()).await;
    }
    let choice = client.find(Locator::Id("choice")).await.unwrap();
    if choice.is_displayed().await.unwrap() {
        let text = mv["text"].as_str().unwrap();
        let buttons = client.find_all(Locator::Css("#choices button")).await.unwrap();
        for b in buttons {
            if b.text().await.unwrap() == text {
                b.click().await.unwrap();
                break;
            }
        }
    }
}

/// The moves of a PDN game: its move text without tags, numbers and result.
fn pdn_moves(pdn: &str) -> Vec<String> {
    pdn.lines()
        .filter(|l| !l.trim_start().starts_with('['))
        .flat_map(|l| l.split_whitespace())
        .filter(|t| {
            !t.ends_with('.') && !["*", "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1"].contains(t)
        })
        .map(str::to_string)
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn a_person_plays_a_whole_checkers_game_by_clicking() {
    let Some(driver) = driver() else { return };
    let server = board("english-checkers");
    let client = browser(&driver).await;
    // The page opens with the token in its address, keeps it as a cookie and takes it out
    // of the address bar; its requests (and the event stream) carry the cookie.
    client.goto(&format!("{}&game=english-checkers", server.url())).await.unwrap();
    let shown = client.current_url().await.unwrap();
    assert!(!shown.as_str().contains("token"), "{shown}");
    assert!(shown.as_str().contains("game=english-checkers"), "{shown}");
    let mut state = 0x2545_f491_4f6c_dd1d_u64; // the human's choices: a fixed xorshift stream
    let mut played = 0;
    loop {
        let view =
            wait_view(&client, Duration::from_secs(60), |v| over(v) || human_to_move(v)).await;
        if over(&view) {
            break;
        }
        let legal = view["legal"].as_array().unwrap().len();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let before = view["moves"].as_array().unwrap().len();
        click_move(&client, &view, (state % legal as u64) as usize).await;
        wait_view(&client, Duration::from_secs(60), |v| {
            v["moves"].as_array().unwrap().len() > before
        })
        .await;
        played += 1;
        assert!(played < 400, "the game does not end");
    }
    let png = client.screenshot().await.unwrap();
    std::fs::write(screenshot_dir().join("english-checkers-finished.png"), png).unwrap();
    let view = page(&client, "view").await;
    let moves: Vec<String> = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect();
    assert!(moves.len() > 10, "a whole game: {moves:?}");

    // Step through the move list: the first move, back to the start, forward, the end.
    client.find(Locator::Css("#moves [data-ply=\"1\"]")).await.unwrap().click().await.unwrap();
    wait_shown(&client, 1).await;
    let first = page(&client, "shown.position").await;
    client.find(Locator::Id("back")).await.unwrap().click().await.unwrap();
    wait_shown(&client, 0).await;
    assert_ne!(page(&client, "shown.position").await, first, "another position is drawn");
    client.find(Locator::Id("forward")).await.unwrap().click().await.unwrap();
    wait_shown(&client, 1).await;
    assert_eq!(page(&client, "shown.position").await, first);
    client.find(Locator::Id("last")).await.unwrap().click().await.unwrap();
    wait_shown(&client, moves.len()).await;
    assert_eq!(page(&client, "shown.position").await, view["position"]);

    // Save: the PDN holds the moves played and the result.
    let pdn = client
        .execute_async(
            "const done = arguments[0]; \
             fetch(document.getElementById('save').href).then(r => r.text()).then(done);",
            vec![],
        )
        .await
        .unwrap();
    let pdn = pdn.as_str().unwrap();
    assert_eq!(pdn_moves(pdn), moves, "{pdn}");
    assert!(pdn.contains("[Result \""), "{pdn}");
    assert!(pdn.contains("[Date \""), "the date of the game: {pdn}");
    assert!(!pdn.contains("[Result \"*\"]"), "a finished game has its result: {pdn}");

    // The analysis: a row per move, with the value of the move played and of the best move.
    let engine = client.find(Locator::Id("analysis-engine")).await.unwrap();
    engine.clear().await.unwrap();
    engine.send_keys("alphabeta:depth=3").await.unwrap();
    client.find(Locator::Id("analyse")).await.unwrap().click().await.unwrap();
    let begun = Instant::now();
    let rows = loop {
        let rows = client.find_all(Locator::Css("#analysis tr")).await.unwrap();
        if rows.len() == moves.len() + 1 {
            break rows;
        }
        assert!(begun.elapsed() < Duration::from_secs(60), "no analysis: {} rows", rows.len());
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let last = rows.last().unwrap().text().await.unwrap();
    assert!(last.contains(moves.last().unwrap()), "the last row is the last move: {last}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn an_engine_game_of_draughts_is_watched_to_the_end() {
    let Some(driver) = driver() else { return };
    let server = board("international-draughts");
    let client = browser(&driver).await;
    client.goto(&format!("{}&game=international-draughts", server.url())).await.unwrap();
    wait_view(&client, Duration::from_secs(30), human_to_move).await;
    // The first seat to an engine, through its select: the page then plays both sides.
    let select = client.find(Locator::Css("#seats .seat select")).await.unwrap();
    select.select_by_value("engine").await.unwrap();
    let view = wait_view(&client, Duration::from_secs(300), over).await;
    let moves = view["moves"].as_array().unwrap().len();
    assert!(moves > 20, "a whole game: {view}");
    let result = client.find(Locator::Id("result")).await.unwrap().text().await.unwrap();
    assert_eq!(result, view["result"].as_str().unwrap());
    client.close().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn four_players_share_a_reversi_board() {
    let Some(driver) = driver() else { return };
    let options = GameOptions { players: Some(4), ..GameOptions::default() };
    let spec = "paranoid:depth=2".parse().unwrap();
    let offered = offers(ply_bundle::registry(), "reversi", &options, Some(spec));
    let server = WebServer::bind(offered, &ServeArgs::default()).unwrap().spawn();
    let client = browser(&driver).await;
    client.goto(&format!("{}&game=reversi", server.url())).await.unwrap();
    let view = wait_view(&client, Duration::from_secs(30), human_to_move).await;
    let seats = client.find_all(Locator::Css("#seats .seat")).await.unwrap();
    assert_eq!(seats.len(), 4, "a row per player");
    // Two rounds by clicking: each time one click on a dotted cell, then three engine moves.
    for round in 1..=2 {
        let view = page(&client, "view").await;
        let drop = view["legal"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["cells"].as_array().unwrap().len() == 1);
        let cell = drop.expect("a move of one cell")["cells"][0].as_u64().unwrap();
        click_cell(&client, cell).await;
        let played = 4 * round;
        wait_view(&client, Duration::from_secs(60), |v| {
            over(v) || v["moves"].as_array().unwrap().len() >= played && human_to_move(v)
        })
        .await;
    }
    let moves = page(&client, "view.moves").await;
    let movers: Vec<u64> =
        moves.as_array().unwrap().iter().map(|m| m["mover"].as_u64().unwrap()).collect();
    assert_eq!(&movers[..4], [0, 1, 2, 3], "the four players in turn: {moves}");
    assert!(!view["diagram"].is_null());
    client.close().await.unwrap();
}

/// Where the screenshots go: `target/web-screenshots/`.
fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let dir = target.join("web-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test(flavor = "current_thread")]
async fn every_game_draws_its_board_on_light_and_dark_pages() {
    let Some(driver) = driver() else { return };
    let server = board("english-checkers");
    let client = browser(&driver).await;
    let dir = screenshot_dir();
    let names: Vec<String> = ply_bundle::registry().names().iter().map(|n| n.to_string()).collect();
    for name in &names {
        for theme in ["light", "dark"] {
            client.goto(&format!("{}&game={name}&theme={theme}", server.url())).await.unwrap();
            let view = wait_view(&client, Duration::from_secs(30), |v| !v.is_null()).await;
            let cells = client.find_all(Locator::Css("[data-cell]")).await.unwrap();
            let diagram = &view["diagram"];
            if diagram.is_null() {
                // A game without a grid shows its text picture.
                let text = client.find(Locator::Id("text")).await.unwrap();
                assert!(text.is_displayed().await.unwrap(), "{name}: the text picture");
                assert!(cells.is_empty());
            } else {
                let expected =
                    diagram["rows"].as_u64().unwrap() * diagram["cols"].as_u64().unwrap();
                assert_eq!(cells.len() as u64, expected, "{name}: one element per cell");
            }
            let png = client.screenshot().await.unwrap();
            assert!(png.starts_with(b"\x89PNG"), "{name}: a PNG screenshot");
            std::fs::write(dir.join(format!("{name}-{theme}.png")), png).unwrap();
        }
    }
    client.close().await.unwrap();
}
