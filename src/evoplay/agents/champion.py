"""``champion``: the strongest evolved player evoplay ships for a game, from the game's own package.

A game offers its champion as ``Game.players["champion"]`` (an ``evoplay.games.agent.AgentEntry``): Kalah's and
the 5,5,4-game's (``evoplay.games.kalah.players``, ``evoplay.games.mnk.players``); docs/strength.md gives each
champion's run and its measured strength against OpenSpiel's MCTS.
"""
from __future__ import annotations

from evoplay.errors import SpecError


def supports(game) -> str | None:
    """None when evoplay ships a champion that plays ``game``, else why not."""
    entry = game.player("champion")
    if entry is None:
        return f"evoplay ships no champion for {game.spec}"
    return entry.supports(game) if entry.supports is not None else None


def make_champion(game, spec: str = "champion", nodes: int = 0):
    """The champion of ``game``; ``nodes`` > 0 replaces the champion's own node budget (a weaker or stronger
    player)."""
    why = supports(game)
    if why:
        raise SpecError(f"champion cannot play {game.spec}: {why}")
    return game.player("champion").factory(game, spec=spec, nodes=nodes)
