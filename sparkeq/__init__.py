"""sparkeq: SMT-based equivalence checking of PySpark programs.

The facade users import (``import sparkeq``): ``check``, ``check_many``, ``Result``, ``__version__``.
The work is done by the design card's packages (``frontend``, ``sparklite``, ``encoder``,
``verifier``); this package only re-exports their public entry points. Importing it is light: Z3, the
frontend and Spark load on the first check, and the library never starts a JVM unless asked
(``replay=True``), since optimiser tooling calls ``check`` in loops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from verifier.core.result import Counterexample, Result

__all__ = ["Counterexample", "Result", "__version__", "check", "check_many"]


def check(left: Any, right: Any, **options: Any) -> Result:
    """Are ``left`` and ``right`` equivalent under Spark's semantics?

    ``left``/``right``: ``"file.py::function"``, ``"file.py"``, a ``.sl`` file, source text (with
    ``function=``), a ``(source, function)`` pair, a Python function object (its source is read, never
    executed; closures over int/str/bool values, static methods and named lambdas work) or a SparkLite
    ``Program``. Options: ``timeout`` (seconds, default 60: a hard cap; the verdict does not depend on
    it unless the check reaches it), ``effort`` (default 1: multiplies the deterministic budgets, Z3's
    resource limits and the counted searches), ``replay`` (default False: replay a
    counterexample on Spark), ``master`` (default ``local[2]``), ``function``, ``left_function``,
    ``right_function``. The ``Result`` has ``verdict``, ``reason``, ``counterexample``, ... and
    ``to_json()`` (the JSON contract of docs/json.md)."""
    from verifier import check as _check

    return _check(left, right, **options)


def check_many(pairs: Iterable[Any], *, workers: int | None = None, master: str | None = None,
               progress: Callable[[int, Result], None] | None = None, **options: Any) -> list[Result]:
    """Check many pairs, in a local process pool (``workers``) or as Spark tasks (``master``); see
    ``verifier.interfaces.batch.check_many``. Results come back in the order of ``pairs``."""
    from verifier.interfaces.batch import check_many as _check_many

    return _check_many(pairs, workers=workers, master=master, progress=progress, **options)


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from verifier import __version__

        return __version__
    if name in ("Result", "Counterexample"):
        from verifier.core import result

        return getattr(result, name)
    raise AttributeError(f"module 'sparkeq' has no attribute {name!r}")
