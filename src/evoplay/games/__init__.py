"""The built-in games and ``load_game``, which builds one from a spec string such as ``kalah(pits=6)``."""
from __future__ import annotations

from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, Game, State
from evoplay.spec import Param, Registry, canonical_spec

GAMES = Registry("game")


def register_game(name: str, cls, params=(), help: str = "") -> None:
    """Add a game class (a ``Game`` subclass taking ``(spec, params)``) under ``name``."""
    params = tuple(params)

    def factory(**values):
        return cls(canonical_spec(name, values, params), values)

    GAMES.register(name, factory, params, help)


def load_game(spec: str) -> Game:
    """Build a game from its spec string: ``kalah``, ``kalah(pits=6,seeds=4,empty_capture=false)``, ``mnk(m=3,n=3,k=3)``."""
    entry, values = GAMES.resolve(spec)
    return entry.factory(**values)


def _register_builtins() -> None:
    from evoplay.games.kalah import KalahGame
    from evoplay.games.mnk import MnkGame

    register_game(
        "kalah",
        KalahGame,
        (
            Param("pits", int, 6, "pits per side"),
            Param("seeds", int, 4, "seeds per pit at the start"),
            Param("empty_capture", bool, True, "capture even when the opposite pit is empty (seed 003's rule)"),
        ),
        "Kalah (mancala): sow counter-clockwise, extra move from the store, captures",
    )
    register_game(
        "mnk",
        MnkGame,
        (
            Param("m", int, 5, "columns"),
            Param("n", int, 5, "rows"),
            Param("k", int, 4, "stones in a line to win"),
        ),
        "m,n,k-game: k in a row on an m x n board (5,5,4 of seed 001; mnk(m=3,n=3,k=3) is tic-tac-toe)",
    )
    from evoplay.games.gems import GemsGame
    from evoplay.games.tron import TronGame

    register_game(
        "tron",
        TronGame,
        (
            Param("w", int, 12, "grid columns inside the walls"),
            Param("h", int, 12, "grid rows inside the walls"),
            Param("obstacles", int, 0, "wall cells placed point-symmetrically from the game seed"),
        ),
        "Tron light cycles, simultaneous moves: leave a trail, hit a wall or trail and lose (seed 002's track)",
    )
    register_game(
        "gems",
        GemsGame,
        (
            Param("w", int, 9, "grid columns inside the walls"),
            Param("h", int, 9, "grid rows inside the walls"),
            Param("ticks", int, 60, "ticks (simultaneous moves) in a game"),
            Param("gems", int, 4, "gems on the board at every tick (they reappear at random, seeded)"),
            Param("pillars", int, 50, "percent of the pillar sites (odd interior cells) that hold a pillar"),
        ),
        "Gems, simultaneous moves: collect more gems than the other player in a fixed number of ticks",
    )
    from evoplay.games.sevens import SevensGame

    register_game(
        "sevens",
        SevensGame,
        (Param("players", int, 4, "players, 3 to 8"),),
        "Sevens (Sjuan, Fan Tan): build the suits out from the sevens; who cannot play is sent a card (seed 000)",
    )


_register_builtins()

__all__ = ["CHANCE", "GAMES", "SIMULTANEOUS", "TERMINAL", "Game", "State", "load_game", "register_game"]
