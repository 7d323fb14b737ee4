"""PySpark DataFrame programs -> the relational kernel (``sparklite.relational``), without running them.

``translate_dataframe_source(source, function, filename, schemas)`` reads a Python file with ``ast``
and translates one function whose parameters are DataFrames into a ``RelProgram``;
``is_dataframe_function(fn, module)`` tells the loader whether a function is DataFrame code (else the
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
import builtins
import decimal
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from frontend.dataframe import functions as DFF
from frontend.dataframe.columns import (
    DF,
    Agg,
    Alias,
    Attr,
    AttrRef,
    Bin,
    CExpr,
    IdSource,
    Name,
    Resolved,
    Resolver,
    Scope,
    SortOrder,
    SqlText,
    Star,
    Unary,
    children,
    col_at,
    contains_agg,
    lookup_id,
    lookup_name,
    map_children,
    output_name,
    parse_name,
    plan_aggregate,
    pretty,
    references,
    resolves,
)
from frontend.dataframe.values import (
    DFV,
    FUNCTIONS_MODULE,
    TYPES_MODULE,
    ActionV,
    AnnotatedV,
    BoundV,
    BuiltinV,
    ColV,
    DictV,
    FuncV,
    GroupedV,
    ModV,
    PyV,
    ReaderV,
    SeqV,
    SessionV,
    Value,
    as_col,
    as_int,
    as_str,
    canonical,
    describe,
    flatten_single,
    py_value,
)
from sparklite.ast import Loc
from sparklite.errors import AnnotationNeededError, InputError, NameResolutionError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError
from sparklite.relational.types import Schema, SchemaError, is_numeric, parse_ddl

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
        "repartition": "repartitioning is not modelled",
        "coalesce": "repartitioning is not modelled",
        "repartitionByRange": "repartitioning is not modelled",
        "sortWithinPartitions": "per-partition order is not modelled",
        "na": "df.na is not supported yet",
        "fillna": "fillna is not supported yet",
        "dropna": "dropna is not supported yet",
        "replace": "replace is not supported yet",
        "pivot": "pivot is not supported yet",
        "rollup": "rollup is not supported yet",
        "cube": "cube is not supported yet",
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
        "crosstab": "crosstab",
        "freqItems": "freqItems",
        "approxQuantile": "approximate",
        "cov": "statistics",
        "corr": "statistics",
        "schema": "df.schema",
        "exceptAll_": "",
        "hint": "hints are not supported",
        "createGlobalTempView": "global views",
        "createOrReplaceGlobalTempView": "global views",
        "registerTempTable": "use createOrReplaceTempView",
        "offset": "offset is not supported yet",
        "colRegex": "colRegex is not supported",
    }
)

# Attributes that are not methods: rejected where they are read.
_DF_PROPERTIES = frozenset(
    {"rdd", "na", "write", "writeStream", "schema", "stat", "storageLevel", "isStreaming"}
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


def is_dataframe_function(fn: pyast.FunctionDef, module: Any) -> bool:
    """Whether ``fn`` is DataFrame code: a parameter annotated ``DataFrame`` (or ``Annotated[DataFrame,
    ...]``, directly or through a module-level alias), or a body using DataFrame-only methods,
    ``pyspark.sql.functions`` or ``spark.sql``. ``module`` is the parsed file (``ast.Module``) or an
    object with a ``tree`` attribute."""
    info = scan_names(_module_of(module), "<module>")
    fnames = {n for n, p in info.imports.items() if canonical(p) == FUNCTIONS_MODULE}
    fmembers = {n for n, p in info.imports.items() if canonical(p).startswith(FUNCTIONS_MODULE + ".")}
    aliases = {n for n, v in info.assigned.items() if _mentions_dataframe(v, set())}

    for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
        if a.annotation is not None and _mentions_dataframe(a.annotation, aliases):
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


# ---------------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------------


def translate_dataframe_source(
    source: str, function: str | None, filename: str, schemas: Mapping[str, Schema] | None = None
) -> R.RelProgram:
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


# ---------------------------------------------------------------------------------------------------
# Scopes of the driver code
# ---------------------------------------------------------------------------------------------------


@dataclass
class Env:
    """A function's local names (a helper's call or a lambda gets its own, over its closure)."""

    vars: dict[str, Value]
    parent: Env | None = None

    def lookup(self, name: str) -> Value | None:
        env: Env | None = self
        while env is not None:
            if name in env.vars:
                return env.vars[name]
            env = env.parent
        return None


@dataclass(frozen=True)
class _Return:
    value: Value


@dataclass(frozen=True)
class _TableUse:
    """A catalog table read by ``spark.sql``/``spark.table`` (from ``schemas``): an extra input."""

    name: str
    schema: Schema


class DataFrameTranslator:
    """Reads one DataFrame function. State (fresh column IDs, temp views, catalog tables read) lives
    here, per translation."""

    def __init__(self, info: ModuleNames, source: str, schemas: dict[str, Schema]) -> None:
        self.info = info
        self.filename = info.filename
        self.lines = source.splitlines()
        self.schemas = schemas
        self.ids = IdSource()
        self.views: dict[str, DF] = {}
        self.catalog: dict[str, R.Table] = {}
        self.tables_used: list[_TableUse] = []
        self.module_values: dict[str, Value] = {}
        self.evaluating: set[str] = set()
        self.depth = 0
        self.param_names: set[str] = set()

    # -- locations ------------------------------------------------------------------------------

    def loc(self, node: pyast.AST) -> Loc:
        return Loc(self.filename, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1)

    def attr_loc(self, node: pyast.Attribute) -> Loc:
        """The position of ``name`` in ``receiver.name`` (chains put each call on its own line)."""
        line, end = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
        if line is None or end is None:
            return self.loc(node)
        return Loc(self.filename, line, max(1, end - len(node.attr) + 1))

    # -- the function -----------------------------------------------------------------------------

    def translate_function(self, fn: pyast.FunctionDef) -> R.RelProgram:
        args = fn.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            raise UnsupportedError(
                "*args, **kwargs and keyword-only parameters are not supported in a DataFrame function",
                self.loc(fn),
                construct="parameters",
            )
        env = Env({})
        params: list[R.TableParam] = []
        self.param_names = {a.arg for a in args.args}
        for a in args.args:
            kind, schema = self._param_kind(a, fn)
            if kind == "session":
                env.vars[a.arg] = SessionV()
                continue
            assert schema is not None
            loc = self.loc(a)
            params.append(R.TableParam(a.arg, schema, loc=loc))
            env.vars[a.arg] = DFV(self.table_df(a.arg, schema, loc))
        for name, schema in self.schemas.items():
            if name not in self.param_names and name.lower() not in {p.lower() for p in self.param_names}:
                self.catalog[name.lower()] = build.table(name, schema, Loc(self.filename, fn.lineno, 1))
        result = self.exec_body(fn.body, env, fn)
        body = self._result(result, fn)
        params += [R.TableParam(t.name, t.schema, loc=self.loc(fn)) for t in self.tables_used]
        return R.RelProgram(fn.name, tuple(params), body, language="dataframe", loc=self.loc(fn))

    def _result(self, value: Value, fn: pyast.FunctionDef) -> R.Rel | R.Action:
        if isinstance(value, DFV):
            return value.df.rel
        if isinstance(value, ActionV):
            return value.action
        where = fn.body[-1] if fn.body else fn
        raise UnsupportedError(
            f"a DataFrame function must return a DataFrame or an action's result "
            f"(count(), collect(), first(), take(n)), not {describe(value)}",
            self.loc(where),
            construct="result",
        )

    def _param_kind(self, a: pyast.arg, fn: pyast.FunctionDef) -> tuple[str, Schema | None]:
        """``("table", schema)`` or ``("session", None)``: from the annotation, else ``schemas``."""
        loc = self.loc(a)
        given = self.schemas.get(a.arg, self.schemas.get(a.arg.lower()))
        if a.annotation is not None:
            ann = self.annotation_value(a.annotation)
            if isinstance(ann, AnnotatedV) and self._is_class(ann.base, "DataFrame"):
                ddl = [m for m in ann.metadata if isinstance(m, PyV) and isinstance(m.value, str)]
                if not ddl:
                    raise AnnotationNeededError(
                        f"parameter '{a.arg}': Annotated[DataFrame, ...] needs a DDL "
                        'string such as "id INT NOT NULL, name STRING"',
                        loc,
                    )
                try:
                    return "table", parse_ddl(ddl[0].value, self.loc(a.annotation))
                except SchemaError as exc:
                    raise SchemaError(f"parameter '{a.arg}': {exc.message}", exc.loc) from None
            if self._is_class(ann, "DataFrame"):
                if given is not None:
                    return "table", given
                raise self._missing_schema(a)
            if self._is_class(ann, "SparkSession"):
                return "session", None
            raise UnsupportedError(
                f"parameter '{a.arg}': only DataFrame (and SparkSession) parameters are "
                "supported; scalar parameters are not",
                loc,
                construct="scalar-parameter",
            )
        if given is not None:
            return "table", given
        if a.arg == "spark" or self._used_as_session(a.arg, fn):
            return "session", None
        raise self._missing_schema(a)

    def _missing_schema(self, a: pyast.arg) -> AnnotationNeededError:
        return AnnotationNeededError(
            f"parameter '{a.arg}' has no schema: annotate it, e.g. "
            f'`{a.arg}: Annotated[DataFrame, "id INT NOT NULL, name STRING"]` '
            f"(from typing import Annotated), or pass --schema '{a.arg}=id INT, name STRING'",
            self.loc(a),
        )

    @staticmethod
    def _used_as_session(name: str, fn: pyast.FunctionDef) -> bool:
        uses = [
            n
            for n in pyast.walk(fn)
            if isinstance(n, pyast.Attribute) and isinstance(n.value, pyast.Name) and n.value.id == name
        ]
        return bool(uses) and all(u.attr in ("sql", "table", "read") for u in uses)

    def _is_class(self, v: Value, name: str) -> bool:
        if isinstance(v, ModV):
            return canonical(v.path) == f"pyspark.sql.{name}"
        return isinstance(v, PyV) and v.value == name  # a string annotation "DataFrame"

    def annotation_value(self, node: pyast.expr) -> Value:
        if isinstance(node, pyast.Constant) and isinstance(node.value, str):
            try:
                inner = pyast.parse(node.value, mode="eval").body
            except SyntaxError:
                return PyV(node.value)
            pyast.copy_location(inner, node)
            for n in pyast.walk(inner):
                n.lineno, n.col_offset = node.lineno, node.col_offset  # type: ignore[attr-defined]
            return self.annotation_value(inner)
        return self.ev(node, Env({}))

    # -- DataFrames -----------------------------------------------------------------------------

    def table_df(self, name: str, schema: Schema, loc: Loc) -> DF:
        rel = build.table(name, schema, loc)
        return DF(rel, tuple(Attr(self.ids.fresh(), f.name) for f in schema.fields))

    def fresh_df(self, rel: R.Rel) -> DF:
        return DF(rel, tuple(Attr(self.ids.fresh(), f.name) for f in rel.schema.fields))

    # -- statements -------------------------------------------------------------------------------

    def exec_body(self, body: list[pyast.stmt], env: Env, fn: pyast.AST) -> Value:
        out = self.exec_block(body, env)
        if out is None:
            return PyV(None)
        return out.value

    def exec_block(self, body: Sequence[pyast.stmt], env: Env) -> _Return | None:
        for stmt in body:
            out = self.exec_stmt(stmt, env)
            if out is not None:
                return out
        return None

    def exec_stmt(self, stmt: pyast.stmt, env: Env) -> _Return | None:
        loc = self.loc(stmt)
        if isinstance(stmt, pyast.Return):
            return _Return(self.ev(stmt.value, env) if stmt.value is not None else PyV(None))
        if isinstance(stmt, pyast.Assign):
            value = self.ev(stmt.value, env)
            for t in stmt.targets:
                self.assign(t, value, env)
            return None
        if isinstance(stmt, pyast.AnnAssign):
            if stmt.value is not None:
                self.assign(stmt.target, self.ev(stmt.value, env), env)
            return None
        if isinstance(stmt, pyast.AugAssign):
            if not isinstance(stmt.target, pyast.Name):
                raise UnsupportedError(
                    "augmented assignment to something other than a name", loc, construct="augassign"
                )
            old = self.name_value(stmt.target.id, stmt.target, env)
            self.assign(
                stmt.target, self.binop(_BINOPS[type(stmt.op)], old, self.ev(stmt.value, env), loc), env
            )
            return None
        if isinstance(stmt, pyast.Expr):
            if isinstance(stmt.value, pyast.Constant):
                return None  # a docstring or a bare constant
            value = self.ev(stmt.value, env)
            if isinstance(value, ActionV):
                raise UnsupportedError(
                    f"the result of {value.action.kind}() is discarded: an action run only "
                    "for its effects is not supported",
                    loc,
                    construct="discarded-action",
                )
            return None
        if isinstance(stmt, pyast.Pass):
            return None
        if isinstance(stmt, pyast.If):
            cond = self.ev(stmt.test, env)
            return self.exec_block(stmt.body if self.truth(cond, stmt.test) else stmt.orelse, env)
        if isinstance(stmt, pyast.For):
            if stmt.orelse:
                raise UnsupportedError("for ... else is not supported", loc, construct="for-else")
            for item in self.iterate(self.ev(stmt.iter, env), stmt.iter):
                self.assign(stmt.target, item, env)
                out = self.exec_block(stmt.body, env)
                if out is not None:
                    return out
            return None
        if isinstance(stmt, pyast.FunctionDef):
            if stmt.decorator_list:
                raise UnsupportedError("decorated functions are not supported", loc, construct="decorator")
            env.vars[stmt.name] = FuncV(stmt, env)
            return None
        if isinstance(stmt, pyast.Import | pyast.ImportFrom):
            sub = scan_names(pyast.Module(body=[stmt], type_ignores=[]), self.filename)
            if sub.star_modules or sub.opaque:
                raise UnsupportedError(
                    "this import inside a function is not supported", loc, construct="import"
                )
            for name, path in sub.imports.items():
                env.vars[name] = ModV(path)
            return None
        kind = type(stmt).__name__
        raise UnsupportedError(
            f"statement '{kind}' is not supported in DataFrame driver code (straight-line "
            "assignments, calls, for over constant lists, if on constants)",
            loc,
            construct=kind,
        )

    def assign(self, target: pyast.expr, value: Value, env: Env) -> None:
        if isinstance(target, pyast.Name):
            env.vars[target.id] = value
            return
        if isinstance(target, pyast.Tuple | pyast.List):
            items = self.iterate(value, target)
            if len(items) != len(target.elts):
                raise InputError(
                    f"cannot unpack {len(items)} values into {len(target.elts)} names "
                    "(Python raises ValueError)",
                    self.loc(target),
                )
            for t, v in zip(target.elts, items, strict=True):
                self.assign(t, v, env)
            return
        raise UnsupportedError(
            "assignment to an attribute or an item is not supported",
            self.loc(target),
            construct="assignment-target",
        )

    def truth(self, v: Value, node: pyast.AST) -> bool:
        if isinstance(v, PyV):
            return bool(v.value)
        if isinstance(v, SeqV):
            return bool(v.items)
        if isinstance(v, ColV):
            raise InputError(
                "a Column used as a Python bool: PySpark raises ValueError (use & for 'and', "
                "| for 'or', ~ for 'not', and filter()/F.when for conditions)",
                self.loc(node),
            )
        raise UnsupportedError(
            f"a condition on {describe(v)} is not a constant the translator can decide",
            self.loc(node),
            construct="condition",
        )

    def iterate(self, v: Value, node: pyast.AST) -> list[Value]:
        if isinstance(v, SeqV):
            items = list(v.items)
        elif isinstance(v, DictV):
            items = [k for k, _ in v.items]
        elif isinstance(v, PyV) and isinstance(v.value, str):
            items = [PyV(c) for c in v.value]
        else:
            raise UnsupportedError(
                f"iterating over {describe(v)} is not supported (only constant lists, "
                "df.columns and the like)",
                self.loc(node),
                construct="iteration",
            )
        if len(items) > MAX_UNROLL:
            raise UnsupportedError("loop too long to unroll", self.loc(node), construct="iteration")
        return items

    # -- expressions ------------------------------------------------------------------------------

    def name_value(self, name: str, node: pyast.AST, env: Env) -> Value:
        v = env.lookup(name)
        if v is not None:
            return v
        return self.module_value(name, node)

    def module_value(self, name: str, node: pyast.AST) -> Value:
        info = self.info
        loc = self.loc(node)
        if name in self.module_values:
            return self.module_values[name]
        if name in info.opaque:
            raise UnsupportedError(
                f"module-level name '{name}' is bound more than once (or by a statement the "
                "translator does not run): its value is not static",
                loc,
                construct=name,
            )
        if name in info.imports:
            return ModV(info.imports[name])
        if name in info.defs:
            return FuncV(info.defs[name])
        if name in info.assigned:
            if name in self.evaluating:
                raise NameResolutionError(f"module-level name '{name}' is defined in terms of itself", loc)
            self.evaluating.add(name)
            try:
                value = self.ev(info.assigned[name], Env({}))
            finally:
                self.evaluating.discard(name)
            if isinstance(value, DFV):
                raise UnsupportedError(
                    f"module-level DataFrame '{name}': a DataFrame function takes its inputs as parameters",
                    loc,
                    construct="module-dataframe",
                )
            self.module_values[name] = value
            return value
        for star in info.star_modules:
            if star == FUNCTIONS_MODULE and name in DFF.FUNCTIONS:
                return ModV(f"{FUNCTIONS_MODULE}.{name}")
            if star == TYPES_MODULE:
                return ModV(f"{TYPES_MODULE}.{name}")
        if name in _PY_BUILTINS:
            return BuiltinV(name)
        if name in ("True", "False", "None"):
            return PyV({"True": True, "False": False, "None": None}[name])
        if name in _PY_BUILTIN_MISSING:
            raise UnsupportedError(f"{name}(): {_PY_BUILTIN_MISSING[name]}", loc, construct=name)
        if hasattr(builtins, name):
            raise UnsupportedError(
                f"Python builtin '{name}' is not supported in DataFrame driver code", loc, construct=name
            )
        raise NameResolutionError(f"name '{name}' is not defined", loc)

    def ev(self, node: pyast.expr, env: Env) -> Value:
        loc = self.loc(node)
        if isinstance(node, pyast.Constant):
            if isinstance(node.value, bytes | complex) or node.value is Ellipsis:
                raise UnsupportedError(f"constant {node.value!r} is not supported", loc, construct="constant")
            return PyV(node.value)
        if isinstance(node, pyast.Name):
            return self.name_value(node.id, node, env)
        if isinstance(node, pyast.Attribute):
            return self.attribute(self.ev(node.value, env), node.attr, node)
        if isinstance(node, pyast.Call):
            return self.call_node(node, env)
        if isinstance(node, pyast.BinOp):
            return self.binop(
                _BINOPS.get(type(node.op), "?"), self.ev(node.left, env), self.ev(node.right, env), loc
            )
        if isinstance(node, pyast.UnaryOp):
            return self.unary(node, self.ev(node.operand, env))
        if isinstance(node, pyast.Compare):
            return self.compare(node, env)
        if isinstance(node, pyast.BoolOp):
            return self.boolop(node, env)
        if isinstance(node, pyast.IfExp):
            return self.ev(node.body if self.truth(self.ev(node.test, env), node.test) else node.orelse, env)
        if isinstance(node, pyast.List | pyast.Tuple):
            items: list[Value] = []
            for e in node.elts:
                if isinstance(e, pyast.Starred):
                    items += self.iterate(self.ev(e.value, env), e)
                else:
                    items.append(self.ev(e, env))
            return SeqV(tuple(items), isinstance(node, pyast.List))
        if isinstance(node, pyast.Dict):
            if any(k is None for k in node.keys):
                raise UnsupportedError("** in a dict display is not supported", loc, construct="dict")
            return DictV(
                tuple((self.ev(k, env), self.ev(v, env)) for k, v in zip(node.keys, node.values, strict=True))
            )
        if isinstance(node, pyast.ListComp | pyast.GeneratorExp):
            return SeqV(tuple(self.comprehension(node, env)))
        if isinstance(node, pyast.DictComp):
            keys = self.comprehension(pyast.ListComp(elt=node.key, generators=node.generators), env)
            vals = self.comprehension(pyast.ListComp(elt=node.value, generators=node.generators), env)
            return DictV(tuple(zip(keys, vals, strict=True)))
        if isinstance(node, pyast.Subscript):
            return self.subscript(node, env)
        if isinstance(node, pyast.JoinedStr):
            parts = []
            for v in node.values:
                if isinstance(v, pyast.Constant):
                    parts.append(str(v.value))
                elif isinstance(v, pyast.FormattedValue):
                    val = self.ev(v.value, env)
                    if not isinstance(val, PyV) or v.format_spec is not None or v.conversion not in (-1, 115):
                        raise UnsupportedError(
                            "an f-string may only format Python constants", self.loc(v), construct="f-string"
                        )
                    parts.append(str(val.value))
            return PyV("".join(parts))
        if isinstance(node, pyast.Lambda):
            return FuncV(node, env)
        raise UnsupportedError(
            f"Python expression '{type(node).__name__}' is not supported in DataFrame code",
            loc,
            construct=type(node).__name__,
        )

    def comprehension(self, node: pyast.ListComp | pyast.GeneratorExp, env: Env) -> list[Value]:
        out: list[Value] = []

        def go(i: int, scope: Env) -> None:
            if i == len(node.generators):
                out.append(self.ev(node.elt, scope))
                return
            gen = node.generators[i]
            for item in self.iterate(self.ev(gen.iter, scope), gen.iter):
                inner = Env({}, scope)
                self.assign(gen.target, item, inner)
                if all(self.truth(self.ev(c, inner), c) for c in gen.ifs):
                    go(i + 1, inner)

        go(0, env)
        return out

    def subscript(self, node: pyast.Subscript, env: Env) -> Value:
        base = self.ev(node.value, env)
        loc = self.loc(node)
        if isinstance(node.slice, pyast.Slice):
            if not isinstance(base, SeqV | PyV):
                raise UnsupportedError(f"slicing {describe(base)} is not supported", loc, construct="slice")
            parts = [
                None if s is None else py_value(self.ev(s, env), loc, "a slice bound")
                for s in (node.slice.lower, node.slice.upper, node.slice.step)
            ]
            if isinstance(base, SeqV):
                return SeqV(base.items[slice(*parts)], base.is_list)
            return self._py(lambda: base.value[slice(*parts)], loc)
        if isinstance(base, ModV) and canonical(base.path) == "typing.Annotated":
            if not isinstance(node.slice, pyast.Tuple) or len(node.slice.elts) < 2:
                raise InputError("Annotated[...] needs a type and metadata", loc)
            vals = [self.ev(e, env) for e in node.slice.elts]
            return AnnotatedV(vals[0], tuple(vals[1:]))
        key = self.ev(node.slice, env)
        if isinstance(base, DFV):
            return self.df_getitem(base.df, key, loc)
        if isinstance(base, SeqV):
            i = as_int(key, loc, "an index")
            try:
                return base.items[i]
            except IndexError:
                raise InputError("list index out of range (Python raises IndexError)", loc) from None
        if isinstance(base, DictV):
            for k, v in base.items:
                if k == key:
                    return v
            raise InputError(f"key {pretty_value(key)} not in the dict (Python raises KeyError)", loc)
        if isinstance(base, PyV):
            return self._py(lambda: base.value[py_value(key, loc)], loc)
        raise UnsupportedError(f"indexing {describe(base)} is not supported", loc, construct="subscript")

    def _py(self, f: Any, loc: Loc) -> Value:
        """A Python computation on constants, as Python computes it (its exceptions are located errors)."""
        try:
            result = f()
        except Exception as exc:  # noqa: BLE001 - Python's own error on constants, reported as such
            raise InputError(f"Python raises {type(exc).__name__} here: {exc}", loc) from None
        return from_python(result, loc)

    def binop(self, op: str, left: Value, right: Value, loc: Loc) -> Value:
        if isinstance(left, ColV) or isinstance(right, ColV):
            return DFF.column_binop(op, left, right, loc)
        if isinstance(left, PyV) and isinstance(right, PyV):
            a, b = left.value, right.value
            if op in ("**", "<<") and isinstance(b, int) and abs(b) > 10_000:
                raise UnsupportedError(f"'{op}' with a huge exponent", loc, construct=op)
            if op == "*" and (isinstance(a, str) or isinstance(b, str)):
                n = b if isinstance(a, str) else a
                if isinstance(n, int) and n > 100_000:
                    raise UnsupportedError("a huge string repetition", loc, construct="*")
            return self._py(lambda: _PY_OPS[op](a, b), loc)
        if isinstance(left, SeqV) and isinstance(right, SeqV) and op == "+":
            return SeqV(left.items + right.items, left.is_list)
        if (
            isinstance(left, SeqV)
            and isinstance(right, PyV)
            and op == "*"
            and isinstance(right.value, int)
            and len(left.items) * max(right.value, 0) <= MAX_UNROLL
        ):
            return SeqV(left.items * right.value, left.is_list)
        raise UnsupportedError(
            f"operator '{op}' between {describe(left)} and {describe(right)} is not supported",
            loc,
            construct=op,
        )

    def unary(self, node: pyast.UnaryOp, v: Value) -> Value:
        loc = self.loc(node)
        if isinstance(v, ColV):
            if isinstance(node.op, pyast.Invert):
                return ColV(_unary_not(v.expr, loc))
            if isinstance(node.op, pyast.USub):
                return ColV(_unary_neg(v.expr, loc))
            if isinstance(node.op, pyast.Not):
                self.truth(v, node)
            raise UnsupportedError("unary '+' on a Column is not supported", loc, construct="+")
        if isinstance(v, PyV):
            op = {
                pyast.USub: lambda x: -x,
                pyast.UAdd: lambda x: +x,
                pyast.Not: lambda x: not x,
                pyast.Invert: lambda x: ~x,
            }[type(node.op)]
            return self._py(lambda: op(v.value), loc)
        if isinstance(node.op, pyast.Not):
            return PyV(not self.truth(v, node))
        raise UnsupportedError(f"unary operator on {describe(v)} is not supported", loc, construct="unary")

    def compare(self, node: pyast.Compare, env: Env) -> Value:
        loc = self.loc(node)
        left = self.ev(node.left, env)
        result: Value | None = None
        for op, comp in zip(node.ops, node.comparators, strict=True):
            right = self.ev(comp, env)
            step = self.compare_one(op, left, right, loc)
            if result is None:
                result = step
            else:  # a chain is ``a < b and b < c``: a Column in it is a Python bool test
                if not self.truth(result, node):
                    return result
                result = step
            if isinstance(step, ColV) and len(node.ops) > 1:
                self.truth(step, node)
            left = right
        assert result is not None
        return result

    def compare_one(self, op: pyast.cmpop, left: Value, right: Value, loc: Loc) -> Value:
        sym = _CMPOPS.get(type(op))
        if isinstance(left, ColV) or isinstance(right, ColV):
            if sym is None:
                raise InputError("'in'/'is' with a Column: PySpark raises ValueError (use isin, isNull)", loc)
            return DFF.column_compare(sym, left, right, loc)
        if isinstance(op, pyast.In | pyast.NotIn):
            if isinstance(right, SeqV):
                found = left in right.items
            elif isinstance(right, DictV):
                found = any(k == left for k, _ in right.items)
            elif isinstance(right, PyV) and isinstance(right.value, str) and isinstance(left, PyV):
                return self._py(lambda: (left.value in right.value) == isinstance(op, pyast.In), loc)
            else:
                raise UnsupportedError(f"'in' on {describe(right)} is not supported", loc, construct="in")
            return PyV(found == isinstance(op, pyast.In))
        if isinstance(op, pyast.Is | pyast.IsNot):
            if isinstance(left, PyV) and isinstance(right, PyV) and right.value is None:
                return PyV((left.value is None) == isinstance(op, pyast.Is))
            raise UnsupportedError("'is' is only supported against None", loc, construct="is")
        if isinstance(left, PyV) and isinstance(right, PyV):
            assert sym is not None
            return self._py(lambda: _PY_CMP[sym](left.value, right.value), loc)
        if sym in ("==", "!=") and isinstance(left, SeqV | PyV) and isinstance(right, SeqV | PyV):
            return PyV((left == right) == (sym == "=="))
        raise UnsupportedError(
            f"comparison between {describe(left)} and {describe(right)} is not supported",
            loc,
            construct="compare",
        )

    def boolop(self, node: pyast.BoolOp, env: Env) -> Value:
        is_and = isinstance(node.op, pyast.And)
        value: Value = PyV(None)
        for e in node.values:
            value = self.ev(e, env)
            t = self.truth(value, node)
            if t != is_and:
                return value
        return value

    # -- attributes -------------------------------------------------------------------------------

    def attribute(self, base: Value, attr: str, node: pyast.Attribute) -> Value:
        loc = self.attr_loc(node)
        if isinstance(base, ModV):
            return ModV(f"{base.path}.{attr}")
        if isinstance(base, DFV):
            if attr == "columns":
                return SeqV(tuple(PyV(a.name) for a in base.df.attrs))
            if attr == "dtypes":
                return SeqV(
                    tuple(
                        SeqV((PyV(a.name), PyV(f.type.simple)), False)
                        for a, f in zip(base.df.attrs, base.df.fields, strict=True)
                    )
                )
            if attr == "sparkSession":
                return SessionV()
            if attr in _DF_PROPERTIES and attr in UNSUPPORTED_DF_METHODS:
                raise UnsupportedError(
                    f"DataFrame.{attr}: {UNSUPPORTED_DF_METHODS[attr]}", loc, construct=attr
                )
            if attr in _DF_METHODS or attr in UNSUPPORTED_DF_METHODS or attr in _IDENTITY_METHODS:
                return BoundV(base, attr, loc)
            if attr not in base.df.columns:
                raise InputError(
                    f"DataFrame has no attribute or column '{attr}' (PySpark raises "
                    "ATTRIBUTE_NOT_SUPPORTED; df.attr needs the exact column name)",
                    loc,
                )
            return ColV(self.lineage_ref(base.df, attr, loc))
        if isinstance(base, SessionV):
            if attr == "read":
                return ReaderV()
            return BoundV(base, attr, loc)
        if isinstance(base, ColV | GroupedV | PyV | ReaderV | SeqV | DictV):
            return BoundV(base, attr, loc)
        raise UnsupportedError(
            f"attribute '{attr}' of {describe(base)} is not supported", loc, construct=attr
        )

    def lineage_ref(self, df: DF, name: str, loc: Loc) -> AttrRef | Star:
        """``df.name`` / ``df["name"]``: resolved now, against ``df`` (Spark's ``Dataset.col``)."""
        e = parse_name(name, loc)
        if isinstance(e, Star):
            if e.qualifier is not None:
                raise UnsupportedError(f"df[{name!r}] is not supported", loc, construct="star")
            return Star(ids=tuple(a.id for a in df.attrs), loc=loc)
        assert isinstance(e, Name)
        i = lookup_name(Scope.of(df), e)
        return AttrRef(df.attrs[i].id, e.parts[-1], loc=loc, origin=df.rel)

    def df_getitem(self, df: DF, key: Value, loc: Loc) -> Value:
        if isinstance(key, PyV) and isinstance(key.value, str):
            return ColV(self.lineage_ref(df, key.value, loc))
        if isinstance(key, PyV) and isinstance(key.value, int) and not isinstance(key.value, bool):
            try:
                a = df.attrs[key.value]
            except IndexError:
                raise InputError("column index out of range (Python raises IndexError)", loc) from None
            return ColV(AttrRef(a.id, a.name, loc=loc, origin=df.rel))
        if isinstance(key, ColV):
            return DFV(self.df_filter(df, key, loc))
        if isinstance(key, SeqV):
            return DFV(self.select(df, list(key.items), loc))
        raise UnsupportedError(f"df[{describe(key)}] is not supported", loc, construct="subscript")

    # -- calls ------------------------------------------------------------------------------------

    def call_node(self, node: pyast.Call, env: Env) -> Value:
        func = self.ev(node.func, env)
        args: list[Value] = []
        for a in node.args:
            if isinstance(a, pyast.Starred):
                args += self.iterate(self.ev(a.value, env), a)
            else:
                args.append(self.ev(a, env))
        kwargs: dict[str, Value] = {}
        for k in node.keywords:
            if k.arg is None:
                d = self.ev(k.value, env)
                if not isinstance(d, DictV):
                    raise UnsupportedError(
                        "** of something other than a dict", self.loc(k.value), construct="**"
                    )
                for kk, vv in d.items:
                    kwargs[as_str(kk, self.loc(k.value), "a keyword")] = vv
            else:
                kwargs[k.arg] = self.ev(k.value, env)
        loc = func.loc if isinstance(func, BoundV) else self.loc(node)
        return self.call(func, args, kwargs, loc, node)

    def call(
        self, func: Value, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if isinstance(func, BoundV):
            return self.method(func.receiver, func.name, args, kwargs, loc, node)
        if isinstance(func, ModV):
            return self.module_call(canonical(func.path), args, kwargs, loc, node)
        if isinstance(func, FuncV):
            return self.inline(func, args, kwargs, loc)
        if isinstance(func, BuiltinV):
            return self.builtin(func.name, args, kwargs, loc, node)
        raise UnsupportedError(f"calling {describe(func)} is not supported", loc, construct="call")

    def module_call(
        self, path: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if path.startswith(FUNCTIONS_MODULE + "."):
            name = path[len(FUNCTIONS_MODULE) + 1 :]
            if name == "expr":
                b, _ = DFF.sig("str").bind("expr", args, kwargs, loc)
                arg = node.args[0] if isinstance(node, pyast.Call) and node.args else node
                return ColV(self.sql_text(as_str(b["str"], loc, "expr()'s argument"), arg, loc))
            if name == "broadcast":
                b, _ = DFF.sig("df").bind("broadcast", args, kwargs, loc)
                if not isinstance(b["df"], DFV):
                    raise UnsupportedError("broadcast() takes a DataFrame", loc, construct="broadcast")
                return b["df"]  # a hint: same result
            if name in DFF.FUNCTIONS:
                return DFF.FUNCTIONS[name](args, kwargs, loc)
            if name in DFF.UNSUPPORTED_FUNCTIONS:
                raise UnsupportedError(f"F.{name}: {DFF.UNSUPPORTED_FUNCTIONS[name]}", loc, construct=name)
            raise UnsupportedError(
                f"function pyspark.sql.functions.{name} is not supported", loc, construct=name
            )
        if path.startswith(TYPES_MODULE + "."):
            return DFF.type_constructor(path[len(TYPES_MODULE) + 1 :], args, kwargs, loc)
        if path.startswith("pyspark.sql.SparkSession"):
            tail = path[len("pyspark.sql.SparkSession") :]
            if tail.endswith(".getOrCreate") or tail in (".getActiveSession", ".active"):
                return SessionV()
            if tail.startswith(".builder"):
                return ModV(path)  # builder.appName(...).config(...): still the builder
        if path == "functools.reduce":
            return self.reduce(args, kwargs, loc, node)
        if path == "decimal.Decimal" and len(args) == 1 and not kwargs and isinstance(args[0], PyV):
            return self._py(lambda: decimal.Decimal(args[0].value), loc)  # F.lit(Decimal("1.50"))
        if path.startswith("operator."):
            return self.builtin_operator(path[len("operator.") :], args, loc)
        raise UnsupportedError(f"calling {path} is not supported", loc, construct=path)

    def reduce(self, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST) -> Value:
        if kwargs or len(args) not in (2, 3):
            raise UnsupportedError("reduce(function, iterable[, initial])", loc, construct="reduce")
        items = self.iterate(args[1], node)
        if len(args) == 3:
            items = [args[2], *items]
        if not items:
            raise InputError(
                "reduce() of an empty sequence with no initial value (Python raises TypeError)", loc
            )
        acc = items[0]
        for it in items[1:]:
            acc = self.call(args[0], [acc, it], {}, loc, node)
        return acc

    def builtin_operator(self, name: str, args: list[Value], loc: Loc) -> Value:
        ops = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "mod": "%", "and_": "&", "or_": "|"}
        if name in ops and len(args) == 2:
            return self.binop(ops[name], args[0], args[1], loc)
        raise UnsupportedError(f"operator.{name} is not supported", loc, construct=name)

    def builtin(
        self, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if name == "sum" and args and isinstance(args[0], SeqV) and not kwargs:
            # Python's sum: start + x1 + x2 ... (so sum of Columns is ((0 + a) + b), spelled by PySpark)
            acc = args[1] if len(args) > 1 else PyV(0)
            for it in args[0].items:
                acc = self.binop("+", acc, it, loc)
            return acc
        if name == "len" and len(args) == 1 and isinstance(args[0], SeqV | DictV):
            return PyV(len(args[0].items))
        if name in ("list", "tuple") and len(args) == 1:
            return SeqV(tuple(self.iterate(args[0], node)), name == "list")
        if name in ("enumerate", "zip", "reversed", "sorted", "range", "min", "max") and not any(
            isinstance(a, ColV | DFV) for a in args
        ):
            if name == "enumerate" and len(args) == 1:
                return SeqV(
                    tuple(SeqV((PyV(i), v), False) for i, v in enumerate(self.iterate(args[0], node)))
                )
            if name == "zip":
                seqs = [self.iterate(a, node) for a in args]
                return SeqV(tuple(SeqV(t, False) for t in zip(*seqs, strict=False)))
            if name == "reversed" and len(args) == 1:
                return SeqV(tuple(reversed(self.iterate(args[0], node))))
        if name == "isinstance":
            raise UnsupportedError("isinstance() is not supported", loc, construct=name)
        pyargs = [py_value(a, loc) for a in args]
        pykw = {k: py_value(v, loc) for k, v in kwargs.items()}
        if name == "range" and any(abs(a) > MAX_UNROLL for a in pyargs if isinstance(a, int)):
            raise UnsupportedError("range too long to unroll", loc, construct="range")
        fn = getattr(builtins, name)
        return self._py(lambda: fn(*pyargs, **pykw), loc)

    def inline(self, func: FuncV, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        """A call of a function of the user's module: its body runs here, on these argument values."""
        node = func.node
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise UnsupportedError(
                "helper functions with *args, **kwargs or keyword-only parameters are not supported",
                loc,
                construct="helper-parameters",
            )
        self.depth += 1
        if self.depth > MAX_INLINE_DEPTH:
            raise InputError("helper functions call each other too deeply (recursion is not supported)", loc)
        try:
            closure = func.env if isinstance(func.env, Env) else None
            names = [p.arg for p in a.args]
            defaults = {
                p.arg: d for p, d in zip(a.args[len(a.args) - len(a.defaults) :], a.defaults, strict=True)
            }
            if len(args) > len(names):
                raise InputError(
                    f"{getattr(node, 'name', 'lambda')}() takes {len(names)} arguments but "
                    f"{len(args)} were given (Python raises TypeError)",
                    loc,
                )
            env = Env(dict(zip(names, args, strict=False)), closure)
            for k, v in kwargs.items():
                if k not in names or k in env.vars:
                    raise InputError(
                        f"unexpected or repeated keyword argument '{k}' (Python raises TypeError)", loc
                    )
                env.vars[k] = v
            for n in names:
                if n not in env.vars:
                    if n not in defaults:
                        raise InputError(f"missing argument '{n}' (Python raises TypeError)", loc)
                    env.vars[n] = self.ev(defaults[n], closure or Env({}))
            if isinstance(node, pyast.Lambda):
                return self.ev(node.body, env)
            return self.exec_body(node.body, env, node)
        finally:
            self.depth -= 1

    # -- methods ----------------------------------------------------------------------------------

    def method(
        self, recv: Value, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if isinstance(recv, DFV):
            return self.df_method(recv.df, name, args, kwargs, loc, node)
        if isinstance(recv, ColV):
            return DFF.column_method(recv.expr, name, args, kwargs, loc)
        if isinstance(recv, GroupedV):
            return self.grouped_method(recv, name, args, kwargs, loc)
        if isinstance(recv, SessionV):
            return self.session_method(name, args, kwargs, loc, node)
        if isinstance(recv, ReaderV):
            if name == "table":
                b, _ = DFF.sig("tableName").bind("table", args, kwargs, loc)
                return DFV(self.read_table(as_str(b["tableName"], loc, "a table name"), loc))
            raise UnsupportedError(
                f"spark.read.{name}: reading files is not supported (pass the DataFrame as a parameter)",
                loc,
                construct=name,
            )
        if isinstance(recv, PyV) and isinstance(recv.value, str) and name in _STR_METHODS:
            pyargs = [py_value(a, loc) for a in args]
            return self._py(lambda: getattr(recv.value, name)(*pyargs), loc)
        if isinstance(recv, SeqV) and name in ("index", "count") and recv.is_list:
            return self._py(
                lambda: getattr(py_value(recv, loc), name)(*[py_value(a, loc) for a in args]), loc
            )
        if isinstance(recv, DictV) and name in ("items", "keys", "values") and not args:
            if name == "items":
                return SeqV(tuple(SeqV((k, v), False) for k, v in recv.items))
            return SeqV(tuple(k if name == "keys" else v for k, v in recv.items))
        raise UnsupportedError(f"method '{name}' of {describe(recv)} is not supported", loc, construct=name)

    def session_method(
        self, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if name == "sql":
            # SparkSession.sql(sqlQuery, args=None, **kwargs): the other keywords format the query
            own = {k: v for k, v in kwargs.items() if k in ("sqlQuery", "args")}
            fmt = {k: v for k, v in kwargs.items() if k not in own}
            b, _ = DFF.sig("sqlQuery", "args=None").bind("sql", args, own, loc)
            if b["args"] != PyV(None):
                raise UnsupportedError(
                    "spark.sql with query arguments is not supported", loc, construct="sql"
                )
            text = as_str(b["sqlQuery"], loc, "the query")
            query_node = node.args[0] if isinstance(node, pyast.Call) and node.args else node
            if not fmt:
                return DFV(self.sql_query(text, query_node, loc))
            text, views = _format_sql(text, fmt, loc)
            saved = dict(self.views)
            self.views.update(views)
            try:  # the formatter's temporary views are dropped once the query is analysed
                return DFV(self.sql_query(text, query_node, loc))
            finally:
                self.views = saved
        if name == "table":
            b, _ = DFF.sig("tableName").bind("table", args, kwargs, loc)
            return DFV(self.read_table(as_str(b["tableName"], loc, "a table name"), loc))
        raise UnsupportedError(
            f"spark.{name} is not supported (DataFrames come in as parameters)", loc, construct=name
        )

    def read_table(self, name: str, loc: Loc) -> DF:
        key = name.lower()
        if key in self.views:
            df = self.views[key]
            return replace(df, attrs=tuple(Attr(a.id, a.name, name) for a in df.attrs))
        if key in self.catalog:
            t = self.catalog[key]
            self._use_table(t)
            return DF(t, tuple(Attr(self.ids.fresh(), f.name, name) for f in t.schema.fields))
        raise AnalysisError(
            f"[TABLE_OR_VIEW_NOT_FOUND] table or view '{name}' is not registered in this function "
            "(createOrReplaceTempView) nor given with --schema",
            loc,
        )

    def _use_table(self, t: R.Table) -> None:
        if all(u.name != t.name for u in self.tables_used):
            self.tables_used.append(_TableUse(t.name, t.schema))

    # -- SQL ----------------------------------------------------------------------------------------

    def _sql_position(self, node: pyast.AST) -> tuple[int, int]:
        """Where a string literal's text starts (past its prefix and opening quotes), so that positions
        inside the SQL text map to the Python file."""
        line, col = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
        if isinstance(node, pyast.Constant) and 0 < line <= len(self.lines):
            text = self.lines[line - 1]
            i = col
            while i < len(text) and text[i] in "rRbBuUfF":
                i += 1
            q = text[i : i + 3]
            i += 3 if q in ('"""', "'''") else 1
            return line, i + 1
        return line, col + 1

    def sql_query(self, text: str, node: pyast.AST, loc: Loc) -> DF:
        try:
            from frontend.sql import translator as sqlfront
        except ImportError:
            raise UnsupportedError(
                "spark.sql is not supported yet (the SQL frontend is missing)", loc, construct="spark.sql"
            ) from None
        catalog: dict[str, R.Rel] = {k: v for k, v in self.catalog.items()}
        catalog.update({k: v.rel for k, v in self.views.items()})
        line, col = self._sql_position(node)
        rel = sqlfront.translate_query(text, catalog, filename=self.filename, line=line, col=col)
        for t in _tables_in(rel):
            if any(t is c for c in self.catalog.values()):
                self._use_table(t)
        return self.fresh_df(rel)

    def sql_text(self, text: str, node: pyast.AST, loc: Loc) -> SqlText:
        """A SQL expression string, translated where it is used (``F.expr``, ``filter("a > 1")``)."""
        line, col = self._sql_position(node)
        return SqlText(text, line, col, loc=loc)

    def _sql_frontend(self, loc: Loc) -> Any:
        try:
            from frontend.sql import translator as sqlfront
        except ImportError:  # pragma: no cover - the SQL frontend is part of sparkeq
            raise UnsupportedError(
                "SQL text is not supported yet (the SQL frontend is missing)", loc, construct="sql"
            ) from None
        return sqlfront

    @staticmethod
    def _sql_from(scope_attrs: Sequence[Attr]) -> str:
        """``FROM`` clause naming the DataFrame as SQL text sees it: under its ``alias`` when every
        column has the same one (``F.expr("l.a + 1")`` after ``df.alias("l")``)."""
        quals = {a.qualifier for a in scope_attrs}
        if len(quals) == 1 and None not in quals:
            q = next(iter(quals))
            assert q is not None
            return f"{_PLACEHOLDER} AS `{q.replace('`', '``')}`"
        return _PLACEHOLDER

    def bind_sql(self, c: CExpr, scope: Scope) -> CExpr:
        """``c`` with every SQL expression string translated against ``scope``'s columns (by the SQL
        frontend, as ``SELECT <text> FROM df``: SQL's own rules, names and Spark's column name)."""
        if isinstance(c, SqlText):
            sqlfront = self._sql_frontend(c.loc or Loc(self.filename, c.line, c.col))
            placeholder = R.Table(_PLACEHOLDER, Schema(scope.fields))
            prefix = "SELECT "
            query = f"{prefix}{c.text} FROM {self._sql_from(scope.attrs)}"
            rel = sqlfront.translate_query(
                query,
                {_PLACEHOLDER: placeholder},
                filename=self.filename,
                line=c.line,
                col=c.col - len(prefix),
            )
            if not (isinstance(rel, R.Project) and rel.source is placeholder and len(rel.exprs) == 1):
                raise UnsupportedError(
                    f"SQL expression {c.text!r}: only a single scalar expression over the "
                    "DataFrame's columns is supported here (no aggregates, no *)",
                    c.loc,
                    construct="sql-expression",
                )
            return Resolved(rel.exprs[0], rel.schema.fields[0].name, loc=c.loc)
        return map_children(c, lambda x: self.bind_sql(x, scope))

    def select_expr(self, df: DF, args: list[Value], loc: Loc, node: pyast.AST) -> DF:
        """``selectExpr("a + 1", "b AS z")``: ``SELECT <exprs> FROM df`` by the SQL frontend."""
        items = flatten_single(args)
        if not items:
            return self.project(df, [], loc)
        texts = [as_str(v, loc, "a selectExpr expression") for v in items]
        sqlfront = self._sql_frontend(loc)
        first = node.args[0] if isinstance(node, pyast.Call) and node.args else node
        line, col = self._sql_position(first)
        prefix = "SELECT "
        query = f"{prefix}{', '.join(texts)} FROM {self._sql_from(df.attrs)}"
        rel = sqlfront.translate_query(
            query, {_PLACEHOLDER: df.rel}, filename=self.filename, line=line, col=col - len(prefix)
        )
        return self.fresh_df(rel)

    # -- DataFrame methods ------------------------------------------------------------------------

    def df_method(
        self, df: DF, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if name in _IDENTITY_METHODS:
            return DFV(df)
        if name in UNSUPPORTED_DF_METHODS:
            raise UnsupportedError(f"DataFrame.{name}: {UNSUPPORTED_DF_METHODS[name]}", loc, construct=name)
        handler = _DF_METHODS.get(name)
        if handler is None:
            raise UnsupportedError(f"DataFrame method '{name}' is not supported", loc, construct=name)
        return handler(self, df, args, kwargs, loc, node)

    # select ----------------------------------------------------------------------------------------

    def select(self, df: DF, items: list[Value], loc: Loc) -> DF:
        cols = [as_col(v, loc, "a select item") for v in flatten_single(items)]
        return self.project(df, cols, loc)

    def project(self, df: DF, cols: Sequence[CExpr], loc: Loc) -> DF:
        """``select``: one output column per item (``*`` expanded); a select of aggregates is a global
        aggregation (Spark plans ``df.select(F.sum("a"))`` as an ``Aggregate``)."""
        expanded: list[CExpr] = []
        for c in cols:
            if isinstance(c, Star):
                expanded += self.star(df, c)
            else:
                expanded.append(c)
        if any(contains_agg(c) for c in expanded):
            return self.aggregate(df, (), expanded, loc)
        scope = Scope.of(df)
        expanded = [self.bind_sql(c, scope) for c in expanded]
        res = Resolver(scope, context="select")
        exprs = [res.expr(c) for c in expanded]
        names = [output_name(c) for c in expanded]
        rel = build.project(df.rel, exprs, names, loc)
        attrs = [self.passthrough_attr(df, c, e, n) for c, e, n in zip(expanded, exprs, names, strict=True)]
        return self._projected(df, rel, attrs)

    def star(self, df: DF, s: Star) -> list[CExpr]:
        if s.ids is not None:
            for i in s.ids:
                lookup_id(Scope.of(df), AttrRef(i, "*", loc=s.loc))
            return [AttrRef(a.id, a.name, loc=s.loc) for a in df.attrs if a.id in s.ids]
        chosen = [
            a
            for a in df.attrs
            if s.qualifier is None or (a.qualifier is not None and a.qualifier.lower() == s.qualifier.lower())
        ]
        if s.qualifier is not None and not chosen:
            raise AnalysisError(
                f"[CANNOT_RESOLVE_STAR_EXPAND] cannot resolve {s.qualifier}.* among the columns "
                f"{', '.join(df.columns)}",
                s.loc,
            )
        return [AttrRef(a.id, a.name, loc=s.loc) for a in chosen]

    def passthrough_attr(self, df: DF, c: CExpr, e: R.Expr, name: str) -> Attr:
        """A plain column reference keeps its identity (and ``alias`` qualifier); anything computed or
        aliased is a new column."""
        if isinstance(c, Name | AttrRef) and isinstance(e, R.Col):
            a = df.attrs[e.index]
            return Attr(a.id, name, a.qualifier)
        return Attr(self.ids.fresh(), name)

    def _projected(self, df: DF, rel: R.Rel, attrs: Sequence[Attr]) -> DF:
        return DF(rel, tuple(attrs), df.ambiguous, df.hidden, origin=df)

    # Spark's ResolveMissingReferences -------------------------------------------------------------

    def with_missing(self, df: DF, exprs: Sequence[CExpr], loc: Loc) -> tuple[DF, int]:
        """``df`` widened so that every column reference in ``exprs`` resolves: a column an earlier
        ``select`` removed is added back to that select's output (after ``df``'s own columns, which keep
        their positions), through the filters, sorts and limits since, as Spark's analyser does for a
        ``filter``/``orderBy`` that names it. Returns the widened DataFrame and ``df``'s width (the
        caller projects the result back to those columns)."""
        scope = Scope.of(df)
        missing = [r for e in exprs for r in references(e) if not resolves(scope, r)]
        if not missing or df.origin is None:
            return df, len(df.attrs)
        return self._widen(df, missing, loc), len(df.attrs)

    def _widen(self, df: DF, refs: Sequence[Name | AttrRef], loc: Loc) -> DF:
        chain: list[R.Rel] = []
        rel = df.rel
        while isinstance(rel, R.Filter | R.Sort | R.Limit | R.Distinct | R.DropDuplicates):
            chain.append(rel)
            rel = rel.source
        origin = df.origin
        if not isinstance(rel, R.Project) or origin is None or rel.source is not origin.rel:
            raise UnsupportedError(
                f"{pretty(refs[0])} is not a column here; Spark may re-add it from an "
                "earlier select, which is supported through filters, sorts, limits and distinct only",
                refs[0].loc or loc,
                construct="missing-reference",
            )
        oscope = Scope.of(origin)
        deeper = [r for r in refs if not resolves(oscope, r)]
        if deeper:
            if origin.origin is None:
                lookup_name(oscope, deeper[0]) if isinstance(deeper[0], Name) else lookup_id(
                    oscope, deeper[0]
                )
            origin = self._widen(origin, deeper, loc)
            oscope = Scope.of(origin)
        extra_attrs: list[Attr] = []
        extra_exprs: list[R.Expr] = []
        for r in refs:
            i = lookup_name(oscope, r) if isinstance(r, Name) else lookup_id(oscope, r)
            a = origin.attrs[i]
            if any(x.id == a.id for x in extra_attrs):
                continue
            extra_attrs.append(a)
            extra_exprs.append(col_at(oscope, i, r.loc))
        new: R.Rel = build.project(
            origin.rel,
            [*rel.exprs, *extra_exprs],
            [*rel.schema.names, *(a.name for a in extra_attrs)],
            rel.loc,
        )
        for node in reversed(chain):
            if isinstance(node, R.Filter):
                new = build.filter_(new, node.pred, node.loc)
            elif isinstance(node, R.Sort):
                new = build.sort(new, node.keys, node.loc)
            elif isinstance(node, R.Limit):
                new = build.limit(new, node.count, node.loc)
            elif isinstance(node, R.Distinct):
                # Spark: the distinct becomes a Deduplicate on the select's columns only, keeping any
                # one value of the re-added ones (``select("a").distinct().filter(col("b") > 1)``)
                new = build.drop_duplicates(new, range(len(rel.exprs)), node.loc)
            else:
                new = build.drop_duplicates(new, node.columns, node.loc)
        return DF(new, df.attrs + tuple(extra_attrs), df.ambiguous, df.hidden, origin=origin)

    def narrowed(self, widened: DF, width: int, loc: Loc) -> DF:
        """The result of an operation on a widened DataFrame, back to the original columns (which keep
        their identities); it remembers the widened one, so that a later filter or sort can widen again."""
        if len(widened.attrs) == width:
            return widened
        return self.passthrough(widened, list(range(width)), loc)

    def wide_resolver(self, df: DF, wide: DF, context: str) -> Resolver:
        """Resolves against ``wide`` (``df`` plus re-added columns), a reference that ``df`` resolves
        going to ``df``'s column: Spark resolves against the child first and re-adds only what is
        missing (``orderBy(old.a, "a")`` after ``select(expr.alias("a"))``: ``"a"`` is the new one)."""
        narrow = Scope.of(df)
        wscope = Scope.of(wide)

        def hook(e: CExpr) -> R.Expr | None:
            if isinstance(e, Name | AttrRef) and resolves(narrow, e):
                i = lookup_name(narrow, e) if isinstance(e, Name) else lookup_id(narrow, e)
                return col_at(wscope, i, e.loc)
            return None

        return Resolver(wscope, hook if wide is not df else None, context=context)

    def bind_sql_widening(self, df: DF, c: CExpr, loc: Loc) -> tuple[CExpr, DF, int]:
        """``bind_sql`` for a filter or sort: SQL text that names a column an earlier select removed
        is read against the DataFrame widened by that select's input columns."""
        try:
            return self.bind_sql(c, Scope.of(df)), df, len(df.attrs)
        except InputError:
            if df.origin is None or not any(isinstance(x, SqlText) for x in _walk(c)):
                raise
            refs = [
                AttrRef(a.id, a.name, loc=loc)
                for a in df.origin.attrs
                if a.id not in {x.id for x in df.attrs}
            ]
            try:
                wide = self._widen(df, refs, loc) if refs else df
            except InputError:
                raise
            return self.bind_sql(c, Scope.of(wide)), wide, len(df.attrs)

    def passthrough(
        self, df: DF, keep: Sequence[int], loc: Loc, renames: Mapping[int, str] | None = None
    ) -> DF:
        """A projection of ``df``'s columns at positions ``keep`` (renamed ones get new identities)."""
        renames = renames or {}
        exprs: list[R.Expr] = []
        names: list[str] = []
        attrs: list[Attr] = []
        scope = Scope.of(df)
        for i in keep:
            exprs.append(col_at(scope, i, loc))
            a = df.attrs[i]
            if i in renames:
                names.append(renames[i])
                attrs.append(Attr(self.ids.fresh(), renames[i]))
            else:
                names.append(a.name)
                attrs.append(a)
        return self._projected(df, build.project(df.rel, exprs, names, loc), attrs)

    def with_columns(self, df: DF, pairs: Sequence[tuple[str, CExpr]], loc: Loc) -> DF:
        """``withColumn``/``withColumns``: each new column replaces every column of that name
        (case-insensitively, keeping its position) or is appended; all are computed from ``df``."""
        lowered = [n.lower() for n, _ in pairs]
        if len(set(lowered)) != len(lowered):
            raise AnalysisError("[COLUMN_ALREADY_EXISTS] withColumns() got the same column name twice", loc)
        for _, c in pairs:
            if contains_agg(c):
                raise AnalysisError(
                    f"[MISSING_GROUP_BY] withColumn() of an aggregate ({pretty(c)}): the other "
                    "columns are neither grouped nor aggregated",
                    c.loc or loc,
                )
        scope = Scope.of(df)
        res = Resolver(scope, context="withColumn")
        new = [(n, res.expr(self.bind_sql(c, scope))) for n, c in pairs]
        exprs: list[R.Expr] = [col_at(scope, i, loc) for i in range(len(df.attrs))]
        names = [a.name for a in df.attrs]
        attrs = list(df.attrs)
        for n, e in new:
            hits = [i for i, a in enumerate(attrs) if a.name.lower() == n.lower()]
            if hits:
                for i in hits:
                    exprs[i], names[i], attrs[i] = e, n, Attr(self.ids.fresh(), n)
            else:
                exprs.append(e)
                names.append(n)
                attrs.append(Attr(self.ids.fresh(), n))
        return self._projected(df, build.project(df.rel, exprs, names, loc), attrs)

    def drop(self, df: DF, items: list[Value], loc: Loc) -> DF:
        gone: set[int] = set()
        scope = Scope.of(df)
        for v in items:
            if isinstance(v, PyV) and isinstance(v.value, str):
                gone |= {i for i, a in enumerate(df.attrs) if a.name.lower() == v.value.lower()}
            elif isinstance(v, ColV):
                e = v.expr
                if isinstance(e, AttrRef):
                    ids = {e.id}
                    if e.id in df.ambiguous:
                        lookup_id(scope, e)
                    gone |= {i for i, a in enumerate(df.attrs) if a.id in ids}
                elif isinstance(e, Name):
                    try:
                        i = lookup_name(scope, e)
                    except AnalysisError as exc:
                        if "AMBIGUOUS" in exc.message:
                            raise
                        continue
                    gone |= {j for j, a in enumerate(df.attrs) if a.id == df.attrs[i].id}
                else:
                    raise UnsupportedError(
                        "drop() of a computed Column has no effect in Spark; drop by name",
                        e.loc or loc,
                        construct="drop",
                    )
            else:
                raise UnsupportedError(
                    f"drop() takes column names or Columns, not {describe(v)}", loc, construct="drop"
                )
        if not gone:
            return df
        return self.passthrough(df, [i for i in range(len(df.attrs)) if i not in gone], loc)

    # filter / sort / limit ---------------------------------------------------------------------------

    def df_filter(self, df: DF, cond: Value, loc: Loc, node: pyast.AST | None = None) -> DF:
        if isinstance(cond, PyV) and isinstance(cond.value, str):
            c: CExpr = self.sql_text(cond.value, node or pyast.Pass(), loc)
        elif isinstance(cond, ColV):
            c = cond.expr
        else:
            raise UnsupportedError(
                f"filter() takes a Column or a SQL string, not {describe(cond)}", loc, construct="filter"
            )
        if contains_agg(c):
            raise AnalysisError(
                f"an aggregate in a filter condition ({pretty(c)}): filter after the agg()", c.loc or loc
            )
        c, base, width = self.bind_sql_widening(df, c, loc)
        wide, _ = self.with_missing(base, [c], loc)
        pred = self.wide_resolver(df, wide, "a filter").expr(c)
        return self.narrowed(replace(wide, rel=build.filter_(wide.rel, pred, loc)), width, loc)

    def sort(self, df: DF, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> DF:
        extra = set(kwargs) - {"ascending"}
        if extra:
            raise InputError(f"orderBy() got unexpected keyword arguments {sorted(extra)}", loc)
        if not args:
            raise InputError("orderBy() needs at least one column (PySpark raises CANNOT_BE_EMPTY)", loc)
        items = args
        if len(items) == 1 and isinstance(items[0], SeqV):
            items = list(items[0].items)
        cols: list[CExpr] = []
        for v in items:
            if isinstance(v, PyV) and isinstance(v.value, int) and not isinstance(v.value, bool):
                k = v.value
                if k == 0 or abs(k) > len(df.attrs):
                    raise InputError(f"orderBy ordinal {k} is out of range", loc)
                a = df.attrs[abs(k) - 1]
                ref: CExpr = AttrRef(a.id, a.name, loc=loc)
                cols.append(ref if k > 0 else SortOrder(ref, False, loc=loc))
            else:
                cols.append(as_col(v, loc, "a sort key"))
        asc = kwargs.get("ascending", PyV(True))
        if isinstance(asc, PyV) and isinstance(asc.value, bool | int):
            if not asc.value:
                cols = [self._desc(c, loc) for c in cols]
        elif isinstance(asc, SeqV):
            flags = [py_value(x, loc, "ascending") for x in asc.items]
            cols = [c if f else self._desc(c, loc) for f, c in zip(flags, cols, strict=False)]
        else:
            raise InputError(f"ascending must be a bool or a list of bools, not {describe(asc)}", loc)
        base, width = df, len(df.attrs)
        bound: list[CExpr] = []
        for c in cols:
            b, base, _ = self.bind_sql_widening(base, c, loc)
            bound.append(b)
        cols = bound
        wide, _ = self.with_missing(base, cols, loc)
        res = self.wide_resolver(df, wide, "a sort key")
        keys: list[R.SortKey] = []
        for c in cols:
            if isinstance(c, SortOrder):
                keys.append(build.sort_key(res.expr(c.operand), c.ascending, c.nulls_first))
            else:
                keys.append(build.sort_key(res.expr(c)))
        return self.narrowed(replace(wide, rel=build.sort(wide.rel, keys, loc)), width, loc)

    @staticmethod
    def _desc(c: CExpr, loc: Loc) -> CExpr:
        if isinstance(c, SortOrder):
            raise UnsupportedError(
                "ascending=False applied to a sort order (c.asc()/c.desc()) is not supported",
                loc,
                construct="sort-order",
            )
        return SortOrder(c, False, loc=c.loc)

    # aggregation ---------------------------------------------------------------------------------

    def aggregate(self, df: DF, keys: Sequence[CExpr], outputs: Sequence[CExpr], loc: Loc) -> DF:
        """``groupBy(keys).agg(outputs)`` (no keys: a global aggregate, one row even on empty input)."""
        scope = Scope.of(df)
        keys = [self.bind_sql(k, scope) for k in keys]
        outputs = [self.bind_sql(o, scope) for o in outputs]
        plan = plan_aggregate(scope, keys, outputs, loc)
        key_attrs: list[Attr] = []
        for k, rk, n in zip(keys, plan.keys, plan.key_names, strict=True):
            if isinstance(k, Name | AttrRef) and isinstance(rk, R.Col):
                a = df.attrs[rk.index]
                key_attrs.append(Attr(a.id, n, a.qualifier))
            else:
                key_attrs.append(Attr(self.ids.fresh(), n))
        out_attrs = [Attr(self.ids.fresh(), n) for n in plan.output_names]
        if plan.direct:
            rel: R.Rel = build.aggregate(df.rel, plan.keys, plan.key_names, plan.aggs, plan.output_names, loc)
        else:
            inner = build.aggregate(df.rel, plan.keys, plan.key_names, plan.aggs, plan.agg_names, loc)
            key_cols = list(build.columns_of(inner))[: len(plan.keys)]
            rel = build.project(inner, [*key_cols, *plan.outputs], [*plan.key_names, *plan.output_names], loc)
        return DF(rel, tuple(key_attrs + out_attrs), df.ambiguous, df.hidden)

    def group_keys(self, df: DF, args: list[Value], loc: Loc) -> tuple[CExpr, ...]:
        items = args
        if len(items) == 1 and isinstance(items[0], SeqV):
            items = list(items[0].items)
        keys: list[CExpr] = []
        for v in items:
            if isinstance(v, PyV) and isinstance(v.value, int) and not isinstance(v.value, bool):
                if not 1 <= v.value <= len(df.attrs):
                    raise InputError(f"groupBy ordinal {v.value} is out of range", loc)
                a = df.attrs[v.value - 1]
                keys.append(AttrRef(a.id, a.name, loc=loc))
            else:
                keys.append(as_col(v, loc, "a grouping key"))
        for k in keys:
            if contains_agg(k):
                raise AnalysisError(f"an aggregate cannot be a grouping key ({pretty(k)})", k.loc or loc)
        return tuple(keys)

    def grouped_method(
        self, g: GroupedV, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc
    ) -> Value:
        df = g.df
        if name == "agg":
            if kwargs:
                raise InputError("agg() takes no keyword arguments", loc)
            if not args:
                raise InputError(
                    "agg() needs at least one aggregate (PySpark asserts exprs is not empty)", loc
                )
            if len(args) == 1 and isinstance(args[0], DictV):
                outs = [self._dict_agg(df, k, v, loc) for k, v in args[0].items]
            else:
                outs = []
                for a in args:
                    if not isinstance(a, ColV):
                        raise InputError(
                            f"agg() takes Columns (or one dict), not {describe(a)} (PySpark asserts "
                            "all exprs are Columns)",
                            loc,
                        )
                    outs.append(a.expr)
            return DFV(self.aggregate(df, g.keys, outs, loc))
        if name == "count":
            DFF.sig().bind("count", args, kwargs, loc)
            return DFV(
                self.aggregate(
                    df, g.keys, [Alias(Agg("count_star", (), "count", loc=loc), "count", loc=loc)], loc
                )
            )
        if name in ("sum", "avg", "mean", "min", "max"):
            if kwargs:
                raise InputError(f"{name}() takes no keyword arguments", loc)
            names = [as_str(a, loc, "a column name") for a in args]
            if not names:
                names = [a.name for a, f in zip(df.attrs, df.fields, strict=True) if is_numeric(f.type)]
            kind = "avg" if name == "mean" else name
            outs: list[CExpr] = []
            for n in names:
                e = Name((n,), loc=loc)
                i = lookup_name(Scope.of(df), e)
                if not is_numeric(df.fields[i].type):
                    raise AnalysisError(
                        f'"{n}" is not a numeric column: {name}() applies to numeric columns only', loc
                    )
                outs.append(Agg(kind, (e,), kind, loc=loc))  # type: ignore[arg-type]
            return DFV(self.aggregate(df, g.keys, outs, loc))
        if name in (
            "pivot",
            "apply",
            "applyInPandas",
            "applyInArrow",
            "cogroup",
            "transformWithStateInPandas",
        ):
            raise UnsupportedError(f"GroupedData.{name} is not supported", loc, construct=name)
        raise UnsupportedError(f"GroupedData method '{name}' is not supported", loc, construct=name)

    def _dict_agg(self, df: DF, col: Value, fn: Value, loc: Loc) -> CExpr:
        c = as_str(col, loc, "a column name")
        f = as_str(fn, loc, "an aggregate name").lower()
        kinds = {
            "sum": "sum",
            "avg": "avg",
            "mean": "avg",
            "average": "avg",
            "min": "min",
            "max": "max",
            "count": "count",
            "size": "count",
        }
        if f not in kinds:
            raise UnsupportedError(f"aggregate '{f}' in agg(dict) is not supported", loc, construct=f)
        kind = kinds[f]
        if c == "*" and kind == "count":
            return Agg("count_star", (), "count", loc=loc)
        return Agg(kind, (parse_name(c, loc),), kind, loc=loc)  # type: ignore[arg-type]

    # joins ------------------------------------------------------------------------------------------

    def join(self, left: DF, right: DF, on: Value, how: Value, loc: Loc) -> DF:
        """``left.join(right, on, how)`` as PySpark's ``DataFrame.join`` then Spark's ``Dataset.join``."""
        if on == PyV(None) and how == PyV(None):
            return self.join_cond(left, right, "inner", None, loc)
        kind_text = "inner" if how == PyV(None) else as_str(how, loc, "the join type")
        norm = kind_text.lower().replace("_", "")
        if norm not in _JOIN_KINDS:
            raise AnalysisError(
                f"[UNSUPPORTED_JOIN_TYPE] Unsupported join type '{kind_text}' (supported: inner, "
                "outer, full, fullouter, full_outer, leftouter, left, left_outer, rightouter, right, "
                "right_outer, leftsemi, left_semi, semi, leftanti, left_anti, anti, cross)",
                loc,
            )
        kind = _JOIN_KINDS[norm]
        if on == PyV(None):
            return self.join_using(left, right, [], kind, loc)
        items = list(on.items) if isinstance(on, SeqV) and on.is_list else [on]
        if not items:
            raise InputError("join(on=[]) raises IndexError in PySpark", loc)
        if isinstance(items[0], PyV) and isinstance(items[0].value, str):
            return self.join_using(
                left, right, [as_str(i, loc, "a join column name") for i in items], kind, loc
            )
        cond: CExpr | None = None
        for i in items:
            if not isinstance(i, ColV):
                raise InputError(
                    f"join's on must be column names or Columns, not {describe(i)} (PySpark asserts)", loc
                )
            cond = i.expr if cond is None else Bin("AND", cond, i.expr, loc=loc)
        return self.join_cond(left, right, "inner" if kind == "cross" else kind, cond, loc)

    def _dedup_right(self, left: DF, right: DF) -> tuple[DF, dict[int, int]]:
        """Spark's self-join handling: right-side columns that share an identity with the left get new
        ones (``df.k`` then names the left column, and is ambiguous after the join)."""
        lids = {a.id for a in left.attrs}
        mapping = {a.id: self.ids.fresh() for a in right.attrs if a.id in lids}
        if not mapping:
            return right, mapping
        attrs = tuple(Attr(mapping.get(a.id, a.id), a.name, a.qualifier) for a in right.attrs)
        return replace(right, attrs=attrs), mapping

    def join_cond(self, left: DF, right: DF, kind: R.JoinKind, cond: CExpr | None, loc: Loc) -> DF:
        right, mapping = self._dedup_right(left, right)
        if cond is not None and contains_agg(cond):
            raise AnalysisError(f"an aggregate in a join condition ({pretty(cond)})", cond.loc or loc)
        scope = Scope(
            left.attrs + right.attrs,
            left.fields + right.fields,
            left.ambiguous | right.ambiguous,
            left.hidden | right.hidden,
        )
        rcond = None
        if cond is not None:
            cond = _self_join_condition(cond, mapping)
            _ambiguous_self_join(cond, mapping, right.rel)
            rcond = Resolver(scope, context="a join condition").expr(self.bind_sql(cond, scope))
        rel = build.join(kind, left.rel, right.rel, rcond, loc)
        attrs = left.attrs if kind in ("semi", "anti") else left.attrs + right.attrs
        return DF(
            rel, attrs, left.ambiguous | right.ambiguous | frozenset(mapping), left.hidden | right.hidden
        )

    def join_using(self, left: DF, right: DF, names: list[str], kind: R.JoinKind, loc: Loc) -> DF:
        """A join on column names (``USING``): one output column per name (the left key for inner and left
        joins, the right key for right joins, ``coalesce`` of both for full joins), then the other left
        columns, then the other right columns."""
        if kind == "cross":
            kind = "inner"
        right, mapping = self._dedup_right(left, right)
        lscope, rscope = Scope.of(left), Scope.of(right)
        pairs: list[tuple[int, int]] = []
        for n in names:
            e = Name((n,), loc=loc)
            pos = []
            for side, sc in (("left", lscope), ("right", rscope)):
                try:
                    pos.append(lookup_name(sc, e))
                except AnalysisError as exc:
                    if "UNRESOLVED" in exc.message:
                        cols = ", ".join(f"`{a.name}`" for a in sc.attrs)
                        raise AnalysisError(
                            f"[UNRESOLVED_USING_COLUMN_FOR_JOIN] USING column `{n}` cannot be "
                            f"resolved on the {side} side of the join. The {side}-side columns: "
                            f"[{cols}]",
                            loc,
                        ) from None
                    raise
            pairs.append((pos[0], pos[1]))
        nl = len(left.attrs)
        jscope = Scope(left.attrs + right.attrs, left.fields + right.fields)
        cond: R.Expr | None = None
        for li, ri in pairs:
            eq = build.compare("=", col_at(jscope, li, loc), col_at(jscope, nl + ri, loc), loc)
            cond = eq if cond is None else build.and_(cond, eq, loc)
        rel = build.join(kind, left.rel, right.rel, cond, loc)
        ambiguous = left.ambiguous | right.ambiguous | frozenset(mapping)
        if kind in ("semi", "anti"):
            return DF(rel, left.attrs, ambiguous, left.hidden | right.hidden)
        jfields = rel.schema.fields
        exprs: list[R.Expr] = []
        out_names: list[str] = []
        attrs: list[Attr] = []
        hidden = set(left.hidden | right.hidden)

        def col(i: int) -> R.Col:
            f = jfields[i]
            return R.Col(i, f.name, f.type, f.nullable, loc=loc)

        for li, ri in pairs:
            la, ra = left.attrs[li], right.attrs[ri]
            if kind == "full":
                exprs.append(DFF_call_coalesce(col(li), col(nl + ri), loc))
                out_names.append(la.name)
                attrs.append(Attr(self.ids.fresh(), la.name))
                hidden |= {la.id, ra.id}
            elif kind == "right":
                exprs.append(col(nl + ri))
                out_names.append(ra.name)
                attrs.append(ra)
                hidden.add(la.id)
            else:
                exprs.append(col(li))
                out_names.append(la.name)
                attrs.append(la)
                hidden.add(ra.id)
        lkeys = {li for li, _ in pairs}
        rkeys = {ri for _, ri in pairs}
        for i, a in enumerate(left.attrs):
            if i not in lkeys:
                exprs.append(col(i))
                out_names.append(a.name)
                attrs.append(a)
        for i, a in enumerate(right.attrs):
            if i not in rkeys:
                exprs.append(col(nl + i))
                out_names.append(a.name)
                attrs.append(a)
        if not pairs:  # no key: the join's own columns, unchanged
            return DF(rel, left.attrs + right.attrs, ambiguous, frozenset(hidden))
        hidden -= {a.id for a in attrs}
        proj = build.project(rel, exprs, out_names, loc)
        return DF(proj, tuple(attrs), ambiguous, frozenset(hidden))

    # set operations ------------------------------------------------------------------------------------

    def set_op(self, left: DF, right: DF, kind: R.SetKind, all_: bool, loc: Loc) -> DF:
        rel = build.set_op(kind, all_, left.rel, right.rel, loc)
        if rel.left is left.rel:
            attrs = tuple(
                Attr(a.id, f.name, a.qualifier) for a, f in zip(left.attrs, rel.schema.fields, strict=True)
            )
        else:
            attrs = tuple(Attr(self.ids.fresh(), f.name) for f in rel.schema.fields)
        return DF(rel, attrs, left.ambiguous, left.hidden)

    def union_by_name(self, left: DF, right: DF, allow_missing: bool, loc: Loc) -> DF:
        lnames = [a.name for a in left.attrs]
        rlow = {}
        for i, a in enumerate(right.attrs):
            if a.name.lower() in rlow:
                raise AnalysisError(
                    f"[COLUMN_ALREADY_EXISTS] column `{a.name}` appears twice on the right side of "
                    "unionByName",
                    loc,
                )
            rlow[a.name.lower()] = i
        llow = {n.lower() for n in lnames}
        rscope = Scope.of(right)
        rexprs: list[R.Expr] = []
        for i, n in enumerate(lnames):
            j = rlow.get(n.lower())
            if j is None:
                if not allow_missing:
                    raise AnalysisError(
                        f'[UNRESOLVED_COLUMN_AMONG_FIELD_NAMES] Cannot resolve column name "{n}" '
                        f"among ({', '.join(a.name for a in right.attrs)})",
                        loc,
                    )
                rexprs.append(build.coerce(build.lit(None, loc), left.fields[i].type))
            else:
                rexprs.append(col_at(rscope, j, loc))
        extra = [j for j, a in enumerate(right.attrs) if a.name.lower() not in llow]
        if extra and not allow_missing:
            raise AnalysisError(
                f"[NUM_COLUMNS_MISMATCH] unionByName: the right side has columns the left side "
                f"lacks ({', '.join(right.attrs[j].name for j in extra)})",
                loc,
            )
        lrel = left.rel
        lattrs = left.attrs
        if extra:
            lscope = Scope.of(left)
            lexprs = [col_at(lscope, i, loc) for i in range(len(lnames))]
            lexprs += [build.coerce(build.lit(None, loc), right.fields[j].type) for j in extra]
            extra_names = [right.attrs[j].name for j in extra]
            lrel = build.project(left.rel, lexprs, lnames + extra_names, loc)
            lattrs = left.attrs + tuple(Attr(self.ids.fresh(), n) for n in extra_names)
            rexprs += [col_at(rscope, j, loc) for j in extra]
        out_names = [a.name for a in lattrs]
        identity = len(rexprs) == len(right.attrs) and all(
            isinstance(e, R.Col) and e.index == i for i, e in enumerate(rexprs)
        )
        rrel = right.rel if identity else build.project(right.rel, rexprs, out_names, loc)
        return self.set_op(
            DF(lrel, lattrs, left.ambiguous, left.hidden), DF(rrel, right.attrs), "union", True, loc
        )

    # actions --------------------------------------------------------------------------------------------

    def action(self, df: DF, kind: R.ActionKind, count: int | None, loc: Loc) -> ActionV:
        if count is not None and count < 0:
            raise InputError(f"take({count}): a negative count", loc)
        return ActionV(R.Action(kind, df.rel, count, loc=loc))


def DFF_call_coalesce(a: R.Expr, b: R.Expr, loc: Loc) -> R.Expr:
    """The key of a full outer USING join: ``coalesce(left.k, right.k)``, as Spark writes it."""
    from frontend.dataframe.columns import call_function

    return call_function("coalesce", [a, b], loc)


def _format_sql(text: str, values: Mapping[str, Value], loc: Loc) -> tuple[str, dict[str, DF]]:
    """PySpark's ``SQLStringFormatter``: ``spark.sql("SELECT * FROM {t} WHERE k > {x}", t=df, x=1)``
    formats the query with Python's ``str.format``, a DataFrame becoming a temporary view (returned, by
    name), a string a quoted SQL literal and any other value its ``format()``."""
    import string
    import uuid

    out: list[str] = []
    views: dict[str, DF] = {}
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise InputError(f"spark.sql's query is not a valid format string: {exc} (Python raises ValueError)",
                         loc) from None
    for literal, field, spec, conversion in parsed:
        out.append(literal)
        if field is None:
            continue
        if field not in values:
            error = "IndexError" if field == "" or field.isdigit() else "KeyError"
            if field.isidentifier():
                raise InputError(f"spark.sql's query names {{{field}}}, which no keyword argument gives "
                                 f"(Python raises {error})", loc)
            if error == "IndexError":
                raise InputError(f"spark.sql's query has a positional field {{{field}}} (Python raises "
                                 "IndexError)", loc)
            raise UnsupportedError(f"the format field {{{field}}} in spark.sql's query is not supported",
                                   loc, construct="spark.sql format")
        if spec or conversion:
            raise UnsupportedError(f"a conversion or format spec in spark.sql's query ({{{field}}})", loc,
                                   construct="spark.sql format")
        v = values[field]
        if isinstance(v, DFV):
            known = next((n for n, df in views.items() if df is v.df), None)
            view = known or f"_pyspark_{uuid.uuid4().hex}"
            views[view] = v.df
            out.append(view)
        elif isinstance(v, PyV) and isinstance(v.value, str):
            out.append("'" + v.value.replace("\\", "\\\\").replace("'", "\\'") + "'")
        elif isinstance(v, PyV):
            out.append(format(v.value))
        else:
            raise UnsupportedError(f"{describe(v)} as a value in spark.sql's query ({{{field}}})", loc,
                                   construct="spark.sql format")
    return "".join(out), views


def _self_join_condition(cond: CExpr, mapping: Mapping[int, int]) -> CExpr:
    """Spark's fix for ``df.join(df2, df.k == df2.k)`` where both sides come from one DataFrame (so
    ``df.k`` and ``df2.k`` are one column): an equality of a column with itself, anywhere in the
    condition, compares the left column with the right one (``Dataset.join``'s trivially-true rule).
    ``df.k != df2.k`` is ``NOT (df.k = df2.k)`` in Spark, so its equality is rewritten too."""
    if not mapping:
        return cond
    if (
        isinstance(cond, Bin)
        and cond.op in ("=", "<=>", "!=")
        and isinstance(cond.left, AttrRef)
        and isinstance(cond.right, AttrRef)
        and cond.left.id == cond.right.id
        and cond.left.id in mapping
    ):
        r_ = cond.right
        # both sides become plain references to the join's children (no longer tied to a DataFrame)
        left = replace(cond.left, origin=None)
        return Bin(cond.op, left, AttrRef(mapping[r_.id], r_.name, loc=r_.loc), loc=cond.loc)
    return map_children(cond, lambda c: _self_join_condition(c, mapping))


def _ambiguous_self_join(cond: CExpr, mapping: Mapping[int, int], right: R.Rel) -> None:
    """Spark's ``DetectAmbiguousSelfJoin``: after the rewrite above, a column both sides share, taken
    from a DataFrame that is part of the right side (whose columns the join gave new IDs), cannot be
    told apart: ``t.join(t.select("k"), t.k < t.k)`` raises. Taken from a DataFrame of the left side
    only, it is the left column (``a = t.filter(..)``; ``a.join(t, a.v > 0)``)."""
    if not mapping:
        return
    inside = list(_rels_in(right))
    for e in _walk(cond):
        if (
            isinstance(e, AttrRef)
            and e.id in mapping
            and e.origin is not None
            and any(n is e.origin for n in inside)
        ):
            raise AnalysisError(
                f"[_LEGACY_ERROR_TEMP_1182] column {e.name} is ambiguous: the join's two sides come from "
                "the same DataFrame (alias the DataFrames, df.alias('l'), and use F.col('l.name'))",
                e.loc,
            )


def _rels_in(rel: R.Rel) -> Iterator[R.Rel]:
    yield rel
    for name in ("source", "left", "right"):
        child = getattr(rel, name, None)
        if isinstance(child, R.Rel):
            yield from _rels_in(child)


def _walk(e: CExpr) -> Iterator[CExpr]:
    yield e
    for c in children(e):
        yield from _walk(c)


def _tables_in(rel: R.Rel) -> Iterator[R.Table]:
    if isinstance(rel, R.Table):
        yield rel
        return
    for name in ("source", "left", "right"):
        child = getattr(rel, name, None)
        if isinstance(
            child,
            R.Table
            | R.Project
            | R.Filter
            | R.Join
            | R.Aggregate
            | R.Distinct
            | R.DropDuplicates
            | R.SetOp
            | R.Sort
            | R.Limit,
        ):
            yield from _tables_in(child)


def _unary_not(e: CExpr, loc: Loc) -> CExpr:
    return Unary("NOT", e, loc=loc)


def _unary_neg(e: CExpr, loc: Loc) -> CExpr:
    return Unary("neg", e, loc=loc)


def from_python(value: Any, loc: Loc) -> Value:
    if value is None or isinstance(value, bool | int | float | str | decimal.Decimal):
        return PyV(value)
    if isinstance(value, list | tuple | range):
        return SeqV(tuple(from_python(v, loc) for v in value), not isinstance(value, tuple))
    raise UnsupportedError(
        f"a Python {type(value).__name__} value is not supported here", loc, construct=type(value).__name__
    )


def pretty_value(v: Value) -> str:
    return repr(v.value) if isinstance(v, PyV) else describe(v)


# ---------------------------------------------------------------------------------------------------
# The DataFrame method table
# ---------------------------------------------------------------------------------------------------

_BINOPS = MappingProxyType(
    {
        pyast.Add: "+",
        pyast.Sub: "-",
        pyast.Mult: "*",
        pyast.Div: "/",
        pyast.Mod: "%",
        pyast.FloorDiv: "//",
        pyast.Pow: "**",
        pyast.BitAnd: "&",
        pyast.BitOr: "|",
        pyast.BitXor: "^",
        pyast.LShift: "<<",
        pyast.RShift: ">>",
        pyast.MatMult: "@",
    }
)
_PY_OPS = MappingProxyType(
    {
        "+": lambda a, b: a + b,
        "-": lambda a, b: a - b,
        "*": lambda a, b: a * b,
        "/": lambda a, b: a / b,
        "%": lambda a, b: a % b,
        "//": lambda a, b: a // b,
        "**": lambda a, b: a**b,
        "&": lambda a, b: a & b,
        "|": lambda a, b: a | b,
        "^": lambda a, b: a ^ b,
        "<<": lambda a, b: a << b,
        ">>": lambda a, b: a >> b,
        "@": lambda a, b: a @ b,
    }
)
_CMPOPS = MappingProxyType(
    {pyast.Eq: "==", pyast.NotEq: "!=", pyast.Lt: "<", pyast.LtE: "<=", pyast.Gt: ">", pyast.GtE: ">="}
)
_PY_CMP = MappingProxyType(
    {
        "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b,
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
    }
)
_STR_METHODS = frozenset(
    {
        "upper",
        "lower",
        "strip",
        "lstrip",
        "rstrip",
        "replace",
        "startswith",
        "endswith",
        "split",
        "join",
        "format",
        "capitalize",
        "title",
        "zfill",
        "removeprefix",
        "removesuffix",
    }
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


def _m_view(
    t: DataFrameTranslator, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any
) -> Value:
    b, _ = DFF.sig("name").bind("createOrReplaceTempView", args, kw, loc)
    name = as_str(b["name"], loc, "a view name")
    key = name.lower()
    if (
        isinstance(node, pyast.Call)
        and isinstance(node.func, pyast.Attribute)
        and node.func.attr == "createTempView"
        and key in t.views
    ):
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
        "agg": _m_agg,
        "transform": _m_transform,
        "createOrReplaceTempView": _m_view,
        "createTempView": _m_view,
        "count": _action("count"),
        "collect": _action("collect"),
        "first": _action("first"),
        "take": _action("take"),
        "head": _m_head,
        "selectExpr": lambda t, df, a, k, loc, n: DFV(t.select_expr(df, a, loc, n)),
    }
)

__all__ = ["translate_dataframe_source", "is_dataframe_function", "DataFrameTranslator"]
