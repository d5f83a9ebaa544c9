"""Where Numba keeps evoplay's compiled kernels: one cache folder per version of evoplay's source, never stale.

Numba's own cache (``cache=True``) checks only the file a kernel is written in. A kernel that calls a kernel of
another file (a recipe's game loop calling a game's search) keeps running the old compiled callee after that
file changes, silently (or fails to load it, naming a per-game module that is gone). So evoplay points Numba at
``<user cache>/evoplay/numba/<hash of every evoplay source file>``, or where the user chose a folder
(``NUMBA_CACHE_DIR``) at ``<that folder>/evoplay-<hash>``: any change to the source starts a fresh cache, and an
unchanged source (every worker process, every later run) finds its kernels compiled. evoplay's folders unused for
``KEEP_DAYS`` are removed. This runs when ``evoplay`` is imported, before any kernel is defined.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

KEEP_DAYS = 14
PACKAGE = Path(__file__).resolve().parent


def source_hash(root: Path = PACKAGE) -> str:
    """A short hash of the content of every ``.py`` file under ``root`` (their relative paths included)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "evoplay" / "numba"


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
        return True
    except OSError:
        return False


def _prune(root: Path, keep: Path, now: float, prefix: str = "") -> None:
    """Remove cache folders of other source versions (named ``prefix`` + a hash) that nothing has used for
    ``KEEP_DAYS``."""
    for folder in root.iterdir():
        if (folder != keep and folder.is_dir() and folder.name.startswith(prefix)
                and now - folder.stat().st_mtime > KEEP_DAYS * 86400):
            shutil.rmtree(folder, ignore_errors=True)


def configure() -> Path | None:
    """Point Numba's cache at this source version's folder: under the user cache folder, or under the folder the
    user chose (``NUMBA_CACHE_DIR``, or ``numba.config.CACHE_DIR`` set before importing evoplay) as
    ``evoplay-<hash>``; None (Numba's folder stays as it is) when that folder cannot be written."""
    from numba import config

    chosen = os.environ.get("NUMBA_CACHE_DIR") or config.CACHE_DIR
    root, prefix = (Path(chosen), "evoplay-") if chosen else (cache_root(), "")
    folder = root / f"{prefix}{source_hash()}"
    if not _writable(folder):
        return None
    os.utime(folder)  # in use: keeps it from being pruned
    try:
        _prune(root, folder, time.time(), prefix)
    except OSError:
        pass
    config.CACHE_DIR = str(folder)
    return folder
