"""Issue 36, a damaged run folder: a damaged log line is named and repaired from the checkpoint's copy (resume,
report --rewrite) or refused with the command that repairs it (report), never a KeyError after a run's work; an
edited config.toml is refused naming the key; a corrupt finished.json and a torn last line of a finished run are
repaired by report --rewrite; an unencodable folder name prints as escapes; Ctrl-C before a run folder exists does
not advise resuming it."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from evoplay.cli import main
from evoplay.errors import CheckpointError
from evoplay.evolve.loop import rewrite_outputs, run_evolution, verify_folder
from evoplay.evolve.runs import RunFolder

from .toy import RECIPE, Toy

GENS = 4


def _run(tmp_path, stop_after=None, **config):
    folder = RunFolder.create(tmp_path / "run", RECIPE, {"seed": 3, "generations": GENS, **config})
    run_evolution(Toy(GENS), folder, stop_after=stop_after)
    return folder


def _damage(folder, line: int, old: str = '"mean"', new: str = '"mdan"') -> None:
    lines = folder.file("log.jsonl").read_text().splitlines(keepends=True)
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new)
    folder.file("log.jsonl").write_text("".join(lines))


def test_a_damaged_log_line_is_repaired_from_the_checkpoint_on_resume(tmp_path):
    whole = (_run(tmp_path / "a").file("log.jsonl")).read_text()
    stopped = _run(tmp_path / "b", stop_after=3)
    _damage(stopped, 2)
    folder = RunFolder.open(stopped.path)
    run_evolution(Toy(GENS), folder)  # before: every generation ran, then the closing plots raised KeyError
    assert folder.repaired == [2]
    strip = lambda text: [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in text.splitlines()]
    assert strip(folder.file("log.jsonl").read_text()) == strip(whole)


def test_an_edited_value_of_an_old_line_is_not_carried_into_the_finished_log(tmp_path):
    stopped = _run(tmp_path, stop_after=3)
    before = stopped.read_log()[0]["best"]
    _damage(stopped, 1, f'"best": {before}', f'"best": {before + 1000}')
    folder = RunFolder.open(stopped.path)
    run_evolution(Toy(GENS), folder)
    assert folder.read_log()[0]["best"] == before


def test_report_refuses_a_damaged_line_naming_it_and_rewrite_repairs_it(tmp_path):
    finished = _run(tmp_path)
    good = finished.file("log.jsonl").read_text()
    _damage(finished, 3)
    with pytest.raises(CheckpointError, match=r"log.jsonl: line 3 \(generation 2\) differs from the record the "
                                              r"checkpoint holds; .*'evoplay report --rewrite .*run'"):
        verify_folder(RunFolder.open(finished.path), GENS)
    rewrite_outputs(Toy(GENS), RunFolder.open(finished.path))
    assert finished.file("log.jsonl").read_text() == good
    verify_folder(RunFolder.open(finished.path), GENS)


def test_a_torn_last_line_of_a_finished_run_is_repaired_by_rewrite(tmp_path):
    finished = _run(tmp_path)
    good = finished.file("log.jsonl").read_text()
    finished.file("log.jsonl").write_text(good[: len(good) - 20])  # before: refused by report and --rewrite alike
    with pytest.raises(CheckpointError, match=r"line 4 \(generation 3\) differs from the record the checkpoint holds; .*report --rewrite"):
        verify_folder(RunFolder.open(finished.path), GENS)
    rewrite_outputs(Toy(GENS), RunFolder.open(finished.path))
    assert finished.file("log.jsonl").read_text() == good


def test_a_missing_key_in_a_log_without_a_checkpoint_copy_is_refused_naming_line_and_key(tmp_path):
    stopped = _run(tmp_path, stop_after=3)
    from evoplay.evolve import checkpoint as ckpt

    _, state = stopped.load_checkpoint()  # a checkpoint of an older evoplay: no copy of the log
    stopped.file("checkpoint.npz").write_bytes(ckpt.dumps({"format": 1, "recipe": RECIPE, "generation": 3,
                                                           "run": stopped.run_id}, state))
    _damage(stopped, 2)
    with pytest.raises(CheckpointError, match=r"line 2 \(generation 1\) lacks 'mean', which every other line holds"):
        run_evolution(Toy(GENS), RunFolder.open(stopped.path))


def test_a_config_edited_before_resume_is_refused_naming_the_key(tmp_path):
    stopped = _run(tmp_path, stop_after=2, population=32)
    path = stopped.file("config.toml")
    path.write_text(path.read_text().replace("population = 32", "population = 64"))
    with pytest.raises(CheckpointError, match=r"config.toml differs from the config the run was made with: "
                                              r"population is 64 but the run ran with population = 32"):
        run_evolution(Toy(GENS), RunFolder.open(stopped.path))  # before: resumed, then reported population 64
    with pytest.raises(CheckpointError, match="population is 64"):
        verify_folder(RunFolder.open(stopped.path), GENS)


def test_a_corrupt_finish_mark_says_how_to_repair_it_and_rewrite_does(tmp_path):
    finished = _run(tmp_path)
    finished.file("finished.json").write_text("{not json")
    with pytest.raises(CheckpointError, match=r"finished.json is corrupt: .*'evoplay report --rewrite .*run'"):
        verify_folder(RunFolder.open(finished.path), GENS)  # before: no way forward offered
    rewrite_outputs(Toy(GENS), RunFolder.open(finished.path))
    assert finished.read_json("finished.json")["generations"] == GENS
    verify_folder(RunFolder.open(finished.path), GENS)


def test_an_unencodable_folder_name_prints_as_escapes(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    done = subprocess.run([sys.executable, "-m", "evoplay.cli", "report", str(tmp_path / "r\u00fcn")],
                          capture_output=True, text=True, env=env, encoding="ascii", errors="strict")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "r\\xfcn is not a run folder" in done.stderr
    from evoplay.cli.common import _plain_on_any_console, console

    import io
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    saved = sys.stdout
    try:
        sys.stdout = stream
        _plain_on_any_console()
        print("r\u00fcn", file=sys.stdout, flush=True)  # before: UnicodeEncodeError
    finally:
        sys.stdout = saved
    assert stream.buffer.getvalue() == b"r\\xfcn\n"
    assert console is not None


def test_ctrl_c_before_the_run_folder_exists_does_not_advise_resuming(monkeypatch, tmp_path):
    import evoplay.recipes

    def interrupted(*args, **kwargs):  # Ctrl-C while the recipe loads (its game compiles): no folder yet
        raise KeyboardInterrupt

    monkeypatch.setattr(evoplay.recipes, "load_recipe", interrupted)
    result = CliRunner().invoke(main, ["evolve", "gp", "--out", str(tmp_path / "run")])
    assert result.exit_code == 130
    line = [x for x in result.stderr.splitlines() if x.startswith("error: ")][-1]
    assert line == "error: interrupted before the run folder was made; nothing to resume (run the command again)"
    assert not (tmp_path / "run").exists()


def test_a_damage_census_sample_is_repaired_or_refused_never_wrong():
    from . import census

    counts = census.damage_census(6, seed=2)
    assert counts["crash"] == 0 and counts["wrong"] == 0, counts
    assert counts["refused by report"] == 6 and counts["repaired"] + counts["refused by the repair"] == 6, counts
