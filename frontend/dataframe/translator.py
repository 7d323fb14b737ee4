"""PySpark DataFrame programs -> the relational kernel (``sparklite.relational``), without running them.

``translate_dataframe_source(source, function, filename, schemas)`` reads a Python file with ``ast``
and translates one function whose parameters are DataFrames into a ``RelProgram``;
``module.is_dataframe_function(fn, module)`` tells the loader whether a function is DataFrame code (else the
RDD frontend takes it). The user's module is never imported: module-level names are read from the
source (imports, constants, helper functions, type aliases), and only pure Python constants are ever
computed.

Driver code is straight-line Python over DataFrames: assignments (rebinding allowed), calls of
helper functions (inlined with their arguments), ``for`` loops over constant lists and ``if`` on
constant conditions (unrolled as Python would run them), ``createOrReplaceTempView`` then
``spark.sql``. Each DataFrame method builds the kernel node Spark's analyser builds, through
``sparklite.relational.build`` (Spark's typing rules); columns are resolved as Spark resolves them
(``frontend.dataframe.columns``: by name, case-insensitively, or by identity for ``df.k``) and named as Spark
names them. Spark's observed behaviour is in ``shared/design/dataframe-semantics.md``; the test corpus
(``tests/test_dataframe_frontend.py``) runs each construct on Spark against its translation.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from frontend.dataframe import functions as DFF
from frontend.dataframe import grouping, nulls, partitioning
from frontend.dataframe.columns import (
    DF,
    Attr,
)
from frontend.dataframe.evaluator import Evaluator
from frontend.dataframe.joins import JoinsMixin
from frontend.dataframe.module import ModuleNames, is_dataframe_function, scan_names
from frontend.dataframe.outputs import OutputsProgram
from frontend.dataframe.projections import ProjectionsMixin
from frontend.dataframe.readers import ReadersMixin
from frontend.dataframe.values import (
    DFV,
    ColV,
    DictV,
    GroupedV,
    PyV,
    SeqV,
    Value,
    as_int,
    as_str,
    describe,
    py_value,
)
from sparklite.ast import Loc
from sparklite.errors import InputError, NameResolutionError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError
from sparklite.relational.types import Schema

# ---------------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------------


def translate_dataframe_source(
    source: str, function: str | None, filename: str, schemas: Mapping[str, Schema] | None = None
) -> R.RelProgram | OutputsProgram:
    """Translate the DataFrame function ``function`` (or the file's single DataFrame function) of
    ``source``. Parameter schemas come from ``Annotated[DataFrame, "DDL"]`` annotations, else from
    ``schemas`` (parameter or table name -> Schema, e.g. from ``--schema``)."""
    tree = parse_source(source, filename)
    info = scan_names(tree, filename)
    fn = _pick_function(tree, info, function, filename)
    tr = DataFrameTranslator(info, source, dict(schemas or {}))
    try:
        return tr.translate_function(fn)
    except RecursionError:
        raise InputError("the program is nested too deeply to translate", tr.loc(fn)) from None


def parse_source(source: str, filename: str) -> pyast.Module:
    """``source`` parsed with ``ast`` (never run); a syntax error is a located ``InputError``."""
    try:
        return pyast.parse(source, filename=filename)
    except SyntaxError as exc:
        raise InputError(
            f"Python syntax error: {exc.msg}", Loc(filename, exc.lineno or 1, exc.offset or 1)
        ) from None
    except ValueError as exc:
        raise InputError(f"cannot parse the Python source: {exc}", Loc(filename, 1, 1)) from None


def _pick_function(
    tree: pyast.Module, info: ModuleNames, function: str | None, filename: str
) -> pyast.FunctionDef:
    top = {s.name: s for s in tree.body if isinstance(s, pyast.FunctionDef)}
    if function is not None:
        if function not in top:
            raise NameResolutionError(
                f"no top-level function named '{function}' in {filename}", Loc(filename, 1, 1)
            )
        return top[function]
    candidates = [n for n, d in top.items() if is_dataframe_function(d, tree)]
    called = {
        node.func.id
        for n in candidates
        for node in pyast.walk(top[n])
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id != n
    }
    roots = [c for c in candidates if c not in called]
    if len(roots) == 1:
        return top[roots[0]]
    if not roots:
        raise InputError(f"no DataFrame function found in {filename}", Loc(filename, 1, 1))
    second = top[roots[1]]
    raise InputError(
        f"several DataFrame functions in {filename} ({', '.join(roots)}): name one with file.py::function",
        Loc(filename, second.lineno, second.col_offset + 1),
    )





def _m_select(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    if kw:
        raise InputError("select() takes no keyword arguments", loc)
    return DFV(t.select(df, args, loc))


def _m_with_column(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("colName", "col").bind("withColumn", args, kw, loc)
    if not isinstance(b["col"], ColV):
        raise InputError(
            f"withColumn()'s col must be a Column, not {describe(b['col'])} (PySpark raises "
            "NOT_COLUMN; use F.lit for a constant)",
            loc,
        )
    return DFV(t.with_columns(df, [(as_str(b["colName"], loc, "a column name"), b["col"].expr)], loc))


def _m_with_columns(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    if kw or len(args) != 1 or not isinstance(args[0], DictV):
        raise InputError("withColumns() takes one dict of column name -> Column", loc)
    pairs = []
    for k, v in args[0].items:
        if not isinstance(v, ColV):
            raise InputError(f"withColumns() values must be Columns, not {describe(v)}", loc)
        pairs.append((as_str(k, loc, "a column name"), v.expr))
    return DFV(t.with_columns(df, pairs, loc))


def _m_renamed(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("existing", "new").bind("withColumnRenamed", args, kw, loc)
    return DFV(_rename(t, df, [(as_str(b["existing"], loc), as_str(b["new"], loc))], loc))


def _m_renamed_many(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("colsMap").bind("withColumnsRenamed", args, kw, loc)
    m = b["colsMap"]
    if not isinstance(m, DictV):
        raise InputError("withColumnsRenamed() takes a dict", loc)
    return DFV(_rename(t, df, [(as_str(k, loc), as_str(v, loc)) for k, v in m.items], loc))


def _rename(t: DataFrameTranslator, df: DF, pairs: list[tuple[str, str]], loc: Loc) -> DF:
    renames: dict[int, str] = {}
    for old, new in pairs:
        for i, a in enumerate(df.attrs):
            if a.name.lower() == old.lower():
                renames[i] = new
    if not renames:
        return df
    return t.passthrough(df, list(range(len(df.attrs))), loc, renames)


def _m_to_df(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    if kw:
        raise InputError("toDF() takes no keyword arguments", loc)
    names = [as_str(a, loc, "a column name") for a in args]
    if len(names) != len(df.attrs):
        raise AnalysisError(f"toDF() got {len(names)} names for {len(df.attrs)} columns", loc)
    return DFV(t.passthrough(df, list(range(len(df.attrs))), loc, dict(enumerate(names))))


def _m_drop(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    if kw:
        raise InputError("drop() takes no keyword arguments", loc)
    return DFV(t.drop(df, args, loc))


def _m_alias(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("alias").bind("alias", args, kw, loc)
    name = as_str(b["alias"], loc, "an alias")
    return DFV(replace(df, attrs=tuple(Attr(a.id, a.name, name) for a in df.attrs)))


def _m_filter(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("condition").bind("filter", args, kw, loc)
    arg_node = node.args[0] if isinstance(node, pyast.Call) and node.args else node
    return DFV(t.df_filter(df, b["condition"], loc, arg_node))


def _m_sort(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    return DFV(t.sort(df, args, kw, loc))


def _m_limit(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("num").bind("limit", args, kw, loc)
    return DFV(replace(df, rel=build.limit(df.rel, as_int(b["num"], loc, "limit()'s count"), loc)))


def _m_distinct(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    DFF.sig().bind("distinct", args, kw, loc)
    return DFV(replace(df, rel=build.distinct(df.rel, loc)))


def _m_drop_duplicates(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("subset=None").bind("dropDuplicates", args, kw, loc)
    subset = b["subset"]
    if subset == PyV(None):  # Spark's distinct() *is* dropDuplicates() over all columns
        return DFV(replace(df, rel=build.distinct(df.rel, loc)))
    if not isinstance(subset, SeqV):
        raise InputError(
            f"dropDuplicates()'s subset must be a list or tuple, not {describe(subset)} (PySpark "
            "raises NOT_EXPECTED_TYPE)",
            loc,
        )
    cols: list[int] = []
    for v in subset.items:
        n = as_str(v, loc, "a subset column name")
        hits = [i for i, a in enumerate(df.attrs) if a.name.lower() == n.lower()]
        if not hits:
            raise AnalysisError(
                f'[UNRESOLVED_COLUMN_AMONG_FIELD_NAMES] Cannot resolve column name "{n}" among '
                f"({', '.join(df.columns)})",
                loc,
            )
        cols += [i for i in hits if i not in cols]
    return DFV(replace(df, rel=build.drop_duplicates(df.rel, cols, loc)))


def _df_arg(v: Value, loc: Loc, method: str) -> DF:
    if isinstance(v, DFV):
        return v.df
    raise InputError(f"{method}() takes a DataFrame, not {describe(v)}", loc)


def _m_join(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("other", "on=None", "how=None").bind("join", args, kw, loc)
    return DFV(t.join(df, _df_arg(b["other"], loc, "join"), b["on"], b["how"], loc))


def _m_cross_join(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("other").bind("crossJoin", args, kw, loc)
    return DFV(t.join_cond(df, _df_arg(b["other"], loc, "crossJoin"), "cross", None, loc))


def _set_method(kind: R.SetKind, all_: bool) -> Any:
    def m(
        t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
    ) -> Value:
        b, _ = DFF.sig("other").bind(kind, args, kw, loc)
        return DFV(t.set_op(df, _df_arg(b["other"], loc, kind), kind, all_, loc))

    return m


def _m_union_by_name(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("other", "allowMissingColumns=False").bind("unionByName", args, kw, loc)
    allow = py_value(b["allowMissingColumns"], loc, "allowMissingColumns")
    return DFV(t.union_by_name(df, _df_arg(b["other"], loc, "unionByName"), bool(allow), loc))


def _m_group_by(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    if kw:
        raise InputError("groupBy() takes no keyword arguments", loc)
    return GroupedV(df, t.group_keys(df, args, loc))


def _m_grouping_sets(kind: str) -> Any:
    def m(
        t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
    ) -> Value:
        if kw:
            raise InputError(f"{kind}() takes no keyword arguments", loc)
        keys = t.group_keys(df, args, loc)
        return GroupedV(df, keys, grouping.grouping_sets(kind, keys))

    return m


def _m_agg(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    return t.grouped_method(GroupedV(df, ()), "agg", args, kw, loc)


def _m_transform(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    if not args:
        raise InputError("transform() needs a function", loc)
    return t.call(args[0], [DFV(df), *args[1:]], kw, loc, node)


GLOBAL_TEMP = "global_temp"


def _m_view(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    method = node.func.attr if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) else ""
    b, _ = DFF.sig("name").bind(method or "createOrReplaceTempView", args, kw, loc)
    name = as_str(b["name"], loc, "a view name")
    key = name.lower()
    if "Global" in method:  # Spark's global_temp database: read as global_temp.name (semantics-notes)
        key = f"{GLOBAL_TEMP}.{key}"
    if method in ("createTempView", "createGlobalTempView") and key in t.views:
        raise AnalysisError(
            f"[TEMP_TABLE_OR_VIEW_ALREADY_EXISTS] temporary view '{name}' already exists", loc
        )
    t.views[key] = df
    return PyV(None)


def _action(kind: R.ActionKind) -> Any:
    def m(
        t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
    ) -> Value:
        if kind == "take":
            b, _ = DFF.sig("num").bind("take", args, kw, loc)
            return t.action(df, "take", as_int(b["num"], loc, "take()'s count"), loc)
        DFF.sig().bind(kind, args, kw, loc)
        return t.action(df, kind, None, loc)

    return m


def _m_head(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("n=None").bind("head", args, kw, loc)
    if b["n"] == PyV(None):
        return t.action(df, "first", None, loc)
    return t.action(df, "take", as_int(b["n"], loc, "head()'s count"), loc)


def _m_fillna(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("value", "subset=None").bind("fillna", args, kw, loc)
    pairs = nulls.fill_columns(df, b["value"], b["subset"], loc)
    return DFV(t.with_columns(df, pairs, loc) if pairs else df)


def _m_dropna(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("how='any'", "thresh=None", "subset=None").bind("dropna", args, kw, loc)
    cond = nulls.drop_condition(df, b["how"], b["thresh"], b["subset"], loc)
    return DFV(t.df_filter(df, ColV(cond), loc))


_DF_METHODS = MappingProxyType(
    {
        "select": _m_select,
        "withColumn": _m_with_column,
        "withColumns": _m_with_columns,
        "withColumnRenamed": _m_renamed,
        "withColumnsRenamed": _m_renamed_many,
        "toDF": _m_to_df,
        "drop": _m_drop,
        "alias": _m_alias,
        "filter": _m_filter,
        "where": _m_filter,
        "orderBy": _m_sort,
        "sort": _m_sort,
        "limit": _m_limit,
        "distinct": _m_distinct,
        "dropDuplicates": _m_drop_duplicates,
        "drop_duplicates": _m_drop_duplicates,
        "join": _m_join,
        "crossJoin": _m_cross_join,
        "union": _set_method("union", True),
        "unionAll": _set_method("union", True),
        "unionByName": _m_union_by_name,
        "intersect": _set_method("intersect", False),
        "intersectAll": _set_method("intersect", True),
        "subtract": _set_method("except", False),
        "exceptAll": _set_method("except", True),
        "groupBy": _m_group_by,
        "groupby": _m_group_by,
        "rollup": _m_grouping_sets("rollup"),
        "cube": _m_grouping_sets("cube"),
        "agg": _m_agg,
        "transform": _m_transform,
        "createOrReplaceTempView": _m_view,
        "createTempView": _m_view,
        "createGlobalTempView": _m_view,
        "createOrReplaceGlobalTempView": _m_view,
        "count": _action("count"),
        "collect": _action("collect"),
        "first": _action("first"),
        "take": _action("take"),
        "head": _m_head,
        "fillna": _m_fillna,
        "dropna": _m_dropna,
        "selectExpr": lambda t, df, a, k, loc, n: DFV(t.select_expr(df, a, loc, n)),
        "repartition": partitioning.repartition,  # the same bag (frontend.dataframe.partitioning)
        "coalesce": partitioning.coalesce,
    }
)


class DataFrameTranslator(ReadersMixin, ProjectionsMixin, JoinsMixin, Evaluator):
    """Reads one DataFrame function: the driver evaluator with the DataFrame methods of the mixins and the
    method table above."""

    DF_METHODS = _DF_METHODS


__all__ = ["translate_dataframe_source", "DataFrameTranslator"]
