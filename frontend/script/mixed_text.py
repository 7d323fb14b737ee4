"""Mixed scripts over a text file: ``sc.textFile(p).map(parse)`` made a DataFrame (issue 23).

The idiom of the corpus's course scripts (Frank Kane's ``spark-sql.py``, ``popular-movies-dataframe.py``)::

    lines = spark.sparkContext.textFile(p)
    people = lines.map(mapper)                  # mapper returns Row(ID=int(f[0]), name=..., ...)
    df = spark.createDataFrame(people)          # or people.toDF(), toDF(["a", "b"])

Why it is read this way: the RDD code is Python run by Spark's workers, so it is translated by the RDD
dialect into a SparkLite program over the file's lines (its exact Python meaning: ``int()`` of a bad field
raises, ``split`` is Python's), and the DataFrame it becomes is a *source* of the DataFrame script
(``DfSource`` of kind ``rdd``): a table computed from the file by that program and Spark's conversion of
an RDD (the schema inferred from the elements, ``sparklite.mixed``). The rest of the script is the
DataFrame script it is.

What is proved: two scripts that are the same up to renaming (congruence: the same file, the same
SparkLite program, the same conversion, the same DataFrame plans and sinks) write the same thing on every
input, errors included (a line the parser fails on fails both at the same action). Anything else with such
a source is ``unknown`` (``verifier.core.kinds.df_script``): the DataFrame prover treats a source as a
table that never raises, and this one may raise on a line and makes ``createDataFrame`` fail on an empty
file (PySpark infers the schema from ``rdd.first()``).

The conversion is modelled only where it is fixed by the program's types: an element that is a tuple
(or a ``Row(k=v, ...)``, read as the tuple of its values named by its keys, in order) of ``int``
(BIGINT), ``float`` (DOUBLE), ``str`` (STRING) or ``bool`` (BOOLEAN) values, never ``None``, schema
inferred (no schema argument): Spark then infers exactly those types from every element, whatever the
data. A function closing over driver variables, an element that may be ``None``, a schema argument, or any
other RDD method is refused with a location.
"""

from __future__ import annotations

import ast as pyast
import copy
from dataclasses import dataclass
from typing import Any

from frontend.dataframe.values import FuncV, PyV, SeqV
from sparklite import ast as sl
from sparklite import types as st
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational.types import BIGINT, BOOLEAN, DOUBLE, STRING, Field, Schema

_STAGE = "__sparkeq_text_rdd"
_ROW_NAMES = ("Row",)


@dataclass(frozen=True)
class TextRddV:
    """``sc.textFile(p)`` followed by ``map``/``filter``/``flatMap`` calls (``steps``: the method and the
    function's AST node, a lambda or a module-level ``def`` by name)."""

    DESCRIPTION = "an RDD read from a text file"

    path: str
    argv_index: int | None
    literal_path: str | None
    loc: Loc
    steps: tuple[tuple[str, Any], ...] = ()


def text_file(t: Any, args: list[Any], kwargs: dict[str, Any], loc: Loc, node: pyast.AST) -> TextRddV:
    """``sc.textFile(path)`` (a ``minPartitions`` changes no element nor their order)."""
    if len(args) != 1 or set(kwargs) - {"minPartitions"} or not isinstance(node, pyast.Call):
        raise UnsupportedError("sc.textFile(path) with one path", loc, construct="textFile")
    path, argv_index, literal = t.path_of(args[0], node.args[0])
    return TextRddV(path, argv_index, literal, loc)


def rdd_method(t: Any, rdd: TextRddV, name: str, args: list[Any], kwargs: dict[str, Any], loc: Loc,
               node: pyast.AST) -> Any:
    """A method of a text-file RDD in a DataFrame script; ``t`` is the script translator."""
    if name in ("cache", "persist") and not args and not kwargs:
        return rdd
    if name in ("map", "filter", "flatMap") and len(args) == 1 and not kwargs and isinstance(args[0], FuncV):
        fn = args[0]
        if fn.env is not None and fn.env is not getattr(t, "module_env", None):
            raise UnsupportedError(
                f"rdd.{name} of a function defined inside a function (it may close over driver variables): "
                "only lambdas and functions of the module are read on a text-file RDD of a DataFrame script",
                loc, construct=f"rdd.{name}")
        return TextRddV(rdd.path, rdd.argv_index, rdd.literal_path, rdd.loc, (*rdd.steps, (name, fn.node)))
    if name == "toDF":
        if kwargs or len(args) > 1:
            raise UnsupportedError("rdd.toDF(names) or rdd.toDF()", loc, construct="toDF")
        return t.text_rdd_df(rdd, args[0] if args else None, loc, node)
    raise UnsupportedError(
        f"rdd.{name} on an RDD read with sc.textFile in a DataFrame script is not read yet (map, filter, "
        "flatMap, cache, toDF and spark.createDataFrame(rdd) are)",
        loc, construct=f"rdd.{name}")


def _row_names(call: Any, row_names: set[str]) -> tuple[str, ...] | None:
    """The keys of ``Row(k=v, ...)`` (keywords only), else None."""
    if (isinstance(call, pyast.Call) and isinstance(call.func, pyast.Name) and call.func.id in row_names
            and not call.args and call.keywords and all(k.arg for k in call.keywords)):
        return tuple(k.arg for k in call.keywords)  # type: ignore[misc]
    return None


def _as_tuple(call: pyast.Call) -> pyast.Tuple:
    return pyast.copy_location(pyast.Tuple([k.value for k in call.keywords], pyast.Load()), call)


def _returns(fn: pyast.FunctionDef) -> list[pyast.Return]:
    """The ``return`` statements of ``fn`` itself (not of nested functions)."""
    out: list[pyast.Return] = []
    todo: list[pyast.AST] = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, pyast.Return):
            out.append(n)
        if not isinstance(n, pyast.FunctionDef | pyast.AsyncFunctionDef | pyast.Lambda | pyast.ClassDef):
            todo.extend(pyast.iter_child_nodes(n))
    return out


def _row_imports(tree: pyast.Module) -> set[str]:
    """Local names bound to ``pyspark.sql.Row`` by ``from pyspark.sql import Row [as R]``."""
    names = set()
    for s in tree.body:
        if isinstance(s, pyast.ImportFrom) and s.module in ("pyspark.sql", "pyspark.sql.types"):
            names |= {a.asname or a.name for a in s.names if a.name == "Row"}
    return names


def stage_program(tree: pyast.Module, source: str, filename: str, rdd: TextRddV, loc: Loc
                  ) -> tuple[sl.Program, tuple[str, ...] | None]:
    """The SparkLite program of ``rdd``'s steps over the file's lines (parameter ``lines: RDD[str]``) and
    the field names its elements carry (a mapped function returning ``Row(k=v, ...)`` on every path: its
    keys; None for tuples). The module is copied with only its imports and top-level functions (the RDD
    dialect reads them, never runs them); the ``Row`` calls of the mapped function become tuples."""
    from frontend.python.names import scan_module
    from frontend.python.resolve import infer_program
    from frontend.rdd.methods import RDD_METHODS
    from frontend.rdd.pipeline import translate_pipeline
    from frontend.rdd.translator import RddTranslator

    _check_driver_names(tree, [f for _, f in rdd.steps], loc)
    row_names = _row_imports(tree)
    body = [copy.deepcopy(s) for s in tree.body
            if isinstance(s, pyast.Import | pyast.ImportFrom | pyast.FunctionDef)]
    defs = {s.name: s for s in body if isinstance(s, pyast.FunctionDef)}
    names: tuple[str, ...] | None = None
    expr: pyast.expr = pyast.Name("lines", pyast.Load())
    for i, (method, fnode) in enumerate(rdd.steps):
        last_map = method == "map" and i == len(rdd.steps) - 1
        if isinstance(fnode, pyast.Lambda):
            arg: pyast.expr = copy.deepcopy(fnode)
            if last_map:
                names = _row_names(arg.body, row_names)  # type: ignore[attr-defined]
                if names is not None:
                    arg.body = _as_tuple(arg.body)  # type: ignore[attr-defined]
        elif isinstance(fnode, pyast.FunctionDef) and _only_def(tree, fnode):
            if last_map:
                rets = _returns(defs[fnode.name])
                keys = {_row_names(r.value, row_names) for r in rets}
                if len(keys) == 1 and None not in keys:
                    names = keys.pop()
                    for r in rets:
                        r.value = _as_tuple(r.value)  # type: ignore[arg-type]
            arg = pyast.copy_location(pyast.Name(fnode.name, pyast.Load()), fnode)
        else:
            raise UnsupportedError(f"rdd.{method} of a function that is neither a lambda nor a function of "
                                   "the module", loc, construct=f"rdd.{method}")
        attr = pyast.Attribute(expr, method, pyast.Load())
        expr = pyast.Call(attr, [arg], [])
    ann = pyast.Subscript(pyast.Name("RDD", pyast.Load()), pyast.Name("str", pyast.Load()), pyast.Load())
    stage = pyast.FunctionDef(
        _STAGE, pyast.arguments([], [pyast.arg("lines", ann)], None, [], [], None, []),
        [pyast.Return(expr)], [], None, None)
    pyast.fix_missing_locations(pyast.copy_location(stage, _anchor(rdd, tree)))
    for n in pyast.walk(stage):
        if not hasattr(n, "lineno") or n.lineno is None:
            pyast.copy_location(n, stage)
    module = pyast.Module([*body, stage], [])
    module = pyast.fix_missing_locations(module)
    info = scan_module(module, filename, RDD_METHODS)
    tr = RddTranslator(info, source.splitlines())
    program = infer_program(translate_pipeline(tr, stage))
    return program, names


def _only_def(tree: pyast.Module, fnode: pyast.FunctionDef) -> bool:
    """``fnode`` is the module's one top-level function of its name (so the copy named by it is it)."""
    same = [s for s in tree.body if isinstance(s, pyast.FunctionDef) and s.name == fnode.name]
    return len(same) == 1 and same[0].lineno == fnode.lineno and same[0].col_offset == fnode.col_offset


def _check_driver_names(tree: pyast.Module, fns: list[Any], loc: Loc) -> None:
    """The functions Spark runs here (and the module functions they name, transitively) read no name the
    module's driver code binds: the program is read with only the module's imports and functions, so a
    driver variable (or a rebinding of a builtin such as ``int = ...``) must not be what a name means."""
    defs = {s.name: s for s in tree.body if isinstance(s, pyast.FunctionDef)}
    driver = [s for s in tree.body if not isinstance(s, pyast.FunctionDef | pyast.Import | pyast.ImportFrom)]
    bound = {n.id for s in driver for n in pyast.walk(s)
             if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Store | pyast.Del)}
    bound |= {s.name for s in tree.body if isinstance(s, pyast.ClassDef)}
    todo, seen = list(fns), set()
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        local = {a.arg for n in pyast.walk(fn) if isinstance(n, pyast.arguments)
                 for a in (*n.posonlyargs, *n.args, *n.kwonlyargs, n.vararg, n.kwarg) if a is not None}
        local |= {n.id for n in pyast.walk(fn)
                  if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Store)}
        for n in pyast.walk(fn):
            if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Load) and n.id not in local:
                if n.id in bound:
                    raise UnsupportedError(
                        f"the function Spark runs on the text file's lines reads '{n.id}', a name the "
                        "script's driver code binds: only its own values, the module's functions and imports "
                        "are read there in a DataFrame script", Loc(loc.file, n.lineno, n.col_offset + 1),
                        construct="closure")
                if n.id in defs:
                    todo.append(defs[n.id])


def _anchor(rdd: TextRddV, tree: pyast.Module) -> pyast.AST:
    """A node at the RDD's location, for the synthetic function's own (unlocated) nodes."""
    node = pyast.Pass()
    node.lineno, node.col_offset = rdd.loc.line, max(rdd.loc.col - 1, 0)
    node.end_lineno, node.end_col_offset = rdd.loc.line, max(rdd.loc.col - 1, 0)
    return node


_SQL_OF = {st.IntType: BIGINT, st.FloatType: DOUBLE, st.StrType: STRING, st.BoolType: BOOLEAN}


def inferred_schema(program: sl.Program, names: tuple[str, ...] | None, given: Any, loc: Loc,
                    what: str) -> Schema:
    """The schema Spark infers for the program's elements: fixed by their static type (see the module
    docstring), named by the Row keys, the names given to ``toDF``/``createDataFrame``, or ``_1, _2...``."""
    from sparklite.typecheck import typecheck

    result = typecheck(program).result
    elem = result.elem if isinstance(result, st.BagType) else None
    fields = elem.elems if isinstance(elem, st.TupleType) else None
    types = [_SQL_OF.get(type(f)) for f in fields] if fields else None
    if not types or None in types:
        raise UnsupportedError(
            f"{what} of an RDD of {elem if elem is not None else result}: only tuples or Rows of "
            "int, float, str or bool values (never None) are converted in script mode (their schema does not "
            "depend on the data)", loc, construct=what)
    if given is None or given == PyV(None):
        cols = names or tuple(f"_{i + 1}" for i in range(len(types)))
    elif isinstance(given, SeqV) and all(isinstance(i, PyV) and isinstance(i.value, str)
                                         for i in given.items):
        cols = tuple(i.value for i in given.items)
        if names is not None or len(cols) > len(types):
            raise UnsupportedError(f"{what}(rdd, names) of Rows, or with more names than fields", loc,
                                   construct=what)
        cols = cols + tuple(f"_{i + 1}" for i in range(len(cols), len(types)))
    else:
        raise UnsupportedError(
            f"{what} of a text-file RDD with a schema (verified element by element) is not read yet: "
            "give column names or nothing", loc, construct=what)
    return Schema(tuple(Field(n, t, True) for n, t in zip(cols, types, strict=True)))  # type: ignore[arg-type]
