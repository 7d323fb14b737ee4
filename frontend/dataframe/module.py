"""Reading the analysed module's top level, and telling DataFrame code from RDD code.

Why apart: the loader asks ``is_dataframe_function`` before any translation, and the translator needs
the same scan of module-level names (imports, constants, helpers) and the tables of DataFrame methods
inside and outside the fragment; none of it depends on the driver evaluator.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from frontend.dataframe.values import (
    FUNCTIONS_MODULE,
    canonical,
)

MAX_INLINE_DEPTH = 40
_PLACEHOLDER = "__sparkeq_dataframe__"  # the DataFrame SQL expression strings are read against
MAX_UNROLL = 10_000

# DataFrame methods that RDDs do not have (a function calling one is DataFrame code).
DATAFRAME_ONLY_METHODS = frozenset(
    {
        "select",
        "selectExpr",
        "withColumn",
        "withColumns",
        "withColumnRenamed",
        "withColumnsRenamed",
        "where",
        "orderBy",
        "sort",
        "agg",
        "crossJoin",
        "dropDuplicates",
        "drop_duplicates",
        "drop",
        "unionByName",
        "unionAll",
        "intersectAll",
        "exceptAll",
        "limit",
        "alias",
        "createOrReplaceTempView",
        "createTempView",
        "groupby",
        "toDF",
        "dtypes",
        "printSchema",
        "show",
    }
)

# Methods outside the fragment, with the reason shown to the user.
UNSUPPORTED_DF_METHODS = MappingProxyType(
    {
        "show": "show() prints rows (a side effect); return the DataFrame instead",
        "printSchema": "printSchema() prints (a side effect)",
        "explain": "explain() prints (a side effect)",
        "toPandas": "pandas results are not supported",
        "foreach": "side effects",
        "foreachPartition": "side effects",
        "write": "writing is a side effect",
        "writeTo": "writing is a side effect",
        "rdd": "converting to an RDD is not supported",
        "sample": "sampling is random",
        "randomSplit": "sampling is random",
        "repartitionByRange": "repartitioning is not modelled",
        "sortWithinPartitions": "per-partition order is not modelled",
        "replace": "replace is not supported yet",
        "pivot": "pivot is not supported yet",
        "groupingSets": "grouping sets are not supported yet",
        "unpivot": "unpivot is not supported yet",
        "melt": "melt is not supported yet",
        "describe": "describe() statistics are not supported",
        "summary": "summary() statistics are not supported",
        "dropDuplicatesWithinWatermark": "streaming",
        "withWatermark": "streaming",
        "observe": "observations are side effects",
        "mapInPandas": "pandas UDFs",
        "mapInArrow": "Arrow UDFs",
        "toLocalIterator": "iterators are not supported",
        "tail": "tail()",
        "isEmpty": "isEmpty() is not supported yet",
        "checkpoint": "checkpoints",
        "localCheckpoint": "checkpoints",
        "lateralJoin": "lateral joins are not supported",
        "crosstab": "its columns are the data's values: read only in a DataFrame script over rows the "
                    "script writes (docs/scripts.md)",
        "freqItems": "freqItems",
        "approxQuantile": "approximate",
        "cov": "statistics",
        "corr": "statistics",
        "exceptAll_": "",
        "hint": "hints are not supported",
        "registerTempTable": "use createOrReplaceTempView",
        "offset": "offset is not supported yet",
        "colRegex": "colRegex is not supported",
    }
)

# Attributes that are not methods: rejected where they are read.
_DF_PROPERTIES = frozenset(
    {"rdd", "write", "writeStream", "schema", "stat", "storageLevel", "isStreaming"}
)

_IDENTITY_METHODS = frozenset({"cache", "persist", "unpersist"})

_JOIN_KINDS = MappingProxyType(
    {
        "inner": "inner",
        "cross": "cross",
        "outer": "full",
        "full": "full",
        "fullouter": "full",
        "left": "left",
        "leftouter": "left",
        "right": "right",
        "rightouter": "right",
        "leftsemi": "semi",
        "semi": "semi",
        "leftanti": "anti",
        "anti": "anti",
    }
)

_PY_BUILTINS = frozenset(
    {
        "dict",
        "len",
        "str",
        "int",
        "float",
        "bool",
        "list",
        "tuple",
        "range",
        "sorted",
        "min",
        "max",
        "abs",
        "sum",
        "enumerate",
        "zip",
        "reversed",
        "round",
        "isinstance",
    }
)
_PY_BUILTIN_MISSING = MappingProxyType(
    {
        "print": "print() is a side effect",
        "open": "file access",
        "eval": "eval",
        "exec": "exec",
        "input": "input",
        "getattr": "getattr",
        "setattr": "setattr",
    }
)

# ---------------------------------------------------------------------------------------------------
# Module scan
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModuleNames:
    """Top-level bindings of the analysed file, read without executing it: imports (name -> dotted
    path), functions, and names assigned exactly once (their value expressions, evaluated on use).
    A name bound more than once, or by any other statement (a decorated ``def``, a class, a relative
    import, anything under ``if``/``try``), is ``opaque``: its value is not known statically."""

    filename: str
    tree: pyast.Module
    imports: Mapping[str, str]
    defs: Mapping[str, pyast.FunctionDef]
    assigned: Mapping[str, pyast.expr]
    opaque: frozenset[str]
    star_modules: tuple[str, ...]


def scan_names(tree: pyast.Module, filename: str) -> ModuleNames:
    from frontend.python.names import _assigned_names

    imports: dict[str, str] = {}
    defs: dict[str, pyast.FunctionDef] = {}
    assigned: dict[str, pyast.expr] = {}
    opaque: set[str] = set()
    stars: list[str] = []
    counts: dict[str, int] = {}
    for stmt in tree.body:
        for n in _assigned_names(stmt):
            counts[n] = counts.get(n, 0) + 1
    for stmt in tree.body:
        if isinstance(stmt, pyast.Import):
            for a in stmt.names:
                if a.asname:
                    imports[a.asname] = a.name
                else:
                    root = a.name.split(".")[0]
                    imports[root] = root
        elif isinstance(stmt, pyast.ImportFrom) and stmt.level == 0 and stmt.module:
            for a in stmt.names:
                if a.name == "*":
                    stars.append(canonical(stmt.module))
                else:
                    imports[a.asname or a.name] = f"{stmt.module}.{a.name}"
        elif isinstance(stmt, pyast.FunctionDef) and not stmt.decorator_list:
            defs[stmt.name] = stmt
        elif isinstance(stmt, pyast.Assign | pyast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, pyast.Assign) else [stmt.target]
            if len(targets) == 1 and isinstance(targets[0], pyast.Name) and stmt.value is not None:
                assigned[targets[0].id] = stmt.value
            else:
                opaque.update(_assigned_names(stmt))
        else:
            opaque.update(_assigned_names(stmt))
    opaque |= {name for name, c in counts.items() if c > 1}
    for name in opaque:
        imports.pop(name, None)
        defs.pop(name, None)
        assigned.pop(name, None)
    return ModuleNames(
        filename,
        tree,
        MappingProxyType(imports),
        MappingProxyType(defs),
        MappingProxyType(assigned),
        frozenset(opaque),
        tuple(stars),
    )


def _module_of(module: Any) -> pyast.Module:
    if isinstance(module, pyast.Module):
        return module
    tree = getattr(module, "tree", None)
    if isinstance(tree, pyast.Module):
        return tree
    raise TypeError(f"expected a parsed module, not {type(module).__name__}")


def is_dataframe_function(fn: pyast.FunctionDef, module: Any, _seen: frozenset[str] = frozenset()) -> bool:
    """Whether ``fn`` is DataFrame code: a parameter annotated ``DataFrame`` (or ``Annotated[DataFrame,
    ...]``, directly or through a module-level alias) or ``SparkSession``, or a body using DataFrame-only
    methods, ``pyspark.sql.functions`` or ``spark.sql``, or calling a module function that is DataFrame
    code (``groupBy(...).count()`` alone is both APIs). ``module`` is the parsed file (``ast.Module``)
    or an object with a ``tree`` attribute."""
    tree = _module_of(module)
    info = scan_names(tree, "<module>")
    top = {s.name: s for s in tree.body if isinstance(s, pyast.FunctionDef)}
    seen = _seen | {fn.name}
    fnames = {n for n, p in info.imports.items() if canonical(p) == FUNCTIONS_MODULE}
    fmembers = {n for n, p in info.imports.items() if canonical(p).startswith(FUNCTIONS_MODULE + ".")}
    aliases = {n for n, v in info.assigned.items() if _mentions_dataframe(v, set())}

    for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
        if a.annotation is not None and _mentions_dataframe(a.annotation, aliases):
            return True
        if a.annotation is not None and _mentions_session(a.annotation):  # def f(spark: SparkSession, df)
            return True
    for node in pyast.walk(fn):
        if isinstance(node, pyast.Attribute) and isinstance(node.ctx, pyast.Load):
            if node.attr in DATAFRAME_ONLY_METHODS or node.attr == "sql":
                return True
            if isinstance(node.value, pyast.Name) and node.value.id in fnames:
                return True
        if isinstance(node, pyast.Name) and node.id in fmembers:
            return True
        if _column_filter(node):
            return True
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id in top \
                and node.func.id not in seen and is_dataframe_function(top[node.func.id], tree, seen):
            return True
    return False


def _column_filter(node: pyast.AST) -> bool:
    """``x.filter(x.a > 1)`` / ``x.filter("a > 1")``: RDD ``filter`` takes a function, so a comparison
    or a string argument makes it DataFrame code."""
    if not (
        isinstance(node, pyast.Call)
        and isinstance(node.func, pyast.Attribute)
        and node.func.attr in ("filter", "where")
        and len(node.args) == 1
    ):
        return False
    arg = node.args[0]
    return isinstance(arg, pyast.Compare | pyast.BinOp | pyast.UnaryOp) or (
        isinstance(arg, pyast.Constant) and isinstance(arg.value, str)
    )


def _mentions_session(node: pyast.AST) -> bool:
    return any(isinstance(n, pyast.Name) and n.id == "SparkSession"
               or isinstance(n, pyast.Attribute) and n.attr == "SparkSession" for n in pyast.walk(node))


def _mentions_dataframe(node: pyast.AST, aliases: set[str]) -> bool:
    for n in pyast.walk(node):
        if isinstance(n, pyast.Name) and (n.id == "DataFrame" or n.id in aliases):
            return True
        if isinstance(n, pyast.Attribute) and n.attr == "DataFrame":
            return True
        if (
            isinstance(n, pyast.Constant)
            and isinstance(n.value, str)
            and "DataFrame" in n.value
            and n is node
        ):
            return True
    return False
