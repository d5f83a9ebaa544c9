"""A run folder: resolved config, per-generation log (JSON lines), atomic checkpoints and result files."""
from __future__ import annotations

import errno
import json
import os
import tempfile
import time
import uuid
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from evoplay.errors import CheckpointError, ConfigError
from evoplay.evolve import checkpoint as ckpt
from evoplay.evolve.config import dump_toml, parse_toml
from evoplay.games.tools.sources import located_document, portable_document

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
#: the mark of a folder being made: written first, removed once run.json is written; a folder with the mark and
#: no run.json was stopped while being made, and may be made into a run again
CREATING = ".creating"
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

    def __init__(self, path: Path, recipe: str, config: dict, meta: dict, written: dict | None = None):
        self.path = path
        self.recipe = recipe
        self.config = config
        self.meta = meta
        self._logged: list[str] | None = None  # the log's lines as this process wrote them (None: not known)
        self.checkpoint_log: list[str] | None = None  # the log lines the last loaded checkpoint holds (None: none)
        self.repaired: list[int] = []  # log lines check_log rewrote from the checkpoint
        # the config as config.toml gave it when the folder was made or opened: each checkpoint carries it, and a
        # config.toml edited since is refused (the run's state was made with the other values)
        written = portable_document(config, path) if written is None else written  # config.toml as parsed
        self._config_doc = json.loads(json.dumps(written, default=str))

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
        # The run's identity: its checkpoints carry it, so another run's checkpoint copied here is refused.
        meta = {"format": FORMAT, "recipe": recipe, "options": options or {}, "created": time.time(),
                "run": uuid.uuid4().hex}
        text = dump_toml(portable_document(config, p))  # a file game: relative to p
        folder = cls(p, recipe, config, meta, parse_toml(text, CONFIG))
        folder._refuse_if_not_empty()
        folder.lock()
        try:
            folder._refuse_if_not_empty()  # again, now that no other process can be creating it
            folder._remove_temp_files()
            folder.file(CREATING).touch()
            folder.write_text(CONFIG, text)
            folder.write_json(META, meta)
            folder.file(CREATING).unlink()
        except BaseException:
            folder.release()
            raise
        return folder

    def _refuse_if_not_empty(self) -> None:
        names = {e.name for e in self.path.iterdir() if not _ours(e.name)}
        if names and not (self.interrupted_creation and names <= {CONFIG}):
            raise CheckpointError(f"{self.path} already exists and is not empty; resume it with "
                                  f"'evoplay resume {self.path}' or choose another --out")

    @property
    def interrupted_creation(self) -> bool:
        """Was this folder stopped while being made (the mark, and no run.json)?"""
        return self.file(CREATING).exists() and not self.file(META).exists()

    @classmethod
    def open(cls, path: str | Path) -> "RunFolder":
        p = Path(path)
        if not p.is_dir():
            raise CheckpointError(f"{p} is not a run folder (no such directory)")
        meta_path = p / META
        if not meta_path.is_file():
            if (p / CREATING).exists():
                raise CheckpointError(f"{p} was being made when its process was stopped ({META} is missing; no "
                                      f"generation ran); start it again with 'evoplay evolve RECIPE --out {p}'")
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
        written = parse_toml(text, str(config_path))
        return cls(p, meta["recipe"], located_document(written, p), meta, written)

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
        """Temp files of writes a kill interrupted (only the lock holder writes, so none is in use), and the mark
        of a making that was stopped after run.json was written."""
        if self.file(META).exists() and self.file(CREATING).exists():
            self.file(CREATING).unlink()
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
            again = (f"; write the run's outputs again with 'evoplay report --rewrite {self.path}'"
                     if self.finished else "")
            raise CheckpointError(f"{path} is corrupt: {err}{again}") from None
        return located_document(doc, self.path)

    # --- the log -------------------------------------------------------------------------------------------
    def log(self, record: dict) -> None:
        path = self.file(LOG)
        line = json.dumps(record, default=_json_default)
        try:
            with open(path, "a", encoding="utf-8") as f:
                f.write(line + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as err:
            raise os_error(err, path, "append to") from None
        if self._logged is not None:
            self._logged.append(line)

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

    def check_log(self, generations: int, what: str, repair: bool = False) -> list[dict]:
        """The log's first ``generations`` records, which must be generations 0, 1, ... in order (records past
        them, written just before a kill, are allowed: a resume rewrites them). ``what`` names where the count
        comes from, for the error.

        The one reader of a run's log for resume, report and rewrite: a checkpoint holds a copy of the log lines
        before it (``checkpoint_log``, set by ``load_checkpoint``), and a line that differs from its copy (damaged,
        edited, torn or lost) is written again from it when ``repair`` (the caller holds the lock: resume,
        ``report --rewrite``; the lines are listed in ``repaired``), or refused naming the line and the command
        that repairs it. A checkpoint of an older evoplay holds no copy: a line missing a key every other line has
        is refused, naming the line and the key."""
        saved = self.checkpoint_log
        if saved is not None and len(saved) == generations:
            lines = self._log_lines()
            damaged = [n for n in range(1, generations + 1) if n > len(lines) or lines[n - 1] != saved[n - 1]]
            if damaged:
                if not repair:
                    first = damaged[0]
                    seen = "is missing" if first > len(lines) else "differs from the record the checkpoint holds"
                    more = f" (and {len(damaged) - 1} more)" if len(damaged) > 1 else ""
                    raise CheckpointError(
                        f"{self.file(LOG)}: line {first} (generation {first - 1}) {seen}{more}; the log is damaged: "
                        f"repair it from the checkpoint with 'evoplay "
                        f"{'report --rewrite' if self.finished else 'resume'} {self.path}'")
                # the lines past the checkpoint go too: the generations after it run again (resume) or did not run
                self.write_text(LOG, "".join(line + "\n" for line in saved))
                self.repaired = damaged
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
        if saved is None:
            _check_keys(self.file(LOG), records)
        return records[:generations]

    def _log_lines(self) -> list[str]:
        """The log's lines as text, the blank ones dropped (undecodable bytes kept as a line that matches none)."""
        path = self.file(LOG)
        if not path.exists():
            return []
        return [raw.decode("utf-8", "replace") for raw in _read_bytes(path).split(b"\n") if raw.strip()]

    def truncate_log(self, last_generation: int) -> None:
        """Keep only records up to ``last_generation`` (a resumed run rewrites what came after its checkpoint)."""
        kept = [json.dumps(r, default=_json_default) for r in self.read_log() if r["generation"] <= last_generation]
        self.write_text(LOG, "".join(line + "\n" for line in kept))
        self._logged = kept

    # --- checkpoints ---------------------------------------------------------------------------------------
    @property
    def run_id(self) -> str | None:
        """The run's identity (run.json's ``run``; None in a folder of an evoplay from before it)."""
        run = self.meta.get("run")
        return run if isinstance(run, str) else None

    def save_checkpoint(self, generation: int, state: Any) -> None:
        header = {"format": FORMAT, "recipe": self.recipe, "generation": int(generation), "run": self.run_id}
        header["config"] = self._config_doc
        if self._logged is not None and len(self._logged) == generation:
            header["log"] = list(self._logged)  # the log's lines so far: a damaged line is repaired from them
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
        if self.run_id is not None and header.get("run") != self.run_id:
            raise CheckpointError(f"{path} is another run's checkpoint (run {header.get('run')!r}; this folder's run "
                                  f"is {self.run_id!r}): a run resumes only from its own checkpoints; put this "
                                  f"folder's own checkpoint.npz back, or start a new run")
        generation = header.get("generation")
        if not isinstance(generation, int) or isinstance(generation, bool):
            raise CheckpointError(f"{path} has no generation number")
        if isinstance(header.get("config"), dict) and header["config"] != self._config_doc:
            key, then, now = _first_difference(header["config"], self._config_doc)
            shown = "(none)" if then is _ABSENT else json.dumps(then)
            raise CheckpointError(
                f"{self.file(CONFIG)} differs from the config the run was made with: {key} is "
                f"{'missing' if now is _ABSENT else json.dumps(now)} but the run ran with {key} = {shown} "
                f"({path.name} holds it); put the run's value back (a run keeps its config: start a new run for "
                f"another)")
        saved = header.get("log")
        self.checkpoint_log = saved if isinstance(saved, list) and all(isinstance(x, str) for x in saved) else None
        return generation, state

    @property
    def finished(self) -> bool:
        return self.file(FINISHED).exists()


_ABSENT = object()


def _first_difference(then: dict, now: dict, prefix: str = "") -> tuple[str, Any, Any]:
    """(dotted key, value then, value now) of the first key two configs differ on (_ABSENT: not there)."""
    for key in sorted(set(then) | set(now)):
        a, b = then.get(key, _ABSENT), now.get(key, _ABSENT)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            return _first_difference(a, b, f"{prefix}{key}.")
        return f"{prefix}{key}", a, b
    return prefix.rstrip(".") or "?", then, now


def _check_keys(path: Path, records: list[dict]) -> None:
    """A log whose checkpoint holds no copy of it: every line must hold the keys every other line holds (a damaged
    key, ``"mdan"`` for ``"mean"``, would end a report or a resumed run's closing plots in a crash)."""
    if len(records) < 3:  # with two lines, which of them is damaged cannot be told
        return
    held = Counter(key for record in records for key in record)
    for key, count in held.items():
        if count == len(records) - 1:
            n, record = next((n, r) for n, r in enumerate(records, 1) if key not in r)
            raise CheckpointError(f"{path}: line {n} (generation {record['generation']}) lacks {key!r}, which every "
                                  f"other line holds; the log is damaged: restore that line (this run's checkpoint "
                                  f"holds no copy of the log to repair it from)")


def _ours(name: str) -> bool:
    """Files that do not make a folder 'not empty': its lock, the mark of its making and interrupted temp files."""
    return name in (LOCK, CREATING) or name.startswith(_TEMP_PREFIX)


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
