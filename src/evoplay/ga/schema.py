"""Genome schemas: named integer fields with bit widths, encoded into and decoded from one bit string."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np

from evoplay.errors import ConfigError

MAX_FIELD_BITS = 62  # decoded values are int64
#: the format of a genome's JSON document (a run's best.json, a shipped champion): ``weights(FILE)`` reads it
GENOME_FORMAT = "evoplay-weights/1"
#: the field that holds a genome's search depth, where its genome has one
DEPTH_FIELD = "search_depth"


@dataclass(frozen=True)
class Field:
    """One gene: ``bits`` bits read as an unsigned integer (most significant bit first), plus ``low``.

    A field of 8 bits with ``low = 0`` holds 0..255 (seed 001's weights); ``low = -128`` holds -128..127.
    """

    name: str
    bits: int
    low: int = 0
    help: str = ""

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ConfigError(f"genome field name {self.name!r} must be an identifier such as 'h2x' or 'store'")
        if isinstance(self.bits, bool) or not isinstance(self.bits, int) or not 1 <= self.bits <= MAX_FIELD_BITS:
            raise ConfigError(f"genome field '{self.name}': bits={self.bits!r}; use an integer in 1..{MAX_FIELD_BITS}")
        if isinstance(self.low, bool) or not isinstance(self.low, int):
            raise ConfigError(f"genome field '{self.name}': low={self.low!r} must be an integer")

    @property
    def high(self) -> int:
        return self.low + (1 << self.bits) - 1

    def to_dict(self) -> dict:
        d = {"name": self.name, "bits": self.bits}
        if self.low:
            d["low"] = self.low
        if self.help:
            d["help"] = self.help
        return d


class Schema:
    """An ordered list of fields laid end to end: the genome is a uint8 array of 0/1 of length ``length``."""

    def __init__(self, fields: Iterable[Field]):
        self.fields: tuple[Field, ...] = tuple(fields)
        if not self.fields:
            raise ConfigError("a genome schema needs at least one field")
        seen: set[str] = set()
        for f in self.fields:
            if not isinstance(f, Field):
                raise ConfigError(f"genome schema entries must be Field objects, got {f!r}")
            if f.name in seen:
                raise ConfigError(f"genome field '{f.name}' appears twice; field names must be unique")
            seen.add(f.name)
        self.names = [f.name for f in self.fields]
        self.offsets = np.cumsum([0] + [f.bits for f in self.fields]).astype(np.int64)
        self.length = int(self.offsets[-1])
        self._index = {f.name: i for i, f in enumerate(self.fields)}
        # Place values of every bit within its field and the field each bit belongs to, for vector decoding.
        self._field_of_bit = np.repeat(np.arange(len(self.fields)), [f.bits for f in self.fields])
        self._place = np.concatenate(
            [np.left_shift(np.int64(1), np.arange(f.bits - 1, -1, -1, dtype=np.int64)) for f in self.fields]
        )
        self._lows = np.array([f.low for f in self.fields], dtype=np.int64)

    # --- construction from data ----------------------------------------------------------------------------
    @classmethod
    def from_list(cls, items, where: str = "genome schema") -> "Schema":
        """A schema from a list of tables ``{name, bits, low?, help?}`` (the TOML / JSON form)."""
        if not isinstance(items, (list, tuple)) or not items:
            raise ConfigError(f"{where}: give a non-empty list of fields like {{name = \"store\", bits = 6}}")
        fields = []
        for i, item in enumerate(items):
            if isinstance(item, Field):
                fields.append(item)
                continue
            if not isinstance(item, Mapping):
                raise ConfigError(f"{where}: field {i + 1} must be a table with name and bits, got {item!r}")
            unknown = set(item) - {"name", "bits", "low", "help"}
            if unknown:
                raise ConfigError(
                    f"{where}: field {i + 1} has unknown key(s) {', '.join(sorted(unknown))}; "
                    "valid keys: name, bits, low, help"
                )
            if "name" not in item or "bits" not in item:
                raise ConfigError(f"{where}: field {i + 1} needs both 'name' and 'bits', got {dict(item)!r}")
            fields.append(Field(item["name"], item["bits"], item.get("low", 0), item.get("help", "")))
        return cls(fields)

    def to_list(self) -> list[dict]:
        return [f.to_dict() for f in self.fields]

    # --- encoding -------------------------------------------------------------------------------------------
    def field(self, name: str) -> Field:
        if name not in self._index:
            raise KeyError(f"no genome field '{name}'; fields: {', '.join(self.names)}")
        return self.fields[self._index[name]]

    def slice(self, name: str) -> slice:
        i = self._index[name]
        return slice(int(self.offsets[i]), int(self.offsets[i + 1]))

    def encode(self, record: Mapping[str, int]) -> np.ndarray:
        """The bit string of a parameter record (every field given, each within its range)."""
        missing = [n for n in self.names if n not in record]
        extra = [n for n in record if n not in self._index]
        if missing or extra:
            raise ConfigError(
                "a genome record must give exactly the schema's fields"
                + (f"; missing: {', '.join(missing)}" if missing else "")
                + (f"; unknown: {', '.join(map(str, extra))}" if extra else "")
            )
        bits = np.zeros(self.length, dtype=np.uint8)
        for f, start in zip(self.fields, self.offsets):
            value = record[f.name]
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not f.low <= value <= f.high:
                raise ConfigError(f"genome field '{f.name}' = {value!r} is out of range {f.low}..{f.high}")
            raw = int(value) - f.low
            for j in range(f.bits):
                bits[start + j] = (raw >> (f.bits - 1 - j)) & 1
        return bits

    def decode(self, bits) -> dict[str, int]:
        """The parameter record of one bit string: ``{field name: integer}`` in schema order."""
        values = self.decode_many(np.asarray(bits)[None, :])[0]
        return {name: int(v) for name, v in zip(self.names, values)}

    def decode_many(self, population) -> np.ndarray:
        """Decode a (genomes, length) array of bits to a (genomes, fields) int64 array of values."""
        pop = self.check(population)
        weighted = pop.astype(np.int64) * self._place
        out = np.zeros((pop.shape[0], len(self.fields)), dtype=np.int64)
        np.add.at(out.T, self._field_of_bit, weighted.T)
        return out + self._lows

    def check(self, population) -> np.ndarray:
        """``population`` as a 2-D uint8 array of 0/1 with this schema's length, or a clear error."""
        pop = np.asarray(population)
        if pop.ndim == 1:
            pop = pop[None, :]
        if pop.ndim != 2 or pop.shape[1] != self.length:
            raise ConfigError(f"genomes of this schema have {self.length} bits; got an array of shape {pop.shape}")
        if pop.size and not np.isin(pop, (0, 1)).all():
            raise ConfigError("a genome holds bits: every entry must be 0 or 1")
        return pop.astype(np.uint8, copy=False)

    def random(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """``count`` genomes of uniformly random bits."""
        return rng.integers(0, 2, size=(count, self.length), dtype=np.uint8)

    # --- text -----------------------------------------------------------------------------------------------
    @staticmethod
    def to_string(bits) -> str:
        return "".join("1" if b else "0" for b in np.asarray(bits).reshape(-1))

    def from_string(self, text: str) -> np.ndarray:
        t = "".join(text.split())
        if len(t) != self.length or set(t) - {"0", "1"}:
            raise ConfigError(f"a genome of this schema is a string of {self.length} characters 0/1; got {len(t)}")
        return np.frombuffer(t.encode("ascii"), dtype=np.uint8) - ord("0")

    def describe(self) -> str:
        return ", ".join(f"{f.name}:{f.bits}" + (f"@{f.low}" if f.low else "") for f in self.fields)

    def __len__(self) -> int:
        return self.length

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Schema) and other.fields == self.fields

    def __hash__(self) -> int:
        return hash(self.fields)

    def __repr__(self) -> str:
        return f"Schema({len(self.fields)} fields, {self.length} bits)"
