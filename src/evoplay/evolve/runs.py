"""A run folder: resolved config, per-generation log (JSON lines), atomic checkpoints and result files."""
from __future__ import annotations

import json
import os
import pickle
import tempfile
import time
from pathlib import Path
from typing import Any

from evoplay.errors import CheckpointError
from evoplay.evolve.config import dump_toml, parse_toml

FORMAT = 1
CONFIG = "config.toml"
META = "run.json"
LOG = "log.jsonl"
CHECKPOINT = "checkpoint.pkl"


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a kill at any moment leaves either the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:  # pragma: no cover - some filesystems refuse fsync on directories
        pass


class RunFolder:
    """The folder of one evolution run. Create it with ``create``; reopen it (to resume, report, export) with
    ``open``, which checks that it is a complete, readable run folder."""

    def __init__(self, path: Path, recipe: str, config: dict, meta: dict):
        self.path = path
        self.recipe = recipe
        self.config = config
        self.meta = meta

    # --- creating and opening ------------------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, recipe: str, config: dict, options: dict | None = None) -> "RunFolder":
        p = Path(path)
        if p.exists() and any(p.iterdir()):
            raise CheckpointError(
                f"{p} already exists and is not empty; resume it with 'evoplay resume {p}' or choose another --out"
            )
        p.mkdir(parents=True, exist_ok=True)
        meta = {"format": FORMAT, "recipe": recipe, "options": options or {}, "created": time.time()}
        folder = cls(p, recipe, config, meta)
        folder.write_text(CONFIG, dump_toml(config))
        folder.write_json(META, meta)
        return folder

    @classmethod
    def open(cls, path: str | Path) -> "RunFolder":
        p = Path(path)
        if not p.is_dir():
            raise CheckpointError(f"{p} is not a run folder (no such directory)")
        meta_path = p / META
        if not meta_path.is_file():
            raise CheckpointError(f"{p} is not a run folder: {META} is missing (was it made by 'evoplay evolve'?)")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise CheckpointError(f"{meta_path} is corrupt ({err}); the run folder cannot be read") from None
        if not isinstance(meta, dict) or "recipe" not in meta:
            raise CheckpointError(f"{meta_path} does not describe a run (no 'recipe')")
        if meta.get("format") != FORMAT:
            raise CheckpointError(f"{p} has run format {meta.get('format')}; this evoplay reads format {FORMAT}")
        config_path = p / CONFIG
        if not config_path.is_file():
            raise CheckpointError(f"{p}: {CONFIG} is missing")
        config = parse_toml(config_path.read_text(encoding="utf-8"), str(config_path))
        return cls(p, meta["recipe"], config, meta)

    # --- files ---------------------------------------------------------------------------------------------
    def file(self, name: str) -> Path:
        return self.path / name

    def write_text(self, name: str, text: str) -> Path:
        target = self.file(name)
        atomic_write(target, text.encode("utf-8"))
        return target

    def write_json(self, name: str, obj: Any) -> Path:
        return self.write_text(name, json.dumps(obj, indent=2, default=_json_default) + "\n")

    def read_json(self, name: str) -> Any:
        path = self.file(name)
        if not path.is_file():
            raise CheckpointError(f"{path} is missing; has the run finished? ('evoplay resume {self.path}')")
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise CheckpointError(f"{path} is corrupt: {err}") from None

    # --- the log -------------------------------------------------------------------------------------------
    def log(self, record: dict) -> None:
        with open(self.file(LOG), "a", encoding="utf-8") as f:
            f.write(json.dumps(record, default=_json_default) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def read_log(self) -> list[dict]:
        path = self.file(LOG)
        if not path.exists():
            return []
        records = []
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                # A kill mid-append leaves at most a torn last line; anything else is corruption.
                if n == len(lines):
                    break
                raise CheckpointError(f"{path}: line {n} is not JSON; the log is corrupt") from None
        return records

    def truncate_log(self, last_generation: int) -> None:
        """Keep only records up to ``last_generation`` (a resumed run rewrites what came after its checkpoint)."""
        kept = [r for r in self.read_log() if r.get("generation", -1) <= last_generation]
        self.write_text(LOG, "".join(json.dumps(r, default=_json_default) + "\n" for r in kept))

    # --- checkpoints ---------------------------------------------------------------------------------------
    def save_checkpoint(self, generation: int, state: Any) -> None:
        payload = {"format": FORMAT, "recipe": self.recipe, "generation": generation, "state": state}
        atomic_write(self.file(CHECKPOINT), pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))

    def load_checkpoint(self) -> tuple[int, Any] | None:
        path = self.file(CHECKPOINT)
        if not path.exists():
            return None
        try:
            payload = pickle.loads(path.read_bytes())
        except Exception as err:  # unpickling raises many kinds
            raise CheckpointError(
                f"{path} is corrupt and cannot be loaded ({type(err).__name__}: {err}); "
                f"start a new run, or restore the file from a backup"
            ) from None
        if not isinstance(payload, dict) or payload.get("format") != FORMAT or "state" not in payload:
            raise CheckpointError(f"{path} is not an evoplay checkpoint of format {FORMAT}")
        if payload.get("recipe") != self.recipe:
            raise CheckpointError(f"{path} belongs to recipe {payload.get('recipe')!r}, not {self.recipe!r}")
        return int(payload["generation"]), payload["state"]

    @property
    def finished(self) -> bool:
        return self.file("finished.json").exists()


def _json_default(obj: Any):
    import numpy as np

    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")
