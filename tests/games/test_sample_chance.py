"""sample_chance draws a chance outcome exactly as numpy's Generator.choice with the outcomes' probabilities would
(the same outcome from the same stream, the stream left in the same place), whatever the distribution."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay.games.base import sample_chance


class Node:
    """A chance node with the given (action, probability) outcomes."""

    def __init__(self, outcomes):
        self.outcomes = outcomes

    def chance_outcomes(self):
        return self.outcomes


weights = st.lists(st.floats(min_value=0.0, max_value=10.0), min_size=1, max_size=40).filter(lambda w: sum(w) > 0)


@settings(max_examples=60, deadline=None)
@given(weights=weights, seed=st.integers(0, 2**32 - 1), first=st.integers(0, 100))
def test_sample_chance_draws_what_choice_draws(weights, seed, first):
    outcomes = [(first + 3 * i, w) for i, w in enumerate(weights)]  # actions need not be 0..n-1
    node = Node(outcomes)
    mine, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
    probs = np.array(weights, dtype=np.float64)
    for _ in range(20):
        expected = outcomes[int(theirs.choice(len(outcomes), p=probs / probs.sum()))][0]
        assert sample_chance(node, mine) == expected
    assert mine.random() == theirs.random()  # the stream is where choice leaves it


def test_an_outcome_of_probability_zero_is_never_drawn():
    node = Node([(0, 0.5), (1, 0.0), (2, 0.5), (3, 0.0)])
    rng = np.random.default_rng(0)
    assert {sample_chance(node, rng) for _ in range(2000)} == {0, 2}
