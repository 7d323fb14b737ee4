"""``check_many``: many independent checks, in a local process pool or as Spark tasks on a cluster.

Optimiser tooling and repositories with many pipelines check hundreds of pairs. Each check is
CPU-bound Python + Z3 (and Z3's context is per process, see ``verifier.core.run.z3_watchdog``), so
parallelism means processes: a ``concurrent.futures`` process pool locally, or, with ``master``, one
Spark task per pair on the engine the user already runs (no scheduler of our own). sparkeq's packages
are shipped to the executors the standard way (``SparkContext.addPyFile`` of a zip); its dependencies
(z3-solver, lark) must be installed where the executors run, like any PySpark job's.

Each side is shipped with its file's text (``Side``), so an executor does not need the driver's files;
file names stay as the user gave them, so messages point at the user's paths. Counterexamples are not
replayed on Spark here (a Spark task cannot start a nested SparkContext, and a JVM per worker would
cost more than the checks): they are confirmed by the reference interpreter, as with ``replay=False``.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from verifier.core.result import Result

PACKAGES = ("sparklite", "frontend", "encoder", "verifier", "sparkeq")
# Per-pair options a JSONL line (or a mapping given to check_many) may set.
PAIR_OPTIONS = ("timeout", "effort", "function", "left_function", "right_function", "bound", "seed")


@dataclass(frozen=True)
class Side:
    """One side of a pair as the user wrote it (``spec``), with its file's text when the driver could
    read it (None: the worker loads ``spec`` itself, and reports a missing file as an input error)."""

    spec: str
    text: str | None = None

    @staticmethod
    def read(spec: str) -> Side:
        path = spec.partition("::")[0]
        try:
            with open(path, encoding="utf-8") as fh:
                return Side(spec, fh.read())
        except (OSError, UnicodeDecodeError):
            return Side(spec)


@dataclass(frozen=True)
class Pair:
    """One check of a batch: its id (for reports), both sides and its options."""

    id: str
    left: Side
    right: Side
    options: Mapping[str, Any] = field(default_factory=dict)

    @staticmethod
    def of(item: Any, index: int) -> Pair:
        """A ``Pair`` from a ``(left, right)`` tuple or a mapping with ``left``, ``right``, optional
        ``id`` and options (``PAIR_OPTIONS``)."""
        if isinstance(item, Pair):
            return item
        if isinstance(item, tuple) and len(item) == 2:
            item = {"left": item[0], "right": item[1]}
        if not isinstance(item, Mapping) or not isinstance(item.get("left"), str) \
                or not isinstance(item.get("right"), str):
            raise ValueError("a pair needs string fields 'left' and 'right'")
        unknown = set(item) - {"id", "left", "right", *PAIR_OPTIONS}
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))}; allowed: id, left, right, "
                             + ", ".join(PAIR_OPTIONS))
        options = {k: item[k] for k in PAIR_OPTIONS if k in item}
        _check_options(options)
        return Pair(str(item.get("id", index + 1)), Side.read(item["left"]), Side.read(item["right"]),
                    options)


_OPTION_TYPES = {"timeout": ((int, float), "a number"), "effort": ((int, float), "a number"),
                 "bound": ((int,), "an integer"),
                 "seed": ((int,), "an integer"), "function": ((str,), "a string"),
                 "left_function": ((str,), "a string"), "right_function": ((str,), "a string")}


def _check_options(options: Mapping[str, Any]) -> None:
    """Per-pair options are checked like the CLI's (a bad one is an input error on its line, not an
    internal error of the check)."""
    for key, value in options.items():
        types, what = _OPTION_TYPES[key]
        if isinstance(value, bool) or not isinstance(value, types):
            raise ValueError(f"'{key}' must be {what}")
        if key == "timeout" and not 0 < value < float("inf"):
            raise ValueError("'timeout' must be a positive number of seconds")
        if key == "effort" and not 0 < value < float("inf"):
            raise ValueError("'effort' must be a positive number")
        if key == "bound" and value < 1:
            raise ValueError("'bound' must be at least 1")


def _load(side: Side, function: str | None, schemas: Any = None) -> Any:
    """The side as a ``LoadedProgram`` from its shipped text (named by its path), else from its spec."""
    from verifier.core.base import LoadedProgram
    from verifier.core.loading import load, load_python_source

    path, sep, func = side.spec.partition("::")
    if side.text is None or not path.endswith((".py", ".sl")):
        return load(side.spec, function, schemas)
    if path.endswith(".sl"):
        from sparklite.parser import parse

        return LoadedProgram(parse(side.text, path), "sparklite", path=path, source=side.text)
    return load_python_source(side.text, func if sep else function, path, schemas)


def check_pair(pair: Pair, options: Mapping[str, Any]) -> Result:
    """Check one pair (in a worker process or a Spark task): never raises, an input error is a
    verdict and anything else an ``unknown`` naming the bug."""
    from sparklite.errors import InputError
    from verifier import check
    from verifier.core.loading import load_schemas
    from verifier.interfaces.config import ConfigError, check_options

    opts = {**options, **pair.options, "replay": False}
    try:
        # [tool.sparkeq] of the pair's files (timeout, schemas), applied before the sides are loaded here
        opts = {**check_options(pair.left.spec, pair.right.spec, opts), "config": False}
        schemas = load_schemas(opts["schema"]) if opts.get("schema") else None
        left = _load(pair.left, opts.get("left_function") or opts.get("function"), schemas)
        right = _load(pair.right, opts.get("right_function") or opts.get("function"), schemas)
        result = check(left, right, **opts)
    except ConfigError as exc:
        return Result("error", reason=str(exc))
    except InputError as exc:
        return Result("error", reason=str(exc))
    except Exception as exc:  # noqa: BLE001 - one pair's crash must not lose the batch
        return Result("unknown", reason=f"internal error in sparkeq (please report it): "
                                        f"{type(exc).__name__}: {exc}")
    return _portable(result)


def _portable(result: Result) -> Result:
    """The result without the debug data that need not cross a process boundary (sources, raw values)."""
    import dataclasses

    keep = {k: v for k, v in result.stats.items() if k in ("methods", "internal_errors")}
    return dataclasses.replace(result, stats=keep, sources={})


def check_many(pairs: Iterable[Any], *, workers: int | None = None, master: str | None = None,
               progress: Callable[[int, Result], None] | None = None, **options: Any) -> list[Result]:
    """Check every pair; results in the order of ``pairs``.

    ``pairs``: ``(left, right)`` tuples of specs, or mappings with ``left``, ``right`` and optional
    ``id`` and per-pair options. ``master`` runs each check as a Spark task there; otherwise ``workers``
    processes (default: the number of CPUs; 1 checks in this process). ``progress(index, result)`` is
    called as each check finishes. ``options`` go to every ``check`` (``replay`` is always off)."""
    options = {k: v for k, v in options.items() if k != "replay"}
    items = [_configured(Pair.of(p, i), options) for i, p in enumerate(pairs)]
    results: list[Result | None] = [None] * len(items)
    for index, result in _run(items, workers, master, options):
        results[index] = result
        if progress is not None:
            progress(index, result)
    return [r for r in results if r is not None]


def _configured(pair: Pair, options: Mapping[str, Any]) -> Pair:
    """The pair with its ``[tool.sparkeq]`` settings (timeout, schemas) resolved here, on the driver, where
    its files are: a worker or a Spark executor may run elsewhere. A malformed configuration is left for
    ``check_pair`` to report as the pair's input error."""
    import dataclasses

    from verifier.interfaces.config import ConfigError, check_options

    try:
        resolved = check_options(pair.left.spec, pair.right.spec, {**options, **pair.options})
    except ConfigError:
        return pair
    own = {k: resolved[k] for k in ("timeout", "schema") if resolved.get(k) is not None}
    if "schema" in own:  # schema files are read here too: parsed schemas travel, paths may not
        from sparklite.errors import InputError
        from verifier.core.loading import load_schemas

        try:
            own["schema"] = load_schemas(own["schema"])
        except InputError:
            pass  # check_pair reports it as the pair's input error
    return dataclasses.replace(pair, options={**pair.options, **own, "config": False})


def _run(items: Sequence[Pair], workers: int | None, master: str | None,
         options: Mapping[str, Any]) -> Iterator[tuple[int, Result]]:
    if master is not None:
        yield from _on_spark(items, master, options)
        return
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(items) <= 1:
        for i, item in enumerate(items):
            yield i, check_pair(item, options)
        return
    yield from _in_pool(items, workers, options)


def _in_pool(items: Sequence[Pair], workers: int, options: Mapping[str, Any]) -> Iterator[tuple[int, Result]]:
    """A local process pool. ``forkserver``: workers start from a clean process, never a fork of one
    whose threads (the Z3 watchdog) might hold a lock."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(check_pair, item, dict(options)): i for i, item in enumerate(items)}
        for future in as_completed(futures):
            yield futures[future], future.result()


def _on_spark(items: Sequence[Pair], master: str, options: Mapping[str, Any]) -> Iterator[tuple[int, Result]]:
    """One Spark task per pair (``numSlices=len(items)``); results stream back partition by partition."""
    from verifier.runtime.spark import get_context

    sc = get_context(master)
    ship_packages(sc)
    opts = dict(options)
    rdd = sc.parallelize(list(enumerate(items)), max(1, len(items)))
    checked = rdd.map(lambda item: (item[0], check_pair(item[1], opts)))
    yield from checked.toLocalIterator(prefetchPartitions=True)


_SHIPPED: set[int] = set()


def ship_packages(sc: Any) -> None:
    """Zip sparkeq's packages and ``addPyFile`` the zip (once per SparkContext): Spark's standard way
    of putting Python code on the executors' path."""
    if id(sc) in _SHIPPED:
        return
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    fd, path = tempfile.mkstemp(prefix="sparkeq-", suffix=".zip")
    os.close(fd)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for package in PACKAGES:
            base = os.path.join(root, package)
            for folder, dirs, files in os.walk(base):
                dirs[:] = [d for d in dirs if d != "__pycache__"]
                for name in files:
                    if name.endswith((".py", ".lark", ".properties", ".json")):
                        full = os.path.join(folder, name)
                        zf.write(full, os.path.relpath(full, root))
    sc.addPyFile(path)
    _SHIPPED.add(id(sc))
