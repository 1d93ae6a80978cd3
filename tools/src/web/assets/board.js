// The web board: draws the server's view of a game (docs/web.md lists the API) as SVG and
// turns clicks into moves. Plain JavaScript, no build step; every game is drawn from its
// diagram, so nothing here knows a game by name.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const CELL = 60; // size of a cell in SVG units
const EDGE = 22; // room for the coordinates
const $ = (id) => document.getElementById(id);

const ply = {
  session: null, game: null, view: null, // the session, its game and the latest view
  shown: null, // the view drawn: the latest, or an earlier position of the move list
  selected: null, // the cell clicked first
  flipped: false, paused: false, busy: false, hint: null, events: null,
  jobs: 0, job: null, // the last job id given out, and the running job's (stop names it)
};
window.ply = ply; // for the browser tests and the console

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ session: ply.session, ...body }),
  };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

function say(text) { $("status").textContent = text || ""; }
function fail(error) { $("error").textContent = error ? String(error.message || error) : ""; }

// ---- sessions ----

async function start(game, seats) {
  const body = { game };
  if (seats) body.seats = seats;
  const data = await api("/api/new", body);
  ply.session = data.session;
  ply.game = data.game;
  sessionStorage.setItem("ply-session", data.session);
  sessionStorage.setItem("ply-game", data.game.name);
  $("title").textContent = data.game.title;
  document.title = data.game.title + " - ply";
  $("analysis").replaceChildren();
  // The board shows the first player's side at the bottom; turn it for a person who plays
  // another seat against the engines.
  const sat = data.view.seats;
  ply.flipped = sat[0] !== null && sat.slice(1).some((s) => s === null);
  listen();
  show(data.view);
}

async function resume() {
  const id = sessionStorage.getItem("ply-session");
  if (!id) return false;
  try {
    ply.session = id;
    const view = await api("/api/view?session=" + id);
    const games = await api("/api/games");
    const name = sessionStorage.getItem("ply-game");
    const offer = games.games.find((g) => g.name === name);
    if (!offer) return false;
    ply.game = { name, title: offer.summary, names: view.names, engine: view.helper };
    $("title").textContent = offer.summary;
    listen();
    show(view);
    return true;
  } catch (e) {
    return false;
  }
}

function listen() {
  if (ply.events) ply.events.close();
  ply.events = new EventSource("/api/events?session=" + ply.session);
  ply.events.onmessage = (event) => showThinking(JSON.parse(event.data));
}

// ---- drawing ----

function show(view) {
  ply.view = view;
  ply.shown = view;
  ply.selected = null;
  ply.hint = null;
  draw();
  next();
}

function draw() {
  const v = ply.shown;
  drawBoard(v);
  drawSeats(ply.view);
  drawMoves(ply.view, v.at);
  const current = v.at === ply.view.moves.length;
  $("here").hidden = current;
  $("result").textContent = ply.view.result || "";
  $("undo").disabled = !ply.view.can_undo;
  $("redo").disabled = !ply.view.can_redo;
  const over = !!ply.view.result;
  $("hint").disabled = over || !current;
  $("takeover").disabled = over || !current || humanToMove() === false;
  $("save").href = "/api/save?session=" + ply.session;
  $("pause").textContent = ply.paused ? "Resume" : "Pause";
  drawPasses(v, current);
  if (!ply.busy) {
    if (over) say(ply.view.result);
    else if (!current) say("move " + v.at + " of " + ply.view.moves.length + " shown");
    else say(ply.view.names[ply.view.to_move] + " to move");
  }
}

function humanToMove() {
  const v = ply.view;
  if (v.to_move === null || v.to_move === undefined) return null;
  return v.seats[v.to_move] === null;
}

function cellXY(d, index) {
  let row = Math.floor(index / d.cols), col = index % d.cols;
  if (ply.flipped) { row = d.rows - 1 - row; col = d.cols - 1 - col; }
  return [EDGE + col * CELL, row * CELL];
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, val] of Object.entries(attrs)) node.setAttribute(k, val);
  if (parent) parent.appendChild(node);
  return node;
}

function drawBoard(v) {
  const box = $("board");
  const d = v.diagram;
  $("text").hidden = !!d;
  if (!d) {
    box.replaceChildren();
    $("text").textContent = v.text;
    return;
  }
  const width = EDGE + d.cols * CELL, height = d.rows * CELL + EDGE;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img" });
  const targets = targetCells(v);
  const last = new Set(v.last);
  const hint = new Set(ply.hint ? ply.hint.cells : []);
  d.cells.forEach((cell, i) => {
    const [x, y] = cellXY(d, i);
    const g = el("g", { class: "cell", "data-cell": i }, svg);
    g.addEventListener("click", () => clickCell(i));
    el("rect", { x, y, width: CELL, height: CELL, fill: shadeColour(cell.shade),
      stroke: cell.shade === "plain" ? "var(--grid)" : "none", "stroke-width": 1 }, g);
    if (cell.shade === "pit" || cell.shade === "store") {
      el("rect", { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 22,
        fill: "rgba(0,0,0,0.18)" }, g);
    }
    if (last.has(i)) el("rect", { x, y, width: CELL, height: CELL, fill: "var(--last)" }, g);
    if (hint.has(i)) el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4,
      fill: "none", stroke: "var(--hint)", "stroke-width": 4 }, g);
    if (cell.label) {
      const t = el("text", { x: x + 3, y: y + 12, class: "label" }, g);
      t.textContent = cell.label;
    }
    if (cell.piece) drawPiece(g, cell.piece, x, y);
    if (ply.selected === i) el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4,
      fill: "none", stroke: "var(--accent)", "stroke-width": 4 }, g);
    if (targets.has(i)) el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 9,
      fill: "var(--target)" }, g);
  });
  const cols = ply.flipped ? [...d.col_labels].reverse() : d.col_labels;
  cols.forEach((label, c) => {
    const t = el("text", { x: EDGE + c * CELL + CELL / 2, y: d.rows * CELL + 16,
      "text-anchor": "middle", class: "edge" }, svg);
    t.textContent = label;
  });
  const rows = ply.flipped ? [...d.row_labels].reverse() : d.row_labels;
  rows.forEach((label, r) => {
    const t = el("text", { x: EDGE / 2, y: r * CELL + CELL / 2 + 5, "text-anchor": "middle",
      class: "edge" }, svg);
    t.textContent = label;
  });
  box.replaceChildren(svg);
}

function shadeColour(shade) {
  return { light: "var(--light-square)", dark: "var(--dark-square)", plain: "var(--plain)",
    pit: "var(--pit)", store: "var(--store)", off: "var(--off)" }[shade] || "var(--plain)";
}

function drawPiece(g, piece, x, y) {
  const p = Math.min(piece.owner, 3);
  const fill = `var(--p${p})`, edge = `var(--p${p}-edge)`, ink = `var(--p${p}-ink)`;
  const cx = x + CELL / 2, cy = y + CELL / 2;
  const disc = (dy, r) => {
    el("circle", { cx, cy: cy + dy, r: r + 2, fill: edge }, g);
    el("circle", { cx, cy: cy + dy, r, fill, stroke: ink, "stroke-opacity": 0.35,
      "stroke-width": 1.5 }, g);
  };
  if (piece.kind === "seeds") {
    const t = el("text", { x: cx, y: cy + 6, "text-anchor": "middle", class: "count" }, g);
    t.textContent = piece.count;
    return;
  }
  if (piece.kind === "glyph") {
    const t = el("text", { x: cx, y: cy + 14, "text-anchor": "middle", class: "glyph",
      fill: p === 0 ? "#c62828" : "#1565c0" }, g);
    t.textContent = piece.glyph;
    return;
  }
  const r = piece.kind === "disc" ? 24 : 21;
  const n = Math.max(1, Math.min(piece.count, 4)); // a stack: each disc on the one below
  let top = cy;
  for (let k = 0; k < n; k++) {
    const dy = (n - 1) * 4 - k * 8;
    disc(dy, r);
    top = cy + dy;
  }
  if (piece.kind === "man") el("circle", { cx, cy: top, r: 13, fill: "none", stroke: ink,
    "stroke-opacity": 0.45, "stroke-width": 1.5 }, g);
  if (piece.kind === "king") {
    el("path", { d: crown(cx, top), fill: "var(--crown)", stroke: ink, "stroke-width": 1 }, g);
  }
}

function crown(cx, cy) {
  const w = 22, h = 14, x = cx - w / 2, y = cy - h / 2;
  return `M${x} ${y + h} L${x} ${y + 3} L${x + w * 0.27} ${y + h * 0.55} L${cx} ${y}` +
    ` L${x + w * 0.73} ${y + h * 0.55} L${x + w} ${y + 3} L${x + w} ${y + h} Z`;
}

// ---- moving by clicking ----

function playable() {
  return ply.shown === ply.view && humanToMove() === true && !ply.busy && !ply.view.result;
}

function movesFrom(cell) {
  return ply.view.legal.map((m, index) => ({ ...m, index })).filter((m) => m.cells[0] === cell);
}

// The cells a click can play on: the ends of the selected piece's moves, or with nothing
// selected, the cells of one-cell moves (drops, sowings).
function targetCells(v) {
  const out = new Set();
  if (v !== ply.view || !playable()) return out;
  if (ply.selected === null) {
    for (const m of v.legal) if (m.cells.length === 1) out.add(m.cells[0]);
    return out;
  }
  for (const m of movesFrom(ply.selected)) out.add(m.cells[m.cells.length - 1]);
  return out;
}

function clickCell(cell) {
  if (!playable()) return;
  fail(null);
  const chosen = ply.selected;
  if (chosen === null) {
    const moves = movesFrom(cell);
    if (moves.length === 0) return;
    if (moves.every((m) => m.cells.length === 1)) return choose(moves);
    ply.selected = cell;
    return draw();
  }
  const moves = movesFrom(chosen).filter((m) => m.cells[m.cells.length - 1] === cell &&
    (cell !== chosen || m.cells.length === 1));
  if (moves.length > 0) return choose(moves);
  ply.selected = movesFrom(cell).length > 0 && cell !== chosen ? cell : null;
  draw();
}

// One move plays; several (two capture paths, a move that may crown) ask which.
function choose(moves) {
  if (moves.length === 1) return play(moves[0].index);
  const box = $("choices");
  box.replaceChildren(...moves.map((m) => {
    const b = document.createElement("button");
    b.textContent = m.text;
    b.addEventListener("click", () => { $("choice").hidden = true; play(m.index); });
    return b;
  }));
  $("choice").hidden = false;
}

function drawPasses(v, current) {
  const box = $("passes");
  box.replaceChildren();
  if (!current || !v.diagram || !playable()) return;
  v.legal.forEach((m, index) => {
    if (m.cells.length > 0) return;
    const b = document.createElement("button");
    b.textContent = m.text;
    b.addEventListener("click", () => play(index));
    box.appendChild(b);
  });
}

// A job of the engines (a move, a hint, an analysis) with an id of its own, so that the
// stop button stops this job, even when its click reaches the server first.
async function job(path, body) {
  ply.job = ++ply.jobs;
  try {
    return await api(path, { ...body, job: ply.job });
  } finally {
    ply.job = null;
  }
}

async function act(path, body) {
  fail(null);
  try {
    const data = await api(path, body || {});
    if (data.view) show(data.view);
    return data;
  } catch (e) {
    fail(e);
    return null;
  }
}

function play(index) {
  $("choice").hidden = true;
  ply.selected = null;
  return act("/api/play", { index });
}

// ---- engines ----

// Lets the engine move when an engine seat is to move, until the game ends or is paused.
async function next() {
  const v = ply.view;
  if (ply.busy || ply.paused || v.result || humanToMove() !== false) return;
  if (ply.shown !== ply.view) return;
  ply.busy = true;
  say(v.names[v.to_move] + " is thinking...");
  try {
    const data = await job("/api/engine", {});
    ply.busy = false;
    show(data.view);
  } catch (e) {
    ply.busy = false;
    if (e.status === 409) setTimeout(next, 300);
    else { fail(e); draw(); }
  }
}

function showThinking(live) {
  const t = live.thinking;
  if (live.status) say(live.status);
  if (!t) return;
  const value = t.value ? t.value.text : "?";
  $("thinking").textContent = `depth ${t.depth}/${t.seldepth}  score ${value}  ` +
    `nodes ${t.nodes}  nps ${t.nps}  ${(t.elapsed_ms / 1000).toFixed(1)}s\npv ${t.pv.join(" ")}`;
}

async function hint() {
  fail(null);
  ply.busy = true;
  say("thinking about a hint...");
  try {
    const h = await job("/api/hint", {});
    ply.hint = h;
    ply.busy = false;
    say(`hint: ${h.move}  score ${h.value.text}  line ${h.pv.join(" ")}`);
    drawBoard(ply.shown);
  } catch (e) {
    ply.busy = false;
    fail(e);
  }
}

// ---- seats ----

function drawSeats(v) {
  const box = $("seats");
  if (box.dataset.session === ply.session && box.dataset.seats === JSON.stringify(v.seats)) return;
  box.dataset.session = ply.session;
  box.dataset.seats = JSON.stringify(v.seats);
  box.replaceChildren(...v.names.map((name, seat) => {
    const row = document.createElement("div");
    row.className = "seat";
    const p = Math.min(seat, 3);
    row.innerHTML = `<span class="swatch" style="background:var(--p${p})"></span>` +
      `<span class="name"></span><select><option value="human">person</option>` +
      `<option value="engine">engine</option></select><input class="spec">`;
    row.querySelector(".name").textContent = name;
    const select = row.querySelector("select"), spec = row.querySelector("input");
    select.setAttribute("aria-label", name + " is played by");
    spec.setAttribute("aria-label", name + "'s engine");
    select.value = v.seats[seat] === null ? "human" : "engine";
    spec.value = v.seats[seat] || (ply.game ? ply.game.engine : "");
    spec.disabled = select.value === "human";
    const apply = () => act("/api/seat", { seat, engine: select.value === "human" ? null : spec.value });
    select.addEventListener("change", apply);
    spec.addEventListener("change", apply);
    return row;
  }));
}

function seatsWanted() {
  return [...$("seats").querySelectorAll(".seat")].map((row) =>
    row.querySelector("select").value === "human" ? null : row.querySelector("input").value);
}

// ---- the move list ----

// The moves as a score sheet: a row per round, a column per player (a player who moves
// again, or a pass, starts a new row where its column is taken).
function drawMoves(v, at) {
  const list = $("moves");
  const players = v.names.length;
  list.style.gridTemplateColumns = `2.6em repeat(${players}, 1fr)`;
  const items = [];
  let row = 0, last = Infinity; // the mover of the move before
  v.moves.forEach((m, i) => {
    if (m.mover <= last) {
      row += 1;
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = row + ".";
      number.style.gridRow = row;
      items.push(number);
    }
    const cell = document.createElement("span");
    cell.className = "move" + (i + 1 === at ? " current" : "");
    cell.textContent = m.text;
    cell.dataset.ply = i + 1;
    cell.style.gridRow = row;
    cell.style.gridColumn = m.mover + 2;
    cell.addEventListener("click", () => goTo(i + 1));
    items.push(cell);
    last = m.mover;
  });
  list.replaceChildren(...items);
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

async function goTo(at) {
  const total = ply.view.moves.length;
  at = Math.max(0, Math.min(total, at));
  if (at === total) { ply.shown = ply.view; ply.selected = null; draw(); next(); return; }
  try {
    ply.shown = await api(`/api/view?session=${ply.session}&at=${at}`);
    ply.selected = null;
    draw();
  } catch (e) { fail(e); }
}

// ---- analysis ----

async function analyse() {
  fail(null);
  ply.busy = true;
  const table = $("analysis");
  table.replaceChildren();
  try {
    const a = await job("/api/analyse", { engine: $("analysis-engine").value });
    ply.busy = false;
    say(a.stopped ? `analysis stopped after ${a.moves.length} moves (${a.spec})` : `analysed by ${a.spec}`);
    const head = document.createElement("tr");
    head.innerHTML = "<th>#</th><th>played</th><th>score</th><th>best</th><th>score</th>";
    table.appendChild(head);
    a.moves.forEach((m, i) => {
      const tr = document.createElement("tr");
      if (m.differs) tr.className = "differs";
      const cells = [i + 1, m.played, m.played_value ? m.played_value.text : "",
        m.differs ? m.best : "=", m.best_value.text];
      cells.forEach((text, k) => {
        const td = document.createElement("td");
        td.textContent = text;
        if (k === 3) td.className = "best";
        tr.appendChild(td);
      });
      tr.addEventListener("click", () => goTo(i));
      table.appendChild(tr);
    });
  } catch (e) {
    ply.busy = false;
    fail(e);
  }
}

// ---- set-up ----

function setTheme(theme) {
  if (theme === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  $("theme").value = theme;
  localStorage.setItem("ply-theme", theme);
}

async function init() {
  const params = new URLSearchParams(location.search);
  // The token came in the address and is kept as a cookie now: out of the address bar, so
  // that it is not copied or bookmarked by mistake.
  if (params.has("token")) {
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : ""));
  }
  setTheme(params.get("theme") || localStorage.getItem("ply-theme") || "auto");
  $("theme").addEventListener("change", (e) => setTheme(e.target.value));
  const games = await api("/api/games");
  $("game").replaceChildren(...games.games.map((g) => {
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = g.summary;
    return o;
  }));
  $("game").parentElement.hidden = games.games.length < 2;
  $("game").addEventListener("change", () => start($("game").value).catch(fail));
  $("new").addEventListener("click", () => {
    const same = ply.game && ply.game.name === $("game").value;
    start($("game").value, same ? seatsWanted() : undefined).catch(fail);
  });
  $("flip").addEventListener("click", () => { ply.flipped = !ply.flipped; draw(); });
  $("undo").addEventListener("click", () => act("/api/undo"));
  $("redo").addEventListener("click", () => act("/api/redo"));
  $("hint").addEventListener("click", hint);
  $("takeover").addEventListener("click", () =>
    act("/api/seat", { seat: ply.view.to_move, engine: ply.view.helper }));
  $("stop").addEventListener("click", () => api("/api/stop", { job: ply.job }).catch(fail));
  $("pause").addEventListener("click", () => { ply.paused = !ply.paused; draw(); next(); });
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(ply.shown.at - 1));
  $("forward").addEventListener("click", () => goTo(ply.shown.at + 1));
  $("last").addEventListener("click", () => goTo(ply.view.moves.length));
  $("here").addEventListener("click", () => act("/api/takeback", { at: ply.shown.at }));
  $("analyse").addEventListener("click", analyse);
  $("load").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) await act("/api/load", { text: await file.text() });
    e.target.value = "";
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") goTo(ply.shown.at - 1);
    if (e.key === "ArrowRight") goTo(ply.shown.at + 1);
  });
  const wanted = params.get("game");
  if (wanted || !(await resume())) await start(wanted || games.games[0].name);
  $("game").value = ply.game.name;
}

init().catch(fail);
