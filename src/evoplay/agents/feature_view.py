"""What a feature player reads: the game's own features, the free features every game gets, and their scales.

A GP program or a weight vector reads one row of numbers per position, from one player's side:

- the game's own features, ``state.features(player)`` (the numbers ``game.feature_names()`` names);
- with ``free=True``, six numbers any game gives through its API, so that a player can tell its seat and a
  position's tempo even where the game's own features do not say (OpenSpiel's observation tensors are often the
  same for both players):

  ================  =========================================================================================
  ``seat``          the player's seat (0, 1, ...)
  ``my_turn``       1 when the player is to move (or moves at a simultaneous node), else 0
  ``my_moves``      the number of legal actions when the player is to move, else 0
  ``their_moves``   the number of legal actions when another player is to move, else 0
  ``my_score``      ``state.scores()[player]``
  ``their_score``   the best score among the other players
  ================  =========================================================================================

- with ``pairs=True``, on a game whose features are the planes of a board (``Game.board_planes()``: OpenSpiel's
  board games), the counts of neighbouring cell pairs: ``pair[a,b,D]`` is how many cells hold plane ``a`` while
  the next cell in direction ``D`` (E, S, SE, SW) holds plane ``b``, or the other way round (``a <= b``). A
  weighted sum of single cells cannot see that two pieces stand together, that a piece is guarded or that one
  side can capture (in clobber a move is a neighbouring pair of the mover's and the other's pieces); the pair
  counts can. Up to four planes: 40 numbers at most.
- with ``lines=L`` (2..5), on such a board, the counts of the patterns of every straight line of ``L`` cells
  (an n-tuple network's patterns, shared over the board): each cell reads as the plane it holds (or "none"
  where the board's planes can leave a cell empty), a line as the sequence of its cells, and ``line[D,p]`` is how
  many lines in direction ``D`` (E, S, SE, SW) read the pattern ``p`` either way along (``p`` one digit a cell;
  a line and its reverse count as one pattern). Four cells in a row of connect four, a bridge of hex, a capture
  in breakthrough: the patterns a weighted sum of single cells cannot see, and the positional cells alongside.
  Lines of 2 are the pair counts refined (which plane at which end); the counts replace ``pairs``.
- each number times a scale (``scales``), measured once per run as 1 / the standard deviation of the number over
  positions of seeded random games (:func:`measure_scales`; a number that never changed gets 0 and so is ignored).
  Scaled features make a program's constants in [-1, 1] and a genome's weights in [-1, 1) speak the same units
  for every feature.

The view is recorded in a player's ``best.json`` (``free_features``, ``feature_scales``), so a champion reads
exactly what it was evolved on; documents without those keys read the game's features unscaled, as before.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evoplay.errors import GameError, SpecError
from evoplay.games.base import SIMULTANEOUS
from evoplay.games.tools.guard import in_game
from evoplay.games.playout import playout
from evoplay.search.leaf_kernel import line_patterns

FREE_FEATURES = ("seat", "my_turn", "my_moves", "their_moves", "my_score", "their_score")
PAIR_DIRECTIONS = ("E", "S", "SE", "SW")
#: the most planes a board may have for pair features (10 plane pairs in each of the 4 directions)
MAX_PAIR_PLANES = 4


def pair_names(planes: int) -> list[str]:
    """The names of the pair counts of a board of ``planes`` planes, in the order ``pair_counts`` gives them."""
    return [f"pair[{a},{b},{d}]" for d in PAIR_DIRECTIONS for a in range(planes) for b in range(a, planes)]


def pair_counts(features, planes: int, rows: int, columns: int) -> list[float]:
    """The neighbouring-pair counts of one board: for each direction (E, S, SE, SW) and planes ``a <= b``, how many
    cells hold plane ``a`` while the next cell that way holds plane ``b``, or the other way round. ``features`` is
    the board flattened plane by plane (``Game.board_planes``). The readable reference of ``FeatureView``'s batched
    count; exported players carry this very function's source, so it uses nothing but Python."""
    def cell(k, r, c):
        return features[(k * rows + r) * columns + c]

    out = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):  # E, S, SE, SW
        for a in range(planes):
            for b in range(a, planes):
                total = 0.0
                for r in range(rows):
                    for c in range(columns):
                        r2, c2 = r + dr, c + dc
                        if 0 <= r2 < rows and 0 <= c2 < columns:
                            total += cell(a, r, c) * cell(b, r2, c2)
                            if a != b:
                                total += cell(b, r, c) * cell(a, r2, c2)
                out.append(total)
    return out


_SHIFTS = (  # (this cell, its neighbour) as slices of (rows, columns), per direction: E, S, SE, SW
    ((slice(None), slice(None, -1)), (slice(None), slice(1, None))),
    ((slice(None, -1), slice(None)), (slice(1, None), slice(None))),
    ((slice(None, -1), slice(None, -1)), (slice(1, None), slice(1, None))),
    ((slice(None, -1), slice(1, None)), (slice(1, None), slice(None, -1))),
)


def pair_counts_batch(boards: np.ndarray) -> np.ndarray:
    """``pair_counts`` of many boards at once: ``boards`` shaped (n, planes, rows, columns), the counts (n, k)."""
    n, planes = boards.shape[:2]
    upper = np.triu_indices(planes)
    out = []
    for here, there in _SHIFTS:
        a = boards[:, :, here[0], here[1]].reshape(n, planes, -1)
        b = boards[:, :, there[0], there[1]].reshape(n, planes, -1)
        m = a @ b.transpose(0, 2, 1)  # m[i, p, q]: cells with plane p whose neighbour has plane q
        both = m + m.transpose(0, 2, 1)
        diagonal = np.arange(planes)
        both[:, diagonal, diagonal] = m[:, diagonal, diagonal]
        out.append(both[:, upper[0], upper[1]])
    return np.concatenate(out, axis=1)


def pair_board(game) -> tuple[int, int, int] | None:
    """The board of ``game`` pair features count over (``Game.board_planes``), or None when it has none they can
    use (not a board of planes, more than ``MAX_PAIR_PLANES`` planes, or a shape that does not match its
    features)."""
    hook = getattr(game, "board_planes", None)
    shape = hook() if hook is not None else None
    if shape is None or len(shape) != 3 or not 1 <= shape[0] <= MAX_PAIR_PLANES:
        return None
    if int(np.prod(shape)) != game.num_features():
        return None
    return tuple(int(n) for n in shape)


#: the most cells a line pattern may have, and the most patterns one direction may give
MAX_LINE, MAX_LINE_PATTERNS = 5, 2000


def line_board(game) -> tuple[int, int, int, int] | None:
    """(planes, rows, columns, codes) of the board ``game``'s line patterns read (``pair_board``'s board), where
    ``codes`` is the number of cell readings: the planes, plus one for "no plane" when a cell of the start or
    of a few seeded random positions holds none. None when the game has no such board."""
    board = pair_board(game)
    if board is None:
        return None
    planes, rows, columns = board
    full = True
    for d in decisions(game, 24, 5) or []:
        cells = np.asarray(d.state.features(d.mover), dtype=np.float64).reshape(planes, rows * columns) > 0.5
        if not np.all(cells.sum(axis=0) == 1):
            full = False
            break
    return planes, rows, columns, planes if full else planes + 1


def line_names(codes: int, length: int) -> list[str]:
    """The names of the line pattern counts, in the order ``line_counts`` gives them: ``line[D,p]`` with ``p`` the
    pattern's first reading, one digit a cell (the code ``codes - 1`` is "no plane" on a board that has it)."""
    slots, count = line_patterns(codes, length)
    first = {}
    for index in range(len(slots)):
        first.setdefault(int(slots[index]), index)
    patterns = ["".join(str((first[k] // codes ** i) % codes) for i in range(length)) for k in range(count)]
    return [f"line[{d},{p}]" for d in PAIR_DIRECTIONS for p in patterns]


def line_counts(features, planes: int, rows: int, columns: int, codes: int, length: int) -> list[float]:
    """The line pattern counts of one board (see the module docstring): for each direction (E, S, SE, SW) and
    pattern, how many lines of ``length`` cells read it, either way along. ``features`` is the board flattened
    plane by plane (``Game.board_planes``). The readable reference of the batched and the kernel counts;
    exported players carry this very function's source, so it uses nothing but Python."""
    def reading(r, c):
        for k in range(planes):
            if features[(k * rows + r) * columns + c] > 0.5:
                return k
        return codes - 1

    slot_of, first = {}, []
    for index in range(codes ** length):
        digits = [(index // codes ** i) % codes for i in range(length)]
        reverse = sum(d * codes ** i for i, d in enumerate(reversed(digits)))
        if reverse in slot_of:
            slot_of[index] = slot_of[reverse]
        else:
            slot_of[index] = len(first)
            first.append(index)
    out = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):  # E, S, SE, SW
        counts = [0.0] * len(first)
        for r in range(rows):
            for c in range(columns):
                r2, c2 = r + dr * (length - 1), c + dc * (length - 1)
                if 0 <= r2 < rows and 0 <= c2 < columns:
                    index = 0
                    for i in range(length):
                        index += reading(r + dr * i, c + dc * i) * codes ** i
                    counts[slot_of[index]] += 1.0
        out += counts
    return out


def line_counts_batch(boards: np.ndarray, codes: int, length: int) -> np.ndarray:
    """``line_counts`` of many boards at once: ``boards`` shaped (n, planes, rows, columns), the counts (n, k)."""
    n, planes, rows, columns = boards.shape
    on = boards > 0.5
    reading = np.where(on.any(axis=1), on.argmax(axis=1), codes - 1)  # (n, rows, columns)
    slots, count = line_patterns(codes, length)
    out = np.zeros((n, len(PAIR_DIRECTIONS) * count), np.float64)
    for k, (dr, dc) in enumerate(((0, 1), (1, 0), (1, 1), (1, -1))):
        r0, r1 = 0, rows - dr * (length - 1)
        c0, c1 = (0, columns - dc * (length - 1)) if dc >= 0 else (-dc * (length - 1), columns)
        if r1 <= r0 or c1 <= c0:
            continue
        index = np.zeros((n, r1 - r0, c1 - c0), np.int64)
        for i in range(length):
            index += reading[:, r0 + dr * i:r1 + dr * i, c0 + dc * i:c1 + dc * i] * codes ** i
        s = slots[index.reshape(n, -1)] + k * count
        np.add.at(out, (np.repeat(np.arange(n), s.shape[1]), s.ravel()), 1.0)
    return out


def free_features(state, player: int) -> list[float]:
    """The free features of ``state`` from ``player``'s side (see the module docstring). Exported players carry
    this very function's source, so it names no module constant: -2 is a simultaneous node."""
    mover = state.current_player()
    mine = mover == player or mover == -2
    if mover == -2:
        count = len(state.legal_actions(player))
    elif mover >= 0:
        count = len(state.legal_actions())
    else:  # chance or terminal: nobody chooses
        count = 0
    scores = state.scores()
    others = [s for p, s in enumerate(scores) if p != player]
    return [float(player), 1.0 if mine else 0.0, float(count) if mine else 0.0,
            0.0 if mine or mover < 0 else float(count), float(scores[player]),
            float(max(others)) if others else 0.0]


class FeatureView:
    """The numbers a feature player reads for ``game`` (see the module docstring)."""

    def __init__(self, game, free: bool = False, scales=None, pairs: bool = False, lines: int = 0,
                 codes: int = 0):
        self.game = game
        self.free = bool(free)
        self.own = game.num_features()
        names = list(game.feature_names()) + (list(FREE_FEATURES) if self.free else [])
        self.board = None
        self.lines, self.codes = int(lines), int(codes)
        if self.lines:
            if not 2 <= self.lines <= MAX_LINE:
                raise SpecError(f"lines={self.lines}: give the cells of a line pattern, 2..{MAX_LINE} (0: none)")
            found = line_board(game) if not self.codes else pair_board(game)
            if found is None:
                raise SpecError(f"{game.spec} has no board of at most {MAX_PAIR_PLANES} planes to read line "
                                f"patterns on (Game.board_planes()); turn them off for it")
            self.board = tuple(found[:3])
            self.codes = self.codes or found[3]
            if self.codes ** self.lines > 4 * MAX_LINE_PATTERNS:
                raise SpecError(f"lines={self.lines} on a board of {self.codes} cell readings gives "
                                f"{self.codes ** self.lines} patterns a direction; give shorter lines")
            names += line_names(self.codes, self.lines)
        elif pairs:
            self.board = pair_board(game)
            if self.board is None:
                raise SpecError(f"{game.spec} has no board of at most {MAX_PAIR_PLANES} planes to count pairs on "
                                f"(Game.board_planes()); turn pair_features off for it")
            names += pair_names(self.board[0])
        self._names = names
        if scales is not None:
            scales = np.ascontiguousarray(scales, dtype=np.float64)
            if scales.shape != (len(names),):
                raise SpecError(f"{len(scales)} feature scales for the {len(names)} features of {game.spec}"
                                + (" with the free features" if self.free else ""))
            if not np.all(np.isfinite(scales)):
                raise SpecError("the feature scales must be finite numbers")
        self.scales = scales

    @property
    def pair_count(self) -> int:
        """How many board counts (pairs or line patterns) the view reads after the free features (0: none)."""
        if self.board is None:
            return 0
        if self.lines:
            return len(PAIR_DIRECTIONS) * line_patterns(self.codes, self.lines)[1]
        return len(PAIR_DIRECTIONS) * self.board[0] * (self.board[0] + 1) // 2

    def names(self) -> list[str]:
        return list(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def row(self, state, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """One position's numbers (scaled) into ``out`` (a new array when None)."""
        if out is None:
            out = np.empty(len(self._names), np.float64)
        self.rows([state], player, out.reshape(1, -1))
        return out

    def rows(self, states, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """Every state's row, stacked (float64, one row per state), into ``out`` when given."""
        own = self.own
        rows = np.empty((len(states), len(self._names)), np.float64) if out is None else out
        try:
            for i, s in enumerate(states):
                rows[i, :own] = s.features(player)
        except ValueError:
            got = len(states[i].features(player))
            raise SpecError(f"{self.game.spec}: features({player}) gave {got} numbers but feature_names() names "
                            f"{own}; make them agree") from None
        if self.free:
            for i, s in enumerate(states):
                rows[i, own:own + len(FREE_FEATURES)] = free_features(s, player)
        if self.board is not None:
            boards = rows[:, :own].reshape(len(states), *self.board)
            rows[:, len(self._names) - self.pair_count:] = (
                line_counts_batch(boards, self.codes, self.lines) if self.lines else pair_counts_batch(boards))
        if self.scales is not None:
            rows *= self.scales
        return rows

    def document(self) -> dict:
        """What a best.json records of the view."""
        doc: dict = {"features": self.names()}
        if self.free:
            doc["free_features"] = True
        if self.board is not None and self.lines:
            doc["line_features"] = {"length": self.lines, "codes": self.codes}
        elif self.board is not None:
            doc["pair_features"] = True
        if self.scales is not None:
            doc["feature_scales"] = [float(x) for x in self.scales]
        return doc

    @classmethod
    def from_document(cls, game, doc: dict) -> "FeatureView":
        lines = doc.get("line_features") or {}
        return cls(game, bool(doc.get("free_features", False)), doc.get("feature_scales"),
                   bool(doc.get("pair_features", False)), int(lines.get("length", 0)), int(lines.get("codes", 0)))


@dataclass
class Decision:
    """A position of a random game where ``mover`` chose a move: the ``move``-th of the game of seed ``seed``."""

    state: object
    mover: int
    seed: int
    move: int

    def named(self, err: GameError, spec: str) -> GameError:
        """``err``, raised by a hook on this position, naming the game and the move (``games.tools.guard.in_game``)."""
        return in_game(err, spec, self.seed, self.move)


def decisions(game, count: int, seed: int, max_moves: int = 2000) -> list[Decision]:
    """``count`` positions of seeded uniformly random games (every position a player is to move in, of as many
    games as it takes, each played by ``games.playout``; a game still running at ``max_moves`` stops there), with
    who moves there (at a simultaneous node, a random player); chance nodes are sampled with their
    probabilities."""
    rng = np.random.default_rng(seed)
    out: list = []

    def record(state, mover, move):
        viewer = int(rng.integers(game.num_players)) if mover == SIMULTANEOUS else mover
        out.append(Decision(state.clone(), viewer, game_seed, move))

    games = 0
    while len(out) < count and games < max(8, count):
        games += 1
        game_seed = int(rng.integers(1 << 31))
        playout(game, game_seed, rng, max_moves, record)
    if len(out) > count:
        pick = rng.choice(len(out), size=count, replace=False)
        out = [out[int(i)] for i in sorted(pick)]
    return out


def measure_scales(game, free: bool, seed: int, positions: int = 400, pairs: bool = False,
                   lines: int = 0) -> np.ndarray:
    """1 / the standard deviation of each of the view's numbers over ``positions`` random positions (seen from
    the mover and, for the others, from a random other player), rounded to 4 significant digits so that a
    document shows them plainly; 0 for a number that never changed."""
    view = FeatureView(game, free, pairs=pairs, lines=lines)
    samples = decisions(game, positions, seed)
    if not samples:
        return np.ones(len(view))
    rng = np.random.default_rng(seed + 1)
    rows = np.empty((len(samples), len(view)))
    for i, d in enumerate(samples):
        viewer = d.mover if rng.random() < 0.5 or game.num_players == 1 else int(rng.integers(game.num_players))
        try:
            view.row(d.state, viewer, rows[i])
        except GameError as err:
            raise d.named(err, game.spec) from None
    if not np.all(np.isfinite(rows)):
        bad = int(np.argwhere(~np.isfinite(rows))[0][1])
        raise SpecError(f"{game.spec}: feature {view.names()[bad]!r} is not a finite number at a position of a "
                        f"random game; features must be finite (check-game finds the position)")
    std = rows.std(axis=0)
    scales = np.where(std > 1e-9, 1.0 / np.maximum(std, 1e-9), 0.0)
    return np.array([float(f"{s:.4g}") for s in scales])
