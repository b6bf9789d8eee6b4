// The page: choose a game, a table and opponents, then play (click only the legal actions) or
// watch agents (pause, step, delay); replay saved games step by step; read runs' curves.
// The server runs the games; this script draws the views it sends (one module per game under
// games/, loaded by the game's name) and sends choices. Every text from the server is set with
// textContent, never as HTML.
import { svg, el, seatName } from "./draw.js";

const $ = (id) => document.getElementById(id);
const modules = {};
let catalog = null;
let current = null;       // the live game's latest view
let timer = null;
let paused = false;
let busy = false;
let replay = null;        // {id, step, steps}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const answer = await fetch(path, init);
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || `${answer.status}`);
  return data;
}

function fail(err) { $("error").textContent = err.message || String(err); }
function clearError() { $("error").textContent = ""; }

async function moduleOf(game) {
  if (!modules[game]) modules[game] = await import(`./games/${game}.js`);
  return modules[game];
}

function spec() { return catalog.games.find((g) => g.name === $("game").value); }
function watching() { return $("mode-watch").checked; }

// ---- setup -----------------------------------------------------------------------------
async function loadCatalog() {
  catalog = await api("GET", "/api/catalog");
  for (const game of catalog.games) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.title;
    $("game").appendChild(option);
  }
  await gameChanged();
}

let offered = [];
async function gameChanged() {
  const game = spec();
  $("players").min = game.min_players;
  $("players").max = game.max_players;
  const options = $("options");
  options.replaceChildren();
  for (const option of game.options) {
    const labelled = document.createElement("label");
    labelled.textContent = `${option.name} `;
    const input = document.createElement("input");
    input.dataset.option = option.name;
    input.placeholder = option.default === null ? "default" : JSON.stringify(option.default);
    input.title = option.help;
    input.size = 10;
    labelled.appendChild(input);
    options.appendChild(labelled);
  }
  offered = (await api("GET", `/api/opponents?game=${encodeURIComponent(game.name)}`)).opponents;
  seatsChanged();
}

function seatsChanged() {
  const game = spec();
  const players = Number($("players").value);
  $("seat").max = players - 1;
  $("seat-label").hidden = watching();
  const agents = watching() ? players : players - 1;
  const box = $("opponents");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let k = 0; k < agents; k++) {
    const labelled = document.createElement("label");
    labelled.textContent = `Agent ${k + 1} `;
    const select = document.createElement("select");
    select.className = "opponent";
    for (const o of offered) {
      const option = document.createElement("option");
      option.value = o.id;
      option.textContent = o.label;
      select.appendChild(option);
    }
    select.value = before[k] && offered.some((o) => o.id === before[k]) ? before[k] : game.opponent;
    labelled.appendChild(select);
    box.appendChild(labelled);
  }
}

async function start(event) {
  event.preventDefault();
  clearError();
  clearTimeout(timer);
  const options = {};
  for (const input of $("options").querySelectorAll("input")) {
    if (input.value.trim()) options[input.dataset.option] = input.value.trim();
  }
  const request = {
    game: $("game").value, players: Number($("players").value), options,
    seat: watching() ? null : Number($("seat").value),
    opponents: [...$("opponents").querySelectorAll("select")].map((s) => s.value),
  };
  try {
    paused = false;
    $("play-pause").textContent = "Pause";
    await show(await api("POST", "/api/games", request));
  } catch (err) { fail(err); }
}

// ---- a live game -----------------------------------------------------------------------
async function show(view) {
  current = view;
  $("table").hidden = false;
  $("table").dataset.game = view.id;
  $("table").dataset.mode = view.mode;
  const module = await moduleOf(view.game);
  module.draw(view, $("board"));
  let status;
  if (view.over) status = "Game over";
  else if (view.to_act === view.human) status = "Your turn";
  else status = `${seatName(view, view.to_act)} to act`;
  $("status").textContent = status;
  $("status").dataset.step = view.step;
  drawActions(view);
  $("text").textContent = view.text;
  fillLog($("log"), view.log);
  drawEnd(view);
  schedule();
}

function drawActions(view) {
  const box = $("actions");
  box.replaceChildren();
  const values = view.hints && view.hints.values;
  for (const choice of view.legal) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "action";
    button.dataset.action = choice.action;
    button.textContent = choice.words;
    if (values && values[String(choice.action)] !== undefined) {
      const hint = document.createElement("span");
      hint.className = "hint";
      hint.textContent = `win ${(100 * values[String(choice.action)]).toFixed(1)}%`;
      button.appendChild(hint);
    }
    button.addEventListener("click", () => act(choice.action));
    box.appendChild(button);
  }
  const why = view.hints && view.hints.why;
  $("hint-note").textContent = view.mode === "play" && why ? `No hints here: ${why}.` :
    values ? "Each button shows your exact chance to win (a share, where wins are shared) " +
      "after that choice, with equilibrium play after it." : "";
}

function fillLog(list, lines) {
  list.replaceChildren(...lines.map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
  list.scrollTop = list.scrollHeight;
}

function drawEnd(view) {
  $("end").hidden = !view.over;
  if (!view.over) return;
  const seats = view.places.map((place, seat) => ({ place, seat }));
  seats.sort((a, b) => a.place - b.place);
  $("places").replaceChildren(...seats.map(({ place, seat }) => {
    const item = document.createElement("li");
    item.dataset.seat = seat;
    item.dataset.place = place;
    item.textContent = `place ${place}: ${seatName(view, seat)}`;
    return item;
  }));
  $("end").dataset.record = view.record || "";
  $("download").href = `/api/games/${encodeURIComponent(view.id)}/record`;
}

function delay() { return Number($("speed").value); }

function schedule() {
  clearTimeout(timer);
  if (!current || current.over || !current.agent_to_act || paused) return;
  timer = setTimeout(stepOnce, delay());
}

async function stepOnce() {
  if (busy || !current || current.over || !current.agent_to_act) return;
  busy = true;
  try {
    await show(await api("POST", `/api/games/${encodeURIComponent(current.id)}/step`, {}));
  } catch (err) { fail(err); } finally { busy = false; }
}

async function act(action) {
  if (busy) return;
  busy = true;
  clearError();
  try {
    await show(await api("POST", `/api/games/${encodeURIComponent(current.id)}/actions`, { action }));
  } catch (err) { fail(err); } finally { busy = false; }
}

function pauseOrGo() {
  paused = !paused;
  $("play-pause").textContent = paused ? "Play" : "Pause";
  schedule();
}

// ---- replay ----------------------------------------------------------------------------
async function listRecords() {
  const { records } = await api("GET", "/api/records");
  $("records").replaceChildren(...records.map((r) => {
    const item = document.createElement("li");
    item.className = r.readonly ? "run-record" : "saved-record";
    // a record found under the runs directory says which folder; it is only read
    const folder = r.source === "." ? "" : `${r.source} `;
    const from = r.readonly ? `from runs ${folder}(read-only): ` : "";
    if (r.error) {
      item.textContent = `${from}${r.id}: ${r.error}`;
      return item;
    }
    const open = document.createElement("button");
    open.type = "button";
    open.className = "open-record";
    open.dataset.id = r.id;
    open.textContent = "replay";
    open.addEventListener("click", () => openReplay(r.id));
    const link = document.createElement("a");
    link.href = `/api/records/${encodeURIComponent(r.id)}`;
    link.textContent = "download";
    const text = document.createElement("span");
    text.textContent = ` ${from}${r.title}, ${r.players} players, ${r.steps} inputs` +
      (r.over ? `, places ${r.places.join(" ")} ` : ", unfinished ");
    item.append(open, text, link);
    return item;
  }));
}

async function upload() {
  const file = $("record-file").files[0];
  if (!file) return;
  $("replay-error").textContent = "";
  try {
    const saved = await api("POST", "/api/records", await file.text());
    await listRecords();
    await openReplay(saved.id);
  } catch (err) { $("replay-error").textContent = `Refused: ${err.message}`; }
  $("record-file").value = "";
}

async function openReplay(id) {
  replay = { id, step: 0, steps: 0 };
  await replayTo(0);
}

async function replayTo(step) {
  const view = await api("GET", `/api/records/${encodeURIComponent(replay.id)}/replay?step=${step}`);
  replay.step = view.step;
  replay.steps = view.steps;
  $("replay").hidden = false;
  const module = await moduleOf(view.game);
  module.draw(view, $("replay-board"));
  $("replay-step").textContent = `${view.step} / ${view.steps}`;
  $("replay-step").dataset.step = view.step;
  $("replay-text").textContent = view.text;
  $("snapshot").textContent = JSON.stringify(view.snapshot);
  fillLog($("replay-log"), view.log);
}

function replayMove(to) {
  if (!replay) return;
  const step = Math.max(0, Math.min(replay.steps, to));
  replayTo(step).catch(fail);
}

// ---- runs ------------------------------------------------------------------------------
async function listRuns() {
  const { runs } = await api("GET", "/api/runs");
  $("runs").replaceChildren(...runs.map((run) => {
    const item = document.createElement("li");
    const open = document.createElement("button");
    open.type = "button";
    open.textContent = run.id;
    open.addEventListener("click", () => showRun(run.id).catch(fail));
    const text = document.createElement("span");
    text.textContent = ` ${run.game}, ${run.players ?? "?"} players` +
      (run.player ? ", trained player offered as an opponent" : "");
    item.append(open, text);
    return item;
  }));
  if (!runs.length) $("runs").textContent = "No run folders (pagadores serve --runs DIR).";
}

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

async function showRun(id) {
  const run = await api("GET", `/api/runs/${encodeURIComponent(id)}`);
  $("run").hidden = false;
  $("run-title").textContent = `${run.id}: ${run.game}, ${run.players ?? "?"} players`;
  const pic = svg(620, 300);
  const series = Object.entries(run.curve);
  const most = Math.max(1, ...series.flatMap(([, rows]) => rows.map((r) => r[0])));
  el(pic, "line", { x1: 50, y1: 260, x2: 600, y2: 260, stroke: "#333" });
  el(pic, "line", { x1: 50, y1: 20, x2: 50, y2: 260, stroke: "#333" });
  el(pic, "text", { x: 10, y: 24, "font-size": 11 }, "1.0");
  el(pic, "text", { x: 10, y: 262, "font-size": 11 }, "0.0");
  el(pic, "text", { x: 520, y: 285, "font-size": 11 }, `${most} steps`);
  series.forEach(([opponent, rows], k) => {
    const points = rows.map(([t, rate]) => `${50 + 550 * t / most},${260 - 240 * rate}`);
    el(pic, "polyline", { points: points.join(" "), fill: "none", stroke: COLOURS[k % 6],
      "stroke-width": 2 });
    el(pic, "text", { x: 60 + 110 * k, y: 14, "font-size": 11, fill: COLOURS[k % 6] },
      `win rate vs ${opponent}`);
  });
  $("curve").replaceChildren(pic);
  $("results").textContent = run.results ?? "No final table yet (results.md).";
}

// ---- tabs and wiring -------------------------------------------------------------------
function showPanel(button) {
  for (const tab of document.querySelectorAll("button.tab")) {
    tab.classList.toggle("active", tab === button);
    $(tab.dataset.panel).hidden = tab !== button;
  }
  if (button.id === "tab-replay") listRecords().catch(fail);
  if (button.id === "tab-runs") listRuns().catch(fail);
}

window.addEventListener("DOMContentLoaded", () => {
  for (const tab of document.querySelectorAll("button.tab")) {
    tab.addEventListener("click", () => showPanel(tab));
  }
  showPanel($("tab-play"));
  $("game").addEventListener("change", () => gameChanged().catch(fail));
  $("players").addEventListener("change", seatsChanged);
  $("mode-play").addEventListener("change", seatsChanged);
  $("mode-watch").addEventListener("change", seatsChanged);
  $("setup").addEventListener("submit", start);
  $("play-pause").addEventListener("click", pauseOrGo);
  $("step").addEventListener("click", () => stepOnce());
  $("speed").addEventListener("change", schedule);
  $("record-file").addEventListener("change", upload);
  $("replay-first").addEventListener("click", () => replayMove(0));
  $("replay-prev").addEventListener("click", () => replayMove(replay.step - 1));
  $("replay-next").addEventListener("click", () => replayMove(replay.step + 1));
  $("replay-last").addEventListener("click", () => replayMove(replay.steps));
  loadCatalog().catch(fail);
});
