"""Checkpoints as data, never code: a run's state written as JSON plus NumPy arrays in one .npz, versioned and
checksummed, and read back without unpickling anything (``allow_pickle=False``).

A state is a tree of dicts, lists, tuples, strings, numbers, booleans, None, NumPy arrays and scalars, NumPy
random Generators and GP programs. JSON holds the tree; every array is stored in the .npz beside it and named
from the tree (``{"$array": "a3"}``); a Generator is its bit generator's name and state; a program is its three
arrays, and a list of programs (a population) their concatenation and where each ends (format 3: a population of
512 is four arrays, not 1536, and its checkpoint is written in milliseconds). Anything else is refused when the
checkpoint is written, naming where in the state it sits.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile
from typing import Any

import numpy as np

from evoplay.errors import CheckpointError

#: the checkpoint format this evoplay writes
CHECKPOINT_FORMAT = 3
#: the formats it reads (2: every program stored on its own)
READ_FORMATS = (2, 3)
#: bit generators a checkpoint may name (restored by name from numpy.random, nothing else)
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")
_STATE_ENTRY = "state.json"


def encode_state(state: Any) -> tuple[Any, dict[str, np.ndarray]]:
    """(a JSON-able tree, the arrays it names); raises TypeError naming the first value it cannot store."""
    arrays: dict[str, np.ndarray] = {}

    def array_ref(a: np.ndarray, where: str) -> dict:
        if a.dtype.hasobject or a.dtype.kind not in "biufcUS":
            raise TypeError(f"{where}: an array of dtype {a.dtype} cannot be stored (numbers or text only)")
        name = f"a{len(arrays)}"
        arrays[name] = np.ascontiguousarray(a)
        return {"$array": name}

    def enc(v: Any, where: str) -> Any:
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return v
        if isinstance(v, float):
            return v if math.isfinite(v) else {"$float": repr(v)}
        if isinstance(v, np.ndarray):
            return array_ref(v, where)
        if isinstance(v, np.generic):
            return {"$scalar": array_ref(np.asarray(v), where)["$array"]}
        if isinstance(v, np.random.Generator):
            bg = v.bit_generator
            return {"$generator": type(bg).__name__, "state": enc(bg.state, f"{where}.state")}
        if isinstance(v, dict):
            if all(isinstance(k, str) for k in v) and not any(k.startswith("$") for k in v):
                return {k: enc(x, f"{where}.{k}") for k, x in v.items()}
            return {"$map": [[enc(k, f"{where} key"), enc(x, f"{where}[{k!r}]")] for k, x in v.items()]}
        if isinstance(v, list):
            from evoplay.gp.program import Program, pack

            if len(v) > 1 and all(isinstance(x, Program) for x in v):
                ops, args, consts, _, ends = pack(v)
                return {"$programs": [array_ref(_narrow(a), where)["$array"] for a in (ops, args, consts, ends)]}
            return [enc(x, f"{where}[{i}]") for i, x in enumerate(v)]
        if isinstance(v, tuple):
            return {"$tuple": [enc(x, f"{where}[{i}]") for i, x in enumerate(v)]}
        if isinstance(v, bytes):
            return {"$bytes": array_ref(np.frombuffer(v, np.uint8), where)["$array"]}
        from evoplay.gp.program import Program

        if isinstance(v, Program):
            return {"$program": [array_ref(v.opcodes, where)["$array"], array_ref(v.args, where)["$array"],
                                 array_ref(v.consts, where)["$array"]]}
        raise TypeError(f"{where}: a {type(v).__name__} cannot be stored in a checkpoint")

    return enc(state, "state"), arrays


def decode_state(tree: Any, arrays: dict[str, np.ndarray]) -> Any:
    """The inverse of ``encode_state``; a malformed tree raises CheckpointError."""

    def arr(name: Any) -> np.ndarray:
        if not isinstance(name, str) or name not in arrays:
            raise CheckpointError(f"the checkpoint names an array {name!r} it does not hold")
        return arrays[name]

    def dec(v: Any) -> Any:
        if isinstance(v, list):
            return [dec(x) for x in v]
        if not isinstance(v, dict):
            return v
        if len(v) == 1 and "$array" in v:
            return arr(v["$array"]).copy()
        if len(v) == 1 and "$scalar" in v:
            return arr(v["$scalar"])[()]
        if len(v) == 1 and "$bytes" in v:
            return arr(v["$bytes"]).tobytes()
        if len(v) == 1 and "$float" in v:
            if v["$float"] not in ("nan", "inf", "-inf"):
                raise CheckpointError(f"the checkpoint holds a malformed float {v['$float']!r}")
            return float(v["$float"])
        if len(v) == 1 and "$tuple" in v:
            return tuple(dec(x) for x in v["$tuple"])
        if len(v) == 1 and "$map" in v:
            return {_hashable(dec(k)): dec(x) for k, x in v["$map"]}
        if len(v) == 1 and "$program" in v:
            from evoplay.gp.program import Program
            from evoplay.errors import SpecError

            try:
                ops, args, consts = (arr(n) for n in v["$program"])
                return Program(ops, args, consts)
            except (SpecError, ValueError, TypeError) as err:
                raise CheckpointError(f"the checkpoint holds a malformed program: {err}") from None
        if len(v) == 1 and "$programs" in v:
            return _programs(v["$programs"], arr)
        if set(v) == {"$generator", "state"}:
            name = v["$generator"]
            if name not in BIT_GENERATORS:
                raise CheckpointError(f"the checkpoint names an unknown random generator {name!r}")
            bg = getattr(np.random, name)()
            try:
                bg.state = dec(v["state"])
            except (ValueError, TypeError, KeyError) as err:
                raise CheckpointError(f"the checkpoint's random generator state is malformed: {err}") from None
            return np.random.Generator(bg)
        return {k: dec(x) for k, x in v.items()}

    return dec(tree)


def _narrow(a: np.ndarray) -> np.ndarray:
    """``a`` in the smallest type that holds its values exactly (int8/16/32, float32): a population's opcodes,
    arguments and integer constants take a third of the bytes; reading them back restores the program's types."""
    if a.size == 0:
        return a
    if a.dtype.kind == "i":
        lo, hi = int(a.min()), int(a.max())
        for t in (np.int8, np.int16, np.int32):
            if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max:
                return a.astype(t)
        return a
    if a.dtype == np.float64:
        small = a.astype(np.float32)
        if np.array_equal(small, a):  # NaN never compares equal: such constants stay float64
            return small
    return a


def _programs(names: Any, arr) -> list:
    """A list of programs stored as their concatenated arrays and ends, each program checked as it is read."""
    from evoplay.errors import SpecError
    from evoplay.gp.program import Program

    try:
        ops, args, consts, ends = (arr(n) for n in names)
        ends = np.asarray(ends, np.int64)
        if not (len(ops) == len(args) == len(consts) and ends.ndim == 1 and len(ends)
                and ends[-1] == len(ops) and (np.diff(ends, prepend=0) > 0).all()):
            raise ValueError("its arrays and ends do not agree")
        starts = np.concatenate([[0], ends[:-1]])
        return [Program(ops[a:b], args[a:b], consts[a:b]) for a, b in zip(starts, ends)]
    except (SpecError, ValueError, TypeError) as err:
        raise CheckpointError(f"the checkpoint holds a malformed list of programs: {err}") from None


def _hashable(k: Any) -> Any:
    if isinstance(k, list):
        return tuple(_hashable(x) for x in k)
    return k


def _digest(text: bytes, arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256(text)
    for name in sorted(arrays):
        a = arrays[name]
        h.update(f"\0{name}\0{a.dtype.str}\0{a.shape}\0".encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def dumps(header: dict, state: Any) -> bytes:
    """The bytes of a checkpoint file: ``header`` (format, recipe, generation...) and ``state``."""
    tree, arrays = encode_state(state)
    body = json.dumps({"header": header, "state": tree}, separators=(",", ":")).encode("utf-8")
    checksum = _digest(body, arrays)
    doc = json.dumps({"format": CHECKPOINT_FORMAT, "sha256": checksum}).encode("utf-8")
    buf = io.BytesIO()
    np.savez(buf, **arrays, **{"__body__": np.frombuffer(body, np.uint8), "__doc__": np.frombuffer(doc, np.uint8)})
    return buf.getvalue()


def loads(data: bytes, where: str) -> tuple[dict, Any]:
    """(header, state) from checkpoint bytes; anything corrupt, foreign or of another format raises
    CheckpointError naming ``where``. Nothing in the file is executed: arrays are read with allow_pickle=False."""
    if data[:2] != b"PK":
        if data[:1] == b"\x80":
            raise CheckpointError(f"{where} is a pickle; evoplay never unpickles a checkpoint (loading a pickle "
                                  "can run any code it holds); start a new run")
        raise CheckpointError(f"{where} is not an evoplay checkpoint (not an .npz archive); it is corrupt")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError) as err:
        raise CheckpointError(f"{where} is corrupt ({type(err).__name__}: {err}); restore it from a backup "
                              "or start a new run") from None
    try:
        doc = json.loads(arrays.pop("__doc__").tobytes())
        body_bytes = arrays.pop("__body__").tobytes()
    except (KeyError, ValueError, UnicodeDecodeError):
        raise CheckpointError(f"{where} is not an evoplay checkpoint (no header)") from None
    if not isinstance(doc, dict) or doc.get("format") not in READ_FORMATS:
        fmt = doc.get("format") if isinstance(doc, dict) else None
        raise CheckpointError(f"{where} has checkpoint format {fmt!r}; this evoplay reads formats "
                              f"{' and '.join(map(str, READ_FORMATS))}")
    if doc.get("sha256") != _digest(body_bytes, arrays):
        raise CheckpointError(f"{where} fails its checksum: the file was changed or damaged after it was written")
    try:
        body = json.loads(body_bytes)
        header, tree = body["header"], body["state"]
    except (ValueError, KeyError, TypeError, RecursionError):
        raise CheckpointError(f"{where}: the checkpoint's state is not readable JSON") from None
    if not isinstance(header, dict):
        raise CheckpointError(f"{where}: the checkpoint has no header")
    try:
        state = decode_state(tree, arrays)
    except RecursionError:
        raise CheckpointError(f"{where}: the checkpoint's state is nested too deeply") from None
    except (TypeError, ValueError, AttributeError) as err:
        raise CheckpointError(f"{where}: the checkpoint's state is malformed ({err})") from None
    return header, state
