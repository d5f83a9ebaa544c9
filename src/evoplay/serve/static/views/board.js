// Any game whose states give State.grid(): its rows of symbols drawn as a board of cells you click, each kind of
// piece in its own colour. A move without a cell (a pass) stays a button, and a cell
// where two or more legal moves land (a1xb2 and c1xb2) asks which of them you mean.
import { el } from "/static/common.js";

// A symbol's colour class: X and O first, then letters and digits, in a fixed order (stable from move to move).
const ORDER = "XOABCDEFGHIJKLMNPQRSTUVWYZ0123456789xoabcdefghijklmnpqrstuvwyz";
const COLOURS = 8;

function colour(symbol) {
  const i = ORDER.indexOf(symbol);
  return `p${(i < 0 ? symbol.charCodeAt(0) : i) % COLOURS}`;
}

// The legal moves of each cell: "r,c" -> [action], and c -> [action] for a drop game's columns (any cell of the
// column plays them). Several moves may share a cell; none is lost.
function placeMoves(cells) {
  const at = {};
  const columns = {};
  for (const [action, [r, c]] of Object.entries(cells)) {
    const table = r === null ? columns : at;
    const key = r === null ? String(c) : `${r},${c}`;
    (table[key] = table[key] || []).push(Number(action));
  }
  return (r, c) => [...(at[`${r},${c}`] || []), ...(columns[String(c)] || [])];
}

function chooser(box, cell, actions, texts, move) {
  const close = () => { box.replaceChildren(); cell.classList.remove("choosing"); };
  document.querySelectorAll(".board .cell.choosing").forEach((c) => c.classList.remove("choosing"));
  cell.classList.add("choosing");
  box.replaceChildren(el("span", { class: "muted" }, `${actions.length} moves end here; which one?`),
    ...actions.map((action) => el("button", { class: "choice", dataset: { action: String(action) },
      onclick: () => { close(); move({ action }); } }, texts[action] ?? String(action))),
    el("button", { class: "secondary", id: "choice-cancel", onclick: close }, "cancel"));
}

export function render(root, view, { move }) {
  const rows = view.rows;
  const width = rows.length ? rows[0].length : 0;
  const movesAt = placeMoves(view.cells);
  const texts = Object.fromEntries(view.legal.map((m) => [m.action, m.text]));
  const choices = el("div", { class: "row", id: "chooser" });
  const grid = el("div", { class: "cells board", style: `grid-template-columns: repeat(${width}, auto)` });
  rows.forEach((line, r) => {
    [...line].forEach((symbol, c) => {
      const actions = view.your_turn ? movesAt(r, c) : [];
      const playable = actions.length > 0;
      const cell = el("button", {
        class: `cell ${symbol === "." ? "" : colour(symbol)}${playable ? " playable" : ""}${actions.length > 1 ? " shared" : ""}`,
        id: `cell-${r}-${c}`, dataset: { row: String(r), col: String(c) }, disabled: !playable,
        title: actions.map((a) => texts[a] ?? "").join(" or "),
        onclick: () => (actions.length === 1 ? move({ action: actions[0] }) : chooser(choices, cell, actions, texts, move)),
      }, symbol === "." ? "" : symbol);
      grid.append(cell);
    });
  });
  const placed = new Set([...Object.keys(view.cells)].map(Number));
  const others = view.legal.filter((m) => !placed.has(m.action));
  const buttons = el("div", { class: "row", id: "actions" }, others.map((m) =>
    el("button", { class: "secondary", dataset: { action: String(m.action) }, onclick: () => move({ action: m.action }) },
      m.text)));
  root.replaceChildren(grid, choices, view.your_turn && others.length ? buttons : el("span"),
    el("p", { class: "muted" }, "Click a cell to play there; where several moves end on one cell (dotted), you pick one."));
}
