// A game in real time (Game.view "grid") on a canvas: the server steps the game each tick with your last arrow key.
import { el } from "/static/common.js";

const COLOURS = { "#": "#3a3a3a", ".": "#161616", a: "#1d5f8a", A: "#5ec8ff", b: "#8a2d52", B: "#ff6fae", "*": "#ffd34d" };
const KEYS = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right", w: "up", s: "down",
  a: "left", d: "right", " ": "nil" };
let canvas = null;
let press = null;

export function render(root, view, ctx) {
  press = ctx.press;
  if (!canvas || !root.contains(canvas)) {
    canvas = el("canvas", { class: "arena", id: "arena" });
    root.replaceChildren(canvas, el("p", { class: "keys" },
      `You are ${view.your_mark} (${view.your_mark === "A" ? "blue" : "pink"}). Arrow keys or WASD steer, space = nil; ` +
      `one step every ${view.tick_ms} ms.`), el("p", { id: "score", class: "status" }));
  }
  const rows = view.rows;
  const cell = Math.max(8, Math.min(32, Math.floor(560 / Math.max(rows[0].length, rows.length))));
  canvas.width = rows[0].length * cell;
  canvas.height = rows.length * cell;
  const g = canvas.getContext("2d");
  rows.forEach((line, r) => {
    [...line].forEach((ch, c) => {
      g.fillStyle = COLOURS[ch] || "#161616";
      if (ch === "*") {
        g.fillStyle = COLOURS["."]; g.fillRect(c * cell, r * cell, cell, cell);
        g.fillStyle = COLOURS["*"]; g.beginPath();
        g.arc(c * cell + cell / 2, r * cell + cell / 2, cell / 3, 0, Math.PI * 2); g.fill();
      } else {
        g.fillRect(c * cell, r * cell, cell - (ch === "." ? 1 : 0), cell - (ch === "." ? 1 : 0));
      }
    });
  });
  const score = document.getElementById("score");
  const last = view.moves.length ? view.moves[view.moves.length - 1] : null;
  if (score) {
    score.textContent = `${view.text}   (you ${view.scores[view.you]}, ${view.opponent} ${view.scores[1 - view.you]})` +
      (last && last.ms !== null ? `; ${view.opponent} went ${last.text} after ${last.ms.toFixed(1)} ms` : "");
  }
}

export function run(id, view, show, message) {
  window.addEventListener("keydown", (event) => {
    const key = KEYS[event.key];
    if (!key) return;
    event.preventDefault();
    press(key);
  });
  const source = new EventSource(`/api/games/${id}/events`);
  source.addEventListener("state", (e) => show(JSON.parse(e.data)));
  source.addEventListener("over", (e) => { show(JSON.parse(e.data)); source.close(); });
  source.onerror = () => { source.close(); if (!document.body.dataset.state || document.body.dataset.state !== "over") message.textContent = "the game stream closed"; };
}
