"""A run folder: resolved config, per-generation log (JSON lines), atomic checkpoints and result files."""
from __future__ import annotations

import errno
import json
import os
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from evoplay.errors import CheckpointError, ConfigError
from evoplay.evolve import checkpoint as ckpt
from evoplay.evolve.config import dump_toml, parse_toml
from evoplay.games.sources import located_document, portable_document

try:  # POSIX record locks: released by the kernel when the holder dies, never inherited by forked workers
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

FORMAT = 1
CONFIG = "config.toml"
META = "run.json"
LOG = "log.jsonl"
CHECKPOINT = "checkpoint.npz"
#: the pickle checkpoints of evoplay before checkpoint format 2: refused, never loaded
OLD_CHECKPOINT = "checkpoint.pkl"
LOCK = ".lock"
FINISHED = "finished.json"
#: the output every recipe's finish() writes; a finished run without it had its outputs deleted
BEST = "best.json"
_TEMP_PREFIX = ".tmp-"

# Folders locked by this process (POSIX locks are per process: a second lock from the same process would succeed).
_HELD: dict[str, int] = {}


def os_error(err: OSError, path: Path | str, doing: str) -> CheckpointError:
    """One line for a failed file operation: the path, what was being done, and the cause in words."""
    reason = {
        errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exceeded",
        errno.EACCES: "permission denied", errno.EPERM: "permission denied", errno.EROFS: "the file system is read-only",
        errno.ENAMETOOLONG: "the file name is too long", errno.ENOENT: "no such file or directory",
        errno.ENOTDIR: "a part of the path is not a directory", errno.EISDIR: "it is a directory",
    }.get(err.errno, err.strerror or str(err))
    return CheckpointError(f"cannot {doing} {path}: {reason}")


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a kill at any moment leaves either the old file or the new one (and at most
    a ``.tmp-`` file, removed when the folder is next locked)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f"{_TEMP_PREFIX}{path.name}.", dir=path.parent)
    except OSError as err:
        raise os_error(err, path, "write") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(err, OSError):
            raise os_error(err, path, "write") from None
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
    ``open``, which checks that it is a complete, readable run folder. Whoever writes to it holds its lock
    (``locked``): one writer at a time, and a killed writer's lock goes with it."""

    def __init__(self, path: Path, recipe: str, config: dict, meta: dict):
        self.path = path
        self.recipe = recipe
        self.config = config
        self.meta = meta

    # --- creating and opening ------------------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, recipe: str, config: dict, options: dict | None = None) -> "RunFolder":
        """Make a new run folder. Of two processes creating the same folder at once exactly one succeeds; the
        creator keeps the folder's lock until it releases it (``release``) or exits."""
        p = Path(path)
        try:
            p.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise CheckpointError(f"{p} exists and is not a folder; choose another --out") from None
        except OSError as err:
            raise os_error(err, p, "create the run folder") from None
        meta = {"format": FORMAT, "recipe": recipe, "options": options or {}, "created": time.time()}
        folder = cls(p, recipe, config, meta)
        folder._refuse_if_not_empty()
        folder.lock()
        try:
            folder._refuse_if_not_empty()  # again, now that no other process can be creating it
            folder._remove_temp_files()
            folder.write_text(CONFIG, dump_toml(portable_document(config, p)))  # a file game: relative to p
            folder.write_json(META, meta)
        except BaseException:
            folder.release()
            raise
        return folder

    def _refuse_if_not_empty(self) -> None:
        if any(not _ours(e.name) for e in self.path.iterdir()):
            raise CheckpointError(f"{self.path} already exists and is not empty; resume it with "
                                  f"'evoplay resume {self.path}' or choose another --out")

    @classmethod
    def open(cls, path: str | Path) -> "RunFolder":
        p = Path(path)
        if not p.is_dir():
            raise CheckpointError(f"{p} is not a run folder (no such directory)")
        meta_path = p / META
        if not meta_path.is_file():
            raise CheckpointError(f"{p} is not a run folder: {META} is missing (was it made by 'evoplay evolve'?)")
        try:
            meta = json.loads(_read_bytes(meta_path).decode("utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
            raise CheckpointError(f"{meta_path} is corrupt ({err}); the run folder cannot be read") from None
        if not isinstance(meta, dict) or not isinstance(meta.get("recipe"), str):
            raise CheckpointError(f"{meta_path} does not describe a run (no 'recipe')")
        if meta.get("format") != FORMAT:
            raise CheckpointError(f"{p} has run format {meta.get('format')!r}; this evoplay reads format {FORMAT}")
        if not isinstance(meta.get("options", {}), dict):
            raise CheckpointError(f"{meta_path}: 'options' must be a table of recipe options")
        config_path = p / CONFIG
        if not config_path.is_file():
            raise CheckpointError(f"{p}: {CONFIG} is missing")
        try:
            text = _read_bytes(config_path).decode("utf-8")
        except UnicodeDecodeError as err:
            raise ConfigError(f"{config_path} is not UTF-8 text (byte {err.start}); the run's config is corrupt") from None
        config = located_document(parse_toml(text, str(config_path)), p)
        return cls(p, meta["recipe"], config, meta)

    # --- the lock ------------------------------------------------------------------------------------------
    def lock(self) -> None:
        """Take the folder's writer lock, or raise CheckpointError if another process (or this one) holds it."""
        key = os.path.realpath(self.path)
        if key in _HELD:
            raise CheckpointError(f"{self.path} is already being written by this process")
        if fcntl is None:  # pragma: no cover - not POSIX: no lock
            _HELD[key] = -1
            return
        path = self.file(LOCK)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise os_error(err, path, "lock the run folder at") from None
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            except OSError:
                holder = "?"
            os.close(fd)
            raise CheckpointError(
                f"{self.path} is in use by another evoplay process (pid {holder}); wait for it to end, or stop it"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        _HELD[key] = fd

    def release(self) -> None:
        fd = _HELD.pop(os.path.realpath(self.path), None)
        if fd is not None and fd >= 0:
            os.close(fd)  # closing the descriptor drops the POSIX lock

    @property
    def is_locked(self) -> bool:
        return os.path.realpath(self.path) in _HELD

    @contextmanager
    def locked(self):
        """Hold the lock for a block (reentrant: a folder ``create`` has locked stays locked, and is released
        at the end)."""
        if not self.is_locked:
            self.lock()
        try:
            self._remove_temp_files()
            yield self
        finally:
            self.release()

    def _remove_temp_files(self) -> None:
        """Temp files of writes a kill interrupted (only the lock holder writes, so none is in use)."""
        for e in self.path.iterdir():
            if e.name.startswith(_TEMP_PREFIX) or e.name.startswith(f".{OLD_CHECKPOINT}."):
                try:
                    e.unlink()
                except OSError:
                    pass

    # --- files ---------------------------------------------------------------------------------------------
    def file(self, name: str) -> Path:
        return self.path / name

    def write_text(self, name: str, text: str) -> Path:
        target = self.file(name)
        atomic_write(target, text.encode("utf-8"))
        return target

    def write_json(self, name: str, obj: Any) -> Path:
        obj = portable_document(obj, self.path)  # a file game relative to the folder, as in the config
        return self.write_text(name, json.dumps(obj, indent=2, default=_json_default) + "\n")

    def read_json(self, name: str) -> Any:
        path = self.file(name)
        if not path.is_file():
            if self.finished:
                raise CheckpointError(f"{path} is missing although the run has finished; write the run's outputs "
                                      f"again with 'evoplay report --rewrite {self.path}'")
            raise CheckpointError(f"{path} is missing; the run has not finished ('evoplay resume {self.path}')")
        try:
            doc = json.loads(_read_bytes(path).decode("utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
            raise CheckpointError(f"{path} is corrupt: {err}") from None
        return located_document(doc, self.path)

    # --- the log -------------------------------------------------------------------------------------------
    def log(self, record: dict) -> None:
        path = self.file(LOG)
        try:
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps(record, default=_json_default) + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as err:
            raise os_error(err, path, "append to") from None

    def read_log(self) -> list[dict]:
        """The log's records. A torn last line (a kill mid-append) is dropped; any other line that is not a
        record with a generation number raises CheckpointError naming it."""
        path = self.file(LOG)
        if not path.exists():
            return []
        records = []
        lines = _read_bytes(path).split(b"\n")
        while lines and not lines[-1].strip():
            lines.pop()
        for n, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8"))
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
                if n == len(lines):
                    break
                raise CheckpointError(f"{path}: line {n} is not JSON; the log is corrupt") from None
            gen = record.get("generation") if isinstance(record, dict) else None
            if not isinstance(gen, int) or isinstance(gen, bool) or gen < 0:
                raise CheckpointError(f"{path}: line {n} is not a generation record "
                                      f"(a JSON object with a generation number >= 0); the log is corrupt")
            records.append(record)
        return records

    def check_log(self, generations: int, what: str) -> list[dict]:
        """The log's first ``generations`` records, which must be generations 0, 1, ... in order (records past
        them, written just before a kill, are allowed: a resume rewrites them). ``what`` names where the count
        comes from, for the error."""
        records = self.read_log()
        for i, r in enumerate(records[:generations]):
            if r["generation"] != i:
                problem = ("repeats" if r["generation"] < i else "skips to") + f" generation {r['generation']}"
                raise CheckpointError(
                    f"{self.file(LOG)} {problem} where generation {i} belongs, but {what} says generations "
                    f"0..{generations - 1} have run; the log and the checkpoint disagree"
                )
        if len(records) < generations:
            have = f"generations 0..{len(records) - 1}" if records else "no generation"
            raise CheckpointError(
                f"{self.file(LOG)} holds {have}, but {what} says generations 0..{generations - 1} have run; "
                "the log has lost records (restore it, or start a new run)"
            )
        for j, r in enumerate(records[generations:], generations):
            if r["generation"] != j:
                raise CheckpointError(f"{self.file(LOG)}: record {j + 1} is generation {r['generation']}, "
                                      f"expected {j}; the log is out of order")
        return records[:generations]

    def truncate_log(self, last_generation: int) -> None:
        """Keep only records up to ``last_generation`` (a resumed run rewrites what came after its checkpoint)."""
        kept = [r for r in self.read_log() if r["generation"] <= last_generation]
        self.write_text(LOG, "".join(json.dumps(r, default=_json_default) + "\n" for r in kept))

    # --- checkpoints ---------------------------------------------------------------------------------------
    def save_checkpoint(self, generation: int, state: Any) -> None:
        header = {"format": FORMAT, "recipe": self.recipe, "generation": int(generation)}
        try:
            data = ckpt.dumps(header, state)
        except TypeError as err:
            raise CheckpointError(f"the {self.recipe} state cannot be checkpointed: {err}") from None
        atomic_write(self.file(CHECKPOINT), data)
        old = self.file(OLD_CHECKPOINT)
        if old.exists():  # never read; removed so a later look at the folder is not misled
            old.unlink()

    def load_checkpoint(self) -> tuple[int, Any] | None:
        path = self.file(CHECKPOINT)
        if not path.exists():
            if self.file(OLD_CHECKPOINT).exists():
                raise CheckpointError(
                    f"{self.file(OLD_CHECKPOINT)} is a pickle checkpoint of an older evoplay; it is not loaded "
                    "(unpickling can run any code the file holds); start a new run"
                )
            return None
        header, state = ckpt.loads(_read_bytes(path), str(path))
        if header.get("recipe") != self.recipe:
            raise CheckpointError(f"{path} belongs to recipe {header.get('recipe')!r}, not {self.recipe!r}")
        generation = header.get("generation")
        if not isinstance(generation, int) or isinstance(generation, bool):
            raise CheckpointError(f"{path} has no generation number")
        return generation, state

    @property
    def finished(self) -> bool:
        return self.file(FINISHED).exists()


def _ours(name: str) -> bool:
    """Files that do not make a folder 'not empty': its lock and interrupted temp files."""
    return name == LOCK or name.startswith(_TEMP_PREFIX)


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise os_error(err, path, "read") from None


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
