"""evoplay's Numba cache folder: one per source version, the user's NUMBA_CACHE_DIR respected, old folders pruned."""
import os
import time

from numba import config

from evoplay import numba_cache


def test_the_hash_follows_every_source_file_and_only_their_content(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    first = numba_cache.source_hash(tmp_path)
    os.utime(tmp_path / "a.py", (1, 1))  # a touch alone changes nothing
    assert numba_cache.source_hash(tmp_path) == first
    (tmp_path / "sub" / "b.py").write_text("y = 3\n")  # a callee in another file changes: a new folder
    second = numba_cache.source_hash(tmp_path)
    assert second != first
    (tmp_path / "notes.txt").write_text("not code")  # only Python source counts
    assert numba_cache.source_hash(tmp_path) == second


def test_evoplay_points_numba_at_its_source_versions_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", "")  # as in a fresh process
    folder = numba_cache.configure()
    assert folder == tmp_path / "evoplay" / "numba" / numba_cache.source_hash()
    assert folder.is_dir() and config.CACHE_DIR == str(folder)


def test_the_users_numba_cache_dir_holds_a_folder_per_source_version(tmp_path, monkeypatch):
    """A folder the user chose keeps its place, with a folder per source version inside: an upgrade never loads
    kernels compiled against another version (a cached search naming a per-game module that is gone)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "mine"))  # numba reads the variable when imported
    folder = numba_cache.configure()
    assert folder == tmp_path / "mine" / f"evoplay-{numba_cache.source_hash()}"
    assert folder.is_dir() and config.CACHE_DIR == str(folder)
    assert not (tmp_path / "evoplay").exists()  # not the default place


def test_a_folder_set_in_numbas_config_before_evoplay_is_used_likewise(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "chosen"))
    folder = numba_cache.configure()
    assert folder == tmp_path / "chosen" / f"evoplay-{numba_cache.source_hash()}" and config.CACHE_DIR == str(folder)


def test_only_evoplays_old_folders_are_pruned_in_a_chosen_folder(tmp_path, monkeypatch):
    import os
    import time

    mine = tmp_path / "mine"
    theirs, stale = mine / "other-project", mine / "evoplay-0123456789abcdef"
    for folder in (theirs, stale):
        folder.mkdir(parents=True)
        old = time.time() - 30 * 86400
        os.utime(folder, (old, old))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(mine))
    monkeypatch.setattr(config, "CACHE_DIR", str(mine))
    numba_cache.configure()
    assert theirs.is_dir() and not stale.exists()


def test_an_unwritable_cache_leaves_numbas_default(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.setattr(config, "CACHE_DIR", "")
    assert numba_cache.configure() is None and config.CACHE_DIR == ""


def test_folders_unused_for_two_weeks_are_removed_and_recent_ones_kept(tmp_path):
    keep, recent, old = tmp_path / "keep", tmp_path / "recent", tmp_path / "old"
    for folder in (keep, recent, old):
        folder.mkdir()
        (folder / "kernel.nbi").write_text("cached")
    now = time.time()
    os.utime(old, (now - 15 * 86400, now - 15 * 86400))
    os.utime(keep, (now - 30 * 86400, now - 30 * 86400))  # the one in use is never removed
    numba_cache._prune(tmp_path, keep, now)
    assert keep.is_dir() and recent.is_dir() and not old.exists()
