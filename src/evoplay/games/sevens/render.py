"""Sevens in the terminal: the table's rows, every player's hand size or place, whose turn, the viewer's hand."""
from __future__ import annotations

from evoplay.games.base import TERMINAL
from evoplay.games.sevens.rules import RANK_NAMES, RANKS, SUIT_SYMBOLS, SUITS, card_name, card_suit


def render_row(low: int, high: int) -> str:
    cells = []
    for r in range(1, RANKS + 1):
        on = low != 0 and low <= r <= high
        cells.append(f"{RANK_NAMES[r - 1]:>2}" if on else " .")
    return " ".join(cells)


def render_hand(cards) -> str:
    by_suit = [[c for c in cards if card_suit(c) == k] for k in range(SUITS)]
    return "  ".join(" ".join(card_name(c) for c in group) for group in by_suit if group) or "(empty)"


def render(state, viewer: int | None) -> str:
    """A terminal picture of a ``SevensState``: the table, each player's hand size, and the viewer's own hand."""
    lines = ["table:"]
    for k, (low, high) in enumerate(state.rows()):
        lines.append(f"  {SUIT_SYMBOLS[k]} {render_row(low, high)}")
    sizes = state.hand_sizes()
    places = state.places()
    who = []
    for p in range(state.game.players):
        tag = "you" if p == viewer else f"P{p}"
        if places[p] >= 0 and sizes[p] == 0:
            who.append(f"{tag}: out ({_ordinal(places[p] + 1)})")
        else:
            who.append(f"{tag}: {sizes[p]} card{'s' if sizes[p] != 1 else ''}")
    lines.append("hands: " + ", ".join(who))
    to_move = state.current_player()

    def name(q: int) -> str:
        return "you" if q == viewer else f"P{q}"

    if to_move == TERMINAL:
        order = sorted(range(state.game.players), key=lambda q: places[q])
        lines.append("finishing order: " + ", ".join(name(q) for q in order))
    elif state.phase() == "send":
        lines.append(f"{name(state.receiver())} cannot play; {name(to_move)} must send them a card")
    else:
        lines.append(f"{name(to_move)} to play")
    if viewer is not None and viewer >= 0:
        lines.append(f"your hand: {render_hand(state.hand(viewer))}")
    return "\n".join(lines)


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"

