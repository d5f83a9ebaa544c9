"""Primitive sets: the operations the GP interpreter knows, and the validated functions and terminals of a run.

A program is built from the *operations* of one shared Numba interpreter (no per-tree compilation), so a primitive
set does not carry Python callables: it names which built-in operations are functions of this run and which
terminals (constants, integer ranges, ephemeral random constants, features, ``random``) the leaves may be.

Operations (opcode, arity, meaning):

=============  =====  ========================================================================================
``const``      0      a constant; ``arg`` 0 = a fixed terminal (e.g. seed 003's integers), 1 = an ephemeral
                      constant that constant mutation may rescale
``feature``    0      ``features[arg]``: one number of the row the program is evaluated on
``random``     0      a uniform number in [0, 1) from Numba's generator (seed it with ``seed_random``)
``add``        2      a + b
``sub``        2      a - b
``mul``        2      a * b
``div``        2      protected division: a / b, or 1 when abs(b) < 1e-9
``min``        2      min(a, b)
``max``        2      max(a, b)
``neg``        1      -a
``abs``        1      abs(a)
``if_lt``      4      c if a < b else d (seed 003's IF_<_DO_ELSE; every child is evaluated)
``value_at``   1      ``features[floor(a) mod n]`` with n the row length (seed 003's VALUE_AT: the board seen
                      from the mover); a value that is not finite or beyond 2**53 reads index 0
=============  =====  ========================================================================================
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from evoplay.errors import SpecError
from evoplay.spec import suggest

# Opcodes: the numbers stored in a program's ``opcodes`` array and dispatched on by the interpreter.
CONST, FEATURE, RANDOM, ADD, SUB, MUL, DIV, MIN, MAX, NEG, ABS, IF_LT, VALUE_AT = range(13)

#: arity of each opcode, indexed by opcode (a NumPy array so kernels can read it too)
ARITY = np.array([0, 0, 0, 2, 2, 2, 2, 2, 2, 1, 1, 4, 1], dtype=np.int64)

#: the function operations a primitive set may use, by name
FUNCTIONS: dict[str, int] = {
    "add": ADD, "sub": SUB, "mul": MUL, "div": DIV, "min": MIN, "max": MAX, "neg": NEG, "abs": ABS,
    "if_lt": IF_LT, "value_at": VALUE_AT,
}
OPERATION_NAMES = {CONST: "const", FEATURE: "feature", RANDOM: "random", **{v: k for k, v in FUNCTIONS.items()}}

#: how each function prints in the seed-003 notation; every child is wrapped in parentheses
NOTATION = {
    ADD: "{0} + {1}", SUB: "{0} - {1}", MUL: "{0} * {1}", DIV: "{0} / {1}", MIN: "min [{0}, {1}]",
    MAX: "max [{0}, {1}]", NEG: "neg [{0}]", ABS: "abs [{0}]", IF_LT: "if {0} < {1} do {2} else do {3}",
    VALUE_AT: "value at [{0}]",
}

#: protected division's threshold (shared by interpreter, reference and exports)
DIV_EPSILON = 1e-9
#: beyond this magnitude ``value_at`` reads index 0 (the float no longer holds every integer)
INDEX_LIMIT = 2.0**53

FIXED, EPHEMERAL = 0, 1  # the ``arg`` of a ``const`` node


@dataclass(frozen=True)
class Terminal:
    """One leaf choice: ``kind`` is 'const', 'feature', 'ephemeral' or 'random'."""

    kind: str
    name: str
    value: float = 0.0  # const
    index: int = 0  # feature
    low: float = 0.0  # ephemeral
    high: float = 1.0
    integer: bool = False

    def to_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "value": self.value, "index": self.index, "low": self.low,
                "high": self.high, "integer": self.integer}


@dataclass
class PrimitiveSet:
    """The functions and terminals of a run, checked as they are added.

    ``n_features`` is the length of the feature row programs read (``feature`` terminals index it and
    ``value_at`` wraps around it). Every terminal entry is one equally likely leaf choice: an integer range
    0..13 is fourteen terminals, an ephemeral constant is one.
    """

    name: str
    n_features: int = 0
    functions: list[str] = field(default_factory=list)
    terminals: list[Terminal] = field(default_factory=list)
    # what the terminals hold, by name and by feature index: a set of 100,000 features is built and read in linear
    # time (a scan of the list per terminal added took minutes); rebuilt when ``terminals`` was changed directly
    _lookup: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        if not isinstance(self.n_features, int) or self.n_features < 0:
            raise SpecError(f"primitive set '{self.name}': n_features={self.n_features!r} must be an integer >= 0")

    def __getstate__(self) -> dict:  # worker processes receive the set without its lookup (rebuilt when read)
        return {k: v for k, v in self.__dict__.items() if k != "_lookup"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, _lookup={})

    def _index(self) -> dict:
        """{"list": the terminals indexed, "count": how many, "names": set, "features": number of feature terminals, "by_index": index ->
        first feature name, "by_name": feature name -> index}, up to date with ``terminals``."""
        look = self._lookup
        if look.get("list") is not self.terminals or look["count"] != len(self.terminals):
            look.clear()
            look.update(list=self.terminals, count=0, names=set(), features=0, by_index={}, by_name={})
            for t in self.terminals:
                self._indexed(t)
        return look

    def _indexed(self, t: Terminal) -> None:
        look = self._lookup
        look["count"] += 1
        look["names"].add(t.name)
        if t.kind == "feature":
            look["features"] += 1
            look["by_index"].setdefault(t.index, t.name)
            look["by_name"].setdefault(t.name, t.index)

    # -- building ---------------------------------------------------------------------------------------------

    def add_function(self, name: str) -> "PrimitiveSet":
        """Add a built-in operation as a function (``add``, ``sub``, ``mul``, ``div``, ``min``, ``max``,
        ``neg``, ``abs``, ``if_lt``, ``value_at``)."""
        if name not in FUNCTIONS:
            raise SpecError(
                f"primitive set '{self.name}': unknown function '{name}'{suggest(name, FUNCTIONS)}; "
                f"the interpreter knows: {', '.join(FUNCTIONS)}"
            )
        if name in self.functions:
            raise SpecError(f"primitive set '{self.name}': function '{name}' is already in the set")
        if name == "value_at" and self.n_features < 1:
            raise SpecError(
                f"primitive set '{self.name}': value_at reads the feature row, so give n_features >= 1"
            )
        self.functions.append(name)
        return self

    def add_functions(self, *names: str) -> "PrimitiveSet":
        for n in names:
            self.add_function(n)
        return self

    def add_constant(self, value: float, name: str | None = None) -> "PrimitiveSet":
        """Add one fixed constant terminal."""
        v = _finite(value, f"primitive set '{self.name}': constant")
        self._add_terminal(Terminal("const", name or _format_number(v), value=v))
        return self

    def add_integers(self, low: int, high: int) -> "PrimitiveSet":
        """Add the integer terminals low..high inclusive (seed 003: 0..13), each its own terminal."""
        if not (isinstance(low, int) and isinstance(high, int)) or isinstance(low, bool) or low > high:
            raise SpecError(
                f"primitive set '{self.name}': integer range {low!r}..{high!r} must be two integers with low <= high"
            )
        if high - low > 10_000:
            raise SpecError(f"primitive set '{self.name}': integer range {low}..{high} has over 10,000 terminals; "
                            "use add_ephemeral(..., integer=True) for a wide range")
        for v in range(low, high + 1):
            self.add_constant(float(v), str(v))
        return self

    def add_ephemeral(self, name: str, low: float, high: float, integer: bool = False) -> "PrimitiveSet":
        """Add an ephemeral random constant: each new leaf draws its value uniformly from [low, high]
        (integers low..high when ``integer``); constant mutation may rescale it later."""
        lo = _finite(low, f"primitive set '{self.name}': ephemeral '{name}' low")
        hi = _finite(high, f"primitive set '{self.name}': ephemeral '{name}' high")
        if lo > hi:
            raise SpecError(f"primitive set '{self.name}': ephemeral '{name}' has low={lo} > high={hi}")
        if integer and (not float(lo).is_integer() or not float(hi).is_integer()):
            raise SpecError(f"primitive set '{self.name}': integer ephemeral '{name}' needs integer bounds")
        self._add_terminal(Terminal("ephemeral", name, low=lo, high=hi, integer=bool(integer)))
        return self

    def add_feature(self, name: str, index: int | None = None) -> "PrimitiveSet":
        """Add a terminal reading ``features[index]`` (default: the next index, growing ``n_features``)."""
        if not isinstance(name, str) or not name.isidentifier():
            raise SpecError(f"primitive set '{self.name}': feature name {name!r} must be an identifier")
        if index is None:
            index = self._index()["features"]
            self.n_features = max(self.n_features, index + 1)
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise SpecError(f"primitive set '{self.name}': feature '{name}' index {index!r} must be an integer >= 0")
        if index >= self.n_features:
            raise SpecError(
                f"primitive set '{self.name}': feature '{name}' reads index {index} but rows have "
                f"n_features={self.n_features} numbers (indices 0..{self.n_features - 1})"
            )
        self._add_terminal(Terminal("feature", name, index=index))
        return self

    def add_features(self, *names: str) -> "PrimitiveSet":
        for n in names:
            self.add_feature(n)
        return self

    def add_random(self, name: str = "random") -> "PrimitiveSet":
        """Add the ``random`` terminal: a fresh uniform number in [0, 1) at every evaluation."""
        self._add_terminal(Terminal("random", name))
        return self

    def _add_terminal(self, t: Terminal) -> None:
        if t.name in ("random",) and t.kind != "random" or t.name in self.functions:
            raise SpecError(f"primitive set '{self.name}': terminal name '{t.name}' is reserved")
        if t.name in self._index()["names"]:
            raise SpecError(f"primitive set '{self.name}': a terminal named '{t.name}' is already in the set")
        self.terminals.append(t)
        self._indexed(t)

    # -- using ------------------------------------------------------------------------------------------------

    def validate(self) -> "PrimitiveSet":
        """Check the set can build programs (at least one terminal); returns self."""
        if not self.terminals:
            raise SpecError(
                f"primitive set '{self.name}' has no terminals; add some with add_integers, add_constant, "
                "add_ephemeral, add_feature or add_random"
            )
        return self

    @property
    def function_opcodes(self) -> list[int]:
        return [FUNCTIONS[n] for n in self.functions]

    def terminal_node(self, index: int, rng: np.random.Generator) -> tuple[int, int, float]:
        """(opcode, arg, constant) of a new leaf for terminal entry ``index`` (ephemerals draw a value)."""
        t = self.terminals[index]
        if t.kind == "const":
            return CONST, FIXED, t.value
        if t.kind == "feature":
            return FEATURE, t.index, 0.0
        if t.kind == "random":
            return RANDOM, 0, 0.0
        if t.integer:
            return CONST, EPHEMERAL, float(rng.integers(int(t.low), int(t.high) + 1))
        return CONST, EPHEMERAL, float(rng.uniform(t.low, t.high))

    def feature_name(self, index: int) -> str:
        return self._index()["by_index"].get(index, f"f{index}")

    def feature_index(self, name: str) -> int | None:
        return self._index()["by_name"].get(name)

    def to_dict(self) -> dict:
        return {"name": self.name, "n_features": self.n_features, "functions": list(self.functions),
                "terminals": [t.to_dict() for t in self.terminals]}

    @classmethod
    def from_dict(cls, d: dict) -> "PrimitiveSet":
        """Rebuild (and re-validate) a set written by ``to_dict``."""
        try:
            pset = cls(str(d["name"]), int(d["n_features"]))
            for f in d["functions"]:
                pset.add_function(f)
            for t in d["terminals"]:
                kind = t["kind"]
                if kind == "const":
                    pset.add_constant(t["value"], t["name"])
                elif kind == "feature":
                    pset.add_feature(t["name"], int(t["index"]))
                elif kind == "ephemeral":
                    pset.add_ephemeral(t["name"], t["low"], t["high"], bool(t["integer"]))
                elif kind == "random":
                    pset.add_random(t["name"])
                else:
                    raise SpecError(f"unknown terminal kind {kind!r}; known: const, feature, ephemeral, random")
        except (KeyError, TypeError) as err:
            raise SpecError(f"malformed primitive set: missing or wrong field {err}") from None
        return pset.validate()


def _finite(x, what: str) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise SpecError(f"{what} {x!r} is not a number") from None
    if not math.isfinite(v):
        raise SpecError(f"{what} {x!r} must be finite")
    return v


def _format_number(v: float) -> str:
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    return f"{v:.6g}"


def kalah_primitive_set() -> PrimitiveSet:
    """The Mancala GP's set (seed 003): IF_<_DO_ELSE, ADDITION, SUBTRACTION, VALUE_AT over the 14-number board seen
    from the mover (pits 0..5, store 6, opponent's pits 7..12, store 13) and the integer terminals 0..13. Its name
    inside program files stays "seed003", which earlier runs recorded."""
    return PrimitiveSet("seed003", n_features=14).add_functions("if_lt", "add", "sub", "value_at").add_integers(0, 13)


#: the set's earlier name, still importable
seed003_primitive_set = kalah_primitive_set
