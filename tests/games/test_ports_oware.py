"""OpenSpiel's oware on evoplay's port: equal to pyspiel over 2,000 seeded random games through its Python rules and
its kernels (several board sizes; games ending by a majority, by a player who cannot move and by a board seen
again, grand slams among them), a game that reaches OpenSpiel's 1,000 moves, the parameters the port does not play,
check-game's promises, and uct on the kernels against OpenSpiel's referee."""
from __future__ import annotations

from collections import Counter
from math import comb

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from evoplay.agents import make_agent  # noqa: E402
from evoplay.arena import play_game  # noqa: E402
from evoplay.errors import SpecError  # noqa: E402
from evoplay.games import load_game  # noqa: E402
from evoplay.games.tools.check import check_game  # noqa: E402
from evoplay.games.kernels import kernels_of  # noqa: E402
from evoplay.games.tools.openspiel import OpenSpielGame  # noqa: E402
from evoplay.games.ports import oware  # noqa: E402
from evoplay.games.ports.against import against_openspiel  # noqa: E402
from evoplay.seeds import derive_seed  # noqa: E402

# (spec, seeded random games, seed): 2,000 games in all, then 200 whose boards are numbered by their rank (too many
# seeds for the digits: apply sums the number anew each move)
SIDE_BY_SIDE = [
    ("openspiel:oware", 400, 16),
    ("openspiel:oware", 400, 17),
    ("openspiel:oware", 400, 18),
    ("openspiel:oware(num_houses_per_player=3,num_seeds_per_house=2)", 300, 19),
    ("openspiel:oware(num_houses_per_player=4,num_seeds_per_house=7)", 200, 20),
    ("openspiel:oware(num_houses_per_player=2,num_seeds_per_house=1)", 200, 21),
    ("openspiel:oware(num_houses_per_player=1,num_seeds_per_house=1)", 100, 22),
    ("openspiel:oware(num_seeds_per_house=5)", 200, 23),
]


@pytest.mark.parametrize("spec,games,seed", SIDE_BY_SIDE, ids=[f"{v[0][10:]}-{v[2]}" for v in SIDE_BY_SIDE])
def test_oware_equals_openspiel_over_seeded_random_games(spec, games, seed):
    game = load_game(spec)
    assert isinstance(game, oware.Oware)
    report = against_openspiel(game, games=games, seed=seed)
    assert report.ok, str(report.difference)
    assert report.games == games and report.through == ("Python rules", "kernels")


def endings(spec: str, games: int, seed: int) -> Counter:
    """How the side-by-side check's random games of ``spec`` end (replayed through the port's Python rules)."""
    game = load_game(spec)
    out = Counter()
    for g in range(games):
        rng = np.random.default_rng(seed if g == 0 else derive_seed(seed, g))
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            before, unended = state.clone(), state.clone()
            unended.collect = lambda: None  # the move as it would be without the game's end
            unended._do_apply_action(action)
            state.apply_action(action)
        if unended.score == before.score and unended.board() in before.seen:
            out["a board seen again"] += 1
        elif unended.decided():
            out["a majority"] += 1
        else:
            out["a player who cannot move"] += 1
    return out


def test_the_random_games_end_every_way_and_hold_grand_slams(monkeypatch):
    slams = []
    grand_slam = oware.OwareState.grand_slam
    monkeypatch.setattr(oware.OwareState, "grand_slam", lambda self, house: slams.append(grand_slam(self, house))
                        or slams[-1])
    seen = Counter()
    for spec, games, seed in SIDE_BY_SIDE[:4]:
        seen += endings(spec, games, seed)
    assert set(seen) == {"a board seen again", "a majority", "a player who cannot move"}
    assert min(seen.values()) >= 50 and sum(slams) >= 50  # grand slams: sown, nothing captured


def test_a_game_reaching_openspiels_1000_moves_ends_drawn_where_pyspiel_stops():
    """pyspiel plays no move after 1,000 (kMaxGameLength: a SpielError); the port ends the game there, drawn."""
    game = load_game("openspiel:oware(num_seeds_per_house=17)")
    k = kernels_of(game)
    ours, theirs = game.new_initial_state(), game.pyspiel_game.new_initial_state()
    position = k.position(ours)
    rng = np.random.default_rng(2)  # a random game of this board that reaches the limit
    while not ours.is_terminal():
        legal = theirs.legal_actions()
        assert ours.legal_actions() == legal == k.legal_actions(position)
        assert ours.current_player() == theirs.current_player() == k.mover(k.params, position)
        assert ours.returns() == list(theirs.returns()) == k.returns_of(position)
        for p in (0, 1):
            assert np.array_equal(ours.tensor(p), np.asarray(theirs.observation_tensor(p)))
            assert np.array_equal(k.features_of(position, p), ours.features(p))
        assert np.array_equal(position, ours.encode())
        action = legal[int(rng.integers(len(legal)))]
        for state in (ours, theirs):
            state.apply_action(action)
        k.apply(k.params, position, action)
    assert len(ours.history) == oware.MAX_MOVES and ours.ended == oware.AT_LIMIT
    assert ours.returns() == k.returns_of(position) == list(theirs.returns()) == [0.0, 0.0]
    assert k.mover(k.params, position) == ours.current_player() and np.array_equal(position, ours.encode())
    assert not theirs.is_terminal() and str(ours).startswith("[FINISHED]\n")
    with pytest.raises(pyspiel.SpielError, match="kMaxGameLength"):
        theirs.apply_action(theirs.legal_actions()[0])


def test_boards_too_many_to_number_fall_back_to_openspiel_and_engine_port_says_why():
    spec = "openspiel:oware(num_seeds_per_house=19)"
    assert isinstance(load_game(spec), OpenSpielGame) and "too many boards" in load_game(spec).engine_note
    with pytest.raises(SpecError, match="12 houses of 228 seeds have too many boards"):
        load_game(spec[:-1] + ",engine=port)")
    assert isinstance(load_game("openspiel:oware(num_seeds_per_house=18)"), oware.Oware)


def test_boards_are_numbered_one_to_one():
    boards = [(a, b, c) for a in range(7) for b in range(7) for c in range(7) if a + b + c == 6]
    assert sorted(oware.rank(b) for b in boards) == list(range(len(boards))) == list(range(comb(8, 2)))
    assert len({oware.digits(b, 7) for b in boards}) == len(boards)
    assert oware.digits((3, 0, 5, 9), 10) == 503  # the first house the lowest digit, the last house left out


@pytest.mark.parametrize("spec,by_digits", [("openspiel:oware", True), ("openspiel:oware(num_seeds_per_house=5)", False),
                                            ("openspiel:oware(num_houses_per_player=3,num_seeds_per_house=30)", True),
                                            ("openspiel:oware(num_houses_per_player=4,num_seeds_per_house=58)", False)])
def test_boards_are_numbered_by_their_digits_where_the_numbers_fit_in_63_bits(spec, by_digits):
    """apply updates a number of digits by the houses a move changes; a rank it sums anew."""
    game = load_game(spec)
    assert game.by_digits == by_digits
    m, total = 2 * game.houses, game.total
    highest = [(1, 0, 0, *[0] * (m - 2), total, 0), (1, 0, 0, total, *[0] * (m - 1))]  # the digits', the rank's
    assert all(0 <= game.number(board) < 2 ** 63 for board in highest)


def test_check_game_finds_every_promise_kept_and_the_port_equal_to_openspiel():
    report = check_game("openspiel:oware", games=6, seed=4, against_openspiel=True)
    assert report.ok, [p.message for p in report.problems]
    rows = dict(report.summary())
    assert rows["engine"].startswith("evoplay's port of OpenSpiel's oware")
    assert rows["held to OpenSpiel (--against-openspiel)"].startswith("equal to OpenSpiel (pyspiel)")


def test_uct_searches_the_port_on_its_kernels_against_openspiels_referee():
    game = load_game("openspiel:oware")
    uct = make_agent("uct(simulations=60)", game)
    assert uct._kernel is not None
    final = play_game(game, [uct, make_agent("openspiel_mcts(simulations=60)", game)], 3)
    assert final.is_terminal() and final.history == final.pyspiel_state.history()
    assert final.returns() == list(final.pyspiel_state.returns())
