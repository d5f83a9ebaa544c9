"""Expression trees of the target-number game for its genetic player: value, reduction and normalisation, the
legal form, and the variation operators (crossover, mutation, the semantic graft).

A tree is an int (a leaf: the position of a drawn number) or a tuple ``(op, left, right)``; its value uses the
seed's lenient rules (see ``lenient``). ``evoplay.games.target.cpu_player`` evolves populations of them.
"""
from __future__ import annotations

import numpy as np

from evoplay.games.target.game import ADD, DIV, MUL, SUB, evaluate

OPS = (ADD, SUB, MUL, DIV)


def lenient(op: int, a: int, b: int) -> int:
    """The seed's arithmetic (``TngOps``): an invalid division returns its left operand."""
    if op == ADD:
        return a + b
    if op == SUB:
        return a - b
    if op == MUL:
        return a * b
    return a if b == 0 or a % b else a // b


def tree_value(tree, numbers) -> int:
    """``TngCalculateValue``: the tree's value under the lenient arithmetic."""
    if type(tree) is int:
        return numbers[tree]
    return lenient(tree[0], tree_value(tree[1], numbers), tree_value(tree[2], numbers))


def _chain(tree, op, values, out):
    """Operands of the maximal chain of ``op`` rooted at ``tree`` (already tidy), with their values."""
    if type(tree) is not int and tree[0] == op:
        _chain(tree[1], op, values, out)
        _chain(tree[2], op, values, out)
    else:
        out.append(tree)


def tidy(tree, numbers, deep: bool = False):
    """Reduce and normalise ``tree`` bottom-up; return (tree, value). The value is unchanged.

    With ``deep`` the reduction is the article's in full: an operation whose value equals that of any of its
    sub-expressions (not only a neutral operand: ``(a + b) - b``, ``(a * b) / b``) is replaced by that
    sub-expression (searched breadth-first, right operand first)."""
    if type(tree) is int:
        return tree, numbers[tree]
    op = tree[0]
    left, a = tidy(tree[1], numbers, deep)
    right, b = tidy(tree[2], numbers, deep)
    if deep:
        same = _subexpression_with((right, left), lenient(op, a, b), numbers)
        if same is not None:
            return same, lenient(op, a, b)
    if op == DIV:
        if b == 0 or a % b or b == 1:
            return left, a
        return (DIV, left, right), a // b
    if op == SUB:
        if b == 0:
            return left, a
        return (SUB, left, right), a - b
    if op == MUL:
        if b == 1:
            return left, a
        if a == 1:
            return right, b
        value = a * b
    else:
        if b == 0:
            return left, a
        if a == 0:
            return right, b
        value = a + b
    operands: list = []
    _chain(left, op, None, operands)
    _chain(right, op, None, operands)
    # operands of one chain use disjoint numbers, so (value, numbers used) orders them totally
    keyed = sorted((tree_value(t, numbers), _leaf_mask(t), t) for t in operands)
    neutral = 0 if op == ADD else 1
    out, partial = keyed[0][2], keyed[0][0]
    for v, _, t in keyed[1:]:
        # Sorting can bring a neutral partial result together (with lenient negatives, -7 + 7): the reduction
        # drops it, as it would on the next pass, so a tidy tree stays as it is when tidied again.
        if partial == neutral:
            out, partial = t, v
        else:
            out, partial = (op, out, t), lenient(op, partial, v)
    return out, value


def _subexpression_with(roots, value, numbers):
    """The first subtree, breadth-first from ``roots``, whose value is ``value``; None when there is none."""
    level = list(roots)
    while level:
        nxt = []
        for t in level:
            if tree_value(t, numbers) == value:
                return t
            if type(t) is not int:
                nxt.append(t[2])
                nxt.append(t[1])
        level = nxt
    return None


def value_tree(tree, numbers):
    """The tree with each leaf's index replaced by its number: two chromosomes are the same expression when
    these are equal (a draw with two 5s gives 5 + 7 whichever 5 it uses)."""
    if type(tree) is int:
        return -numbers[tree]  # leaves negative, so a leaf never equals an operation code
    return (tree[0], value_tree(tree[1], numbers), value_tree(tree[2], numbers))


def leaf_indices(tree, out=None) -> list[int]:
    if out is None:
        out = []
    if type(tree) is int:
        out.append(tree)
    else:
        leaf_indices(tree[1], out)
        leaf_indices(tree[2], out)
    return out


def legal_expression(tree, numbers):
    """An expression over the drawn values with the tree's value under the real rules, or None when the value
    is not positive. Negative intermediates of the lenient arithmetic are rewritten by sign (``a - b`` with
    ``a < b`` inside a negated context becomes ``b - a``), zero subtrees of a sum are dropped, invalid divisions
    are left out as the lenient arithmetic does."""
    sign, expr = _signed(tree, numbers)
    return expr if sign > 0 else None


def _signed(tree, numbers):
    if type(tree) is int:
        v = numbers[tree]
        return (1, v) if v > 0 else (0, None)
    op = tree[0]
    sa, ea = _signed(tree[1], numbers)
    sb, eb = _signed(tree[2], numbers)
    if op in (ADD, SUB):
        if op == SUB:
            sb = -sb
        if sa == 0:
            return sb, eb
        if sb == 0:
            return sa, ea
        if sa == sb:
            return sa, (ADD, ea, eb)
        va, vb = evaluate(ea), evaluate(eb)
        if va == vb:
            return 0, None
        return (sa, (SUB, ea, eb)) if va > vb else (sb, (SUB, eb, ea))
    if op == MUL:
        if sa == 0 or sb == 0:
            return 0, None
        return sa * sb, (MUL, ea, eb)
    if sb == 0:
        return sa, ea
    if sa == 0:
        return 0, None
    va, vb = evaluate(ea), evaluate(eb)
    if va % vb:
        return sa, ea
    return sa * sb, (DIV, ea, eb)


def _subtrees(tree, path=(), out=None):
    """(path, subtree, leaf count) of every node, pre-order; a path is a tuple of 1 (left) / 2 (right)."""
    if out is None:
        out = []
    _collect(tree, path, out)
    return out


def _collect(tree, path, out) -> int:
    if type(tree) is int:
        out.append((path, tree, 1))
        return 1
    here = len(out)
    out.append(None)
    size = _collect(tree[1], path + (1,), out) + _collect(tree[2], path + (2,), out)
    out[here] = (path, tree, size)
    return size


def _replace_at(tree, path, new):
    if not path:
        return new
    op, left, right = tree
    if path[0] == 1:
        return (op, _replace_at(left, path[1:], new), right)
    return (op, left, _replace_at(right, path[1:], new))


def _get_at(tree, path):
    for step in path:
        tree = tree[step]
    return tree


def random_tree(rng: np.random.Generator, n: int, all_numbers: bool = False):
    """A random expression over a random non-empty subset of the n numbers (or over all of them)."""
    k = n if all_numbers else int(rng.integers(1, n + 1))
    leaves = [int(i) for i in rng.permutation(n)[:k]]
    return _build(rng, leaves)


def _build(rng, leaves):
    if len(leaves) == 1:
        return leaves[0]
    split = int(rng.integers(1, len(leaves)))
    return (OPS[int(rng.integers(4))], _build(rng, leaves[:split]), _build(rng, leaves[split:]))


def crossover(rng: np.random.Generator, mother, father, n: int, ms=None, fs=None):
    """``TngCrossover``: a copy of ``mother`` with a random subtree replaced by a random subtree of ``father``,
    chosen so the result has at most n numbers; numbers then used twice are replaced by unused ones.
    ``ms``/``fs`` are the parents' ``_subtrees`` when already known."""
    ms = ms or _subtrees(mother)
    fs = fs or _subtrees(father)
    total = ms[0][2]
    path, _, cut = ms[int(rng.integers(len(ms)))]
    room = n - (total - cut)
    fitting = [s for s in fs if s[2] <= room]
    graft = fitting[int(rng.integers(len(fitting)))][1]
    child = _replace_at(mother, path, graft)
    return _repair_graft(child, path, n)


def _repair_graft(tree, path, n):
    """Repair duplicates inside the grafted subtree at ``path`` (the rest of the tree keeps its numbers)."""
    graft = _get_at(tree, path)
    outside = leaf_indices(_replace_at(tree, path, -1))
    used = set(i for i in outside if i >= 0)
    inside = leaf_indices(graft)
    if not used.intersection(inside) and len(set(inside)) == len(inside):
        return tree
    unused = [i for i in range(n) if i not in used and i not in inside]
    taken = set(used)

    def fix(t):
        if type(t) is int:
            if t in taken:
                return unused.pop()
            taken.add(t)
            return t
        return (t[0], fix(t[1]), fix(t[2]))

    return _replace_at(tree, path, fix(graft))


def mutate(rng: np.random.Generator, tree, n: int, nodes=None):
    """``TngMutation``: with equal chances, swap two random disjoint subtrees, or change one operation or number."""
    nodes = nodes or _subtrees(tree)
    if rng.random() < 0.5 and len(nodes) >= 3:
        pairs_tried = 0
        while pairs_tried < 8:
            pairs_tried += 1
            i, j = (int(x) for x in rng.choice(len(nodes), size=2, replace=False))
            pi, pj = nodes[i][0], nodes[j][0]
            if pi[: len(pj)] == pj or pj[: len(pi)] == pi:
                continue
            ti, tj = nodes[i][1], nodes[j][1]
            return _replace_at(_replace_at(tree, pi, tj), pj, ti)
    path, node, _ = nodes[int(rng.integers(len(nodes)))]
    if type(node) is int:
        used = set(leaf_indices(tree))
        unused = [i for i in range(n) if i not in used]
        if not unused:
            return tree
        return _replace_at(tree, path, unused[int(rng.integers(len(unused)))])
    ops = [o for o in OPS if o != node[0]]
    return _replace_at(tree, path, (ops[int(rng.integers(3))], node[1], node[2]))


def neighbours(tree, n: int):
    """Every tree one operation or one number change away (the local search of the improved configuration)."""
    out = []
    used = set(leaf_indices(tree))
    unused = [i for i in range(n) if i not in used]
    for path, node, _ in _subtrees(tree):
        if type(node) is int:
            for u in unused:
                out.append(_replace_at(tree, path, u))
                for op in OPS:
                    out.append(_replace_at(tree, path, (op, node, u)))
        else:
            for op in OPS:
                if op != node[0]:
                    out.append(_replace_at(tree, path, (op, node[1], node[2])))
    return out


def _parts(tree, numbers, out) -> tuple[int, int]:
    """Append (value, leaf mask, subtree) of every subtree of ``tree``; return the root's (value, mask)."""
    if type(tree) is int:
        out.append((numbers[tree], 1 << tree, tree))
        return numbers[tree], 1 << tree
    a, ma = _parts(tree[1], numbers, out)
    b, mb = _parts(tree[2], numbers, out)
    v = lenient(tree[0], a, b)
    out.append((v, ma | mb, tree))
    return v, ma | mb


def _leaf_mask(tree) -> int:
    if type(tree) is int:
        return 1 << tree
    return _leaf_mask(tree[1]) | _leaf_mask(tree[2])


def desired_value(tree, path, numbers, target) -> int | None:
    """The value the node at ``path`` should have for the tree to hit ``target`` (semantic backpropagation:
    invert each operation on the way down; inexact inversions round), or None where no value would do."""
    desired = target
    t = tree
    for step in path:
        op, left, right = t
        if step == 1:
            other = tree_value(right, numbers)
            if op == ADD:
                desired -= other
            elif op == SUB:
                desired += other
            elif op == MUL:
                if other == 0:
                    return None
                desired = round(desired / other)
            else:
                desired *= other
        else:
            other = tree_value(left, numbers)
            if op == ADD:
                desired -= other
            elif op == SUB:
                desired = other - desired
            elif op == MUL:
                if other == 0:
                    return None
                desired = round(desired / other)
            else:
                if desired == 0:
                    return None
                desired = round(other / desired)
        t = t[step]
    return desired


def semantic_mutation(rng: np.random.Generator, tree, numbers, target, libraries, choices: int = 1):
    """Random desired operator (Pawlak, Wieloch & Krawiec, IEEE TEVC 2015): pick a node, compute the value it
    should have for the tree to hit the target (``desired_value``), and graft in its place a library subtree
    near that value whose numbers are not used elsewhere in the tree: the nearest, or with ``choices`` > 1 one of
    the ``choices`` nearest at random (fresh material when the nearest keeps landing off by one).
    ``libraries`` is a list of (entries, values) pairs, each sorted by value: entries are (value, mask, subtree)."""
    nodes = _subtrees(tree)
    path, node, _ = nodes[int(rng.integers(len(nodes)))]
    return graft_nearest(tree, path, node, numbers, target, libraries, rng, choices)


def _nearest(entries, values, desired, taken, k):
    """(distance, subtree) of the k entries nearest ``desired`` whose numbers avoid ``taken``."""
    import bisect

    i = bisect.bisect_left(values, desired)
    lo, hi = i - 1, i
    m = len(entries)
    out = []
    while (lo >= 0 or hi < m) and len(out) < k:
        if hi < m and (lo < 0 or values[hi] - desired <= desired - values[lo]):
            v, mask, sub = entries[hi]
            hi += 1
        else:
            v, mask, sub = entries[lo]
            lo -= 1
        if not mask & taken:
            out.append((abs(v - desired), sub))
    return out


def graft_nearest(tree, path, node, numbers, target, libraries, rng=None, choices: int = 1):
    """Replace the node at ``path`` by a library subtree near its desired value (numbers permitting)."""
    desired = desired_value(tree, path, numbers, target)
    if desired is None:
        return tree
    taken = _leaf_mask(tree) & ~_leaf_mask(node)
    found = []
    for entries, values in libraries:
        found.extend(_nearest(entries, values, desired, taken, choices))
    if not found:
        return tree
    found.sort(key=lambda f: f[0])
    if choices > 1 and rng is not None and found[0][0] > 0:
        pick = found[int(rng.integers(min(choices, len(found))))]
    else:
        pick = found[0]
    return _replace_at(tree, path, pick[1])


def small_library(numbers, size: int):
    """A static library (as in Pawlak et al.'s RDO): every tidy expression over at most ``size`` (1..3) of the
    numbers, one per (value, numbers used), sorted by value."""
    n = len(numbers)
    by_mask: dict[int, dict[int, object]] = {1 << i: {numbers[i]: i} for i in range(n)}
    masks = sorted(range(1, 1 << n), key=lambda m: bin(m).count("1"))
    for mask in masks:
        k = bin(mask).count("1")
        if k < 2 or k > size:
            continue
        out: dict[int, object] = {}
        sub = (mask - 1) & mask
        while sub:
            for a, ta in by_mask[sub].items():
                for b, tb in by_mask[mask ^ sub].items():
                    for op in OPS:
                        if op == ADD and a > b or op == MUL and a > b:
                            continue  # commutative: one order is enough
                        if op == DIV and (b in (0, 1) or a % b):
                            continue
                        v = lenient(op, a, b)
                        if v not in out and v > 0:
                            out[v] = (op, ta, tb)
            sub = (sub - 1) & mask
        by_mask[mask] = out
    # grafts are tidied with the tree they join, so the entries stay raw
    entries = sorted(((v, m, t) for m, d in by_mask.items() for v, t in d.items()), key=lambda e: (e[0], e[1]))
    return entries, [e[0] for e in entries]


