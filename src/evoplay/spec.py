"""Spec strings such as ``kalah(pits=6,seeds=4)`` and the registries of games and agents that parse them."""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any, Callable

from evoplay.errors import SpecError

_MISSING = object()


@dataclass(frozen=True)
class Param:
    """One named parameter of a game or agent: its type, default and a line of help."""

    name: str
    type: type
    default: Any = _MISSING
    help: str = ""
    choices: tuple | None = None
    #: bounds of a number (None: the default bounds of its name, ``LIMITS``, else only the int64 range)
    min: float | None = None
    max: float | None = None
    why: str = ""  # what the explicit bounds protect, for the error
    #: (old name, name) pairs of a choice that was renamed: the old name still works and means the new one
    aliases: tuple = ()
    #: what an empty value means, for a string parameter whose default is empty ("the file's own")
    empty: str = ""

    @property
    def required(self) -> bool:
        return self.default is _MISSING

    def coerce(self, owner: str, raw: Any) -> Any:
        """Turn a raw value (a string from a spec, or a Python value) into this parameter's type."""
        try:
            value = _coerce(self.type, raw)
        except SpecError as err:
            raise SpecError(f"{owner}: parameter {self.name}: {err}") from None
        if value is _MISSING:
            raise SpecError(
                f"{owner}: parameter {self.name}={raw!r} is not {_type_word(self.type)}"
                + (f"; choices: {', '.join(map(str, self.choices))}" if self.choices else "")
            )
        value = dict(self.aliases).get(value, value)
        if self.choices is not None and value not in self.choices:
            raise SpecError(
                f"{owner}: parameter {self.name}={raw!r} is not one of {', '.join(map(str, self.choices))}"
            )
        if self.type in (int, float) and not isinstance(value, bool):
            lo, hi, why = self.bounds()
            if not lo <= value <= hi:
                give = (f"at least {_format_value(lo)}" if hi >= INT64_MAX else
                        f"at most {_format_value(hi)}" if lo <= -INT64_MAX else
                        f"{_format_value(lo)} to {_format_value(hi)}")
                raise SpecError(f"{owner}: parameter {self.name}={raw!r} is out of range; give {give} ({why})")
        return value

    def bounds(self) -> tuple[float, float, str]:
        """(lowest, highest, why): explicit ``min``/``max``, else the limit of the parameter's name."""
        lo, hi, why = LIMITS.get(self.name, (-INT64_MAX, INT64_MAX, "the range of a 64-bit integer"))
        if self.min is not None or self.max is not None:
            why = self.why or "this parameter's range"
        return (self.min if self.min is not None else lo), (self.max if self.max is not None else hi), why

    def describe(self) -> str:
        """One line for listings: the name, what it takes, its default and its help. An empty default reads as
        what it means ("clock: wall or cpu; empty (the default): the file's own, else wall"), and an empty
        choice is not listed as a blank item."""
        choices = [_format_value(c) for c in self.choices or () if c != ""]
        takes = (", ".join(choices[:-1]) + " or " + choices[-1] if len(choices) > 1 else
                 choices[0] if choices else _type_word(self.type))
        if self.default == "":
            text = f"{self.name}: {takes}; empty (the default): {self.empty or 'none'}"
        else:
            default = "required" if self.required else f"default {_format_value(self.default)}"
            text = f"{self.name}: {takes}, {default}"
        return text + (f" - {self.help}" if self.help else "")


INT64_MAX = 2**63 - 1
#: limits by parameter name, checked before any work starts: what the kernels can hold, and what protects the
#: machine (memory grows with depth, iterations and population; a budget is time the user waits)
LIMITS: dict[str, tuple[float, float, str]] = {
    "seed": (0, INT64_MAX, "seeds are non-negative integers below 2^63"),
    "depth": (0, 1000, "search depth: each ply keeps a board, and beyond a few dozen plies no search ends"),
    "iterations": (0, 100_000_000, "iterations per decision: search trees keep a node per iteration"),
    "budget_ms": (0, 3_600_000, "a time budget of at most an hour per decision"),
    "break_ms": (0, 3_600_000, "a time budget of at most an hour per decision"),
    "population": (1, 1_000_000, "population size: every member is kept in memory"),
}
#: integers longer than this are refused before Python parses them (int() refuses > 4300 digits with a traceback)
MAX_DIGITS = 40


def _type_word(t: type) -> str:
    return {int: "an integer", float: "a finite number", bool: "true or false", str: "a string"}.get(t, t.__name__)


def _format_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _coerce(t: type, raw: Any) -> Any:
    if t is bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, int) and raw in (0, 1):
            return bool(raw)
        if isinstance(raw, str) and raw.strip().lower() in ("true", "yes", "1", "on"):
            return True
        if isinstance(raw, str) and raw.strip().lower() in ("false", "no", "0", "off"):
            return False
        return _MISSING
    if t is int:
        if isinstance(raw, bool):
            return _MISSING
        if isinstance(raw, int):
            return raw
        if isinstance(raw, float) and raw.is_integer():
            return int(raw)
        if isinstance(raw, str):
            s = raw.strip()
            # ASCII digits only: int() would also take other scripts' digits.
            body = s[1:] if s[:1] in "+-" else s
            if body.isascii() and body.isdigit():
                if len(body) > MAX_DIGITS:
                    raise SpecError(f"the number {s[:12]}... has {len(body)} digits; numbers here have at most "
                                    f"{MAX_DIGITS}")
                return int(s)
        return _MISSING
    if t is float:
        if isinstance(raw, bool):
            return _MISSING
        if isinstance(raw, (int, float)):
            try:
                value = float(raw)
            except OverflowError:
                return _MISSING
            return value if math.isfinite(value) else _MISSING
        if isinstance(raw, str):
            try:
                if raw.strip().isascii() and len(raw) <= 64:
                    value = float(raw)
                    return value if math.isfinite(value) else _MISSING
            except ValueError:
                return _MISSING
        return _MISSING
    if t is str:
        return raw if isinstance(raw, str) else str(raw)
    return raw


@dataclass(frozen=True)
class ParsedSpec:
    name: str
    args: tuple[str, ...] = ()
    kwargs: dict[str, str] = field(default_factory=dict)


def parse_spec(text: str, what: str = "spec") -> ParsedSpec:
    """Split ``name(a, k=v, ...)`` into its name, positional and keyword parts (values stay strings)."""
    if not isinstance(text, str):
        raise SpecError(f"a {what} must be a string like 'name' or 'name(key=value)', got {text!r}")
    s = text.strip()
    if not s:
        raise SpecError(f"empty {what}; write a name such as 'kalah' or 'alphabeta(depth=4)'")
    if "(" not in s:
        if ")" in s:
            raise SpecError(f"{what} {text!r} has ')' without '('")
        _check_name(s, text, what)
        return ParsedSpec(s)
    name, _, rest = s.partition("(")
    name = name.strip()
    _check_name(name, text, what)
    if not rest.endswith(")"):
        raise SpecError(f"{what} {text!r} must end with ')', as in {name}(key=value)")
    body = rest[:-1]
    args: list[str] = []
    kwargs: dict[str, str] = {}
    for part in _split_top(body):
        part = part.strip()
        if not part:
            if body.strip():
                raise SpecError(f"{what} {text!r} has an empty argument (two commas in a row?)")
            continue
        key, eq, value = part.partition("=")
        if eq and _is_identifier(key.strip()):
            key = key.strip()
            if key in kwargs:
                raise SpecError(f"{what} {text!r} gives {key} twice")
            kwargs[key] = value.strip()
        else:
            if kwargs:
                raise SpecError(f"{what} {text!r}: positional argument {part!r} after keyword arguments")
            args.append(part)
    return ParsedSpec(name, tuple(args), kwargs)


def _split_top(body: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    return parts


def _is_identifier(s: str) -> bool:
    return s.isidentifier() and s.isascii()


def _check_name(name: str, text: str, what: str) -> None:
    if not all(c.isalnum() or c in "_-" for c in name) or not name.isascii():
        raise SpecError(f"{what} {text!r}: {name!r} is not a name (letters, digits, '_' and '-')")


def suggest(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


@dataclass
class Entry:
    name: str
    factory: Callable[..., Any]
    params: tuple[Param, ...]
    help: str


class Registry:
    """Named factories with typed parameters, built from spec strings: the list of games or of agents."""

    def __init__(self, kind: str):
        self.kind = kind
        self._entries: dict[str, Entry] = {}

    def register(self, name: str, factory: Callable[..., Any], params=(), help: str = "") -> None:
        self._entries[name] = Entry(name, factory, tuple(params), help)

    def names(self) -> list[str]:
        return sorted(self._entries)

    def entries(self) -> list[Entry]:
        return [self._entries[n] for n in self.names()]

    def __contains__(self, name: str) -> bool:
        return name in self._entries

    def entry(self, name: str) -> Entry:
        if name not in self._entries:
            raise SpecError(
                f"unknown {self.kind} '{name}'{suggest(name, self._entries)}; known: {', '.join(self.names())}"
            )
        return self._entries[name]

    def resolve(self, spec: str | ParsedSpec) -> tuple[Entry, dict[str, Any]]:
        """Parse and type-check a spec; return the entry and the full keyword arguments (defaults filled)."""
        parsed = spec if isinstance(spec, ParsedSpec) else parse_spec(spec, self.kind)
        entry = self.entry(parsed.name)
        by_name = {p.name: p for p in entry.params}
        values: dict[str, Any] = {}
        if len(parsed.args) > len(entry.params):
            raise SpecError(
                f"{self.kind} '{entry.name}' takes at most {len(entry.params)} arguments, "
                f"got {len(parsed.args)}; its parameters: {_param_list(entry)}"
            )
        for p, raw in zip(entry.params, parsed.args):
            values[p.name] = p.coerce(entry.name, raw)
        for key, raw in parsed.kwargs.items():
            if key not in by_name:
                raise SpecError(
                    f"{self.kind} '{entry.name}' has no parameter '{key}'{suggest(key, by_name)}; "
                    f"its parameters: {_param_list(entry)}"
                )
            if key in values:
                raise SpecError(f"{self.kind} '{entry.name}': parameter '{key}' given twice")
            values[key] = by_name[key].coerce(entry.name, raw)
        for p in entry.params:
            if p.name not in values:
                if p.required:
                    raise SpecError(
                        f"{self.kind} '{entry.name}' needs parameter '{p.name}' ({p.describe()}), "
                        f"e.g. {entry.name}({p.name}=...)"
                    )
                values[p.name] = p.default
        return entry, values


def _param_list(entry: Entry) -> str:
    return ", ".join(p.name for p in entry.params) or "(none)"


def canonical_spec(name: str, values: dict[str, Any], params: tuple[Param, ...]) -> str:
    """The spec string that rebuilds an object: only the parameters that differ from their defaults."""
    parts = []
    for p in params:
        v = values.get(p.name, p.default)
        if p.required or v != p.default:
            parts.append(f"{p.name}={_format_value(v)}")
    return f"{name}({','.join(parts)})" if parts else name


def parse_seat(seat, players: int, label: str = "seat", game: str = "this game") -> int:
    """A person's seat: ``first``, ``second`` or a seat number 0..players-1 (``evoplay play --seat``, the web app).
    ``label`` and ``game`` name the option and the game in the error."""
    if isinstance(seat, bool):
        seat = str(seat)
    if isinstance(seat, int):
        you = seat
    else:
        text = str(seat if seat is not None else "first").strip().lower()
        you = {"first": 0, "second": 1}.get(text)
        if you is None:
            if not (text.isascii() and text.isdigit()):
                raise SpecError(f"{label} {seat!r}: use first, second or a seat number 0..{players - 1}")
            you = int(text)
    if not 0 <= you < players:
        raise SpecError(f"{label} {seat}: {game} has seats 0..{players - 1}")
    return you
