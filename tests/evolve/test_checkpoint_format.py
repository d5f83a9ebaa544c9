"""The checkpoint file format: what round-trips, and the message for each way a file can be wrong."""
import io
import json
import math
import sys

import numpy as np
import pytest

from evoplay.errors import CheckpointError
from evoplay.evolve.checkpoint import CHECKPOINT_FORMAT, _digest, dumps, loads
from evoplay import gp

WHERE = "run/checkpoint.npz"


def craft(body, arrays=None, doc=None) -> bytes:
    """A checkpoint file with the given body (bytes or a JSON-able object), arrays and doc (default: valid)."""
    arrays = arrays or {}
    body = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    if doc is None:
        doc = {"format": CHECKPOINT_FORMAT, "sha256": _digest(body, arrays)}
    buf = io.BytesIO()
    extra = {} if doc is False else {"__doc__": np.frombuffer(json.dumps(doc).encode(), np.uint8)}
    np.savez(buf, **arrays, __body__=np.frombuffer(body, np.uint8), **extra)
    return buf.getvalue()


def error(data) -> str:
    with pytest.raises(CheckpointError) as err:
        loads(data, WHERE)
    return str(err.value)


def test_special_floats_tuples_and_maps_round_trip():
    state = {"x": [math.inf, -math.inf, 1.5], "t": (1, (2, "a")), "m": {(1, 2): "pair", 3: None}}
    header, back = loads(dumps({"generation": 4}, state), WHERE)
    assert header == {"generation": 4} and back == state
    _, nan = loads(dumps({}, {"v": math.nan}), WHERE)
    assert math.isnan(nan["v"])
    # a map key written as a JSON list (any nesting) comes back as a tuple, so it can be a key
    _, m = loads(craft({"header": {}, "state": {"$map": [[[1, [2, 3]], "x"]]}}), WHERE)
    assert m == {(1, (2, 3)): "x"}


def test_files_that_are_not_checkpoints():
    assert error(b"\x80\x04junk") == (f"{WHERE} is a pickle; evoplay never unpickles a checkpoint (loading a pickle "
                                      "can run any code it holds); start a new run")
    assert error(b"{}") == f"{WHERE} is not an evoplay checkpoint (not an .npz archive); it is corrupt"
    message = error(b"PK\x03\x04 truncated")
    assert message.startswith(f"{WHERE} is corrupt (BadZipFile: ")
    assert message.endswith("); restore it from a backup or start a new run")
    assert error(craft({"header": {}, "state": 1}, doc=False)) == f"{WHERE} is not an evoplay checkpoint (no header)"


def test_other_formats_and_bodies():
    assert error(craft({"header": {}, "state": 1}, doc={"format": 1, "sha256": ""})) == \
        f"{WHERE} has checkpoint format 1; this evoplay reads formats 2 and 3"
    assert error(craft({"header": {}, "state": 1}, doc=[2])) == \
        f"{WHERE} has checkpoint format None; this evoplay reads formats 2 and 3"
    assert error(craft(b"not json")) == f"{WHERE}: the checkpoint's state is not readable JSON"
    assert error(craft({"state": 1})) == f"{WHERE}: the checkpoint's state is not readable JSON"
    assert error(craft({"header": [], "state": 1})) == f"{WHERE}: the checkpoint has no header"


@pytest.mark.parametrize("tree, message", [
    ({"$array": "a9"}, "the checkpoint names an array 'a9' it does not hold"),
    ({"$scalar": 5}, "the checkpoint names an array 5 it does not hold"),
    ({"$float": "1e999"}, "the checkpoint holds a malformed float '1e999'"),
    ({"$generator": "Random", "state": {}}, "the checkpoint names an unknown random generator 'Random'"),
])
def test_malformed_states_name_the_part(tree, message):
    assert error(craft({"header": {}, "state": tree})) == message


def test_a_population_is_four_arrays_and_comes_back_checked():
    pset = gp.seed003_primitive_set()
    rng = np.random.default_rng(1)
    population = [gp.grow(pset, rng, 5, function_probability=0.6) for _ in range(40)]
    data = dumps({}, {"population": population, "one": [population[0]], "best": population[3]})
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        assert len(npz.files) == 2 + 4 + 3 + 3  # body, doc; the population; the list of one; the best
    _, back = loads(data, WHERE)
    assert back["population"] == population and back["one"] == population[:1] and back["best"] == population[3]
    ends = np.cumsum([p.size for p in population[:2]])
    ops, args, consts = (np.concatenate([getattr(p, k) for p in population[:2]]) for k in ("opcodes", "args", "consts"))
    arrays = {"a0": ops, "a1": args, "a2": consts, "a3": ends[::-1].copy()}
    message = error(craft({"header": {}, "state": {"$programs": ["a0", "a1", "a2", "a3"]}}, arrays))
    assert message == "the checkpoint holds a malformed list of programs: its arrays and ends do not agree"
    ops[0] = 99  # no such opcode
    arrays = {"a0": ops, "a1": args, "a2": consts, "a3": ends}
    message = error(craft({"header": {}, "state": {"$programs": ["a0", "a1", "a2", "a3"]}}, arrays))
    assert message.startswith("the checkpoint holds a malformed list of programs: ")


def test_a_format_2_checkpoint_still_reads():
    pset = gp.seed003_primitive_set()
    program = gp.grow(pset, np.random.default_rng(2), 4, function_probability=0.6)
    arrays = {"a0": program.opcodes, "a1": program.args, "a2": program.consts}
    body = json.dumps({"header": {"generation": 3}, "state": [{"$program": ["a0", "a1", "a2"]}]}).encode()
    data = craft(body, arrays, doc={"format": 2, "sha256": _digest(body, arrays)})
    assert loads(data, WHERE) == ({"generation": 3}, [program])


def test_malformed_programs_generators_and_shapes():
    arrays = {"a0": np.array([3, 0], np.int32), "a1": np.zeros(2, np.int32), "a2": np.zeros(2)}
    message = error(craft({"header": {}, "state": {"$program": ["a0", "a1", "a2"]}}, arrays))
    assert message.startswith("the checkpoint holds a malformed program: ")
    message = error(craft({"header": {}, "state": {"$generator": "PCG64", "state": {"bit_generator": "PCG64"}}}))
    assert message.startswith("the checkpoint's random generator state is malformed: ")
    message = error(craft({"header": {}, "state": {"$tuple": 5}}))
    assert message.startswith(f"{WHERE}: the checkpoint's state is malformed (")


def test_deep_nesting_is_refused_not_a_recursion_error():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # Python's default, whatever earlier tests raised it to
    try:
        deep = "[" * 700 + "]" * 700  # JSON reads it; decoding it would pass the recursion limit
        assert error(craft(f'{{"header": {{}}, "state": {deep}}}'.encode())) == \
            f"{WHERE}: the checkpoint's state is nested too deeply"
        deeper = "[" * 3000 + "]" * 3000  # too deep for the JSON reader itself
        assert error(craft(f'{{"header": {{}}, "state": {deeper}}}'.encode())) == \
            f"{WHERE}: the checkpoint's state is not readable JSON"
    finally:
        sys.setrecursionlimit(old)
