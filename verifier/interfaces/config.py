"""``[tool.sparkeq]`` in ``pyproject.toml``: a project's settings, read by ``check``, ``hook``, ``batch``
and the library (``verifier.check``). See docs/config.md.

Why a configuration file: most real DataFrame code has no DDL annotation, so every check of it needs
``--schema``; a project declares its tables once, next to the rest of its Python tooling, and the
pre-commit hook, CI and tests all read the same declaration. The file is found by walking up from the
checked files (or the current directory) to the first ``pyproject.toml`` that has a ``[tool.sparkeq]``
table, as ruff and pytest find theirs.

Only the standard library is imported (``tomllib``): the CLI reads the configuration before it knows
whether there is anything to check.

Explicit options always win over the file: a command-line flag, a keyword of ``verifier.check``.
Schemas are the exception that adds up: the file's schemas come first and ``--schema`` values after
them, so a ``--schema`` for the same name replaces the file's.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

FILE_NAME = "pyproject.toml"
_KEYS = {"timeout", "replay", "replay-timeout", "strict", "unsupported", "include", "exclude",
         "schema-files", "schemas"}


class ConfigError(Exception):
    """A malformed ``[tool.sparkeq]``: ``path:line:col: message`` (an input error, exit 3)."""


@dataclass(frozen=True)
class Config:
    """The settings of one ``[tool.sparkeq]`` table (``path`` None: no file was found, every field is
    its default). ``schemas`` are ``--schema`` values (``NAME=DDL``, or a CREATE TABLE file as an
    absolute path) for every check; ``function_schemas`` maps ``relative/path.py::function`` to the
    ``NAME=DDL`` values of that function's parameters only."""

    path: str | None = None
    timeout: float | None = None
    replay: bool | None = None
    replay_timeout: float | None = None
    strict: bool | None = None
    unsupported: str | None = None  # "block" | "allow"
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    schemas: tuple[str, ...] = ()
    function_schemas: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def root(self) -> str | None:
        """The directory of the ``pyproject.toml``: paths in the table are relative to it."""
        return os.path.dirname(self.path) if self.path else None

    def relative(self, path: str) -> str | None:
        """``path`` relative to the root with ``/`` separators (None: no root, or outside it)."""
        if self.root is None:
            return None
        rel = os.path.relpath(os.path.realpath(path), self.root)
        if rel == os.pardir or rel.startswith(os.pardir + os.sep):
            return None
        return rel.replace(os.sep, "/")

    def schemas_for(self, path: str | None, function: str | None) -> tuple[str, ...]:
        """The ``--schema`` values for a check of ``path::function``: the table-wide ones, then that
        function's parameters."""
        rel = self.relative(path) if path else None
        own = self.function_schemas.get(f"{rel}::{function}", ()) if rel and function else ()
        return self.schemas + own

    def selects(self, path: str) -> bool:
        """Whether ``include``/``exclude`` let the hook look at ``path`` (fnmatch patterns on the path
        relative to the root; ``*`` crosses directories; no ``include`` means every file)."""
        rel = self.relative(path)
        if rel is None:
            return True
        if self.include and not any(fnmatch.fnmatchcase(rel, p) for p in self.include):
            return False
        return not any(fnmatch.fnmatchcase(rel, p) for p in self.exclude)


NO_CONFIG = Config()


def find(start: str | None = None) -> Config:
    """The configuration that governs ``start`` (a file or directory; default the current directory):
    the first ``pyproject.toml`` with a ``[tool.sparkeq]`` table in ``start``'s directory or above."""
    here = os.path.realpath(start or os.getcwd())
    if not os.path.isdir(here):
        here = os.path.dirname(here)
    while True:
        candidate = os.path.join(here, FILE_NAME)
        if os.path.isfile(candidate):
            config = load(candidate)
            if config is not None:
                return config
        parent = os.path.dirname(here)
        if parent == here:
            return NO_CONFIG
        here = parent


def load(path: str) -> Config | None:
    """The ``[tool.sparkeq]`` table of one ``pyproject.toml`` (None when it has none)."""
    stat = os.stat(path)
    return _load(os.path.realpath(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=32)
def _load(path: str, _mtime: int, _size: int) -> Config | None:
    """Parsed once per version of the file (the library is called in loops)."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}:1:1: not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}:1:1: cannot read: {exc}") from None
    table = data.get("tool", {}).get("sparkeq") if isinstance(data.get("tool"), dict) else None
    if table is None:
        return None
    return _parse(table, path)


def _parse(table: Any, path: str) -> Config:
    def bad(message: str) -> ConfigError:
        return ConfigError(f"{path}:1:1: [tool.sparkeq] {message}")

    if not isinstance(table, dict):
        raise bad("must be a table")
    unknown = set(table) - _KEYS
    if unknown:
        raise bad(f"unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(_KEYS))}")
    root = os.path.dirname(path)

    def seconds(key: str) -> float | None:
        value = table.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
            raise bad(f"'{key}' must be a positive number of seconds")
        return float(value)

    def flag(key: str) -> bool | None:
        value = table.get(key)
        if value is not None and not isinstance(value, bool):
            raise bad(f"'{key}' must be true or false")
        return value

    def strings(key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad(f"'{key}' must be a list of strings")
        return tuple(value)

    unsupported = table.get("unsupported")
    if unsupported is not None and unsupported not in ("block", "allow"):
        raise bad("'unsupported' must be \"block\" or \"allow\"")
    schemas = [os.path.join(root, f) for f in strings("schema-files")]
    per_function: dict[str, tuple[str, ...]] = {}
    declared = table.get("schemas", {})
    if not isinstance(declared, dict):
        raise bad("'schemas' must be a table of NAME = \"DDL\" (or \"path.py::function\" = {param = DDL})")
    for name, value in declared.items():
        if isinstance(value, str):
            schemas.append(f"{name}={value}")
        elif isinstance(value, dict) and "::" in name and all(isinstance(v, str) for v in value.values()):
            per_function[name] = tuple(f"{param}={ddl}" for param, ddl in value.items())
        else:
            raise bad(f"schemas.{name}: expected a DDL string, or for a key 'path.py::function' a table "
                      "of parameter = DDL")
    return Config(path=path, timeout=seconds("timeout"), replay=flag("replay"),
                  replay_timeout=seconds("replay-timeout"), strict=flag("strict"), unsupported=unsupported,
                  include=strings("include"), exclude=strings("exclude"), schemas=tuple(schemas),
                  function_schemas=per_function)


def spec_path(spec: Any) -> str | None:
    """The file of a ``file.py::function`` / ``file.sql`` spec string, when it names an existing file
    (None for source text, function objects and programs)."""
    if not isinstance(spec, (str, os.PathLike)):
        return None
    path = os.fspath(spec).partition("::")[0]
    if "\n" in path or not os.path.isfile(path):
        return None
    return path


def spec_function(spec: Any) -> str | None:
    """The ``function`` of a ``file.py::function`` spec string."""
    if isinstance(spec, str) and "::" in spec and "\n" not in spec:
        return spec.partition("::")[2] or None
    return None


def check_options(left: Any, right: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """``verifier.check``'s options with the configuration of the checked files applied: ``timeout``
    when not given, and the schemas (the file's first, the caller's after). ``config`` in ``options``:
    None or absent to discover, False for none, or a ``pyproject.toml`` path. The library's ``replay``
    is never taken from the file: the library starts no JVM unless its caller asks."""
    options = dict(options)
    chosen = options.pop("config", None)
    if chosen is False:
        return options
    path = spec_path(left)
    config = (load(chosen) or NO_CONFIG) if isinstance(chosen, str) else find(path or spec_path(right))
    if config.path is None:
        return options
    if options.get("timeout") is None and config.timeout is not None:
        options["timeout"] = config.timeout
    function = options.get("left_function") or options.get("function") or spec_function(left)
    schemas = config.schemas_for(path, function)
    if schemas and not _is_mapping_schema(options.get("schema")):
        given = options.get("schema")
        extra = (given,) if isinstance(given, str) else tuple(given or ())
        options["schema"] = schemas + extra
    return options


def _is_mapping_schema(value: Any) -> bool:
    """A caller's ``{name: Schema}`` (already parsed) replaces the file's schemas as a whole."""
    return isinstance(value, Mapping)
