"""Sevens: the Numba kernels against the Python reference (the moves' one source run by Python over a list, and
the reference deal, legal cards and features), the rules' special cases, hidden information, and the whole-game
kernel against the same games played move by move in Python."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay import load_game
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.sevens import rules as S
from evoplay.games.base import TERMINAL
from evoplay.games.sevens.batch_play import Lineup, reference_heuristic_choice, reference_play_game
from evoplay.games.sevens.rules_kernels import random_games


def _play_both(players, seed, choices, check_features=True):
    """Play one game through the kernels (the State) and the reference side by side; return the state."""
    state = load_game(f"sevens(players={players})").new_initial_state(seed)
    ref = S.reference_deal(players, seed)
    assert ref == state.state_array().tolist()
    k = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == S.reference_legal(ref)
        assert legal, "a running game always has a legal card"
        if check_features:
            rows = state.card_features(legal)
            for i, card in enumerate(legal):
                assert rows[i].tolist() == S.reference_features(ref, card)
        card = legal[choices[k % len(choices)] % len(legal)] if choices else legal[0]
        k += 1
        for p in range(players):
            assert S.can_play(ref, p) == any(ref[S.OWNER + c] == p and S.is_playable(ref, c) for c in range(52))
        state.apply_action(card)
        S.apply_card(ref, card)
        assert ref == state.state_array().tolist()
        a = state.state_array()
        assert sum(int(x) for x in a[S.HAND:S.HAND + players]) == int((a[:52] >= 0).sum())
        assert k < 52 * 8 + 52, "a game must end"
    assert S.reference_legal(ref) == []
    assert sorted(state.places()) == list(range(players))
    return state


@settings(max_examples=60, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**64 - 1),
       choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=60))
def test_kernels_match_reference_on_random_games(players, seed, choices):
    _play_both(players, seed, choices)


def test_hundreds_of_seeded_games_agree_and_end():
    rng = np.random.default_rng(7)
    for g in range(150):
        players = 3 + g % 6
        _play_both(players, int(rng.integers(0, 2**63)), rng.integers(0, 1000, 80).tolist(), check_features=g < 40)


@pytest.mark.parametrize("players", range(3, 9))
def test_deal_is_even_and_seven_of_hearts_opens(players):
    for seed in range(20):
        state = load_game(f"sevens(players={players})").new_initial_state(seed)
        sizes = state.hand_sizes()
        assert sum(sizes) == 52 and max(sizes) - min(sizes) <= 1
        assert sizes == sorted(sizes, reverse=True), "the first seats get the extra cards"
        holder = state.current_player()
        assert S.SEVEN_OF_HEARTS in state.hand(holder)
        assert state.legal_actions() == [S.SEVEN_OF_HEARTS]
        assert state.phase() == "play"


def test_seeds_give_different_and_reproducible_deals():
    game = load_game("sevens")
    hands = {tuple(game.new_initial_state(s).hand(0)) for s in range(50)}
    assert len(hands) == 50
    # The kernel's deal is the reference's, and seed 123 deals seat 0 the same 13 cards on every machine.
    assert game.new_initial_state(123).state_array().tolist() == S.reference_deal(4, 123)
    assert game.new_initial_state(123).hand(0) == [1, 8, 11, 13, 17, 22, 29, 31, 35, 36, 46, 47, 50]


def _state_from(owners, players=3, rows=None, to_move=0):
    """A hand-made position: owners[card] = seat or TABLE; rows = {suit: (low, high)}; turn of ``to_move``."""
    game = load_game(f"sevens(players={players})")
    state = game.new_initial_state(0)
    s = [0] * S.STATE_SIZE
    for c in range(52):
        s[S.OWNER + c] = owners.get(c, S.TABLE)
    for suit, (lo, hi) in (rows or {}).items():
        s[S.LOW + suit], s[S.HIGH + suit] = lo, hi
    for p in range(players):
        s[S.HAND + p] = sum(1 for c in range(52) if s[S.OWNER + c] == p)
    for p in range(S.MAX_PLAYERS):
        s[S.PLACE + p] = -1
    s[S.PLAYERS] = players
    s[S.RECEIVER] = -1
    S.begin_turn(s, to_move)
    state._s[:] = np.array(s, np.int16)
    return state, s


def card(text):
    return S.parse_card(text)


def test_a_stuck_player_is_sent_a_card_by_the_previous_player():
    # Clubs run 5..9, diamonds A..J, hearts complete, spades A..9. P1 holds only K♦ (needs Q♦ first).
    owners = {card("4c"): 0, card("Js"): 0, card("Kd"): 1, card("10c"): 2, card("Qd"): 2}
    state, ref = _state_from(owners, rows={0: (5, 9), 1: (1, 11), 2: (1, 13), 3: (1, 9)}, to_move=0)
    assert state.legal_actions() == [card("4c")], "J♠ waits for 10♠"
    state.apply_action(card("4c"))
    S.apply_card(ref, card("4c"))
    assert state.state_array().tolist() == ref
    assert state.phase() == "send" and state.receiver() == 1 and state.current_player() == 0
    assert state.legal_actions() == [card("Js")], "the sender chooses among their own cards"


def test_send_of_an_unplayable_card_ends_the_receivers_turn_and_a_playable_one_is_played_at_once():
    # Spades row 6..8. P1 holds only A♥ (hearts row 3..K): stuck. P0 sends.
    owners = {card("Qs"): 0, card("9s"): 0, card("5d"): 0, card("Ah"): 1, card("Jc"): 2, card("Qc"): 2}
    rows = {0: (3, 10), 1: (6, 13), 2: (3, 13), 3: (6, 8)}
    state, ref = _state_from(owners, rows=rows, to_move=1)
    assert state.phase() == "send" and state.current_player() == 0 and state.receiver() == 1
    assert state.legal_actions() == sorted([card("Qs"), card("9s"), card("5d")])
    assert "must send" in str(state)
    state.apply_action(card("Qs"))  # Q♠ is not playable (spades run 6..8): P1's turn ends
    S.apply_card(ref, card("Qs"))
    assert state.state_array().tolist() == ref
    assert state.hand(1) == sorted([card("Ah"), card("Qs")])
    assert state.current_player() == 2 and state.phase() == "play"
    # Now a playable send: make P1 stuck again and send it 9♠, which P1 must play at once.
    state2, ref2 = _state_from(owners, rows=rows, to_move=1)
    state2.apply_action(card("9s"))
    S.apply_card(ref2, card("9s"))
    assert state2.state_array().tolist() == ref2
    assert state2.current_player() == 1 and state2.phase() == "play"
    assert state2.legal_actions() == [card("9s")]
    kinds = [h[0] for h in state2.history]
    assert kinds == ["send"]


def test_sending_the_last_card_finishes_the_sender():
    owners = {card("2c"): 0, card("Ah"): 1, card("Jc"): 2, card("Qc"): 2, card("Kc"): 1}
    rows = {0: (3, 10), 1: (1, 13), 2: (3, 13), 3: (1, 13)}
    state, ref = _state_from(owners, rows=rows, to_move=1)
    assert state.phase() == "send" and state.current_player() == 0
    state.apply_action(card("2c"))
    S.apply_card(ref, card("2c"))
    assert state.state_array().tolist() == ref
    assert state.places()[0] == 0, "P0 emptied their hand by sending: first"
    assert not state.is_terminal()


def test_game_over_returns_and_scores():
    state = _play_both(4, 99, [3, 1, 4, 1, 5])
    assert state.current_player() == TERMINAL
    returns = state.returns()
    places = state.places()
    assert returns[places.index(0)] == 1.0 and returns[places.index(3)] == -1.0
    assert state.winner() == places.index(0)
    assert sorted(state.scores()) == [1.0, 2.0, 3.0, 4.0]
    assert "finishing order" in str(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(0)


def test_illegal_cards_and_bad_specs_are_explained():
    state = load_game("sevens").new_initial_state(1)
    wrong = next(c for c in range(52) if c != S.SEVEN_OF_HEARTS)
    with pytest.raises(IllegalActionError, match="legal"):
        state.apply_action(wrong)
    with pytest.raises(SpecError, match="3 to 8"):
        load_game("sevens(players=2)")
    with pytest.raises(SpecError, match="3 to 8"):
        load_game("sevens(players=9)")
    with pytest.raises(IllegalActionError, match="rank then suit"):
        state.string_to_action("7x")


@pytest.mark.parametrize("text,name", [("7h", "7♥"), ("7♥", "7♥"), ("10c", "10♣"), ("Tc", "10♣"), ("qs", "Q♠"),
                                       ("Ad", "A♦"), ("1d", "A♦"), (" k S ", "K♠")])
def test_cards_read_and_write(text, name):
    c = S.parse_card(text)
    assert S.card_name(c) == name
    assert S.parse_card(S.card_name(c)) == c


def _hidden_swap(state, rng):
    """The same position with the other players' cards dealt differently (same hand sizes)."""
    s = state.state_array()
    me = state.current_player()
    hidden = [c for c in range(52) if s[c] >= 0 and s[c] != me]
    owners = [int(s[c]) for c in hidden]
    rng.shuffle(owners)
    for c, o in zip(hidden, owners):
        s[c] = o
    other = state.clone()
    other._s[:] = s
    return other


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**63), steps=st.integers(0, 60), shuffle=st.integers(0, 99))
def test_features_see_only_what_the_mover_may_see(players, seed, steps, shuffle):
    """Dealing the hidden cards differently (same hand sizes) changes no feature the mover's trees read."""
    state = load_game(f"sevens(players={players})").new_initial_state(seed)
    rng = np.random.default_rng(shuffle)
    for _ in range(steps):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    if state.is_terminal():
        return
    other = _hidden_swap(state, rng)
    legal = state.legal_actions()
    if state.phase() == "send":
        # a send's candidates are the sender's own cards; the receiver's hand size is public
        assert other.legal_actions() == legal
    assert np.array_equal(state.card_features(legal), other.card_features(legal))


def test_observation_hides_other_hands_and_sent_cards():
    state = load_game("sevens(players=3)").new_initial_state(5)
    rng = np.random.default_rng(0)
    sends = 0
    while not state.is_terminal() and sends < 3:
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
        sends = sum(1 for h in state.history if h[0] == "send")
    for viewer in range(3):
        obs = state.observation(viewer)
        assert obs.hand == tuple(state.hand(viewer))
        assert obs.hand_sizes == tuple(state.hand_sizes())
        for (kind, actor, target, c), full in zip(obs.history, state.history):
            if kind == "send" and viewer not in (actor, target):
                assert c is None
            else:
                assert c == full[3]
        text = state.render(viewer)
        for p in range(3):
            if p != viewer:
                for c in state.hand(p):
                    assert S.card_name(c) not in text.split("your hand:")[1]
    with pytest.raises(SpecError):
        state.observation(5)


def test_random_games_kernel_counts_one_winner_per_game():
    wins = np.zeros(8, np.int64)
    random_games(5, 500, 3, wins)
    assert wins.sum() == 500 and (wins[:5] > 0).all() and (wins[5:] == 0).all()


def _deterministic_trees(rng):
    from evoplay.games.sevens.agents import sevens_primitive_set
    from evoplay.gp.generate import grow

    pset = sevens_primitive_set(("add", "mul", "sub", "min", "max"), random=False)
    return pset, [(grow(pset, rng, 4), grow(pset, rng, 4)) for _ in range(3)]


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**63), tree_seed=st.integers(0, 1000))
def test_whole_game_kernel_matches_the_reference_loop(players, seed, tree_seed):
    """The kernel's games (GP trees via the interpreter, the heuristic) equal the same games played in Python
    over the reference rules with the reference interpreter and the reference heuristic."""
    from evoplay.gp.interpreter import reference_evaluate

    rng = np.random.default_rng(tree_seed)
    _, trees = _deterministic_trees(rng)
    lineup = Lineup(trees + ["heuristic"])
    seats = np.array([[(p + tree_seed) % 4 for p in range(players)]], np.int64)
    places, _ = lineup.play(players, np.array([seed], np.uint64), seats)

    def choose(seat, send, cards, rows):
        who = int(seats[0, seat])
        if who == 3:
            return reference_heuristic_choice(rows, send)
        tree = trees[who][1 if send else 0]
        values = [reference_evaluate(tree, r) for r in rows]
        return values.index(max(values))

    assert places[0].tolist() == reference_play_game(players, seed, choose)


def test_until_first_stops_at_the_first_finisher():
    lineup = Lineup(["heuristic", "random"])
    seeds = np.arange(200, dtype=np.uint64)
    seats = np.array([[0, 1, 1]] * 200)
    full, _ = lineup.play(3, seeds, seats, False)
    first, _ = lineup.play(3, seeds, seats, True)
    assert ((full == 0) == (first == 0)).all()
    assert ((first == -1).sum(axis=1) == 2).all()
