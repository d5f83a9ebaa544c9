"""A GP program as flat prefix arrays (opcode, argument, constant), and packing many programs into one pool.

In prefix order a subtree is a contiguous slice: node ``i`` and its descendants are ``[i, subtree_end(i))``.
Crossover and mutation are therefore slice splices, and the interpreter evaluates ``[start, end)`` of a packed
pool with a value stack, scanning from the end.
"""
from __future__ import annotations

import sys

import numpy as np

from evoplay.errors import SpecError
from evoplay.gp.primitives import ARITY, CONST, EPHEMERAL, FEATURE, OPERATION_NAMES, RANDOM

#: the format of a program's JSON document (a run's best.json): ``gp(FILE)`` reads it
PROGRAM_FORMAT = "evoplay-gp-program/1"

OPCODE_DTYPE = np.int32
ARG_DTYPE = np.int32
CONST_DTYPE = np.float64


class Program:
    """One program: ``opcodes``, ``args`` (int32) and ``consts`` (float64), all of length ``size``."""

    __slots__ = ("opcodes", "args", "consts")

    def __init__(self, opcodes, args, consts, check: bool = True):
        self.opcodes = np.ascontiguousarray(opcodes, dtype=OPCODE_DTYPE)
        self.args = np.ascontiguousarray(args, dtype=ARG_DTYPE)
        self.consts = np.ascontiguousarray(consts, dtype=CONST_DTYPE)
        if check:
            self.check()

    # -- structure --------------------------------------------------------------------------------------------

    def check(self) -> "Program":
        """Raise SpecError unless the arrays are one well-formed prefix tree."""
        n = len(self.opcodes)
        if n == 0 or len(self.args) != n or len(self.consts) != n:
            raise SpecError(f"a program needs equal, non-empty opcode/arg/const arrays, got "
                            f"{len(self.opcodes)}/{len(self.args)}/{len(self.consts)}")
        if self.opcodes.min() < 0 or self.opcodes.max() >= len(ARITY):
            raise SpecError(f"program has an unknown opcode; known: 0..{len(ARITY) - 1}")
        need = 1
        for i in range(n):
            if need == 0:
                raise SpecError(f"program has {n - i} node(s) after its tree ends at node {i}")
            need += int(ARITY[self.opcodes[i]]) - 1
        if need != 0:
            raise SpecError(f"program ends with {need} child(ren) missing")
        return self

    @property
    def size(self) -> int:
        return len(self.opcodes)

    def __len__(self) -> int:
        return len(self.opcodes)

    def subtree_end(self, i: int) -> int:
        """One past the last node of the subtree rooted at ``i``."""
        return subtree_end(self.opcodes, i)

    def depth(self) -> int:
        """Depth of the tree: a lone terminal has depth 0 (Koza's convention, as DEAP)."""
        return int(depths(self.opcodes).max())

    def node_depths(self) -> np.ndarray:
        return depths(self.opcodes)

    def subtree(self, i: int) -> "Program":
        j = self.subtree_end(i)
        return Program(self.opcodes[i:j], self.args[i:j], self.consts[i:j], check=False)

    def replace(self, i: int, sub: "Program") -> "Program":
        """A new program with the subtree at ``i`` replaced by ``sub``."""
        j = self.subtree_end(i)
        return Program(
            np.concatenate([self.opcodes[:i], sub.opcodes, self.opcodes[j:]]),
            np.concatenate([self.args[:i], sub.args, self.args[j:]]),
            np.concatenate([self.consts[:i], sub.consts, self.consts[j:]]),
            check=False,
        )

    def copy(self) -> "Program":
        return Program(self.opcodes.copy(), self.args.copy(), self.consts.copy(), check=False)

    def uses(self, opcode: int) -> bool:
        return bool((self.opcodes == opcode).any())

    def mutable_constants(self) -> np.ndarray:
        """Indices of the ephemeral constants (the ones constant mutation may rescale)."""
        return np.flatnonzero((self.opcodes == CONST) & (self.args == EPHEMERAL))

    # -- identity and storage ---------------------------------------------------------------------------------

    def key(self) -> bytes:
        """Bytes that are equal exactly when two programs are the same tree (for caches and deduplication)."""
        return self.opcodes.tobytes() + self.args.tobytes() + self.consts.tobytes()

    def __eq__(self, other) -> bool:
        return isinstance(other, Program) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def to_dict(self) -> dict:
        return {"opcodes": self.opcodes.tolist(), "args": self.args.tolist(), "consts": self.consts.tolist()}

    @classmethod
    def from_dict(cls, d: dict) -> "Program":
        try:
            return cls(d["opcodes"], d["args"], d["consts"])
        except (KeyError, TypeError, ValueError) as err:
            raise SpecError(f"malformed program: {err}; expected opcodes, args and consts lists") from None

    def __repr__(self) -> str:
        ops = " ".join(_num(c) if o == CONST else OPERATION_NAMES.get(int(o), "?")
                       for o, c in zip(self.opcodes[:12], self.consts[:12]))
        more = " ..." if self.size > 12 else ""
        return f"<Program size={self.size}: {ops}{more}>"

    def __getstate__(self):
        return (self.opcodes, self.args, self.consts)

    def __setstate__(self, state):
        self.opcodes, self.args, self.consts = state


def _num(c: float) -> str:
    return str(int(c)) if float(c).is_integer() else f"{c:.4g}"


def subtree_end(opcodes: np.ndarray, i: int) -> int:
    need = 1
    j = i
    while need > 0:
        need += int(ARITY[opcodes[j]]) - 1
        j += 1
    return j


def depths(opcodes: np.ndarray) -> np.ndarray:
    """Depth of every node (the root is 0)."""
    out = np.zeros(len(opcodes), dtype=np.int64)
    stack: list[list[int]] = []  # [depth of the parent, children still to come]
    for i, op in enumerate(opcodes):
        if stack:
            d = stack[-1][0] + 1
            stack[-1][1] -= 1
            if stack[-1][1] == 0:
                stack.pop()
        else:
            d = 0
        out[i] = d
        a = int(ARITY[op])
        if a:
            stack.append([d, a])
    return out


def leaf(opcode: int, arg: int = 0, const: float = 0.0) -> Program:
    return Program([opcode], [arg], [const], check=False)


def feature_program(index: int) -> Program:
    return leaf(FEATURE, index)


def pack(programs) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Concatenate programs into one pool: (opcodes, args, consts, starts, ends); program k is
    ``[starts[k], ends[k])`` of the pool. This is what batched kernels take."""
    programs = list(programs)
    sizes = np.array([p.size for p in programs], dtype=np.int64)
    ends = np.cumsum(sizes)
    starts = ends - sizes
    if programs:
        ops = np.concatenate([p.opcodes for p in programs])
        args = np.concatenate([p.args for p in programs])
        consts = np.concatenate([p.consts for p in programs])
    else:
        ops = np.zeros(0, OPCODE_DTYPE)
        args = np.zeros(0, ARG_DTYPE)
        consts = np.zeros(0, CONST_DTYPE)
    return ops, args, consts, starts, ends


def unpack(opcodes, args, consts, starts, ends) -> list[Program]:
    return [Program(opcodes[s:e], args[s:e], consts[s:e], check=False) for s, e in zip(starts, ends)]


def to_tree(program: Program):
    """The program as nested tuples ``(opcode, arg, const, children)`` (for printing and rewriting)."""
    ops, args, consts = program.opcodes, program.args, program.consts

    def node(i: int):
        kids = []
        j = i + 1
        for _ in range(int(ARITY[ops[i]])):
            kid, j = node(j)
            kids.append(kid)
        return (int(ops[i]), int(args[i]), float(consts[i]), tuple(kids)), j

    return node(0)[0]


def deep_enough(size: int) -> None:
    """Let Python recurse through a tree of ``size`` nodes (the tree walkers are recursive)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * size + 1000))


def render(program: Program, const, feature, random_text: str, call) -> str:
    """A program as text (source code, notation), from the leaves up: a constant is ``const(c)``, a feature
    ``feature(index)``, the random terminal ``random_text``, a function ``call(opcode, children's texts)``."""
    deep_enough(program.size)

    def text(node) -> str:
        op, arg, c, kids = node
        if op == CONST:
            return const(c)
        if op == FEATURE:
            return feature(arg)
        if op == RANDOM:
            return random_text
        return call(op, [text(k) for k in kids])

    return text(to_tree(program))


def from_tree(tree) -> Program:
    """The inverse of ``to_tree``."""
    ops: list[int] = []
    args: list[int] = []
    consts: list[float] = []
    stack = [tree]
    while stack:
        op, arg, c, kids = stack.pop()
        ops.append(op)
        args.append(arg)
        consts.append(c)
        stack.extend(reversed(kids))
    return Program(ops, args, consts)
