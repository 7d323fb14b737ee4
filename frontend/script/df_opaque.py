"""Random columns and approximate quantiles in DataFrame scripts, kept opaque
(``sparklite.relational.opaque``).

Why: ``df.withColumn("r", F.rand(seed))`` gives each row a value that depends on the seed *and* on how
Spark partitions and orders the rows (``rand`` is seeded per partition); without a seed, on a seed drawn
at each run. ``df.approxQuantile(col, probabilities, relativeError)`` returns what a Greenwald-Khanna
sketch merged across partitions gives, which also depends on the partitioning. Neither can be computed
exactly from the input bag, so neither is modelled: each is an ``Opaque`` call over its input DataFrame,
marked nondeterministic, so two scripts are proved equal only when they make the same call on inputs
proved equal, and then as *sets of possible results* (the verdict says so). The interpreter cannot run
them: a difference that needs their values is ``unknown``.

Only in scripts: ``withColumn(name, F.rand(seed))`` / ``F.randn`` adding a new column, and
``approxQuantile`` with literal arguments, whose result is printed or kept. A random column anywhere else
(in a ``select``, an expression, a filter) is refused where it is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from frontend.dataframe.columns import DF
from frontend.dataframe.values import ActionV, PyV, SeqV, Value
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational.types import DOUBLE, Field, Schema

RANDOM = ("rand", "randn")


@dataclass(frozen=True)
class RandomV:
    """``F.rand(seed)`` / ``F.randn(seed)`` (``seed`` None: drawn at each run), not yet placed."""

    name: str
    seed: int | None
    loc: Loc
    draw: int | None = None  # without a seed: which F.rand()/F.randn() call of the script it is

    DESCRIPTION = "a random column (F.rand/F.randn: only withColumn(name, F.rand(seed)) is read)"


def random_column(name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, draw: int = 0
                  ) -> RandomV:
    """``F.rand(seed)``; ``draw`` numbers the script's calls: a call without a seed draws its seed once,
    when the column is made, so one such column read twice gives the same values twice, and two calls
    give other values (checked on Spark 4: ``a = df.withColumn("r", F.rand()); a.show(); a.show()``
    prints one table twice, two ``withColumn("r", F.rand())`` print two). Two unseeded calls are the
    same call only when they are the same draw (review 5 found them proved equal)."""
    seed = args[0] if args else kwargs.get("seed", PyV(None))
    if len(args) > 1 or set(kwargs) - {"seed"} or not (
        isinstance(seed, PyV) and (seed.value is None or type(seed.value) is int)
    ):
        raise UnsupportedError(f"F.{name} takes one literal int seed here", loc, construct=name)
    return RandomV(name, seed.value, loc, draw if seed.value is None else None)  # type: ignore[union-attr]


def with_random_column(tr: Any, df: DF, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> DF | None:
    """``df.withColumn(name, F.rand(seed))`` as an ``Opaque`` call adding a double column, or None when
    the column is not a random one."""
    col = args[1] if len(args) > 1 else kwargs.get("col")
    if not isinstance(col, RandomV):
        return None
    name = args[0] if args else kwargs.get("colName")
    if not isinstance(name, PyV) or not isinstance(name.value, str):
        raise InputError("withColumn()'s colName must be a string", loc)
    if name.value.lower() in (c.lower() for c in df.columns):
        raise UnsupportedError(f"withColumn({name.value!r}, F.{col.name}(...)) replacing a column is not "
                               "modelled (only a new random column is)", loc, construct=col.name)
    schema = Schema((*df.rel.schema.fields, Field(name.value, DOUBLE, False)))
    node = R.Opaque(f"withColumn({name.value!r}, F.{col.name}({'' if col.seed is None else col.seed}))",
                    (("column", name.value), ("function", col.name), ("seed", col.seed), ("draw", col.draw)),
                    (df.rel,), schema,
                    True, True, layout=True, loc=loc)
    out: DF = tr.fresh_df(node)
    return out


def approx_quantile(df: DF, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> ActionV:
    """``df.approxQuantile(col, probabilities, relativeError)``: an action whose result is not modelled."""
    names = ("col", "probabilities", "relativeError")
    bound = dict(zip(names, args, strict=False)) | kwargs
    if len(args) > 3 or set(bound) != set(names):
        raise InputError("approxQuantile takes col, probabilities and relativeError", loc)
    cols, probs, err = (_literal(bound[n], loc) for n in names)
    if not isinstance(probs, tuple) or not all(isinstance(p, int | float) for p in probs):
        raise UnsupportedError("approxQuantile's probabilities must be a literal list of numbers", loc,
                               construct="approxQuantile")
    wanted = cols if isinstance(cols, tuple) else (cols,)
    if not all(isinstance(c, str) for c in wanted) or not isinstance(err, int | float):
        raise UnsupportedError("approxQuantile takes column names and a literal relative error", loc,
                               construct="approxQuantile")
    missing = [c for c in wanted if c.lower() not in (x.lower() for x in df.columns)]
    if missing:
        raise InputError(f"approxQuantile: no column {missing[0]!r} (its columns: {', '.join(df.columns)})",
                         loc)
    schema = Schema(tuple(Field(f"q{i}", DOUBLE, True) for i in range(len(probs) * len(wanted))))
    node = R.Opaque(f"approxQuantile({cols!r}, {list(probs)!r}, {err!r})",
                    (("col", cols), ("probabilities", probs), ("relativeError", err)), (df.rel,), schema,
                    True, True, layout=True, loc=loc)
    return ActionV(R.Action("collect", node, None, loc=loc))


def _literal(v: Value, loc: Loc) -> Any:
    if isinstance(v, PyV):
        return v.value
    if isinstance(v, SeqV) and all(isinstance(i, PyV) for i in v.items):
        return tuple(i.value for i in v.items)  # type: ignore[union-attr]
    raise UnsupportedError("approxQuantile takes literal arguments here", loc, construct="approxQuantile")
