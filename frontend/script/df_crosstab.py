"""``df.crosstab(col1, col2)`` in a DataFrame script, over data the script writes (issue 20/21).

Why a module of its own: crosstab's *columns* are the data's values (one column per distinct value of
``col2``), so its schema is known only once the rows are. The kernel's relations have static schemas,
so crosstab is read only where the rows are constants of the script (``createDataFrame`` of literal
rows, ``spark.range``): the DataFrame is computed by the reference interpreter while the script is
read, and crosstab's result becomes a literal table with Spark's exact schema and rows. Over a file or a
parameter it is refused with a location (nothing can say which columns it would have).

What Spark 4 computes (checked on Spark 4.3, ``docs/semantics-notes.md``): a ``groupBy`` of ``col1`` and
a ``pivot`` on ``col2`` counted, NULL counts filled with 0 --

* the first column is named ``{col1}_{col2}`` (the arguments as written, case kept), type ``string``,
  holding ``str(value)`` of ``col1`` or the text ``null`` for a NULL; nullable as ``col1`` is;
* then one ``bigint NOT NULL`` column per distinct value of ``col2`` as a string (``null`` for NULL,
  backticks removed *before* the distinct: ``b`` and ``b``` are one column), sorted as strings
  (``"10"`` before ``"9"``);
* the rows are unordered (a grouping); an empty input gives the first column only.

Only integral, string and boolean columns are read (their text as Spark casts them is Python's
``str`` for ints and strings and ``true``/``false``); other types are refused rather than guessed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from frontend.dataframe.columns import DF
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import interpreter
from sparklite.relational.types import BIGINT, STRING, BooleanType, Field, IntegralType, Schema, StringType
from sparklite.relational.values import RelResult
from sparklite.values import Bag, Sorted

MAX_VALUES = 1000  # distinct values of col2 (Spark's own limit is 10,000 pivot values)


def tables_read(node: Any) -> set[str]:
    """The names of the ``Table``s a relation reads (through nested nodes and tuples of them)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, R.Table):
            found.add(n.name)
        elif isinstance(n, R.RNode):
            stack += [getattr(n, f) for f in n.__dataclass_fields__ if f != "loc"]
        elif isinstance(n, tuple | list):
            stack += list(n)
    return found


def _text(value: Any, t: Any) -> str:
    """A cell as Spark's string cast writes it (``null`` for NULL, as crosstab labels it)."""
    if value is None:
        return "null"
    if isinstance(t, BooleanType):
        return "true" if value else "false"
    return str(value)


def _column(df: DF, name: str, loc: Loc) -> int:
    if "." in name or "`" in name:  # Spark parses such a name (a struct field, a quoted name): not modelled
        raise UnsupportedError(f"crosstab's column '{name}': a name with '.' or '`' is not modelled", loc,
                               construct="crosstab")
    hits = [i for i, c in enumerate(df.columns) if c.lower() == name.lower()]
    if len(hits) != 1:
        raise UnsupportedError(
            f"crosstab's column '{name}' is {'ambiguous' if hits else 'not a column of the DataFrame'}",
            loc,
            construct="crosstab",
        )
    t = df.fields[hits[0]].type
    if not isinstance(t, IntegralType | StringType | BooleanType):
        raise UnsupportedError(
            f"crosstab of a {t.simple} column: only integer, string and boolean columns are modelled "
            "(their text as Spark writes it is known exactly)",
            loc,
            construct="crosstab",
        )
    return hits[0]


Rows = list[tuple[Any, ...]]
Literal = dict[str, tuple[Schema, tuple[tuple[Any, ...], ...]]]  # a script's literal tables (schema, rows)


def crosstab_rows(df: DF, col1: str, col2: str, sources: Literal, loc: Loc) -> tuple[Schema, Rows]:
    """The schema and rows of ``df.crosstab(col1, col2)``; ``sources`` are the script's literal tables
    (name -> schema, rows). A DataFrame that reads anything else is refused."""
    i, j = _column(df, col1, loc), _column(df, col2, loc)
    read = tables_read(df.rel)
    missing = sorted(read - set(sources))
    if missing:
        raise UnsupportedError(
            "crosstab over data read from a file or a parameter: its columns are the values of "
            f"'{col2}', known only when the rows are written in the script",
            loc,
            construct="crosstab",
        )
    params = tuple(R.TableParam(n, sources[n][0], loc=loc) for n in sorted(read))
    program = R.RelProgram("crosstab", params, df.rel, language="dataframe", loc=loc)
    run = interpreter.run(program, {n: list(sources[n][1]) for n in sorted(read)})
    result = run.outcome
    if run.caveats or not isinstance(result, RelResult):
        raise UnsupportedError(
            "crosstab over a DataFrame whose rows are not exactly known while the script is read "
            f"({'; '.join(sorted(run.caveats)) or result})",
            loc,
            construct="crosstab",
        )
    rows = _rows(result.rows, loc)
    t1, t2 = df.fields[i].type, df.fields[j].type
    labels = sorted({_text(r[j], t2).replace("`", "") for r in rows})
    if len(labels) > MAX_VALUES:
        raise UnsupportedError(
            f"crosstab with {len(labels)} distinct values of '{col2}' (at most {MAX_VALUES} are modelled)",
            loc,
            construct="crosstab",
        )
    counts = Counter((_text(r[i], t1), _text(r[j], t2).replace("`", "")) for r in rows)
    keys = sorted({k for k, _ in counts})
    schema = Schema((
        Field(f"{col1}_{col2}", STRING, df.fields[i].nullable),
        *(Field(v, BIGINT, False) for v in labels),
    ))
    return schema, [(k, *(counts.get((k, v), 0) for v in labels)) for k in keys]


def _rows(rows: Bag | Sorted, loc: Loc) -> list[tuple[Any, ...]]:
    if isinstance(rows, Bag):
        return list(rows.items)
    if rows.taken is not None:
        raise UnsupportedError(
            "crosstab over a limit that cuts among tied rows (which rows Spark keeps is not known)",
            loc,
            construct="crosstab",
        )
    return [r for g in rows.groups for r in g.items]
