"""Corrupt, hostile and contended run folders: every case ends in a clear CheckpointError or a correct result."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from evoplay.errors import CheckpointError
from evoplay.evolve import checkpoint as ckpt
from evoplay.evolve.loop import rewrite_outputs, run_evolution, verify_folder
from evoplay.evolve.runs import RunFolder

from .toy import RECIPE, Toy

GENS = 6


@pytest.fixture
def finished(tmp_path):
    folder = RunFolder.create(tmp_path / "run", RECIPE, {"seed": 3, "generations": GENS})
    run_evolution(Toy(GENS), folder)
    return folder


@pytest.fixture
def stopped(tmp_path):
    folder = RunFolder.create(tmp_path / "run", RECIPE, {"seed": 3, "generations": GENS})
    run_evolution(Toy(GENS), folder, stop_after=3)
    return folder


def _resume(folder):
    return run_evolution(Toy(GENS), RunFolder.open(folder.path))


def _forge(folder, generation):
    """A checkpoint of this run with a valid checksum but a generation that does not fit the run."""
    _, state = folder.load_checkpoint()
    data = ckpt.dumps({"format": 1, "recipe": RECIPE, "generation": generation, "run": folder.run_id}, state)
    folder.file("checkpoint.npz").write_bytes(data)


class Hostile:
    """Unpickling this creates a file: the proof that a checkpoint ran code."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (Path(self.marker), "pwned"))


def test_a_hostile_pickle_checkpoint_runs_nothing(stopped, tmp_path):
    marker = tmp_path / "pwned"
    payload = pickle.dumps({"format": 1, "recipe": RECIPE, "generation": 1, "state": Hostile(str(marker))})
    stopped.file("checkpoint.npz").unlink()
    stopped.file("checkpoint.pkl").write_bytes(payload)
    with pytest.raises(CheckpointError, match="pickle .* not loaded"):
        _resume(stopped)
    # A pickle renamed to the new name is refused too.
    stopped.file("checkpoint.npz").write_bytes(payload)
    with pytest.raises(CheckpointError, match="pickle; evoplay never unpickles"):
        _resume(stopped)
    # And one smuggled inside an .npz as an object array is refused by allow_pickle=False.
    np.savez(stopped.file("checkpoint.npz"), __body__=np.array([Hostile(str(marker))], dtype=object),
             __doc__=np.frombuffer(b"{}", np.uint8))
    with pytest.raises(CheckpointError):
        _resume(stopped)
    assert not marker.exists()


def test_a_finished_run_of_an_older_evoplay_is_reported_without_reading_its_pickle(finished, tmp_path):
    marker = tmp_path / "pwned"
    finished.file("checkpoint.npz").unlink()
    finished.file("checkpoint.pkl").write_bytes(pickle.dumps(Hostile(str(marker))))
    verify_folder(RunFolder.open(finished.path), GENS)  # the log agrees with finished.json: nothing to say
    assert not marker.exists()
    with pytest.raises(CheckpointError, match="pickle checkpoint of an older evoplay"):
        rewrite_outputs(Toy(GENS), RunFolder.open(finished.path))
    assert not marker.exists()


@pytest.mark.parametrize("generation", [999, -5, GENS + 1])
def test_a_checkpoint_generation_outside_the_run_is_refused(stopped, generation):
    _forge(stopped, generation)
    with pytest.raises(CheckpointError, match=f"says generation {generation}, outside 0..{GENS}"):
        _resume(stopped)


def test_a_checkpoint_ahead_of_its_log_is_refused(stopped):
    _forge(stopped, 5)
    with pytest.raises(CheckpointError, match=r"holds generations 0..2, but .* says generations 0..4 have run"):
        _resume(stopped)


def test_a_deleted_log_is_refused_not_finished_with_holes(stopped):
    _forge(stopped, 3)  # a checkpoint of an older evoplay, with no copy of the log (issue 36: a copy repairs it)
    stopped.file("log.jsonl").unlink()
    with pytest.raises(CheckpointError, match="holds no generation.*lost records"):
        _resume(stopped)


def test_a_gapped_log_is_refused(stopped):
    _forge(stopped, 3)
    lines = stopped.file("log.jsonl").read_text().splitlines()
    stopped.file("log.jsonl").write_text("\n".join([lines[0], lines[2]]) + "\n")
    with pytest.raises(CheckpointError, match="skips to generation 2 where generation 1 belongs"):
        _resume(stopped)


def test_a_repeated_log_record_is_refused(stopped):
    _forge(stopped, 3)
    lines = stopped.file("log.jsonl").read_text().splitlines()
    stopped.file("log.jsonl").write_text("\n".join([lines[0], lines[0], lines[1]]) + "\n")
    with pytest.raises(CheckpointError, match="repeats generation 0"):
        _resume(stopped)


@pytest.mark.parametrize("line", ["42", "[1, 2]", '{"best": 3}', '{"generation": -1}', '{"generation": "2"}'])
def test_a_log_line_that_is_not_a_record_is_refused(stopped, line):
    _forge(stopped, 3)
    text = stopped.file("log.jsonl").read_text()
    stopped.file("log.jsonl").write_text(line + "\n" + text)
    with pytest.raises(CheckpointError, match="line 1 is not a generation record"):
        _resume(stopped)


def test_invalid_utf8_in_the_log_is_refused(stopped):
    _forge(stopped, 3)
    stopped.file("log.jsonl").write_bytes(b'{"generation": 0, "x": "\xff\xfe"}\n' + stopped.file("log.jsonl").read_bytes())
    with pytest.raises(CheckpointError, match="line 1 is not JSON"):
        _resume(stopped)


def test_a_torn_last_log_line_is_rewritten(stopped, tmp_path):
    with open(stopped.file("log.jsonl"), "a") as f:
        f.write('{"generation": 3, "be')
    _resume(stopped)
    assert [r["generation"] for r in stopped.read_log()] == list(range(GENS))


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty"])
def test_a_damaged_checkpoint_is_refused(stopped, damage):
    path = stopped.file("checkpoint.npz")
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data[len(data) // 2] ^= 0x55
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="corrupt|checksum|not an evoplay checkpoint"):
        _resume(stopped)


def test_a_changed_array_fails_the_checksum(stopped):
    path = stopped.file("checkpoint.npz")
    with np.load(path, allow_pickle=False) as npz:
        arrays = {k: npz[k].copy() for k in npz.files}
    name = next(k for k in arrays if not k.startswith("__") and arrays[k].size)
    arrays[name].flat[0] += 1
    np.savez(path, **arrays)
    with pytest.raises(CheckpointError, match="fails its checksum"):
        _resume(stopped)


def test_a_missing_checkpoint_with_a_log_is_refused(stopped):
    stopped.file("checkpoint.npz").unlink()
    with pytest.raises(CheckpointError, match="checkpoint.npz is missing but .*log.jsonl holds"):
        _resume(stopped)


def test_left_over_temp_files_are_removed_on_resume(stopped):
    for name in (".tmp-checkpoint.npz.abc123", ".checkpoint.pkl.xyz789"):
        stopped.file(name).write_bytes(b"half a write")
    _resume(stopped)
    assert not [n for n in os.listdir(stopped.path) if n.startswith((".tmp-", ".checkpoint"))]


def test_deleted_outputs_of_a_finished_run_are_rewritten_identically(finished):
    before = finished.read_json("best.json")
    finished.file("best.json").unlink()
    with pytest.raises(CheckpointError, match="report --rewrite"):
        finished.read_json("best.json")
    rewrite_outputs(Toy(GENS), RunFolder.open(finished.path))
    assert finished.read_json("best.json") == before
    verify_folder(finished, GENS)


def test_a_finish_mark_that_disagrees_with_the_checkpoint_is_refused(finished):
    finished.file("finished.json").write_text(json.dumps({"generations": 2}))
    with pytest.raises(CheckpointError, match="disagree"):
        verify_folder(RunFolder.open(finished.path), GENS)


def test_every_state_kind_survives_a_checkpoint(tmp_path):
    from evoplay.gp.program import Program

    rng = np.random.default_rng(5)
    rng.random(3)
    prog = Program([0], [3], [0.0], check=False)
    state = {"rng": rng, "a": np.arange(6, dtype=np.int8).reshape(2, 3), "t": (1, "x", None), "f": float("nan"),
             "big": 2**80, "np": np.float32(1.5), "b": b"\x00\xff", "map": {1: "one", (2, 3): [4]},
             "$odd": True, "programs": [(prog, prog)], "bool": np.bool_(True), "empty": np.zeros((0, 3))}
    header, back = ckpt.loads(ckpt.dumps({"generation": 1}, state), "test")
    assert back["rng"].random() == rng.random()
    assert back["a"].dtype == np.int8 and (back["a"] == state["a"]).all()
    assert back["t"] == (1, "x", None) and np.isnan(back["f"]) and back["big"] == 2**80
    assert back["np"] == np.float32(1.5) and back["np"].dtype == np.float32 and back["b"] == b"\x00\xff"
    assert back["map"] == {1: "one", (2, 3): [4]} and back["$odd"] is True
    assert back["programs"][0][0] == prog and back["bool"] == np.True_ and back["empty"].shape == (0, 3)
    with pytest.raises(TypeError, match=r"state.bad: a object cannot be stored"):
        ckpt.dumps({}, {"bad": object()})


_CONTEND = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {root!r})
    from evoplay.errors import CheckpointError
    from evoplay.evolve.runs import RunFolder
    from evoplay.evolve.loop import run_evolution
    from tests.reliability.toy import Toy
    time.sleep(max(0.0, {start} - time.time()))
    try:
        {action}
        print("won")
    except CheckpointError as err:
        print("refused:", err)
""")


def _contend(action, n, root):
    import time

    start = time.time() + 1.0
    code = _CONTEND.format(root=root, start=start, action=action)
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(n)]
    outs = [p.communicate(timeout=60) for p in procs]
    for out, err in outs:
        assert b"Traceback" not in err, err.decode()
    return [out.decode().strip() for out, _ in outs]


ROOT = str(Path(__file__).resolve().parents[2])


def test_two_processes_creating_one_folder_at_once_cannot_both_win(tmp_path):
    path = tmp_path / "race"
    results = _contend(f"RunFolder.create({str(path)!r}, 'toy', {{'seed': 1}}); time.sleep(0.5)", 4, ROOT)
    assert sum(r == "won" for r in results) == 1, results
    assert all(r == "won" or "not empty" in r or "in use by another evoplay process" in r for r in results), results


def test_two_resumes_of_one_folder_cannot_both_run(stopped):
    results = _contend(f"run_evolution(Toy({GENS}, 0.2), RunFolder.open({str(stopped.path)!r}))", 2, ROOT)
    assert sorted(r.split(":")[0] for r in results) == ["refused", "won"], results
    assert "in use by another evoplay process" in [r for r in results if r != "won"][0]
    assert [r["generation"] for r in stopped.read_log()] == list(range(GENS))


def test_a_killed_writer_does_not_leave_the_folder_locked(stopped):
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {ROOT!r})
        from evoplay.evolve.runs import RunFolder
        RunFolder.open({str(stopped.path)!r}).lock()
        print("locked", flush=True)
        time.sleep(60)
    """)], stdout=subprocess.PIPE)
    assert holder.stdout.readline().strip() == b"locked"
    with pytest.raises(CheckpointError, match=f"in use by another evoplay process \\(pid {holder.pid}\\)"):
        _resume(stopped)
    holder.kill()
    holder.wait()
    _resume(stopped)
    assert RunFolder.open(stopped.path).finished


def test_another_runs_checkpoint_copied_in_is_refused(stopped, tmp_path):
    """Before, a checkpoint.npz copied from another run folder was resumed as this folder's own."""
    other = RunFolder.create(tmp_path / "other", RECIPE, {"seed": 3, "generations": GENS})
    run_evolution(Toy(GENS), other, stop_after=3)
    stopped.file("checkpoint.npz").write_bytes(other.file("checkpoint.npz").read_bytes())
    with pytest.raises(CheckpointError, match="another run's checkpoint .* a run resumes only from its own"):
        _resume(stopped)
    with pytest.raises(CheckpointError, match="another run's checkpoint"):
        verify_folder(RunFolder.open(stopped.path), GENS)


def test_a_copy_of_a_whole_run_folder_resumes(stopped, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(stopped.path, copy)
    run_evolution(Toy(GENS), RunFolder.open(copy))
    assert RunFolder.open(copy).finished


_KILLED_WHILE_MADE = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {root!r})
    from evoplay.evolve.runs import META, RunFolder
    write_json = RunFolder.write_json

    def killed(self, name, obj):
        if name == META:  # the config is written, run.json is not: the process dies here
            os.kill(os.getpid(), signal.SIGKILL)
        return write_json(self, name, obj)

    RunFolder.write_json = killed
    RunFolder.create({path!r}, "toy", {{"seed": 3, "generations": {gens}}})
""")


def test_a_folder_killed_while_being_made_can_be_made_again(tmp_path):
    """Before, resume said run.json was missing and evolve --out said to resume it: the folder was stuck."""
    from click.testing import CliRunner

    from evoplay.cli import main

    path = tmp_path / "run"
    killed = subprocess.run([sys.executable, "-c", _KILLED_WHILE_MADE.format(root=ROOT, path=str(path), gens=GENS)])
    assert killed.returncode == -9 and (path / "config.toml").exists() and not (path / "run.json").exists()
    resumed = CliRunner().invoke(main, ["resume", str(path)])
    assert resumed.exit_code == 2 and "was being made when its process was stopped" in resumed.stderr
    assert f"evoplay evolve RECIPE --out {path}" in resumed.stderr
    folder = RunFolder.create(path, RECIPE, {"seed": 3, "generations": GENS})
    run_evolution(Toy(GENS), folder)
    assert RunFolder.open(path).finished and not (path / ".creating").exists()


def test_a_folder_holding_a_users_own_config_is_not_made_into_a_run(tmp_path):
    path = tmp_path / "mine"
    path.mkdir()
    (path / "config.toml").write_text("generations = 3\n")
    with pytest.raises(CheckpointError, match="not empty"):
        RunFolder.create(path, RECIPE, {"seed": 3, "generations": GENS})
    assert (path / "config.toml").read_text() == "generations = 3\n"
