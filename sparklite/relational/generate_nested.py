"""Random array expressions and ``explode``-like relations for ``sparklite.relational.generate``.

Why apart: the generator is shared by several lines of work; arrays join it through two hooks, the
argument kinds ``strarray``/``intarray`` of its function table (an array built here, then read by
``size``, ``element_at``...) and the relation draw ``generate``. What the draws aim at: Java-regex
``split`` patterns where Java and naive splitting differ (``.``, an empty pattern, ``b*``, limits 0,
1, 2 and -1, trailing empty strings), indexes out of bounds and 0 (``INVALID_ARRAY_INDEX``,
``INVALID_INDEX_OF_ZERO``), NULL elements, empty arrays under ``explode`` and ``explode_outer``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sparklite.relational import ast as R
from sparklite.relational import build as B
from sparklite.relational.types import INT, STRING, ArrayType

#: input column types drawn by ``generate.random_schemas`` (with their weights)
COLUMN_TYPES = ((ArrayType(STRING), 0.4), (ArrayType(INT), 0.3))

#: the generator's argument kinds that are arrays (built by ``array_arg``)
ARRAY_KINDS = frozenset({"strarray", "intarray"})

SPLIT_PATTERNS = (",", ".", "", "a", r"\s", "[,.]", "b*", ",?", "1", "-")
SPLIT_LIMITS = (-1, -1, 0, 1, 2)

#: (function, argument kinds, result kind) drawn by ``generate._Exprs.function``; "idx"/"idx0" are
#: small integer literals (``generate._SMALL_ARGS``)
FUNCTIONS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("size", ("strarray",), "int"), ("size", ("intarray",), "int"),
    ("array_contains", ("strarray", "string"), "bool"), ("array_contains", ("intarray", "int"), "bool"),
    # indexes read split arrays only: a literal index out of an ``array(...)``'s bounds is folded by
    # Spark 4.3's optimiser into code that does not compile under orderBy+limit (a Spark bug:
    # docs/semantics-notes.md, "Arrays")
    ("element_at", ("strarray", "idx"), "string"), ("get_item", ("strarray", "idx0"), "string"),
    ("concat_ws", ("string", "strarray"), "string"),
    ("concat_ws", ("string", "strarray", "string"), "string"),
)
#: aggregates drawn by ``generate._Exprs.aggregate`` (with their weights)
AGGREGATES = (("collect_list", 0.5), ("collect_set", 0.5))
SMALL_ARGS: dict[str, tuple[Any, ...]] = {"idx": (1, 2, -1, 0, 3, -4), "idx0": (0, 1, 2, -1)}


def array_arg(rng: Any, expr: Callable[[str, int], R.Expr], kind: str, d: int,
              cols: Sequence[R.Col] = ()) -> R.Expr:
    """An array of ``kind``: an array column of ``cols``, ``split`` of a string, ``array(...)`` of ints,
    maybe sorted or deduplicated."""
    element = STRING if kind == "strarray" else INT
    own = [c for c in cols if isinstance(c.type, ArrayType) and c.type.element == element]
    if own and rng.random() < 0.5:
        base: R.Expr = rng.choice(own)
    elif kind == "strarray":
        base = B.func("split", [expr("string", d), B.lit(rng.choice(SPLIT_PATTERNS)),
                                B.lit(rng.choice(SPLIT_LIMITS))])
    else:
        base = B.func("array", [expr("int", d) for _ in range(rng.randint(1, 3))])
    r = rng.random()
    if r < 0.15:
        return B.func("sort_array", [base, B.lit(rng.random() < 0.5)])
    if r < 0.25:
        return B.func("array_distinct", [base])
    if r < 0.3 and kind == "intarray":
        return B.func("flatten", [B.func("array", [base, base])])
    return base


def generate(rng: Any, src: R.Rel, expr: Callable[[str, int], R.Expr]) -> R.Rel:
    """``explode``/``explode_outer``/``posexplode(_outer)`` of an array built from ``src``'s columns,
    sometimes with the array itself kept as an output column (arrays reach the result)."""
    arr = array_arg(rng, expr, rng.choice(("strarray", "strarray", "intarray")), rng.randint(0, 2),
                    B.columns_of(src))
    if rng.random() < 0.3:
        cols = list(B.columns_of(src))
        src = B.project(src, [*cols, arr], [*(c.name for c in cols), "arr"])
        arr = B.columns_of(src)[-1]
    return B.generate(src, arr, outer=rng.random() < 0.4, position=rng.random() < 0.4)


__all__ = ["AGGREGATES", "ARRAY_KINDS", "FUNCTIONS", "SMALL_ARGS", "array_arg", "generate"]
