// The view of any other game (from a file or OpenSpiel): the state's text and a button per legal action.
import { el } from "/static/common.js";

export function render(root, view, { move }) {
  const actions = el("div", { class: "row", id: "actions" }, view.legal.map((a) =>
    el("button", { class: "secondary", dataset: { action: String(a.action) }, onclick: () => move({ action: a.action }) },
      a.text)));
  const typed = el("input", { type: "text", id: "typed", placeholder: "or type a move as the game writes it" });
  const form = el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); move({ text: typed.value }); } },
    typed, el("button", { type: "submit" }, "Play"));
  root.replaceChildren(el("pre", { id: "state-text" }, view.text), view.your_turn ? actions : el("span"),
    view.your_turn ? form : el("span"));
}
