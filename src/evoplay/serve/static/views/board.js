// Any game whose states give State.grid(): its rows of symbols drawn as a board of cells you click, like the
// m,n,k view; each kind of piece in its own colour. A move without a cell (a pass) stays a button.
import { el } from "/static/common.js";

// A symbol's colour class: X and O first, then letters and digits, in a fixed order (stable from move to move).
const ORDER = "XOABCDEFGHIJKLMNPQRSTUVWYZ0123456789xoabcdefghijklmnpqrstuvwyz";
const COLOURS = 8;

function colour(symbol) {
  const i = ORDER.indexOf(symbol);
  return `p${(i < 0 ? symbol.charCodeAt(0) : i) % COLOURS}`;
}

export function render(root, view, { move }) {
  const rows = view.rows;
  const width = rows.length ? rows[0].length : 0;
  const at = {};      // "r,c" -> action
  const columns = {}; // c -> action (a drop game: any cell of the column)
  for (const [action, [r, c]] of Object.entries(view.cells)) {
    if (r === null) columns[c] = Number(action); else at[`${r},${c}`] = Number(action);
  }
  const grid = el("div", { class: "mnk board", style: `grid-template-columns: repeat(${width}, auto)` });
  rows.forEach((line, r) => {
    [...line].forEach((symbol, c) => {
      const action = at[`${r},${c}`] ?? columns[c];
      const playable = view.your_turn && action !== undefined;
      grid.append(el("button", {
        class: `cell ${symbol === "." ? "" : colour(symbol)}${playable ? " playable" : ""}`,
        id: `cell-${r}-${c}`, dataset: { row: String(r), col: String(c) }, disabled: !playable,
        title: playable ? view.legal.find((m) => m.action === action)?.text ?? "" : "",
        onclick: () => move({ action }),
      }, symbol === "." ? "" : symbol));
    });
  });
  const placed = new Set([...Object.keys(view.cells)].map(Number));
  const others = view.legal.filter((m) => !placed.has(m.action));
  const buttons = el("div", { class: "row", id: "actions" }, others.map((m) =>
    el("button", { class: "secondary", dataset: { action: String(m.action) }, onclick: () => move({ action: m.action }) },
      m.text)));
  root.replaceChildren(grid, view.your_turn && others.length ? buttons : el("span"),
    el("p", { class: "muted" }, "Click a cell to play there."));
}
