"""Every install hint evoplay prints names a real extra and prints whole (rich markup never eats '[ray]'), and a
command whose extra is missing stops before it does any work or makes a run folder."""
import re
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

import evoplay
from evoplay.cli import main

SRC = Path(evoplay.__file__).parent
PYPROJECT = SRC.parent.parent / "pyproject.toml"
HINT = re.compile(r"""pip install ['"]evoplay\[(\w+)\]['"]""")

# extra -> (the module it provides, a command that needs it)
TRIGGERS = {
    "ray": ("ray", ["evolve", "mnk", "--generations", "1", "--population", "4", "--backend", "ray"]),
    "ratings": ("openskill", ["sevens-ladder", "--games", "1", "--rounds", "1", "--backend", "serial"]),
    "openspiel": ("pyspiel", ["match", "openspiel:tic_tac_toe", "random", "random", "--games", "1"]),
    "lua": ("lupa", ["export", "runs/any", "--lang", "lua", "--check"]),
}


def _hints_in_source() -> set[str]:
    found = set()
    for path in SRC.rglob("*.py"):
        found |= set(HINT.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_install_hint_in_the_source_is_triggered_here_and_names_an_extra():
    extras = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    hints = _hints_in_source()
    assert hints == set(TRIGGERS), f"install hints without a test here (or tests without a hint): {hints ^ set(TRIGGERS)}"
    for extra in hints:
        assert extra in extras, f"a hint names the extra '{extra}', which pyproject.toml does not define"


@pytest.mark.parametrize("extra", sorted(TRIGGERS))
def test_a_missing_extra_prints_its_hint_whole_and_stops_first(extra, monkeypatch, tmp_path):
    module, args = TRIGGERS[extra]
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if the extra were not installed
    if module == "pyspiel":
        monkeypatch.setitem(sys.modules, "open_spiel", None)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, (result.output, result.exception)
    assert f"pip install 'evoplay[{extra}]'" in result.output
    assert result.output.count("\n") == 1 and result.output.startswith("error: ")
    assert not (tmp_path / "runs").exists()  # no half-made run folder


def test_the_readme_says_which_command_needs_which_extra():
    readme = (SRC.parent.parent / "README.md").read_text(encoding="utf-8")
    for extra in TRIGGERS:
        assert f"evoplay[{extra}]" in readme
