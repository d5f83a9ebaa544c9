// Kalah as a board in the web app (Game.view "kalah", served from this package with view.css): the opponent's pits
// along the top (sown right to left), yours along the bottom, the stores at the ends.
import { el } from "/static/common.js";

// The play page's status line where Kalah says more than the page would: a finished game's stores.
export function status(view) {
  return view.terminal ? `game over: ${view.result.verdict} (${view.your_store} - ${view.their_store})` : null;
}

export function render(root, view, { move }) {
  const legal = new Set(view.legal.map((a) => a.text));
  const theirs = view.their_pits.map((seeds, i) => ({ seeds, i })).reverse();
  const top = el("div", { class: "pits" }, theirs.map(({ seeds, i }) =>
    el("button", { class: "pit theirs", id: `their-pit-${i + 1}`, disabled: true, title: `their pit ${i + 1}` }, String(seeds), el("span", { class: "n" }, String(i + 1)))));
  const bottom = el("div", { class: "pits" }, view.your_pits.map((seeds, i) =>
    el("button", { class: "pit mine" + (legal.has(String(i + 1)) ? " legal" : ""), id: `pit-${i + 1}`,
      dataset: { pit: String(i + 1), seeds: String(seeds) }, title: `your pit ${i + 1}: ${seeds} seeds`,
      onclick: () => move({ text: String(i + 1) }) }, String(seeds), el("span", { class: "n" }, String(i + 1)))));
  root.replaceChildren(el("div", { class: "kalah" },
    el("div", { class: "store", id: "their-store" }, String(view.their_store), el("small", {}, "theirs")),
    el("div", { class: "rows" }, top, bottom),
    el("div", { class: "store", id: "your-store" }, String(view.your_store), el("small", {}, "yours"))),
  el("p", { class: "muted" }, "Click one of your pits (bottom row) to sow its seeds counter-clockwise."));
}
