// Fairyforge studio: the page's script (MIT, no dependencies).  The server draws the
// boards (fairyforge.svg); this script reads the squares and pieces back from the
// SVG's data- attributes, marks the legal moves, and sends the moves the user makes.
"use strict";

const $ = (id) => document.getElementById(id);
const S = { state: null, ply: null, flipped: false, selected: null, ws: null, pending: [] };

async function api(path, options = {}) {
  const init = { method: options.method || "GET", headers: {} };
  if (options.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), { data });
  return data;
}

function status(text) { $("status").textContent = text; }

function message(text, kind) {
  const el = $("message");
  el.textContent = text || "";
  el.className = "message" + (kind ? " " + kind : "");
}

// ---- websocket: builds and the engine -------------------------------------------------
function connect() {
  S.ws = new WebSocket(`ws://${location.host}/ws`);
  S.ws.onopen = () => { S.pending.splice(0).forEach((m) => S.ws.send(JSON.stringify(m))); };
  S.ws.onmessage = (event) => onSocket(JSON.parse(event.data));
  S.ws.onclose = () => setTimeout(connect, 1000);
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
  else S.pending.push(msg);
}

function onSocket(msg) {
  if (msg.type === "progress") {
    status(msg.text);
    $("build-log").textContent += msg.text + "\n";
  } else if (msg.type === "opened") {
    status(`${msg.state.title} ready`);
    $("build-log").textContent += `built ${msg.state.title}\n`;
    S.ply = null;
    showPane("play");
    render(msg.state);
    maybeEngine();
  } else if (msg.type === "build-error") {
    status(msg.error);
    showDiagnostics(msg.diagnostics, msg.error);
  } else if (msg.type === "info" && S.state && msg.board === S.state.id) {
    const i = msg.info;
    const score = i.mate !== null ? `mate ${i.mate}` : `${(i.score / 100).toFixed(2)}`;
    $("engine").textContent = `depth ${i.depth}  eval ${score}  nodes ${i.nodes}\n${i.pv.join(" ")}`;
  } else if (msg.type === "bestmove" && S.state && msg.board === S.state.id) {
    if (msg.state) { S.ply = null; render(msg.state); maybeEngine(); }
    status(msg.move ? `engine: ${msg.move}` : "engine: no move");
  } else if (msg.type === "error") {
    status(msg.error);
  }
}

// ---- the board -----------------------------------------------------------------------
function render(state) {
  S.state = state;
  S.selected = null;
  $("promotion").hidden = true;
  $("board").innerHTML = state.svg;
  fitBoard($("board"), 560, 150);
  $("game-title").textContent = state.title;
  $("fen").value = state.fen;
  $("pgn").href = `/api/boards/${state.id}/pgn`;
  const moves = $("moves");
  moves.innerHTML = "";
  state.sans.forEach((san, i) => {
    const li = document.createElement("li");
    li.textContent = san;
    li.dataset.ply = i + 1;
    if (i + 1 === state.ply) li.className = "current";
    li.onclick = () => goto(i + 1);
    moves.appendChild(li);
  });
  let turn = `${state.mover} to move`;
  if (state.ply < state.length) turn += ` (move ${state.ply} of ${state.length})`;
  $("turn").textContent = turn;
  if (state.outcome) {
    const who = state.outcome.winner ? `${state.outcome.winner} wins` : "draw";
    message(`Game over: ${who} (${state.outcome.reason})`, "over");
  }
}

function fitBoard(container, widest, spare) {
  // As large as the window allows: tall boards (9x14) are limited by the height.
  const svg = container.querySelector("svg");
  if (!svg) return;
  const [, , w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
  const width = Math.min(widest, window.innerWidth * 0.9, (window.innerHeight - spare) * w / h);
  svg.style.width = `${Math.max(width, 240)}px`;
}

async function reload() {
  if (!S.state) return;
  const ply = S.ply === null ? "" : S.ply;
  render(await api(`/api/boards/${S.state.id}?ply=${ply}&flipped=${S.flipped ? 1 : 0}`));
}

function goto(ply) {
  if (!S.state) return;
  S.ply = Math.max(0, Math.min(ply, S.state.length));
  if (S.ply === S.state.length) S.ply = null;
  reload();
}

function atEnd() { return S.state && S.state.ply === S.state.length; }

function pieceAt(square) {
  return $("board").querySelector(`g.piece[data-square="${square}"]`);
}

function squareRect(square) {
  return $("board").querySelector(`rect.square[data-square="${square}"]`);
}

function clearMarks() {
  $("board").querySelectorAll(".hint").forEach((el) => el.remove());
  $("board").querySelectorAll(".selected").forEach((el) => el.classList.remove("selected"));
}

function mark(moves) {
  const svg = $("board").querySelector("svg");
  for (const m of moves) {
    const rect = squareRect(m.to);
    if (!rect) continue;
    const x = +rect.getAttribute("x") + 20, y = +rect.getAttribute("y") + 20;
    const dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    const capture = !!pieceAt(m.to);
    dot.setAttribute("class", capture ? "hint capture" : "hint");
    dot.setAttribute("cx", x); dot.setAttribute("cy", y);
    dot.setAttribute("r", capture ? 17 : 6);
    dot.dataset.square = m.to;
    svg.appendChild(dot);
  }
}

function select(selection) {
  clearMarks();
  S.selected = selection;
  if (!selection) return;
  let moves;
  if (selection.drop) {
    selection.element.classList.add("selected");
    moves = S.state.legal.filter((m) => m.drop === selection.drop);
  } else {
    squareRect(selection.from).classList.add("selected");
    moves = S.state.legal.filter((m) => m.from === selection.from);
  }
  mark(moves);
}

function onBoardClick(event) {
  if (!S.state) return;
  if (!atEnd()) { message("Go to the last move to play on.", "refused"); return; }
  const hand = event.target.closest(".hand-piece");
  if (hand) {
    if (hand.dataset.side !== S.state.turn) {
      message(`That piece is in the other player's hand: it is ${S.state.mover}'s turn.`, "refused");
      return;
    }
    message("");
    select({ drop: hand.dataset.drop, element: hand });
    return;
  }
  const target = event.target.closest("[data-square]");
  if (!target) return;
  const square = target.dataset.square;
  const piece = pieceAt(square);
  const sel = S.selected;
  if (!sel) {
    if (piece && piece.dataset.side === S.state.turn) { message(""); select({ from: square }); }
    else if (piece) message(`That is the other player's piece: it is ${S.state.mover}'s turn.`, "refused");
    return;
  }
  if (sel.from === square) { select(null); return; }
  const candidates = S.state.legal.filter((m) =>
    m.to === square && (sel.drop ? m.drop === sel.drop : m.from === sel.from));
  if (!candidates.length && piece && piece.dataset.side === S.state.turn && !sel.drop) {
    select({ from: square });
    return;
  }
  if (candidates.length > 1) { choosePromotion(candidates); return; }
  const uci = candidates.length ? candidates[0].uci
    : sel.drop ? `${sel.drop}@${square}` : sel.from + square;
  play(uci);
}

function choosePromotion(candidates) {
  const menu = $("promotion");
  menu.innerHTML = "<strong>Promotion</strong>";
  for (const m of candidates) {
    const button = document.createElement("button");
    button.textContent = m.promotion ? `${m.promotion} (${m.san})` : `no promotion (${m.san})`;
    button.dataset.uci = m.uci;
    button.onclick = () => { menu.hidden = true; play(m.uci); };
    menu.appendChild(button);
  }
  const cancel = document.createElement("button");
  cancel.textContent = "cancel";
  cancel.onclick = () => { menu.hidden = true; select(null); };
  menu.appendChild(cancel);
  menu.hidden = false;
}

async function play(move) {
  select(null);
  try {
    const state = await api(`/api/boards/${S.state.id}/move`,
      { method: "POST", body: { move, flipped: S.flipped } });
    message("");
    S.ply = null;
    render(state);
    maybeEngine();
  } catch (err) {
    message(err.message, "refused");
  }
}

function strength() {
  const v = $("strength").value;
  return v[0] === "d" ? { depth: +v.slice(1) } : { movetime: +v.slice(1) };
}

function maybeEngine() {
  const side = $("engine-side").value;
  if (!S.state || S.state.outcome || !atEnd() || side !== S.state.turn) return;
  status("engine thinking...");
  send({ type: "think", board: S.state.id, play: true, flipped: S.flipped, ...strength() });
}

function openGame(value, fen) {
  const [kind, name] = value.split(/:(.*)/s);
  status(`opening ${name}...`);
  $("engine").textContent = "";
  message("");
  send({ type: "open", [kind === "game" ? "game" : "path"]: name, fen });
}

// ---- the editor ----------------------------------------------------------------------
let checkTimer = null;

function onSourceInput() {
  updateGutter([]);
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkSource, 250);
}

async function checkSource() {
  try {
    const result = await api("/api/check", { method: "POST",
      body: { text: $("source").value, path: $("path").value } });
    showDiagnostics(result.diagnostics);
  } catch (err) {
    showDiagnostics([], err.message);
  }
}

function showDiagnostics(diagnostics, error) {
  const list = $("diagnostics");
  list.innerHTML = "";
  if (!diagnostics.length) {
    const li = document.createElement("li");
    li.className = error ? "" : "ok";
    li.textContent = error || "no errors";
    list.appendChild(li);
  }
  for (const d of diagnostics) {
    const li = document.createElement("li");
    li.className = "diagnostic";
    li.dataset.line = d.line;
    li.dataset.column = d.column;
    li.textContent = `line ${d.line}, column ${d.column}: ${d.message}`;
    li.onclick = () => caretTo(d.line, d.column);
    list.appendChild(li);
  }
  updateGutter(diagnostics.map((d) => d.line));
}

function updateGutter(errorLines) {
  const count = $("source").value.split("\n").length;
  const bad = new Set(errorLines);
  const rows = [];
  for (let i = 1; i <= count; i++) rows.push(bad.has(i) ? `<span class="error-line">${i}</span>` : `${i}`);
  $("gutter").innerHTML = rows.join("\n");
  $("gutter").scrollTop = $("source").scrollTop;
}

function caretTo(line, column) {
  const lines = $("source").value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, column - 1);
  $("source").focus();
  $("source").setSelectionRange(offset, offset + 1);
}

// ---- diff and reports ----------------------------------------------------------------
function sourceOf(value) {
  const [kind, name] = value.split(/:(.*)/s);
  return kind === "game" ? { game: name } : { path: name };
}

async function compare() {
  $("diff-text").textContent = "comparing...";
  $("diff-play").textContent = "";
  for (const side of ["a", "b"]) { $(`diff-board-${side}`).innerHTML = ""; $(`diff-caption-${side}`).textContent = ""; }
  try {
    const r = await api("/api/diff", { method: "POST", body: {
      a: sourceOf($("diff-a").value), b: sourceOf($("diff-b").value), depth: +$("diff-depth").value } });
    $("diff-text").textContent = r.text;
    $("diff-play").textContent = r.play_error || r.play_text || "";
    (r.boards || []).forEach((board, i) => {
      const side = "ab"[i];
      $(`diff-board-${side}`).innerHTML = board.svg;
      fitBoard($(`diff-board-${side}`), 420, 300);
      $(`diff-caption-${side}`).textContent =
        `${board.game} after ${board.line.join(" ") || "the start"}: only here ${board.only.join(", ") || "nothing"}`;
    });
  } catch (err) {
    $("diff-text").textContent = err.message;
  }
}

async function loadReports() {
  const { reports } = await api("/api/reports");
  const list = $("report-list");
  list.innerHTML = reports.length ? "" : "<li>No playtest report in this folder (fairyforge playtest GAME writes one).</li>";
  for (const r of reports) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "#";
    a.textContent = r.folder;
    a.onclick = (e) => { e.preventDefault(); showReport(r); };
    li.appendChild(a);
    list.appendChild(li);
  }
}

async function showReport(report) {
  const url = (f) => `/api/reports/file?path=${encodeURIComponent(report.folder + "/" + f)}`;
  const text = await (await fetch(url("report.md"))).text();
  const view = $("report-view");
  view.innerHTML = "";
  const pre = document.createElement("pre");
  pre.textContent = text.replace(/^!\[.*\]\(.*\)$/gm, "");
  view.appendChild(pre);
  for (const f of report.files.filter((f) => /\.(png|svg)$/.test(f))) {
    const img = document.createElement("img");
    img.src = url(f);
    img.alt = f;
    view.appendChild(img);
  }
}

// ---- set up --------------------------------------------------------------------------
function showPane(name) {
  document.querySelectorAll(".pane").forEach((p) => p.classList.toggle("active", p.id === name));
  document.querySelectorAll("nav .tab").forEach((t) => t.classList.toggle("active", t.dataset.pane === name));
  if (name === "reports") loadReports();
}

function fillSelect(select, games, files) {
  select.innerHTML = "";
  for (const g of games) select.add(new Option(g, `game:${g}`));
  for (const f of files) select.add(new Option(f, `path:${f}`));
}

async function start() {
  connect();
  const { bundled, files } = await api("/api/games");
  fillSelect($("game-select"), bundled, files);
  fillSelect($("diff-a"), bundled, files);
  fillSelect($("diff-b"), bundled, files);
  fillSelect($("file-list"), [], files);
  fillSelect($("template-list"), bundled, []);
  document.querySelectorAll("nav .tab").forEach((t) => { t.onclick = () => showPane(t.dataset.pane); });
  $("board").addEventListener("click", onBoardClick);
  $("new-game").onclick = () => openGame($("game-select").value);
  $("flip").onclick = () => { S.flipped = !S.flipped; reload(); };
  $("undo").onclick = async () => {
    if (!S.state) return;
    send({ type: "stop", board: S.state.id });
    S.ply = null;
    render(await api(`/api/boards/${S.state.id}/undo`, { method: "POST", body: { flipped: S.flipped } }));
  };
  $("first").onclick = () => goto(0);
  $("back").onclick = () => goto((S.state ? S.state.ply : 0) - 1);
  $("forward").onclick = () => goto((S.state ? S.state.ply : 0) + 1);
  $("last").onclick = () => goto(S.state ? S.state.length : 0);
  $("engine-side").onchange = maybeEngine;
  $("analyse").onclick = () => {
    if (S.state) send({ type: "think", board: S.state.id, play: false, ...strength() });
  };
  $("set-fen").onclick = async () => {
    try {
      render(await api(`/api/boards/${S.state.id}/fen`, { method: "POST", body: { fen: $("fen").value, flipped: S.flipped } }));
      message("");
    } catch (err) { message(err.message, "refused"); }
  };
  $("source").addEventListener("input", onSourceInput);
  $("source").addEventListener("scroll", () => { $("gutter").scrollTop = $("source").scrollTop; });
  $("open-file").onclick = async () => {
    const value = $("file-list").value;
    if (!value) return;
    const name = value.slice(5);
    const { text } = await api(`/api/file?path=${encodeURIComponent(name)}`);
    $("source").value = text;
    $("path").value = name;
    onSourceInput();
  };
  $("open-template").onclick = async () => {
    const name = $("template-list").value.slice(5);
    const { text } = await api(`/api/source?game=${encodeURIComponent(name)}`);
    $("source").value = text;
    onSourceInput();
  };
  $("save").onclick = async () => {
    try {
      const r = await api(`/api/file?path=${encodeURIComponent($("path").value)}`,
        { method: "PUT", body: { text: $("source").value } });
      status(`saved ${r.path}`);
    } catch (err) { status(err.message); }
  };
  $("build").onclick = () => {
    $("build-log").textContent = "";
    send({ type: "open", text: $("source").value, path: $("path").value });
  };
  $("compare").onclick = compare;
  const first = new URLSearchParams(location.search).get("game") || "chess";
  $("game-select").value = `game:${first}`;
  openGame(`game:${first}`);
  updateGutter([]);
}

start();
