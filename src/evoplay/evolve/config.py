"""Recipe configs: the default TOML of a recipe, a user's TOML merged over it, overrides, and a TOML writer."""
from __future__ import annotations

import difflib
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


def load_config(recipe: str, path: str | Path | None = None, overrides: dict[str, Any] | None = None,
                base: dict | None = None) -> dict:
    """The recipe's default config, a user's file merged over it, then dotted-key overrides.

    A user's file may name a shipped config to start from with ``base = "run2"`` (``<recipe>_run2.toml``) and
    give only what it changes. Every key must exist in the defaults with a value of the same type.
    """
    config = base if base is not None else parse_toml(default_config_text(recipe), f"the {recipe} default config")
    if path is not None:
        p = Path(path)
        if not p.is_file():
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
        user = parse_toml(p.read_text(encoding="utf-8"), f"config file {str(p)!r}")
        variant = user.pop("base", None)
        if variant is not None:
            if not isinstance(variant, str):
                raise ConfigError(f"{p}: base must be the name of a shipped config, e.g. base = \"run2\"")
            config = parse_toml(default_config_text(recipe, variant), f"the {recipe}_{variant} config")
        config = merge(config, user, str(p))
    for key, value in (overrides or {}).items():
        config = merge(config, _nest(key.split("."), value), "--set / command-line options")
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
        raise ConfigError(f"{where}: '{dotted}' must be true or false, got {value!r}")
    if isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit() and value.strip().isascii():
            return int(value)
        raise ConfigError(f"{where}: '{dotted}' must be an integer, got {value!r}")
    if isinstance(default, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
        raise ConfigError(f"{where}: '{dotted}' must be a number, got {value!r}")
    if isinstance(default, str):
        if isinstance(value, str):
            return value
        raise ConfigError(f"{where}: '{dotted}' must be a string, got {value!r}")
    if isinstance(default, list):
        if isinstance(value, list):
            return value
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        raise ConfigError(f"{where}: '{dotted}' must be a list, got {value!r}")
    return value


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
