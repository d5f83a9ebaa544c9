"""Run folders: each file operation's error names the path and the cause, and each damaged file its damage."""
import errno
import json
import os
from pathlib import Path

import numpy as np
import pytest

from evoplay.errors import CheckpointError, ConfigError
from evoplay.evolve import runs
from evoplay.evolve.runs import RunFolder, atomic_write, os_error


def message(call, kind=CheckpointError) -> str:
    with pytest.raises(kind) as err:
        call()
    return str(err.value)


@pytest.mark.parametrize("code, words", [
    (errno.ENOSPC, "the disk is full"), (errno.EDQUOT, "the disk quota is exceeded"),
    (errno.EACCES, "permission denied"), (errno.EPERM, "permission denied"),
    (errno.EROFS, "the file system is read-only"), (errno.ENAMETOOLONG, "the file name is too long"),
    (errno.ENOENT, "no such file or directory"), (errno.ENOTDIR, "a part of the path is not a directory"),
    (errno.EISDIR, "it is a directory"), (errno.EBUSY, os.strerror(errno.EBUSY)),
])
def test_os_errors_are_one_line_in_words(code, words):
    err = os_error(OSError(code, os.strerror(code)), Path("run/x.json"), "write")
    assert isinstance(err, CheckpointError) and str(err) == f"cannot write run/x.json: {words}"


def test_an_os_error_without_a_number_keeps_its_text():
    assert str(os_error(OSError("boom"), "p", "read")) == "cannot read p: boom"


def test_atomic_write_makes_missing_folders_and_writes_through_a_temp_file_beside_the_target(tmp_path, monkeypatch):
    target = tmp_path / "a" / "b" / "out.json"
    atomic_write(target, b"one")
    assert target.read_bytes() == b"one" and os.listdir(target.parent) == ["out.json"]
    seen = []
    real_replace = os.replace

    def replace(src, dst):
        seen.append((Path(src).parent, Path(src).name))
        real_replace(src, dst)

    monkeypatch.setattr(runs.os, "replace", replace)
    atomic_write(target, b"two")
    assert target.read_bytes() == b"two"
    assert seen[0][0] == target.parent and seen[0][1].startswith(".tmp-out.json.")


def test_a_failed_atomic_write_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "out.json"
    atomic_write(target, b"old")

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(runs.os, "replace", full)
    assert message(lambda: atomic_write(target, b"new")) == f"cannot write {target}: the disk is full"
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["out.json"]


def test_atomic_write_under_a_file_names_the_target(tmp_path):
    (tmp_path / "f").write_text("x")
    target = tmp_path / "f" / "sub" / "out.json"
    assert message(lambda: atomic_write(target, b"x")) == f"cannot write {target}: a part of the path is not a directory"


def test_opening_a_folder_that_is_no_run(tmp_path):
    assert message(lambda: RunFolder.open(tmp_path / "none")) == f"{tmp_path / 'none'} is not a run folder (no such directory)"
    assert message(lambda: RunFolder.open(tmp_path)) == \
        f"{tmp_path} is not a run folder: run.json is missing (was it made by 'evoplay evolve'?)"
    meta = tmp_path / "run.json"
    for text, words in (("[1]", "does not describe a run (no 'recipe')"),
                        ('{"recipe": 5}', "does not describe a run (no 'recipe')")):
        meta.write_text(text)
        assert message(lambda: RunFolder.open(tmp_path)) == f"{meta} {words}"
    meta.write_text('{"recipe": "mnk", "format": 2}')
    assert message(lambda: RunFolder.open(tmp_path)) == f"{tmp_path} has run format 2; this evoplay reads format 1"
    meta.write_text('{"recipe": "mnk", "format": 1, "options": 3}')
    assert message(lambda: RunFolder.open(tmp_path)) == f"{meta}: 'options' must be a table of recipe options"
    meta.write_text('{"recipe": "mnk", "format": 1}')
    assert message(lambda: RunFolder.open(tmp_path)) == f"{tmp_path}: config.toml is missing"
    (tmp_path / "config.toml").write_bytes(b"a = 1\n\xff")
    assert message(lambda: RunFolder.open(tmp_path), ConfigError) == \
        f"{tmp_path / 'config.toml'} is not UTF-8 text (byte 6); the run's config is corrupt"
    (tmp_path / "config.toml").write_text("a = 1\n")
    folder = RunFolder.open(tmp_path)
    assert (folder.recipe, folder.config, folder.meta["format"]) == ("mnk", {"a": 1}, 1)
    meta.write_bytes(b'{"recipe": "\xff"}')
    assert message(lambda: RunFolder.open(tmp_path)).startswith(f"{meta} is corrupt (")


def test_creating_over_a_file_or_a_used_folder_is_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    assert message(lambda: RunFolder.create(tmp_path / "file", "mnk", {})) == \
        f"{tmp_path / 'file'} exists and is not a folder; choose another --out"
    used = tmp_path / "used"
    used.mkdir()
    (used / "notes.txt").write_text("x")
    assert message(lambda: RunFolder.create(used, "mnk", {})) == \
        f"{used} already exists and is not empty; resume it with 'evoplay resume {used}' or choose another --out"
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / ".tmp-run.json.x1").write_text("torn")  # an interrupted write does not make a folder used
    folder = RunFolder.create(fresh, "mnk", {"a": 1}, {"seed": 3})
    try:
        assert sorted(os.listdir(fresh)) == [".lock", "config.toml", "run.json"]
        meta = json.loads((fresh / "run.json").read_text())
        assert (meta["format"], meta["recipe"], meta["options"]) == (1, "mnk", {"seed": 3})
        assert message(folder.lock) == f"{fresh} is already being written by this process"
    finally:
        folder.release()
    assert not folder.is_locked


@pytest.fixture
def folder(tmp_path):
    f = RunFolder.create(tmp_path / "run", "mnk", {"a": 1})
    f.release()
    return f


def test_read_json_says_whether_the_run_finished(folder):
    path = folder.file("best.json")
    assert message(lambda: folder.read_json("best.json")) == \
        f"{path} is missing; the run has not finished ('evoplay resume {folder.path}')"
    folder.write_json("finished.json", {})
    assert message(lambda: folder.read_json("best.json")) == (
        f"{path} is missing although the run has finished; write the run's outputs again with "
        f"'evoplay report --rewrite {folder.path}'")
    path.write_text("{")
    assert message(lambda: folder.read_json("best.json")).startswith(f"{path} is corrupt: ")
    folder.write_json("best.json", {"n": np.int64(3), "x": np.float32(0.5), "a": np.arange(2), "p": Path("q")})
    assert folder.read_json("best.json") == {"n": 3, "x": 0.5, "a": [0, 1], "p": "q"}
    assert message(lambda: folder.write_json("bad.json", {"s": {1, 2}}), TypeError) == "set is not JSON serialisable"


def test_the_log_keeps_generation_records_and_drops_only_a_torn_last_line(folder):
    path = folder.file("log.jsonl")
    assert folder.read_log() == []
    path.write_text('{"generation": 0}\n\n{"generation": 1}\n{"generation": 2, "x"\n')
    assert folder.read_log() == [{"generation": 0}, {"generation": 1}]
    path.write_text('{"generation": 0}\nnot json\n{"generation": 1}\n')
    assert message(folder.read_log) == f"{path}: line 2 is not JSON; the log is corrupt"
    for bad in ('{"generation": -1}', '{"generation": true}', '{"gen": 0}', "[0]"):
        path.write_text(f'{{"generation": 0}}\n{bad}\n')
        assert message(folder.read_log) == (f"{path}: line 2 is not a generation record (a JSON object with a "
                                            f"generation number >= 0); the log is corrupt")


def test_check_log_names_the_disagreement(folder):
    path = folder.file("log.jsonl")

    def log(*gens):
        path.write_text("".join(json.dumps({"generation": g}) + "\n" for g in gens))

    log(0, 1, 2, 3)
    assert [r["generation"] for r in folder.check_log(2, "the checkpoint")] == [0, 1]
    log(0, 0, 1)
    assert message(lambda: folder.check_log(3, "the checkpoint")) == (
        f"{path} repeats generation 0 where generation 1 belongs, but the checkpoint says generations 0..2 have "
        "run; the log and the checkpoint disagree")
    log(0, 2)
    assert message(lambda: folder.check_log(2, "the checkpoint")).startswith(
        f"{path} skips to generation 2 where generation 1 belongs")
    log(0)
    assert message(lambda: folder.check_log(3, "the checkpoint")) == (
        f"{path} holds generations 0..0, but the checkpoint says generations 0..2 have run; the log has lost "
        "records (restore it, or start a new run)")
    path.write_text("")
    assert message(lambda: folder.check_log(1, "finished.json")).startswith(f"{path} holds no generation, but")
    log(0, 1, 3)
    assert message(lambda: folder.check_log(1, "the checkpoint")) == \
        f"{path}: record 3 is generation 3, expected 2; the log is out of order"
    log(0, 1, 2, 3)
    folder.truncate_log(1)
    assert [r["generation"] for r in folder.read_log()] == [0, 1]


def test_checkpoints_belong_to_their_recipe_and_replace_old_pickles(folder):
    assert folder.load_checkpoint() is None
    folder.file("checkpoint.pkl").write_bytes(b"\x80old")
    assert message(folder.load_checkpoint) == (
        f"{folder.file('checkpoint.pkl')} is a pickle checkpoint of an older evoplay; it is not loaded "
        "(unpickling can run any code the file holds); start a new run")
    folder.save_checkpoint(np.int64(4), {"pop": np.arange(3)})
    assert not folder.file("checkpoint.pkl").exists()
    generation, state = folder.load_checkpoint()
    assert generation == 4 and isinstance(generation, int) and state["pop"].tolist() == [0, 1, 2]
    other = RunFolder(folder.path, "kalah", {}, {})
    assert message(other.load_checkpoint) == f"{folder.file('checkpoint.npz')} belongs to recipe 'mnk', not 'kalah'"
    assert message(lambda: folder.save_checkpoint(5, {"f": len})) == \
        "the mnk state cannot be checkpointed: state.f: a builtin_function_or_method cannot be stored in a checkpoint"


def test_create_makes_missing_parents_and_records_the_run(tmp_path):
    import time
    before = time.time()
    folder = RunFolder.create(tmp_path / "a" / "b" / "run", "mnk", {"a": 1})
    folder.release()
    assert folder.meta["recipe"] == "mnk" and before <= folder.meta["created"] <= time.time()
    assert json.loads(folder.file("run.json").read_text())["created"] == folder.meta["created"]
    assert folder.file("run.json").read_text().startswith('{\n  "format": 1,\n  "recipe": "mnk",')  # indented by 2
    (tmp_path / "file").write_text("x")
    assert message(lambda: RunFolder.create(tmp_path / "file" / "run", "mnk", {})) == \
        f"cannot create the run folder {tmp_path / 'file' / 'run'}: a part of the path is not a directory"


def test_a_bad_config_names_its_file(folder):
    folder.file("config.toml").write_text("a = = 1\n")
    assert message(lambda: RunFolder.open(folder.path), ConfigError).startswith(
        f"{folder.file('config.toml')} is not valid TOML: ")


def test_the_log_stores_numpy_numbers_as_json_numbers(folder):
    folder.log({"generation": np.int64(0), "best": np.float64(0.5), "pop": np.arange(2)})
    assert folder.read_log() == [{"generation": 0, "best": 0.5, "pop": [0, 1]}]


def test_the_lock_file_names_the_holder_and_is_not_executable(folder):
    lock = folder.file(".lock")
    lock.write_text("1234567890123\n")  # a longer pid left by an earlier holder
    folder.lock()
    try:
        assert lock.read_text() == f"{os.getpid()}\n"
        assert lock.stat().st_mode & 0o111 == 0
    finally:
        folder.release()
    folder.release()  # releasing a folder this process does not hold is harmless
    RunFolder.open(folder.path).release()


def test_a_lock_that_cannot_be_opened_names_its_path(folder):
    lock = folder.file(".lock")
    lock.unlink(missing_ok=True)
    lock.mkdir()
    assert message(folder.lock) == f"cannot lock the run folder at {lock}: it is a directory"
    assert not folder.is_locked


def _in_child(action) -> int:
    """Run ``action`` in a forked child (POSIX locks are per process); its exit code: 0 done, 1 refused."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            action()
            os._exit(0)
        except CheckpointError:
            os._exit(1)
        except BaseException:
            os._exit(2)
    return os.waitpid(pid, 0)[1] >> 8


def test_another_process_holding_the_lock_is_named_and_a_killed_holder_frees_it(folder):
    import signal
    import time
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child holds the lock until it is killed
        folder.lock()
        os.write(write, b"x")
        time.sleep(60)
        os._exit(0)
    try:
        assert os.read(read, 1) == b"x"
        assert message(folder.lock) == (f"{folder.path} is in use by another evoplay process (pid {pid}); wait for "
                                        f"it to end, or stop it")
        assert not folder.is_locked
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(read)
        os.close(write)
    def lock_elsewhere():
        runs._HELD.clear()  # the child is another process: only the POSIX lock may stop it
        folder.lock()

    folder.lock()  # the killed holder's lock went with it
    try:
        assert _in_child(lock_elsewhere) == 1  # now this process holds it
    finally:
        folder.release()
    assert _in_child(lock_elsewhere) == 0  # released: another process may take it
