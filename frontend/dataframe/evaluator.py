"""The driver-code evaluator of the DataFrame dialect: statements and expressions of Python.

``Evaluator`` runs the DataFrame function's straight-line Python as Python would (assignments, helper
calls inlined, loops over constant lists unrolled, ``if`` on constants), without running the user's
code; what a DataFrame method does is in the mixins ``readers``, ``projections`` and ``joins``, which
``translator.DataFrameTranslator`` combines with this class. The operator tables and the conversions
of Python constants are here because only the evaluator reads them.
"""

from __future__ import annotations

import ast as pyast
import builtins
import decimal
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from frontend.dataframe import branches as BR
from frontend.dataframe import dynamic_frames as DYN
from frontend.dataframe import functions as DFF
from frontend.dataframe import schema_values as SV
from frontend.dataframe import udfs
from frontend.dataframe import windows as DFW
from frontend.dataframe.columns import (
    DF,
    Attr,
    AttrRef,
    CExpr,
    IdSource,
    Name,
    Scope,
    Star,
    Unary,
    children,
    lookup_name,
    parse_name,
)
from frontend.dataframe.dicts import make_dict
from frontend.dataframe.module import (
    _DF_PROPERTIES,
    _IDENTITY_METHODS,
    _PY_BUILTIN_MISSING,
    _PY_BUILTINS,
    MAX_INLINE_DEPTH,
    MAX_UNROLL,
    UNSUPPORTED_DF_METHODS,
    ModuleNames,
    scan_names,
)
from frontend.dataframe.outputs import OutputsProgram
from frontend.dataframe.private_lists import MUTATORS, private_names
from frontend.dataframe.scalars import assumption_text, missing_text, split_declarations
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
    NaV,
    PyV,
    ReaderV,
    SeqV,
    SessionV,
    Value,
    WinSpecV,
    as_int,
    as_str,
    canonical,
    describe,
    py_value,
)
from sparklite.ast import Loc
from sparklite.errors import AnnotationNeededError, InputError, NameResolutionError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.types import Schema, SchemaError, parse_ddl


def scalar_value(value: Any) -> Value:
    """A declared scalar argument (or a schema's part, ``schema_values``) as the evaluator's value
    (lists and tuples as sequences)."""
    if isinstance(value, list | tuple):
        return SeqV(tuple(scalar_value(v) for v in value), isinstance(value, list))
    if isinstance(value, SV.SCHEMA_VALUES):
        return value  # type: ignore[no-any-return]
    return PyV(value)


# ---------------------------------------------------------------------------------------------------
# Scopes of the driver code
# ---------------------------------------------------------------------------------------------------


@dataclass
class Env:
    """A function's local names (a helper's call or a lambda gets its own, over its closure)."""

    vars: dict[str, Value]
    parent: Env | None = None
    # the names whose lists the function may mutate in place (frontend.dataframe.private_lists)
    private: frozenset[str] = frozenset()

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




class Evaluator:
    """Reads one DataFrame function. State (fresh column IDs, temp views, catalog tables read) lives
    here, per translation. ``DF_METHODS`` (the DataFrame method table) is filled in by
    ``translator.DataFrameTranslator``, which has the handlers."""

    DF_METHODS: Mapping[str, Any] = MappingProxyType({})

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
        self.schemas, self.scalars = split_declarations(schemas)
        self.assumed: list[str] = []
        self.registered_udfs: dict[str, udfs.UdfV] = {}  # spark.udf.register (frontend.dataframe.udfs)

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

    def translate_function(self, fn: pyast.FunctionDef) -> R.RelProgram | OutputsProgram:
        args = fn.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            raise UnsupportedError(
                "*args, **kwargs and keyword-only parameters are not supported in a DataFrame function",
                self.loc(fn),
                construct="parameters",
            )
        env = Env({}, private=private_names(fn))
        params: list[R.TableParam] = []
        self.param_names = {a.arg for a in args.args}
        for a in args.args:
            kind, schema = self._param_kind(a, fn)
            if kind == "scalar":
                arg = self.scalars[a.arg.lower()]
                env.vars[a.arg] = scalar_value(arg.value)
                self.assumed.append(assumption_text(a.arg, arg))
                continue
            if kind == "session":
                env.vars[a.arg] = SessionV()
                continue
            if kind == "dynamicframe":  # frontend.dataframe.dynamic_frames
                assert schema is not None
                params.append(R.TableParam(a.arg, schema, loc=self.loc(a)))
                env.vars[a.arg] = DYN.DynFrameParamV(self.table_df(a.arg, schema, self.loc(a)))
                self.assumed.append(DYN.ROUND_TRIP)
                continue
            assert schema is not None
            loc = self.loc(a)
            params.append(R.TableParam(a.arg, schema, loc=loc))
            env.vars[a.arg] = DFV(self.table_df(a.arg, schema, loc))
        for name, schema in self.schemas.items():
            if name not in self.param_names and name.lower() not in {p.lower() for p in self.param_names}:
                self.catalog[name.lower()] = build.table(name, schema, Loc(self.filename, fn.lineno, 1))
        result = self.exec_paths(list(fn.body), env, fn)
        # a fixed-length tuple or list of results: one program per position (frontend.dataframe.outputs)
        several = isinstance(result, SeqV) and bool(result.items)
        if isinstance(result, SeqV) and any(isinstance(v, ActionV) for v in result.items):
            # actions run eagerly, in order: the first error stops the rest, so positions are not
            # independent outcomes as lazy DataFrames are
            raise UnsupportedError("a DataFrame function returning several results must return DataFrames: "
                                   "an action's result among them is not supported",
                                   self.loc(fn.body[-1] if fn.body else fn), construct="result")
        bodies = [self._result(v, fn) for v in (result.items if isinstance(result, SeqV) and several
                                                 else (result,))]
        params += [R.TableParam(t.name, t.schema, loc=self.loc(fn)) for t in self.tables_used]
        scalars = tuple((a.arg, self.scalars[a.arg.lower()].value) for a in args.args
                        if a.arg.lower() in self.scalars and a.arg.lower() not in self.schemas)
        programs = tuple(R.RelProgram(fn.name, tuple(params), body, language="dataframe", loc=self.loc(fn),
                                      assumed=tuple(self.assumed), scalars=scalars) for body in bodies)
        if several and isinstance(result, SeqV):
            return OutputsProgram(fn.name, programs, result.is_list, self.loc(fn))
        return programs[0]

    def _result(self, value: Value, fn: pyast.FunctionDef) -> R.Rel | R.Action:
        if isinstance(value, DFV):
            return value.df.rel
        if isinstance(value, ActionV):
            return value.action
        if isinstance(value, DYN.DynFrameParamV):  # a Glue frame's rows (frontend.dataframe.dynamic_frames)
            return value.df.rel
        where = fn.body[-1] if fn.body else fn
        raise UnsupportedError(
            f"a DataFrame function must return a DataFrame or an action's result "
            f"(count(), collect(), first(), take(n)), not {describe(value)}",
            self.loc(where),
            construct="result",
        )

    def _param_kind(self, a: pyast.arg, fn: pyast.FunctionDef) -> tuple[str, Schema | None]:
        """``("table", schema)``, ``("session", None)`` or ``("scalar", None)`` (a value declared with
        ``--schema 'name=LITERAL'``, ``frontend.dataframe.scalars``): from the annotation, else the
        declarations."""
        loc = self.loc(a)
        given = self.schemas.get(a.arg, self.schemas.get(a.arg.lower()))
        if given is None and a.arg.lower() in self.scalars:
            return "scalar", None
        if isinstance(given, DYN.DynamicFrameSchema):
            return "dynamicframe", Schema(given.fields, given.constraints)
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
                f"parameter '{a.arg}' is a scalar parameter (not a DataFrame): its argument is needed as "
                f"a constant; {missing_text(a.arg)}",
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
            f"(from typing import Annotated), or pass --schema '{a.arg}=id INT, name STRING'; "
            f"{missing_text(a.arg)}",
            self.loc(a),
        )

    @staticmethod
    def _used_as_session(name: str, fn: pyast.FunctionDef) -> bool:
        uses = [
            n
            for n in pyast.walk(fn)
            if isinstance(n, pyast.Attribute) and isinstance(n.value, pyast.Name) and n.value.id == name
        ]
        # a session's (or a SQLContext's: the same methods) uses only; passed on to a helper by a
        # keyword such as ``sql_context=sql_context``, the name is used only as what it is
        return bool(uses) and all(u.attr in ("sql", "table", "read", "createDataFrame") for u in uses)

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

    def exec_paths(self, body: list[pyast.stmt], env: Env, fn: pyast.FunctionDef) -> Value:
        """The function's body, split at an ``if`` on a count (``frontend.dataframe.branches``): the rest of
        the body runs once per outcome, and the two results are merged; other statements as ``exec_block``."""
        for i, stmt in enumerate(body):
            if isinstance(stmt, pyast.If):
                cond = self.ev(stmt.test, env)
                cond = BR.truth_condition(cond) or cond
                if isinstance(cond, BR.CountCondV):
                    taken = self._path(stmt.body + body[i + 1 :], env, fn, stmt)
                    other = self._path(stmt.orelse + body[i + 1 :], env, fn, stmt)
                    rel = BR.merge(cond, taken, other, self.loc(stmt))
                    return DFV(self.fresh_df(rel))
                chosen = stmt.body if self.truth(cond, stmt.test) else stmt.orelse
                return self.exec_paths(chosen + body[i + 1 :], env, fn)
            out = self.exec_stmt(stmt, env)
            if out is not None:
                return out.value
        return PyV(None)

    def _path(self, body: list[pyast.stmt], env: Env, fn: pyast.FunctionDef, branch: pyast.If) -> R.Rel:
        """One outcome of a branch on the data: its own copy of the local names and of the views."""
        catalog, views = dict(self.catalog), dict(self.views)
        value = self.exec_paths(body, Env(dict(env.vars), env.parent), fn)
        self.catalog, self.views = catalog, views
        if isinstance(value, DYN.DynFrameParamV):
            return value.df.rel
        if not isinstance(value, DFV):
            raise UnsupportedError(
                f"a branch on the data (count()) must return a DataFrame on each path, not {describe(value)}",
                self.loc(body[-1] if body else branch),
                construct="data-dependent-branch",
            )
        return value.df.rel

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
        if isinstance(stmt, pyast.While):  # on driver values the translator decides, unrolled
            if stmt.orelse:
                raise UnsupportedError("while ... else is not supported", loc, construct="while-else")
            for _ in range(MAX_UNROLL + 1):
                if not self.truth(self.ev(stmt.test, env), stmt.test):
                    return None
                out = self.exec_block(stmt.body, env)
                if out is not None:
                    return out
            raise UnsupportedError("while loop too long to unroll", loc, construct="while")
        if isinstance(stmt, pyast.FunctionDef):
            udf = udfs.decorated(self, stmt, env) if stmt.decorator_list else None
            if udf is not None:
                env.vars[stmt.name] = udf
                return None
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
        if isinstance(v, BR.CountCondV) or BR.truth_condition(v) is not None:
            raise UnsupportedError(
                "a value computed from the data decides this condition, which Python decides once per input: "
                "a branch on a count() is read only as an `if` at the top of a DataFrame function's body "
                "(both outcomes modelled); not here",
                self.loc(node),
                construct="data-dependent-branch",
            )
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
        elif isinstance(v, SV.SchemaV):  # for field in df.schema: its StructFields
            items = [SV.FieldV(f) for f in v.fields]  # type: ignore[misc]
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
        decorated = [s for s in info.tree.body if isinstance(s, pyast.FunctionDef) and s.name == name]
        if len(decorated) == 1 and decorated[0].decorator_list:  # @udf def f(...) (frontend.dataframe.udfs)
            udf = udfs.decorated(self, decorated[0], Env({}))
            if udf is not None:
                self.module_values[name] = udf
                return udf
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
            if star == TYPES_MODULE and name[:1].isupper():  # its classes, not builtins such as len
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
        if isinstance(base, ColV):  # ``col[i]``: Column.__getitem__ (frontend/dataframe/nested.py)
            from frontend.dataframe.nested import get_item

            return get_item(base.expr, key, loc)
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
            cond = v if isinstance(v, BR.CountCondV) else BR.truth_condition(v)
            if cond is not None:  # not df.count(): a condition on the data (frontend.dataframe.branches)
                return BR.negate(cond)  # type: ignore[return-value]
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
        if sym in ("==", "!=") and isinstance(left, SV.TypeV) and isinstance(right, SV.TypeV):
            return PyV((left.type == right.type) == (sym == "=="))  # PySpark: same class, same parameters
        cond = BR.count_condition(sym, left, right)  # if df.filter(...).count() > 0: (dataframe.branches)
        if cond is not None:
            return cond  # type: ignore[return-value]
        if isinstance(left, ActionV) or isinstance(right, ActionV):
            raise UnsupportedError(
                f"comparison between {describe(left)} and {describe(right)}: a value computed from the data "
                "decides a branch of the driver code, which Python runs one way per input; branches on data "
                "are not modelled (the translator follows only paths known statically)",
                loc,
                construct="data-dependent-branch",
            )
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
        if isinstance(base, SV.SCHEMA_VALUES):
            part = SV.attribute(base, attr, loc)
            return BoundV(base, attr, loc) if part is None else scalar_value(part)  # type: ignore[arg-type]
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
            if attr == "na":
                return NaV(base.df)
            if attr == "schema":  # known statically, as columns and dtypes (schema_values)
                return SV.schema_of(base.df.columns, base.df.fields)  # type: ignore[return-value]
            if attr in _DF_PROPERTIES and attr in UNSUPPORTED_DF_METHODS:
                raise UnsupportedError(
                    f"DataFrame.{attr}: {UNSUPPORTED_DF_METHODS[attr]}", loc, construct=attr
                )
            if attr in self.DF_METHODS or attr in UNSUPPORTED_DF_METHODS or attr in _IDENTITY_METHODS:
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
            if attr == "udf":
                return udfs.RegistryV()
            return BoundV(base, attr, loc)
        if isinstance(base, ColV | GroupedV | PyV | ReaderV | SeqV | DictV | NaV | WinSpecV):
            return BoundV(base, attr, loc)
        if isinstance(base, DYN.DynFrameParamV):
            return DYN.attribute(base, attr, loc) or BoundV(base, attr, loc)
        if isinstance(base, udfs.UdfV):
            return udfs.method(base, attr, loc)
        if isinstance(base, udfs.RegistryV):
            return udfs.registry_attribute(self, attr, loc)
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
        f = node.func
        if (isinstance(f, pyast.Attribute) and f.attr in MUTATORS and isinstance(f.value, pyast.Name)
                and f.value.id in env.private and isinstance(env.vars.get(f.value.id), SeqV)):
            return self.mutate(env, f.value.id, f.attr, node)
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

    def mutate(self, env: Env, name: str, method: str, node: pyast.Call) -> Value:
        """``name.method(...)`` on a list only this function holds: the name is bound to the new list
        (exact: ``private_lists`` showed nothing else can hold it); returns what Python returns."""
        loc = self.loc(node)
        if node.keywords or any(isinstance(a, pyast.Starred) for a in node.args):
            raise UnsupportedError(f"list.{method} with keywords or *args", loc, construct=method)
        args = [self.ev(a, env) for a in node.args]
        seq = env.vars[name]
        assert isinstance(seq, SeqV)
        items = list(seq.items)
        result: Value = PyV(None)
        arity = {"append": 1, "extend": 1, "remove": 1, "insert": 2, "clear": 0}.get(method)
        if (arity is not None and len(args) != arity) or (method == "pop" and len(args) > 1):
            raise InputError(f"list.{method}() given {len(args)} argument(s) (Python raises TypeError)", loc)
        if method == "append":
            items.append(args[0])
        elif method == "extend":
            items += self.iterate(args[0], node)
        elif method == "clear":
            items = []
        elif method == "insert":
            items.insert(as_int(args[0], loc, "insert's index"), args[1])
        elif method == "pop":
            i = as_int(args[0], loc, "pop's index") if args else -1
            if not -len(items) <= i < len(items):
                raise InputError("pop from an empty list or past its end (Python raises IndexError)", loc)
            result = items.pop(i)
        else:  # remove: the first item == the value, compared as Python compares constants
            want = py_value(args[0], loc, "remove's value")
            values = [py_value(i, loc, "an item of a list remove() searches") for i in items]
            if want not in values:
                raise InputError(f"list.remove({want!r}): not in the list (Python raises ValueError)", loc)
            del items[values.index(want)]
        env.vars[name] = SeqV(tuple(items), True)
        return result

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
        if isinstance(func, udfs.UdfV):
            return udfs.call(func, args, kwargs, loc)
        if isinstance(func, udfs._Register):
            return udfs.register(func, args, kwargs, loc)
        if isinstance(func, udfs.UdfFactoryV) and len(args) == 1 and not kwargs:
            return udfs.wrap(self, args[0], func.return_type, loc)
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
            if name == "udf":  # frontend.dataframe.udfs
                return udfs.make(self, args, kwargs, loc)
            if name in DFF.FUNCTIONS:
                return DFF.FUNCTIONS[name](args, kwargs, loc)
            if name in DFW.FUNCTIONS:
                return DFW.FUNCTIONS[name](args, kwargs, loc)
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
        window = DFW.window_call(path, args, kwargs, loc)
        if window is not None:
            return window
        if path == "collections.OrderedDict":
            return make_dict(args, kwargs, loc, ordered=True)
        if path == "functools.reduce":
            return self.reduce(args, kwargs, loc, node)
        if path == "decimal.Decimal" and len(args) == 1 and not kwargs and isinstance(args[0], PyV):
            return self._py(lambda: decimal.Decimal(args[0].value), loc)  # F.lit(Decimal("1.50"))
        if path.startswith("operator."):
            return self.builtin_operator(path[len("operator.") :], args, loc)
        if DYN.is_from_df(path):
            return DYN.from_df(args, kwargs, loc)  # type: ignore[return-value]
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
        if name == "dict":
            return make_dict(args, kwargs, loc, ordered=False)
        if name == "len" and len(args) == 1 and isinstance(args[0], SeqV | DictV):
            return PyV(len(args[0].items))
        if name == "len" and len(args) == 1 and isinstance(args[0], SV.SchemaV):
            return PyV(len(args[0].fields))
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
        if name == "isinstance" and len(args) == 2 and isinstance(args[0], SV.SCHEMA_VALUES) and not kwargs:
            classes = args[1].items if isinstance(args[1], SeqV) else (args[1],)
            paths = [canonical(c.path) if isinstance(c, ModV) else describe(c) for c in classes]
            return PyV(SV.is_instance(args[0], paths, loc))
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
            env = Env(dict(zip(names, args, strict=False)), closure, private_names(node))
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
        if isinstance(recv, SV.SCHEMA_VALUES):
            if args or kwargs:
                raise UnsupportedError(f"{name}() with arguments is not modelled", loc, construct="schema")
            return scalar_value(SV.call(recv, name, loc))
        if isinstance(recv, ColV):
            if name == "over":
                return DFW.over(recv.expr, args, kwargs, loc)
            return DFF.column_method(recv.expr, name, args, kwargs, loc)
        if isinstance(recv, WinSpecV):
            return DFW.spec_method(recv, name, args, kwargs, loc)
        if isinstance(recv, GroupedV):
            return self.grouped_method(recv, name, args, kwargs, loc)
        if isinstance(recv, NaV) and name in ("fill", "drop"):  # df.na.fill is df.fillna...
            return self.df_method(recv.df, name + "na", args, kwargs, loc, node)
        if isinstance(recv, SessionV):
            return self.session_method(name, args, kwargs, loc, node)
        if isinstance(recv, DYN.DynFrameParamV):
            return DYN.method(recv, name, args, kwargs, loc)  # type: ignore[no-any-return]
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




def _walk(e: CExpr) -> Iterator[CExpr]:
    yield e
    for c in children(e):
        yield from _walk(c)




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
