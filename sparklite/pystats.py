"""Python's ``statistics`` functions as SparkLite builtins (``statistics.mean(xs)``...), for functions
Spark runs (issue 20: mahmoudparsian chap01 ``compute_stats``).

Why exact: an RDD task runs CPython's own ``statistics`` module on the values (a ``ResultIterable`` of a
``groupByKey`` group, or a list); the reference interpreter calls that same module on the same values in
a list, so values, types and exceptions are CPython's. The module computes with exact fractions, so the
result does not depend on the order of the values (a group's order depends on the partitioning; the
result does not). Proofs do not encode these calls (``encoder.basic`` has no theory for them): two
programs are proved equal through them only when they are the same term (congruence).

Types, as CPython 3.11 computes them (``docs/semantics-notes.md``, checked on Spark):
- ``mean``, ``median``, ``variance``, ``pvariance`` of ints: ``Num`` (``sparklite.types.NumType``): an
  int when the exact result is integral (``mean([1, 3]) == 2``), else a float (``mean([1, 2]) == 1.5``);
  ``median`` of an even count of ints averages with ``/`` (always a float), of an odd count is an element
  (an int). Of floats: ``Float``.
- ``stdev``, ``pstdev``, ``fmean``: ``Float``; ``median_low``/``median_high``: an element (``Int`` or
  ``Float``).
- Raises ``StatisticsError`` (a ``ValueError``) on too few values (none; one for ``stdev``/``variance``),
  ``OverflowError`` when an exact result is too large for a float.
Lists of bools (``statistics`` keeps the ``bool`` type) and of other values are not read.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

from sparklite.types import FLOAT, INT, NUM, ListType, Type

#: name -> the result type for a list of ints (floats always give Float)
FUNCTIONS: dict[str, Type] = {
    "mean": NUM, "median": NUM, "variance": NUM, "pvariance": NUM,
    "stdev": FLOAT, "pstdev": FLOAT, "fmean": FLOAT, "median_low": INT, "median_high": INT,
}


class StatsTypeError(Exception):
    """Arguments of a type the builtin does not take (``sparklite.builtins`` reports it as a type error)."""


def typing(name: str) -> Callable[[Sequence[Type]], Type]:
    def rule(ts: Sequence[Type]) -> Type:
        t = ts[0]
        if not (isinstance(t, ListType) and t.elem in (INT, FLOAT)):
            raise StatsTypeError(f"statistics.{name} takes a list of Ints or of Floats, not {t}")
        return FLOAT if t.elem == FLOAT else FUNCTIONS[name]
    return rule


def implementation(name: str) -> Callable[[Any], Any]:
    fn = getattr(statistics, name)

    def run(xs: Any) -> Any:
        return fn(list(xs))
    return run
