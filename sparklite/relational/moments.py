"""``stddev_samp``/``stddev_pop``/``var_samp``/``var_pop`` (SQL ``stddev``, ``std``, ``variance`` are
``_samp``) as Spark 4 computes them: ``CentralMomentAgg``'s running (count, mean, M2) in doubles.

Why a simulation and a flag: Spark updates the buffer row by row inside each input partition
(``delta = x - avg; avg += delta / n; m2 += delta * (delta - delta / n)``), then merges the partial
buffers into an empty one in the order the shuffle delivers them (``m2 = m2a + m2b + delta * deltaN *
na * nb``). Neither step is associative in floating point, so with two values or more the last bits
depend on the partitioning and on the fetch order: the value here follows one such order (partitions
in order) and the caller flags it ``partition-dependent``. With at most one value the result is
exact: NULL for none; for one, ``var_pop``/``stddev_pop`` 0.0 (NaN for an infinite value) and the
sample forms NULL (``spark.sql.legacy.statisticalAggregate=false``, Spark 4's default: the legacy
setting gives NaN). Checked on Spark 4 (``docs/semantics-notes.md``, "stddev and variance").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MOMENT_AGGREGATES = ("stddev_samp", "stddev_pop", "var_samp", "var_pop")

#: the names SQL, ``F.*`` and ``agg({col: name})`` accept -> the kernel's aggregate (Spark's aliases)
MOMENT_NAMES = {
    "stddev": "stddev_samp",
    "std": "stddev_samp",
    "stddev_samp": "stddev_samp",
    "stddev_pop": "stddev_pop",
    "variance": "var_samp",
    "var_samp": "var_samp",
    "var_pop": "var_pop",
}

Buffer = tuple[float, float, float]  # n, avg, m2


def _update(buf: Buffer, x: float) -> Buffer:
    n, avg, m2 = buf
    new_n = n + 1.0
    delta = x - avg
    delta_n = delta / new_n
    return new_n, avg + delta_n, m2 + delta * (delta - delta_n)


def _merge(a: Buffer, b: Buffer) -> Buffer:
    n1, avg1, m21 = a
    n2, avg2, m22 = b
    new_n = n1 + n2
    delta = avg2 - avg1
    delta_n = 0.0 if new_n == 0.0 else delta / new_n
    return new_n, avg1 + delta_n * n2, m21 + m22 + delta * delta_n * n1 * n2


def moment(name: str, parts: Sequence[Sequence[float]]) -> tuple[float | None, bool]:
    """The aggregate ``name`` of the non-NULL doubles of one group, given per input partition in
    order; and whether the value depends on Spark's order (two values or more)."""
    buf: Buffer = (0.0, 0.0, 0.0)
    count = 0
    for part in parts:
        if not part:
            continue
        partial: Buffer = (0.0, 0.0, 0.0)
        for x in part:
            partial = _update(partial, x)
        buf = _merge(buf, partial)
        count += len(part)
    n, _, m2 = buf
    if count == 0:
        return None, False
    if name in ("stddev_samp", "var_samp"):
        if count == 1:
            return None, False
        var = m2 / (n - 1.0)
    elif name in ("stddev_pop", "var_pop"):
        var = m2 / n
    else:
        raise ValueError(f"unknown moment aggregate {name!r}")
    value = var
    if name.startswith("stddev"):
        value = math.sqrt(var) if var >= 0 else math.nan  # Java's Math.sqrt: NaN below 0 and for NaN
    return value, count > 1 and not math.isnan(value)


__all__ = ["MOMENT_AGGREGATES", "MOMENT_NAMES", "moment"]
