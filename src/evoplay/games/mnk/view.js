// The m,n,k-game in the web app (Game.view "mnk", served from this package with view.css): a grid of cells you
// click; row 1 at the bottom, columns a, b, c... as the game names its moves.
import { el } from "/static/common.js";

export function render(root, view, { move }) {
  const grid = el("div", { class: "cells mnk", style: `grid-template-columns: 1.4em repeat(${view.m}, auto)` });
  for (let r = view.n - 1; r >= 0; r--) {
    grid.append(el("span", { class: "label" }, String(r + 1)));
    for (let c = 0; c < view.m; c++) {
      const cell = r * view.m + c;
      const mark = view.marks[view.cells[cell]];
      const name = view.names[cell];
      grid.append(el("button", { class: `cell ${mark === "." ? "" : mark}` + (view.last === cell ? " last" : ""),
        id: `cell-${name}`, dataset: { cell: name }, title: name, onclick: () => move({ text: name }) },
        mark === "." ? "" : mark));
    }
  }
  grid.append(el("span"));
  for (let c = 0; c < view.m; c++) grid.append(el("span", { class: "label" }, String.fromCharCode(97 + c)));
  root.replaceChildren(grid, el("p", { class: "muted" },
    `You play ${view.your_mark}; ${view.k} in a row (across, down or diagonal) wins.`));
}
