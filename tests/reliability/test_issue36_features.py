"""Issue 36: a game's feature names are handled in linear time by the gp engine's primitive set (20,000 features
took 143 s to become terminals, one scan of every terminal per terminal added)."""
from __future__ import annotations

import pickle

import pytest

from evoplay.errors import SpecError
from evoplay.gp.primitives import PrimitiveSet


def test_twenty_thousand_feature_terminals_are_added_in_linear_time(monkeypatch):
    # linear work, counted (not timed): each terminal is indexed once when added, never the whole set again
    indexed = []
    real = PrimitiveSet._indexed
    monkeypatch.setattr(PrimitiveSet, "_indexed", lambda self, t: (indexed.append(t.name), real(self, t))[1])
    by_index = PrimitiveSet("board", n_features=20_000)
    for i in range(20_000):
        by_index.add_feature(f"cell{i}", i)
    grown = PrimitiveSet("grown").add_features(*(f"cell{i}" for i in range(20_000)))
    assert len(indexed) == 40_000  # before: a scan of every terminal per terminal added (about 143 s)
    assert grown.n_features == 20_000 and grown.feature_index("cell19999") == 19_999
    assert by_index.feature_name(12_345) == "cell12345" and by_index.feature_name(20_000) == "f20000"
    with pytest.raises(SpecError, match="a terminal named 'cell7' is already in the set"):
        grown.add_feature("cell7")


def test_the_lookups_follow_the_terminals_after_a_copy_and_a_direct_change():
    pset = PrimitiveSet("small").add_features("a", "b")
    copy = pickle.loads(pickle.dumps(pset))
    assert copy.feature_index("b") == 1 and copy == pset
    copy.add_feature("c")
    assert copy.n_features == 3 and pset.feature_index("c") is None
    pset.terminals = pset.terminals[:1]  # changed by hand: the lookups are rebuilt
    assert pset.feature_index("b") is None
    pset.add_feature("b", 0)
    assert pset.feature_index("b") == 0
