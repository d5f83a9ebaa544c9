// A game page: fetches the session, hands it to the game's renderer, sends moves and shows the replies.
import { api, el, header, ms, query } from "/static/common.js";
import * as kalah from "/static/views/kalah.js";
import * as mnk from "/static/views/mnk.js";
import * as sevens from "/static/views/sevens.js";
import * as grid from "/static/views/grid.js";
import * as generic from "/static/views/generic.js";
import * as board from "/static/views/board.js";

header("/");
const renderers = { kalah, mnk, sevens, grid, generic, board };
const $ = (id) => document.getElementById(id);
const id = query("id");
let busy = false;
let current = null;
let version = 0;

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
    box.textContent = `game over: ${view.result.verdict}` +
      (view.kind === "kalah" ? ` (${view.your_store} - ${view.their_store})` : "");
    return;
  }
  if (view.realtime) { box.textContent = view.text; return; }
  if (view.your_turn) {
    box.classList.add("you");
    box.textContent = view.kind === "sevens" && view.phase === "send"
      ? `P${view.receiver} cannot play: choose a card to send them` : "your move";
  } else {
    box.textContent = `${who(view, view.to_move)} to move`;
  }
}

export function show(view) {
  current = view;
  $("title").textContent = `${view.game}: you (seat ${view.you}) against ${view.opponent}`;
  status(view);
  renderers[view.kind].render($("board"), view, { move, press });
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
    show(await api(`/api/games/${id}/move`, { body }));
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

api(`/api/games/${id}`).then((view) => {
  show(view);
  if (view.realtime) grid.run(id, view, show, $("message"));
}).catch((e) => { $("message").textContent = e.message; });
