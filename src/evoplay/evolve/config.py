"""Recipe configs: the default TOML of a recipe, a user's TOML merged over it, overrides, and a TOML writer."""
from __future__ import annotations

import difflib
import math
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from evoplay.errors import ConfigError


def default_config_text(recipe: str, variant: str | None = None) -> str:
    """The text of ``src/evoplay/recipes/<recipe>.toml`` (or ``<recipe>_<variant>.toml``)."""
    name = f"{recipe}_{variant}.toml" if variant else f"{recipe}.toml"
    try:
        return resources.files("evoplay.recipes").joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        known = sorted(p.name for p in resources.files("evoplay.recipes").iterdir() if p.name.endswith(".toml"))
        raise ConfigError(f"no config '{name}' for recipe '{recipe}'; configs shipped: {', '.join(known)}") from None


def shipped_variants(recipe: str) -> list[str]:
    """The names of the configs shipped beside a recipe's default: ``run1`` for ``<recipe>_run1.toml``."""
    prefix = f"{recipe}_"
    return sorted(
        p.name[len(prefix) : -len(".toml")]
        for p in resources.files("evoplay.recipes").iterdir()
        if p.name.startswith(prefix) and p.name.endswith(".toml")
    )


def parse_toml(text: str, where: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{where} is not valid TOML: {err}") from None
    except ValueError as err:  # an integer of thousands of digits
        raise ConfigError(f"{where}: a value is out of range ({err})") from None
    except RecursionError:
        raise ConfigError(f"{where}: arrays or tables are nested too deeply") from None


def read_text_file(path: Path, what: str) -> str:
    """A user's text file as UTF-8, or ConfigError with one line: missing, unreadable, a folder, not UTF-8."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise ConfigError(f"{what} {str(path)!r} is a folder; give a file") from None
    except OSError as err:
        raise ConfigError(f"cannot read {what} {str(path)[:120]!r}: {err.strerror or err}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ConfigError(f"{what} {str(path)!r} is not UTF-8 text (a bad byte on line {line}); save it as UTF-8") from None


#: the largest integer a config may hold (every count and seed fits a 64-bit integer)
INT_LIMIT = 2**63 - 1
#: the largest population a config may ask for (what protects the machine's memory)
MAX_POPULATION = 1_000_000


def load_config(recipe: str, path: str | Path | None = None, overrides: dict[str, Any] | None = None,
                base: dict | None = None) -> dict:
    """The recipe's default config, a user's file merged over it, then dotted-key overrides.

    A user's file may name a shipped config to start from with ``base = "run2"`` (``<recipe>_run2.toml``) and
    give only what it changes. Every key must exist in the defaults with a value of the same type.
    """
    config = base if base is not None else parse_toml(default_config_text(recipe), f"the {recipe} default config")
    if path is not None:
        p = Path(path)
        try:
            exists = p.exists()
        except OSError as err:
            raise ConfigError(f"config file {str(p)[:120]!r}...: {err.strerror or err}") from None
        if not exists:
            shipped = shipped_variants(recipe)
            name = p.name.removesuffix(".toml").removeprefix(f"{recipe}_")
            if p.parent == Path(".") and name in shipped:
                # ``--config run1`` names a config shipped with the recipe.
                return load_config(recipe, None, overrides,
                                   parse_toml(default_config_text(recipe, name), f"the {recipe}_{name} config"))
            raise ConfigError(
                f"config file {str(p)!r} does not exist; give a TOML file, or one of the configs shipped with "
                f"{recipe}: {', '.join(shipped) or '(none)'}"
            )
        user = parse_toml(read_text_file(p, "config file"), f"config file {str(p)!r}")
        variant = user.pop("base", None)
        if variant is not None:
            if not isinstance(variant, str):
                raise ConfigError(f"{p}: base must be the name of a shipped config, e.g. base = \"run2\"")
            config = parse_toml(default_config_text(recipe, variant), f"the {recipe}_{variant} config")
        config = merge(config, user, str(p))
    for key, value in (overrides or {}).items():
        config = merge(config, _nest(key.split("."), value), "--set / command-line options")
    population = config.get("population")
    if isinstance(population, int) and not isinstance(population, bool) and population > MAX_POPULATION:
        raise ConfigError(f"population = {population} is more than {MAX_POPULATION:,}: a run keeps every member in "
                          "memory and plays each one's games every generation; use a smaller population")
    seed = config.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool) and seed < 0:
        raise ConfigError(f"seed = {seed}: a seed is a non-negative integer (0 to {INT_LIMIT})")
    return config


def _nest(keys: list[str], value: Any) -> dict:
    out: Any = value
    for k in reversed(keys):
        out = {k: out}
    return out


def merge(defaults: dict, user: dict, where: str, prefix: str = "") -> dict:
    """A copy of ``defaults`` with ``user``'s values; unknown keys and type mismatches raise ConfigError."""
    out = dict(defaults)
    for key, value in user.items():
        dotted = f"{prefix}{key}"
        if key not in defaults:
            close = difflib.get_close_matches(key, list(defaults), n=1)
            hint = f" (did you mean '{prefix}{close[0]}'?)" if close else ""
            raise ConfigError(
                f"{where}: unknown key '{dotted}'{hint}; valid keys here: "
                + ", ".join(f"{prefix}{k}" for k in defaults)
            )
        default = defaults[key]
        if isinstance(default, dict):
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: '{dotted}' must be a table of keys ({', '.join(default)})")
            out[key] = merge(default, value, where, f"{dotted}.")
        else:
            out[key] = coerce(default, value, where, dotted)
    return out


def coerce(default: Any, value: Any, where: str, dotted: str) -> Any:
    """Check ``value`` has the type of ``default`` (ints are accepted where floats are expected)."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise ConfigError(f"{where}: '{dotted}' must be true or false, got {_short(value)}")
    if isinstance(default, int):
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit() and value.strip().isascii():
            if len(value.strip()) > 20:
                raise ConfigError(f"{where}: '{dotted}' = {value.strip()[:12]}... is too large (at most {INT_LIMIT})")
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > INT_LIMIT:
                raise ConfigError(f"{where}: '{dotted}' is too large (at most {INT_LIMIT})")
            return value
        raise ConfigError(f"{where}: '{dotted}' must be an integer, got {_short(value)}")
    if isinstance(default, float):
        if isinstance(value, str):
            try:
                value = float(value) if len(value) <= 64 else value
            except ValueError:
                pass
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                number = float(value)
            except OverflowError:
                number = math.inf
            if not math.isfinite(number):
                raise ConfigError(f"{where}: '{dotted}' must be a finite number, got {_short(value)}")
            return number
        raise ConfigError(f"{where}: '{dotted}' must be a number, got {_short(value)}")
    if isinstance(default, str):
        if isinstance(value, str):
            return value
        raise ConfigError(f"{where}: '{dotted}' must be a string, got {_short(value)}")
    if isinstance(default, list):
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
            if default and all(isinstance(d, (int, float)) and not isinstance(d, bool) for d in default):
                value = [_number_text(v) for v in value]
        if not isinstance(value, list):
            raise ConfigError(f"{where}: '{dotted}' must be a list, got {_short(value)}")
        if default:
            # Items take the type of the default's items (a list of numbers stays numbers, tables stay tables).
            kinds = {_kind(d) for d in default}
            if kinds == {"integer", "number"}:
                kinds = {"number"}
            if len(kinds) == 1:
                kind = kinds.pop()
                model = default[0]
                if kind == "table":
                    for i, item in enumerate(value):
                        if not isinstance(item, dict):
                            raise ConfigError(f"{where}: '{dotted}[{i}]' must be a table, got {_short(item)}")
                    return value
                if kind in ("integer", "number"):
                    model = 0.0 if any(_kind(d) == "number" for d in default) else 0
                return [coerce(model, item, where, f"{dotted}[{i}]") for i, item in enumerate(value)]
        return value
    return value


_KINDS = ((bool, "boolean"), (int, "integer"), (float, "number"), (dict, "table"))  # bool before int


def _kind(v: Any) -> str:
    """A TOML value's kind as a config error names it."""
    return next((word for cls, word in _KINDS if isinstance(v, cls)), type(v).__name__)


def _number_text(text: str) -> Any:
    try:
        return int(text) if text.lstrip("+-").isdigit() and len(text) <= 20 else float(text)
    except ValueError:
        return text


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def parse_assignment(text: str) -> tuple[str, Any]:
    """``key=value`` from ``--set``; the value is read as TOML when it can be, else as a string."""
    key, eq, raw = text.partition("=")
    if not eq or not key.strip():
        raise ConfigError(f"--set {text!r}: write key=value, e.g. --set selection.tournament_size=4")
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return key.strip(), value


# --------------------------------------------------------------------------------------------------------------
# Writing TOML (tomllib only reads). Configs hold tables of scalars and lists of scalars or tables.
# --------------------------------------------------------------------------------------------------------------


def dump_toml(config: dict) -> str:
    lines: list[str] = []
    _dump_table(config, [], lines)
    return "\n".join(lines).strip() + "\n"


def _dump_table(table: dict, path: list[str], lines: list[str]) -> None:
    scalars = {k: v for k, v in table.items() if not isinstance(v, dict) and not _is_table_list(v)}
    tables = {k: v for k, v in table.items() if isinstance(v, dict)}
    table_lists = {k: v for k, v in table.items() if _is_table_list(v)}
    if path and (scalars or not tables):
        lines.append(f"\n[{'.'.join(_key(p) for p in path)}]")
    for k, v in scalars.items():
        lines.append(f"{_key(k)} = {_value(v)}")
    for k, v in tables.items():
        _dump_table(v, path + [k], lines)
    for k, items in table_lists.items():
        for item in items:
            lines.append(f"\n[[{'.'.join(_key(p) for p in path + [k])}]]")
            for ik, iv in item.items():
                lines.append(f"{_key(ik)} = {_value(iv)}")


def _is_table_list(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else _value(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        escaped = v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        return f'"{escaped}"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise ConfigError(f"cannot write {v!r} ({type(v).__name__}) to TOML")


def require(ok: bool, message: str) -> None:
    """A config check: raise ConfigError(message) unless ``ok``."""
    if not ok:
        raise ConfigError(message)


def config_game(config: dict):
    """The game a config's ``game`` key names; a bad spec is a ConfigError naming the key."""
    from evoplay.errors import SpecError
    from evoplay.games import load_game

    try:
        return load_game(config["game"])
    except SpecError as err:
        raise ConfigError(f"game = {config['game']!r}: {err}") from None


def require_agents(specs: dict[str, list[str]], game) -> None:
    """Every agent spec of a config (key -> specs) can play ``game``; the first that cannot is a ConfigError
    naming its key."""
    from evoplay.agents import make_agent
    from evoplay.errors import SpecError

    for key, items in specs.items():
        for spec in items:
            try:
                make_agent(spec, game)
            except SpecError as err:
                raise ConfigError(f"{key}: {err}") from None
