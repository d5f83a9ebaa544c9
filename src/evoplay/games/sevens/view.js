// Sevens as a card table in the web app (Game.view "sevens", served from this package with view.css): the rows built
// out from the sevens, every seat's hand size, and your own hand to play or send from.
import { el } from "/static/common.js";

// The play page's status line where Sevens says more than the page would: whom your card goes to when you send.
export function status(view) {
  return !view.terminal && view.your_turn && view.phase === "send"
    ? `P${view.receiver} cannot play: choose a card to send them` : null;
}

const RED = new Set([1, 2]); // diamonds, hearts

function cardButton(card, legal, onclick) {
  return el("button", { class: "playing-card" + (RED.has(card.suit) ? " red" : "") + (legal ? " legal" : ""),
    dataset: { card: card.name }, title: card.name, onclick }, card.rank, el("span", {}, "♣♦♥♠"[card.suit]));
}

export function render(root, view, { move }) {
  const table = el("div", { class: "felt" });
  const seats = el("div", { class: "seats" });
  for (let p = 0; p < view.players; p++) {
    const name = p === view.you ? "you" : `P${p}`;
    const out = view.places[p] >= 0 && view.hand_sizes[p] === 0;
    seats.append(el("span", { class: "seat" + (p === view.to_move ? " tomove" : ""), id: `seat-${p}` },
      `${name}: ${out ? `out (${view.places[p] + 1}.)` : `${view.hand_sizes[p]} cards`}`));
  }
  table.append(seats);
  view.rows.forEach(([low, high], suit) => {
    const row = el("div", { class: "suitrow", id: `row-${suit}` },
      el("span", { class: "sym" + (RED.has(suit) ? " red" : "") }, view.suits[suit]));
    for (let r = 1; r <= 13; r++) {
      const on = low !== 0 && low <= r && r <= high;
      row.append(el("span", { class: "slot" + (on ? " on" : "") + (on && RED.has(suit) ? " red" : "") },
        on ? view.ranks[r - 1] : r === 7 ? "7" : ""));
    }
    table.append(row);
  });
  const legal = new Set(view.legal.map((a) => a.action));
  const prompt = view.terminal ? "" : !view.your_turn ? "waiting for the others"
    : view.phase === "send" ? `P${view.receiver} cannot play: click a card to send them`
    : "click a card to play it (highlighted cards fit the table)";
  const hand = el("div", { class: "hand", id: "hand" },
    view.hand.map((c) => cardButton(c, legal.has(c.card) && view.phase === "play",
      () => move({ text: c.name }))));
  root.replaceChildren(table, el("h2", {}, "your hand ", el("span", { class: "muted" }, prompt)), hand);
}
