"""The arena: seeded games, matches, round robins and gauntlets on serial, process or Ray executors."""
from evoplay.arena.executors import BACKENDS, Executor, make_executor
from evoplay.arena.match import GameRecord, derive_seed, play_game, play_record
from evoplay.arena.tournament import (
    AgentStats,
    Pairing,
    TournamentResult,
    gauntlet,
    match,
    play_schedule,
    round_robin,
    wilson_interval,
)

__all__ = [
    "BACKENDS", "AgentStats", "Executor", "GameRecord", "Pairing", "TournamentResult", "derive_seed", "gauntlet",
    "make_executor", "match", "play_game", "play_record", "play_schedule", "round_robin", "wilson_interval",
]
