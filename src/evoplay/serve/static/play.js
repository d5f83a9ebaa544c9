// A game page: fetches the session, hands it to the game's drawing, sends moves and shows the replies.
import { api, el, header, ms, query } from "/static/common.js";

header("/");
const $ = (id) => document.getElementById(id);
const id = query("id");
let busy = false;
let current = null;
let version = 0;
// The game's drawing (its view's kind): the app's own for any game or the game's own, whose module and stylesheet
// the server hands out from the game's package. The module's render(root, view, ctx) draws the board; it may give
// status(view), a status line of its own (null: the page's), and run(id, view, show, message) for real time.
let drawing = null;

async function loadDrawing(kind) {
  const name = encodeURIComponent(kind);
  const sheet = new Promise((done) => document.head.append(
    el("link", { rel: "stylesheet", href: `/views/${name}.css`, onload: done, onerror: done })));
  const [module] = await Promise.all([import(`/views/${name}.js`), sheet]);  // drawn once styled
  return module;
}

function who(view, player) {
  if (player === -1) return "chance";
  if (player === view.you) return "you";
  return view.players > 2 ? `P${player}` : view.opponent;
}

function describe(view, move) {
  const name = who(view, move.player);
  if (move.kind === "send") {
    const to = move.to === view.you ? "you" : `P${move.to}`;
    return `${name} sent ${move.text === null ? "a card" : move.text} to ${to}`;
  }
  if (move.player === -1) return `chance: ${move.text === null ? "(hidden)" : move.text}`;
  return `${name} played ${move.text}`;
}

function status(view) {
  const box = $("status");
  box.className = "status";
  if (view.terminal) {
    box.classList.add("over");
    box.textContent = `game over: ${view.result.verdict}`;
  } else if (view.realtime) {
    box.textContent = view.text;
  } else if (view.your_turn) {
    box.classList.add("you");
    box.textContent = "your move";
  } else {
    box.textContent = `${who(view, view.to_move)} to move`;
  }
  const own = drawing.status ? drawing.status(view) : null;
  if (own) box.textContent = own;
}

export function show(view) {
  current = view;
  $("title").textContent = `${view.game}: you (seat ${view.you}) against ${view.opponent}`;
  status(view);
  drawing.render($("board"), view, { move, press });
  const list = $("moves");
  for (const m of view.realtime ? [] : view.moves) {
    const item = el("li", { class: m.player === view.you ? "mine" : "theirs" }, describe(view, m));
    if (m.ms !== null && m.ms !== undefined && m.player !== view.you) item.append(" ", el("span", { class: "ms" }, `(${ms(m.ms)})`));
    list.append(item);
  }
  if (!view.realtime) list.scrollTop = list.scrollHeight;
  $("text").textContent = view.text || "";
  document.body.dataset.state = view.terminal ? "over" : view.your_turn ? "yours" : "waiting";
  document.body.dataset.version = String(++version);
}

async function move(body) {
  if (busy || !current || current.terminal) return;
  busy = true;
  $("message").textContent = "";
  try {
    // The move names the ply it is for: a repeated request (a double click, a retry) is refused, not played twice.
    show(await api(`/api/games/${id}/move`, { body: { ...body, ply: current.ply } }));
  } catch (e) {
    $("message").textContent = e.message;
    document.body.dataset.version = String(++version);
  } finally {
    busy = false;
  }
}

async function press(key) {
  try { await api(`/api/games/${id}/key`, { body: { key } }); } catch (e) { $("message").textContent = e.message; }
}

$("again").addEventListener("click", async () => {
  if (!current) return;
  const game = await api("/api/games", { body: { game: current.game, opponent: current.opponent, seat: current.you,
    seed: Math.floor(Math.random() * 1e6), tick_ms: current.tick_ms } });
  window.location.href = `/play?id=${game.id}`;
});

api(`/api/games/${id}`).then(async (view) => {
  drawing = await loadDrawing(view.kind);
  show(view);
  if (view.realtime) drawing.run(id, view, show, $("message"));
}).catch((e) => { $("message").textContent = e.message; });
