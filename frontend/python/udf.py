"""Translation of Python expressions and function bodies (UDFs) to SparkLite expressions.

``Translator`` walks Python's ``ast`` (the user's module is never imported). Function bodies are
straight-line code with ``if``/``elif``/``else``; a body becomes one expression: ``if`` splits the rest
of the block into the two branches of an ``Ite``, and local assignments are substituted into their
uses. Substitution would drop the evaluation of an unused assignment that raises
(``y = 1 // x; return x``) or move it after something else that raises (``k = int(a); v = float(b);
return (v, k)``: Python sees ``int``'s ``ValueError`` first), so every assignment is wrapped in a
``Force`` placeholder, which evaluates it first (``Ite(y == y, rest, rest)``) unless it cannot raise or
is already the first thing that may raise in what follows; likewise ``a and b`` keeps Python's short
circuit (``ShortCircuit``). Operations whose meaning depends on types (``+``, ``x[i]``, truth tests)
are placeholders too (``frontend.python.nodes``), resolved after type inference.

The RDD method chain (``frontend.rdd.methods``) and the pipeline function's statements
(``frontend.rdd.pipeline``) build on the same ``Translator``: they call it, and it calls them back through
``rdd_methods``/``rdd_method``/``inline_rdd_helper``, which ``frontend.rdd.translator.RddTranslator``
fills in. The dependency is inverted so that this shared module never imports a dialect package.
"""

from __future__ import annotations

import ast as pyast
import math
from dataclasses import replace
from typing import Any

from frontend.python import types as ftypes
from frontend.python.names import (
    BUILTIN_FUNCS,
    MATH_CONSTANTS,
    MATH_FUNCS,
    OPERATOR_BINARY,
    OPERATOR_UNARY,
    OPERATOR_UNSUPPORTED,
    UNBOUND,
    UNSUPPORTED_BUILTINS,
    BagV,
    CollectedV,
    DefV,
    FnV,
    GroupAggRef,
    GroupedV,
    GroupValsV,
    InputV,
    LocalHelperV,
    ModuleDef,
    ModuleInfo,
    OpV,
    PendingV,
    Scalar,
    Scope,
    TupleV,
    Value,
    function_locals,
    undefined,
    unsupported,
)
from frontend.python.nodes import (
    AsBool,
    AsInt,
    Beta,
    Force,
    Guard,
    ListLit,
    Narrow,
    PyArith,
    PyCompare,
    PyIndex,
    PyInt,
    PyPow,
    PySlice,
    Shaped,
    ShortCircuit,
    fresh,
    loc_of,
    may_raise,
)
from frontend.python.nodes import driver_may_raise as pre_driver_may_raise
from sparklite import ast as sl
from sparklite.builtins import BUILTINS as _LIBRARY
from sparklite.errors import InputError, TypeCheckError

ARITH = {pyast.Add: "+", pyast.Sub: "-", pyast.Mult: "*", pyast.FloorDiv: "//", pyast.Mod: "%",
         pyast.Div: "/"}
BITWISE = {pyast.BitAnd: "&", pyast.BitOr: "|", pyast.BitXor: "^", pyast.LShift: "<<", pyast.RShift: ">>",
           pyast.MatMult: "@"}
COMPARE = {pyast.Eq: "==", pyast.NotEq: "!=", pyast.Lt: "<", pyast.LtE: "<=", pyast.Gt: ">", pyast.GtE: ">="}
MAX_POWER = 8

#: String methods (receiver first): Python method name -> (builtin, admissible argument counts).
STR_METHODS = {
    "split": ("str.split", (0, 1)), "strip": ("str.strip", (0,)), "lower": ("str.lower", (0,)),
    "upper": ("str.upper", (0,)), "startswith": ("str.startswith", (1,)),
    "endswith": ("str.endswith", (1,)), "replace": ("str.replace", (2,)),
}

_BOOL_SHAPED = (sl.Not, sl.BoolLit, AsBool, PyCompare, ShortCircuit)

RDD_SOURCES = {"parallelize", "textFile", "wholeTextFiles", "range", "emptyRDD", "sequenceFile", "read"}

UNSUPPORTED_STATEMENTS = {
    pyast.For: "for loop", pyast.While: "while loop", pyast.Global: "global", pyast.Nonlocal: "nonlocal",
    pyast.Raise: "raise", pyast.Try: "try", pyast.Assert: "assert", pyast.With: "with",
    pyast.Delete: "del", pyast.Import: "import inside a function",
    pyast.ImportFrom: "import inside a function",
    pyast.ClassDef: "class definition", pyast.AsyncFunctionDef: "async def", pyast.Match: "match",
}
UNSUPPORTED_EXPRS = {
    pyast.SetComp: "set comprehension",
    pyast.DictComp: "dict comprehension", pyast.GeneratorExp: "generator expression",
    pyast.Dict: "dict literal", pyast.Set: "set literal",
    pyast.NamedExpr: "assignment expression (:=)", pyast.Starred: "starred expression",
    pyast.Await: "await", pyast.Yield: "yield", pyast.YieldFrom: "yield", pyast.Slice: "slice",
}

_TUPLE_RAISES = "tuple of an RDD and an action that may raise"
_TUPLE_RAISES_MESSAGE = ("a tuple holding an RDD and a computation that may raise must be the whole value of "
                         "an assignment or return")
_MAX_CONSTANT_DIGITS = 4000  # module constants are folded; keep them small


class _NotConstant(Exception):
    pass


def is_bool_shaped(e: sl.Expr) -> bool:
    """Expressions that are syntactically booleans (no truth-test placeholder needed)."""
    if isinstance(e, _BOOL_SHAPED):
        return True
    if isinstance(e, sl.Call) and e.func in ("py.is_none", "str.startswith", "str.endswith"):
        return True
    return isinstance(e, sl.BinOp) and e.op in sl.COMPARE_OPS + sl.BOOL_OPS + sl.MEMBER_OPS


class Translator:
    """Shared state of one translation: the module, the named functions emitted so far, the lets.

    The RDD dialect plugs in through ``rdd_methods`` (method names that make an RDD call),
    ``rdd_method`` and ``inline_rdd_helper``; ``frontend.rdd.translator.RddTranslator`` implements them."""

    rdd_methods: frozenset[str] = frozenset()

    def rdd_method(self, receiver: Value, func: pyast.Attribute, node: pyast.Call, scope: Scope) -> Value:
        """An RDD method call ``receiver.func(...)`` (``frontend.rdd.methods.method``)."""
        raise NotImplementedError("the RDD dialect's translator implements rdd_method")

    def inline_rdd_helper(self, mdef: ModuleDef, args: list[Value], call: pyast.Call) -> Value:
        """A call of a module helper that works on RDDs (``frontend.rdd.pipeline.inline_helper``)."""
        raise NotImplementedError("the RDD dialect's translator implements inline_rdd_helper")

    def __init__(self, info: ModuleInfo, source_lines: list[str]) -> None:
        self.info = info
        self.filename = info.filename
        self.lines = source_lines
        self.defs: dict[str, sl.Def] = {}
        self.flat_uses: set[str] = set()  # defs passed to flatMap
        self.value_uses: set[str] = set()  # defs called or passed to anything else
        self.in_progress: list[str] = []
        self.lets: list[sl.LetBinding] = []
        self.taken: set[str] = set(info.all_identifiers)
        self.program_names: set[str] = set()
        self.constant_cache: dict[str, sl.Expr] = {}
        self.let_names: set[str] = set()
        self.synth_names: set[str] = set()  # parameters the frontend invents (kv, a, b)
        self.captured: set[tuple[int, str]] = set()  # (scope id, name) read by a closure
        self.stmt_root: pyast.AST | None = None  # the value of the driver statement being translated
        self.bag_lets: dict[str, sl.Expr] = {}  # let-bound RDDs: forcing one runs its definition
        self.side_guards: list[Guard] = []  # checks of values that may not survive in the result

    def check_rebind(self, target: pyast.expr, scope: Scope) -> None:
        """Python closures read a variable when they run (for Spark: when the job runs), not when they
        are created; the translation substitutes values at creation, so rebinding a captured name is
        rejected instead of silently using the old value."""
        for node in pyast.walk(target):
            if isinstance(node, pyast.Name):
                _, owner, _ = scope.resolve(node.id)
                if owner is not None and (id(owner), node.id) in self.captured:
                    raise self.unsupported("rebinding a captured variable",
                                           f"'{node.id}' is reassigned after a function captured it (the "
                                           "function would see the new value when Spark runs it)", node)

    def check_def_rebind(self, stmt: pyast.FunctionDef, scope: Scope) -> None:
        """``check_rebind`` for a ``def``, which rebinds its name like ``=`` does."""
        self.check_rebind(pyast.copy_location(pyast.Name(stmt.name, pyast.Store()), stmt), scope)

    def program_level(self) -> set[str]:
        """Names a function parameter must not reuse: SparkLite forbids shadowing inputs, lets, defs."""
        return self.program_names | self.let_names | set(self.info.defs)

    def synth_param(self, base: str, avoid: set[str] = frozenset()) -> str:  # type: ignore[assignment]
        name = fresh(base, self.program_level() | set(avoid))
        self.synth_names.add(name)
        return name

    # --- locations and errors ------------------------------------------------------------------

    def loc(self, node: pyast.AST) -> sl.Loc:
        return loc_of(node, self.filename)

    def attr_loc(self, attr: pyast.Attribute) -> sl.Loc:
        """The position of ``name`` in ``receiver.name`` (chains often put the dot on a new line)."""
        line = getattr(attr.value, "end_lineno", None)
        col = getattr(attr.value, "end_col_offset", None)
        if line is None or col is None:
            return self.loc(attr)
        for ln in range(line, min(line + 20, len(self.lines) + 1)):
            text = self.lines[ln - 1]
            start = col if ln == line else 0
            idx = text.find(attr.attr, start)
            while idx != -1:
                before = text[start:idx].replace(" ", "").replace("\t", "").replace("\\", "")
                if before in (".", "") or before.endswith("."):
                    return sl.Loc(self.filename, ln, idx + 1)
                idx = text.find(attr.attr, idx + 1)
        return self.loc(attr)

    def unsupported(self, construct: str, message: str, node: pyast.AST | sl.Loc) -> InputError:
        loc = node if isinstance(node, sl.Loc) else self.loc(node)
        return unsupported(construct, message, loc)

    def fresh(self, base: str) -> str:
        name = fresh(base, self.taken)
        self.taken.add(name)
        return name

    def fresh_let(self, base: str) -> str:
        """A let keeps the Python name unless a parameter, function, or earlier let already uses it
        (SparkLite forbids shadowing)."""
        reserved = (self.info.param_names | set(self.info.defs) | self.program_names | self.let_names
                    | self.synth_names)
        name = fresh(base, reserved)
        self.let_names.add(name)
        self.taken.add(name)
        return name

    # --- expressions ---------------------------------------------------------------------------

    def scalar(self, node: pyast.expr, scope: Scope) -> sl.Expr:
        """Translate ``node`` where a basic value (int, bool, str, float, tuple, list...) is required."""
        return self.to_scalar(self.expr(node, scope), node)

    def to_scalar(self, value: Value, node: pyast.AST) -> sl.Expr:
        if isinstance(value, Scalar):
            return value.expr
        if isinstance(value, InputV):
            return value.var
        if isinstance(value, CollectedV):
            return sl.Collect(value.bag, loc=value.loc)
        if isinstance(value, (BagV, GroupedV)):
            raise self.unsupported("RDD as a value", "an RDD cannot be used as a basic value here", node)
        if isinstance(value, GroupValsV) or type(value) is not TupleV and isinstance(value, TupleV):
            raise self.unsupported(
                "group values", "the values of a group can only be used through sum/len/min/max, or as "
                "a whole list (list(vs), sorted(vs), a comprehension over vs)", node)
        if isinstance(value, TupleV):
            raise self.unsupported("RDD as a value", "a tuple holding an RDD cannot be used here", node)
        raise self.unsupported("function as a value", "a function cannot be used as a basic value", node)

    @staticmethod
    def as_int(e: sl.Expr) -> sl.Expr:
        """``e`` used as a number (a bool as 0/1; an optional value unwrapped)."""
        return e if isinstance(e, (sl.IntLit, sl.FloatLit)) else AsInt(e, loc=e.loc)

    def as_bool(self, e: sl.Expr) -> sl.Expr:
        return e if is_bool_shaped(e) else AsBool(e, loc=e.loc)

    def truth(self, node: pyast.expr, scope: Scope) -> sl.Expr:
        """Translate ``node`` in a condition (``if``, ``filter``, ``not``): Python's truth test."""
        if isinstance(node, pyast.BoolOp):
            return self.bool_op(node, scope, truth=True)
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
            return sl.Not(self.truth(node.operand, scope), loc=self.loc(node))
        return self.as_bool(self.scalar(node, scope))

    def bool_op(self, node: pyast.BoolOp, scope: Scope, truth: bool) -> sl.Expr:
        """``a and b and c``: each later operand is evaluated only if the earlier ones allow it, and
        sees the ``is (not) None`` tests of the earlier ones (``x is not None and x > 0``)."""
        op = "and" if isinstance(node.op, pyast.And) else "or"
        loc = self.loc(node)
        operands = []
        inner = scope
        for value in node.values:
            operands.append(self.truth(value, inner) if truth else self.scalar(value, inner))
            keys = self.none_tests(value, scope)[0 if op == "and" else 1]
            if keys:
                inner = inner.child(narrowed=frozenset(keys))
        result = operands[-1]
        for left in reversed(operands[:-1]):
            result = ShortCircuit(op, left, result, loc=loc)
        return result

    @staticmethod
    def short_circuit(op: str, left: sl.Expr, right: sl.Expr, loc: sl.Loc | None) -> sl.Expr:
        return ShortCircuit(op, left, right, loc=loc)

    # --- narrowing (``x is not None``) ---------------------------------------------------------

    @staticmethod
    def path_key(node: pyast.expr) -> str | None:
        """A name or a constant-index path into one (``kv[1][1]``): what an ``is None`` test narrows."""
        cur = node
        while isinstance(cur, pyast.Subscript):
            if not (isinstance(cur.slice, pyast.Constant) and type(cur.slice.value) is int):
                return None
            cur = cur.value
        if not isinstance(cur, pyast.Name):
            return None
        return pyast.dump(node, annotate_fields=False, include_attributes=False).replace("Store()", "Load()")

    def none_tests(self, test: pyast.expr, scope: Scope) -> tuple[list[str], list[str]]:
        """The paths known not to be ``None`` when ``test`` is true, and when it is false."""
        if isinstance(test, pyast.Compare) and len(test.ops) == 1 \
                and isinstance(test.ops[0], (pyast.Is, pyast.IsNot)):
            a, b = test.left, test.comparators[0]
            subject = a if _is_none_const(b) else b if _is_none_const(a) else None
            key = self.path_key(subject) if subject is not None else None
            if key is None:
                return [], []
            return ([key], []) if isinstance(test.ops[0], pyast.IsNot) else ([], [key])
        if isinstance(test, pyast.UnaryOp) and isinstance(test.op, pyast.Not):
            true, false = self.none_tests(test.operand, scope)
            return false, true
        if isinstance(test, pyast.BoolOp):
            parts = [self.none_tests(v, scope) for v in test.values]
            if isinstance(test.op, pyast.And):
                return [k for p in parts for k in p[0]], []
            return [], [k for p in parts for k in p[1]]
        return [], []

    def narrowed_child(self, scope: Scope, keys: list[str]) -> Scope:
        return scope.child(narrowed=frozenset(keys)) if keys else scope.child()

    # --- expressions ---------------------------------------------------------------------------

    def expr(self, node: pyast.expr, scope: Scope) -> Value:
        value = self.expr_inner(node, scope)
        if isinstance(node, (pyast.Name, pyast.Subscript)) and isinstance(value, Scalar):
            key = self.path_key(node)
            if key is not None and scope.is_narrowed(key, {n.id for n in pyast.walk(node)
                                                           if isinstance(n, pyast.Name)}):
                return Scalar(Narrow(value.expr, loc=value.expr.loc))
        return value

    def expr_inner(self, node: pyast.expr, scope: Scope) -> Value:  # noqa: C901 - one dispatch
        loc = self.loc(node)
        if isinstance(node, pyast.Constant):
            return Scalar(self.constant(node))
        if isinstance(node, pyast.Name):
            return self.name(node, scope)
        if isinstance(node, pyast.Tuple):
            items = [self.expr(e, scope) for e in node.elts]
            if any(isinstance(i, (BagV, TupleV, GroupedV)) for i in items) and not scope.in_udf:
                return self.driver_tuple(node, items)
            return Scalar(sl.TupleExpr(tuple(self.to_scalar(i, e) for i, e in zip(items, node.elts,
                                                                                   strict=True)), loc=loc))
        if isinstance(node, pyast.List):
            for e in node.elts:
                if isinstance(e, pyast.Starred):
                    raise self.unsupported("starred expression", "starred expressions are not supported", e)
            return Scalar(sl.ListExpr(tuple(self.scalar(e, scope) for e in node.elts), loc=loc))
        if isinstance(node, pyast.BinOp):
            return Scalar(self.binop(node, scope))
        if isinstance(node, pyast.UnaryOp):
            if isinstance(node.op, pyast.Not):
                return Scalar(sl.Not(self.truth(node.operand, scope), loc=loc))
            if isinstance(node.op, pyast.Invert):
                raise self.unsupported("bitwise ~", "bitwise operators are not supported", node)
            operand = self.scalar(node.operand, scope)
            if isinstance(node.op, pyast.UAdd):
                return Scalar(self.as_int(operand))
            if isinstance(operand, sl.IntLit):
                return Scalar(sl.IntLit(-operand.value, loc=loc))
            if isinstance(operand, sl.FloatLit):
                return Scalar(sl.FloatLit(-operand.value, loc=loc))
            return Scalar(sl.Neg(self.as_int(operand), loc=loc))
        if isinstance(node, pyast.BoolOp):
            return Scalar(self.bool_op(node, scope, truth=False))
        if isinstance(node, pyast.Compare):
            return Scalar(self.compare(node, scope))
        if isinstance(node, pyast.IfExp):
            true_keys, false_keys = self.none_tests(node.test, scope)
            return Scalar(sl.Ite(self.truth(node.test, scope),
                                 self.scalar(node.body, self.narrowed_child(scope, true_keys)),
                                 self.scalar(node.orelse, self.narrowed_child(scope, false_keys)), loc=loc))
        if isinstance(node, pyast.Call):
            return self.call(node, scope)
        if isinstance(node, pyast.Attribute):
            return self.attribute(node, scope)
        if isinstance(node, pyast.Subscript):
            return self.subscript(node, scope)
        if isinstance(node, pyast.Lambda):
            fn = self.lambda_fn(node, scope)
            return FnV(fn, len(fn.params))
        if isinstance(node, pyast.JoinedStr):
            return Scalar(self.fstring(node, scope))
        if isinstance(node, pyast.ListComp):
            return Scalar(self.list_comp(node, scope))
        for kind, construct in UNSUPPORTED_EXPRS.items():
            if isinstance(node, kind):
                raise self.unsupported(construct, f"{construct} is not supported", node)
        raise self.unsupported(type(node).__name__, f"Python expression {type(node).__name__} is not "
                               "supported", node)

    def attribute(self, node: pyast.Attribute, scope: Scope) -> Value:
        if isinstance(node.value, pyast.Name) and scope.lookup(node.value.id) is None:
            if node.value.id in self.info.operator_modules:
                return self.operator_fn(node.attr, node)
            if node.value.id in self.info.math_modules:
                return self.math_member(node.attr, node)
        raise self.unsupported("attribute access", f"attribute access '.{node.attr}' is not supported "
                               "(only RDD and string methods can be called)", self.attr_loc(node))

    def math_member(self, name: str, node: pyast.AST) -> Value:
        loc = self.loc(node)
        if name in MATH_FUNCS:
            return OpV(f"math.{name}")
        if name in MATH_CONSTANTS:
            value = getattr(math, name)
            if math.isfinite(value):
                return Scalar(sl.FloatLit(value, loc=loc))
            return Scalar(sl.Call("float", (sl.StrLit(repr(value), loc=loc),), loc=loc))
        raise self.unsupported(f"math.{name}", f"math.{name} is not supported (math.sqrt, math.floor, "
                               "math.ceil and the constants are)", node)

    def fstring(self, node: pyast.JoinedStr, scope: Scope) -> sl.Expr:
        """``f"{a}-{b}"`` is ``str(a) + "-" + str(b)`` (Python formats each field with ``format(x, "")``,
        which is ``str(x)`` for the values SparkLite has), evaluated left to right."""
        loc = self.loc(node)
        parts: list[sl.Expr] = []
        for value in node.values:
            if isinstance(value, pyast.Constant) and isinstance(value.value, str):
                parts.append(sl.StrLit(value.value, loc=self.loc(value) if hasattr(value, "lineno") else loc))
                continue
            if not isinstance(value, pyast.FormattedValue):
                raise self.unsupported("f-string", "this f-string is not supported", value)
            if value.conversion != -1 or value.format_spec is not None:
                raise self.unsupported("f-string with a format spec or conversion", "f-string fields with a "
                                       "format spec or a conversion (!r, :.2f) are not supported; only "
                                       "plain {expr} fields are", value)
            field = self.scalar(value.value, scope)
            parts.append(sl.Call("str", (field,), loc=field.loc or loc))
        if not parts:
            return sl.StrLit("", loc=loc)
        result = parts[0]
        for part in parts[1:]:
            result = PyArith("+", result, part, loc=loc)
        return result

    def list_comp(self, node: pyast.ListComp, scope: Scope) -> sl.Expr:
        """``[f(x) for x in xs if c(x)]``: one generator, any number of ``if`` clauses (Python tests
        them in order), a name or an unpacking pattern as target."""
        loc = self.loc(node)
        if len(node.generators) != 1:
            raise self.unsupported("nested comprehension", "comprehensions with several 'for' clauses are "
                                   "not supported", node.generators[1].target if len(node.generators) > 1
                                   else node)
        gen = node.generators[0]
        if gen.is_async:
            raise self.unsupported("async comprehension", "async comprehensions are not supported", node)
        source_value = self.expr(gen.iter, scope)  # evaluated first, in the enclosing scope
        if isinstance(source_value, GroupValsV):
            source: sl.Expr = GroupAggRef("list", loc=self.loc(gen.iter))
        else:
            source = self.to_scalar(source_value, gen.iter)
        taken = scope.names() | self.program_level()
        target = gen.target
        if isinstance(target, pyast.Name):
            pname = target.id if target.id not in taken else fresh(target.id, taken | self.taken)
        else:
            pname = fresh("item", taken | self.taken)
        self.synth_names.add(pname)
        ploc = self.loc(target)
        locals_ = frozenset(n.id for n in pyast.walk(target) if isinstance(n, pyast.Name))

        def body_scope() -> tuple[Scope, list[sl.Expr]]:
            bound: dict[str, Value] = {}
            if isinstance(target, pyast.Name):
                bound[target.id] = Scalar(sl.Var(pname, loc=ploc))
                shaped: list[sl.Expr] = []
            else:
                shaped = self.bind(target, Scalar(sl.Var(pname, loc=ploc)), bound, node)
            return scope.child(bound, in_udf=True, boundary=True, locals_=locals_), shaped

        inner, shaped = body_scope()
        keys = [k for test in gen.ifs for k in self.none_tests(test, scope)[0]]
        elt = self.scalar(node.elt, inner.child(narrowed=frozenset(keys)) if keys else inner)
        cond = None
        if gen.ifs:
            c_scope, c_shaped = body_scope()
            tests = []
            cur = c_scope
            for test in gen.ifs:
                tests.append(self.truth(test, cur))
                keys = self.none_tests(test, scope)[0]
                if keys:
                    cur = cur.child(narrowed=frozenset(keys))
            cbody = tests[-1]
            for t in reversed(tests[:-1]):
                cbody = ShortCircuit("and", t, cbody, loc=loc)
            for s in reversed(c_shaped):  # a wrong-length element raises before the test
                cbody = Force(s, cbody, loc=loc)
            cond = sl.Lambda((sl.Param(pname, loc=ploc),), cbody, loc=loc)
        elif shaped:
            for s in reversed(shaped):
                elt = Force(s, elt, loc=loc)
        fn = sl.Lambda((sl.Param(pname, loc=ploc),), elt, loc=loc)
        return sl.ListComp(fn, source, cond, loc=loc)

    def driver_tuple(self, node: pyast.Tuple, items: list[Value]) -> TupleV:
        """A driver tuple holding an RDD. Its items are substituted where the tuple is used (an RDD
        cannot be a SparkLite value), which would drop or repeat an item that raises; so such an item is
        evaluated where Python evaluates it, as a let. That is exact only when the tuple is a
        statement's whole value (nothing else in the statement runs before it)."""
        out: list[Value] = []
        for item, elt in zip(items, node.elts, strict=True):
            if isinstance(item, CollectedV):
                item = Scalar(self.to_scalar(item, elt))
            if self.builds_raising(item):
                if not self.evaluated_first(node):
                    # the item stays where the tuple is used: exact only if it cannot raise
                    checked = item.expr if isinstance(item, Scalar) else \
                        _driver_check(item.expr) if isinstance(item, BagV) else None
                    if checked is None:
                        raise self.unsupported(_TUPLE_RAISES, _TUPLE_RAISES_MESSAGE, elt)
                    self.side_guards.append(Guard(sl.BoolLit(True), checked, _TUPLE_RAISES,
                                                  _TUPLE_RAISES_MESSAGE, loc=self.loc(elt)))
                else:
                    item = self.strict_let(item.expr, "item", self.loc(elt)) if isinstance(item, Scalar) \
                        else self.bag_let(item, "item", self.loc(elt))  # type: ignore[arg-type]
            out.append(item)
        return TupleV(tuple(out))

    def evaluated_first(self, node: pyast.AST) -> bool:
        """Whether everything Python evaluates before ``node`` in the current driver statement is
        surely harmless (names, constants, lambdas, RDD transformations of those). Only then can a let,
        evaluated before the statement, take ``node``'s place without reordering errors."""
        cur = self.stmt_root
        while cur is not None and cur is not node:
            ordered = _evaluation_order(cur)
            for k, part in enumerate(ordered):
                if any(n is node for n in pyast.walk(part)):
                    if not all(_surely_harmless(p) for p in ordered[:k]):
                        return False
                    cur = part
                    break
            else:
                return False
        return cur is node

    def strict_let(self, expr: sl.Expr, base: str, loc: sl.Loc | None) -> Scalar:
        """Evaluate ``expr`` now, as Python does, by binding it to a (strict) let."""
        name = self.fresh_let(base)
        self.lets.append(sl.LetBinding(name, expr, loc=loc))
        return Scalar(sl.Var(name, loc=loc))

    def bag_let(self, value: BagV, base: str, loc: sl.Loc | None) -> BagV:
        """Build an RDD here (its construction may raise): a let, remembered as a bag."""
        var = self.strict_let(value.expr, base, loc).expr
        assert isinstance(var, sl.Var)
        self.bag_lets[var.name] = value.expr
        return BagV(var)

    def raises(self, expr: sl.Expr) -> bool:
        """Whether ``expr`` may raise for some types (``frontend.python.nodes.may_raise``, the interpreter's
        notion made pessimistic for unresolved placeholders) with the RDDs bound so far."""
        return may_raise(expr, bags=self.bag_lets)

    def builds_raising(self, value: Value) -> bool:
        """Whether Python's evaluation of this driver value may raise where it stands."""
        if isinstance(value, Scalar):
            return self.raises(value.expr)
        if not isinstance(value, BagV):
            return False
        if pre_driver_may_raise(value.expr, bags=self.bag_lets):
            return True
        # PySpark's sortBy/sortByKey on several partitions counts its input when it is built (to sample
        # range boundaries), running the key function and the lineage there
        return any(isinstance(n, sl.SortBy) and self.raises(n) for n in _bag_chain(value.expr))

    def constant(self, node: pyast.Constant) -> sl.Expr:
        loc = self.loc(node)
        value = node.value
        if isinstance(value, bool):
            return sl.BoolLit(value, loc=loc)
        if isinstance(value, int):
            return sl.IntLit(value, loc=loc)
        if isinstance(value, float):
            if math.isfinite(value):
                return sl.FloatLit(value, loc=loc)
            return sl.Call("float", (sl.StrLit(repr(value), loc=loc),), loc=loc)  # a literal like 1e999
        if isinstance(value, str):
            return sl.StrLit(value, loc=loc)
        if value is None:
            return sl.NoneLit(loc=loc)
        kind = type(value).__name__
        raise self.unsupported(f"{kind} literal", f"{kind} literals are not supported", node)

    def name(self, node: pyast.Name, scope: Scope) -> Value:
        loc = self.loc(node)
        value, owner, captured = scope.resolve(node.id)
        if value is UNBOUND:
            raise self.unsupported("local name read before its assignment", f"'{node.id}' is assigned "
                                   "later in this function, so Python treats it as local here: the read "
                                   "fails, or a closure sees the later value when Spark runs it", node)
        if captured and owner is not None:
            self.captured.add((id(owner), node.id))
        if value is not None:
            if scope.in_udf and (isinstance(value, (BagV, GroupedV, CollectedV)) or type(value) is TupleV):
                raise self.unsupported("RDD inside a function", f"'{node.id}' is an RDD: RDDs cannot be used "
                                       "inside a function passed to Spark", node)
            if isinstance(value, Scalar):
                return Scalar(replace(value.expr, loc=loc) if isinstance(value.expr, sl.Var) else value.expr)
            return value
        info = self.info
        if node.id in info.mutated:
            raise self.unsupported("global mutation", f"'{node.id}' is modified through 'global': mutable "
                                   "module state is not supported", node)
        if node.id in info.constants:
            return Scalar(self.module_constant(node.id, loc))
        if node.id in info.defs:
            return DefV(node.id)
        if node.id in info.operator_aliases:
            return self.operator_fn(info.operator_aliases[node.id], node)
        if node.id in info.math_aliases:
            return self.math_member(info.math_aliases[node.id], node)
        if node.id in info.opaque and isinstance(info.opaque[node.id], pyast.FunctionDef):
            raise self.unsupported("redefined function", f"'{node.id}' is defined more than once at module "
                                   "level", node)
        if node.id in info.opaque:
            raise self.unsupported("non-constant module variable", f"'{node.id}' is bound at module level to "
                                   "something other than a constant or a function", node)
        if node.id in BUILTIN_FUNCS:
            return OpV(node.id)
        if node.id in UNSUPPORTED_BUILTINS:
            raise self.unsupported(node.id, f"the builtin '{node.id}' is not supported", node)
        raise undefined(node.id, loc)

    def module_constant(self, name: str, loc: sl.Loc) -> sl.Expr:
        """Closures over module constants inline the constant, computed as Python computes it at import
        (a constant whose computation raises would have stopped the import: rejected)."""
        if name not in self.constant_cache:
            node = self.info.constants[name]
            try:
                value = self._constant_value(node, set())
            except _NotConstant:
                raise self.unsupported("module constant that may raise", f"the module constant '{name}' "
                                       "may raise when the module is imported (or is too large)",
                                       node) from None
            self.constant_cache[name] = self._literal(value, self.loc(node), node)
        return replace(self.constant_cache[name], loc=loc) if not isinstance(
            self.constant_cache[name], sl.TupleExpr | sl.ListExpr) else self.constant_cache[name]

    def _constant_value(self, node: pyast.expr, seen: set[str]) -> Any:
        """The value of a constant expression (literals, other constants, tuples, arithmetic)."""
        if isinstance(node, pyast.Constant):
            return node.value
        if isinstance(node, pyast.Name):
            if node.id in seen or node.id not in self.info.constants:
                raise _NotConstant()
            return self._constant_value(self.info.constants[node.id], seen | {node.id})
        if isinstance(node, pyast.Tuple):
            return tuple(self._constant_value(e, seen) for e in node.elts)
        if isinstance(node, pyast.List):
            return [self._constant_value(e, seen) for e in node.elts]
        if isinstance(node, pyast.Set):  # only ever searched with 'in': its order does not matter
            items = {self._constant_value(e, seen) for e in node.elts}
            return sorted(items, key=lambda v: (type(v).__name__, repr(v)))
        try:
            if isinstance(node, pyast.UnaryOp):
                x = self._constant_value(node.operand, seen)
                if isinstance(node.op, pyast.Not):
                    return not x
                if isinstance(x, str | tuple) or x is None or isinstance(node.op, pyast.Invert):
                    raise _NotConstant()
                return -x if isinstance(node.op, pyast.USub) else +x
            if isinstance(node, pyast.BinOp) and type(node.op) in ARITH:
                a, b = self._constant_value(node.left, seen), self._constant_value(node.right, seen)
                numbers = all(isinstance(v, int | float) for v in (a, b))
                strings = all(isinstance(v, str) for v in (a, b)) and isinstance(node.op, pyast.Add)
                if not (numbers or strings):
                    raise _NotConstant()
                result = {pyast.Add: lambda: a + b, pyast.Sub: lambda: a - b, pyast.Mult: lambda: a * b,
                          pyast.FloorDiv: lambda: a // b, pyast.Mod: lambda: a % b,
                          pyast.Div: lambda: a / b}[type(node.op)]()
            elif isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.Pow):
                a, b = self._constant_value(node.left, seen), self._constant_value(node.right, seen)
                if not (isinstance(a, int) and isinstance(b, int) and 0 <= b <= 64):
                    raise _NotConstant()
                result = a ** b
            else:
                raise _NotConstant()
        except (ArithmeticError, ValueError, TypeError):
            raise _NotConstant() from None
        if isinstance(result, int) and len(str(abs(int(result)))) > _MAX_CONSTANT_DIGITS:
            raise _NotConstant()
        return result

    def _literal(self, value: Any, loc: sl.Loc, node: pyast.AST) -> sl.Expr:
        if isinstance(value, bool):
            return sl.BoolLit(value, loc=loc)
        if isinstance(value, int):
            return sl.IntLit(value, loc=loc)
        if isinstance(value, float):
            if math.isfinite(value):
                return sl.FloatLit(value, loc=loc)
            return sl.Call("float", (sl.StrLit(repr(value), loc=loc),), loc=loc)
        if isinstance(value, str):
            return sl.StrLit(value, loc=loc)
        if value is None:
            return sl.NoneLit(loc=loc)
        if isinstance(value, tuple) and value:
            return sl.TupleExpr(tuple(self._literal(v, loc, node) for v in value), loc=loc)
        if isinstance(value, list):
            return sl.ListExpr(tuple(self._literal(v, loc, node) for v in value), loc=loc)
        raise self.unsupported("module constant", f"the module constant {value!r} is not supported", node)

    def operator_fn(self, name: str, node: pyast.AST) -> Value:
        if name in OPERATOR_BINARY or name in OPERATOR_UNARY:
            return OpV(name)
        reason = OPERATOR_UNSUPPORTED.get(name, "not supported")
        raise self.unsupported(f"operator.{name}", f"operator.{name} is not supported ({reason})", node)

    def binop(self, node: pyast.BinOp, scope: Scope) -> sl.Expr:
        loc = self.loc(node)
        if type(node.op) in BITWISE:
            sym = BITWISE[type(node.op)]
            raise self.unsupported(f"bitwise {sym}", f"the operator '{sym}' is not supported", node)
        left = self.scalar(node.left, scope)
        if isinstance(node.op, pyast.Pow):
            exponent = self.scalar(node.right, scope)
            if not isinstance(exponent, sl.IntLit) or not 0 <= exponent.value <= MAX_POWER:
                raise self.unsupported("** with a non-constant exponent", "'**' is supported only with a "
                                       f"constant exponent between 0 and {MAX_POWER}", node)
            if isinstance(left, sl.IntLit):
                return sl.IntLit(left.value ** exponent.value, loc=loc)
            return PyPow(left, exponent.value, loc=loc)
        right = self.scalar(node.right, scope)
        return self.arith(ARITH[type(node.op)], left, right, loc)

    @staticmethod
    def arith(op: str, left: sl.Expr, right: sl.Expr, loc: sl.Loc | None) -> sl.Expr:
        """Python's arithmetic; literal int arithmetic is folded with Python's meaning (keeping x // 0)."""
        if isinstance(left, sl.IntLit) and isinstance(right, sl.IntLit) and op != "/":
            a, b = left.value, right.value
            if op == "+":
                return sl.IntLit(a + b, loc=loc)
            if op == "-":
                return sl.IntLit(a - b, loc=loc)
            if op == "*":
                return sl.IntLit(a * b, loc=loc)
            if op == "//" and b != 0:
                return sl.IntLit(a // b, loc=loc)
            if op == "%" and b != 0:
                return sl.IntLit(a % b, loc=loc)
        return PyArith(op, left, right, loc=loc)

    def compare(self, node: pyast.Compare, scope: Scope) -> sl.Expr:
        """Comparisons, ``in``/``not in`` and ``is None``/``is not None``; a chain ``a < b < c`` tests
        ``b < c`` only when ``a < b`` holds (Python evaluates ``c`` only then)."""
        loc = self.loc(node)
        operands = [node.left, *node.comparators]
        translated: list[sl.Expr] = []
        searched = {id(c) for op, c in zip(node.ops, node.comparators, strict=True)
                    if isinstance(op, (pyast.In, pyast.NotIn))}
        for o in operands:
            if id(o) in searched and isinstance(o, (pyast.Tuple, pyast.List, pyast.Set)):
                # a display searched by 'in': as a list (same elements, same == tests; for a set of
                # hashable constants the same answer)
                elems = tuple(self.scalar(e, scope) for e in o.elts)
                translated.append(sl.ListExpr(elems, loc=self.loc(o)))
                continue
            value = self.scalar(o, scope)
            if id(o) in searched and isinstance(value, sl.TupleExpr):  # a tuple constant searched by 'in'
                value = sl.ListExpr(value.elems, loc=value.loc)
            translated.append(value)
        parts: list[sl.Expr] = []
        for i, op in enumerate(node.ops):
            left, right = translated[i], translated[i + 1]
            if isinstance(op, (pyast.In, pyast.NotIn)):
                part: sl.Expr = sl.BinOp("in", left, right, loc=loc)
                parts.append(sl.Not(part, loc=loc) if isinstance(op, pyast.NotIn) else part)
                continue
            if isinstance(op, (pyast.Is, pyast.IsNot)):
                if _is_none_const(operands[i + 1]):
                    subject = left
                elif _is_none_const(operands[i]):
                    subject = right
                else:
                    raise self.unsupported("'is' comparison", "'is' is supported only as 'is None' and "
                                           "'is not None'", node)
                part = sl.Call("py.is_none", (subject,), loc=loc)
                if isinstance(subject, sl.NoneLit):  # None is None: Python evaluates both, True
                    part = sl.Call("py.is_none", (left,), loc=loc)
                parts.append(sl.Not(part, loc=loc) if isinstance(op, pyast.IsNot) else part)
                continue
            parts.append(PyCompare(COMPARE[type(op)], left, right, loc=loc))
        result = parts[-1]
        for left in reversed(parts[:-1]):
            result = ShortCircuit("and", left, result, loc=loc)
        return result

    def subscript(self, node: pyast.Subscript, scope: Scope) -> Value:
        loc = self.loc(node)
        value = self.expr(node.value, scope)
        if isinstance(value, (BagV, GroupedV)):
            raise self.unsupported("indexing an RDD", "RDDs cannot be indexed", node)
        if isinstance(value, GroupValsV):
            raise self.unsupported("group values", "the values of a group cannot be indexed (their order "
                                   "depends on partitioning, and Spark's iterable has no index)", node)
        if isinstance(node.slice, pyast.Slice):
            if node.slice.step is not None:
                raise self.unsupported("slice with a step", "slices with a step are not supported",
                                       node.slice.step)
            base = self.to_scalar(value, node.value)
            bounds = [self.scalar(b, scope) if b is not None else sl.NoneLit(loc=loc)
                      for b in (node.slice.lower, node.slice.upper)]
            return Scalar(PySlice(base, bounds[0], bounds[1], loc=loc))
        index_expr = self.scalar(node.slice, scope)
        if isinstance(value, TupleV):
            if not isinstance(index_expr, sl.IntLit):
                raise self.unsupported("non-constant index", "a tuple holding an RDD needs a constant index",
                                       node.slice)
            index = index_expr.value
            if not -len(value.items) <= index < len(value.items):
                raise TypeCheckError(f"tuple index {index} out of range", loc)
            return value.items[index]
        base = self.to_scalar(value, node.value)
        if isinstance(base, sl.TupleExpr):
            if not isinstance(index_expr, sl.IntLit):
                raise self.unsupported("non-constant index", "tuple indices must be integer constants",
                                       node.slice)
            index = index_expr.value
            if not -len(base.elems) <= index < len(base.elems):
                raise TypeCheckError(f"tuple index {index} out of range for a tuple of {len(base.elems)}",
                                     loc)
            return Scalar(sl.Proj(base, index % len(base.elems), loc=loc))  # the whole tuple is evaluated
        return Scalar(PyIndex(base, index_expr, loc=loc))

    # --- calls -----------------------------------------------------------------------------------

    def call(self, node: pyast.Call, scope: Scope) -> Value:
        for arg in node.args:
            if isinstance(arg, pyast.Starred):
                raise self.unsupported("*args", "star-arguments are not supported", arg)
        func = node.func
        if isinstance(func, pyast.Attribute):
            if isinstance(func.value, pyast.Name) and scope.lookup(func.value.id) is None \
                    and func.value.id in self.info.operator_modules | self.info.math_modules:
                self.no_keywords(node)
                callee: Value = self.attribute(func, scope)
                return self.apply_value(callee, node, scope)
            if func.attr in RDD_SOURCES:
                raise self.unsupported(f"sc.{func.attr}", f"creating an RDD with .{func.attr}() inside the "
                                       "pipeline is not supported: pass the input RDDs as parameters",
                                       self.attr_loc(func))
            receiver = self.expr(func.value, scope)
            if isinstance(receiver, (BagV, GroupedV)) or (
                    isinstance(receiver, InputV) and (func.attr in self.rdd_methods
                                                      or func.attr not in STR_METHODS)):
                if scope.in_udf:
                    raise self.unsupported("RDD inside a function", "RDD methods cannot be called inside "
                                           "a function passed to Spark", self.attr_loc(func))
                return self.rdd_method(receiver, func, node, scope)
            if isinstance(receiver, GroupValsV):
                raise self.unsupported(f".{func.attr}", "the values of a group can only be used through "
                                       "sum/len/min/max or as a whole list", self.attr_loc(func))
            if func.attr in STR_METHODS and isinstance(receiver, (Scalar, InputV)):
                return Scalar(self.str_method(func, self.to_scalar(receiver, func.value), node, scope))
            raise self.unsupported(f"method .{func.attr}", f"method call '.{func.attr}()' on a value "
                                   "that is not an RDD is not supported (string methods: "
                                   f"{', '.join(sorted(STR_METHODS))})", self.attr_loc(func))
        self.no_keywords(node)
        callee = self.expr(func, scope)
        return self.apply_value(callee, node, scope)

    def no_keywords(self, node: pyast.Call) -> None:
        if node.keywords:
            kw = node.keywords[0]
            construct = "**kwargs" if kw.arg is None else "keyword argument"
            raise self.unsupported(construct, f"keyword arguments are not supported ({kw.arg or '**'}=...)",
                                   kw.value)

    def str_method(self, func: pyast.Attribute, receiver: sl.Expr, node: pyast.Call, scope: Scope) -> sl.Expr:
        """``s.split(",")`` -> ``str.split(s, ",")`` (the receiver is evaluated first, as in Python)."""
        self.no_keywords(node)
        builtin, arities = STR_METHODS[func.attr]
        if len(node.args) not in arities:
            counts = " or ".join(str(a) for a in arities)
            raise self.unsupported("string method arguments", f"'{func.attr}' is "
                                   f"supported with {counts} argument(s) (maxsplit, chars, count are not)",
                                   node.args[-1] if node.args else func)
        args = tuple(self.scalar(a, scope) for a in node.args)
        return sl.Call(builtin, (receiver, *args), loc=self.loc(node))

    def apply_value(self, callee: Value, node: pyast.Call, scope: Scope) -> Value:
        loc = self.loc(node)
        if isinstance(callee, OpV):
            return self.apply_op(callee.name, node.args, scope, node)
        if isinstance(callee, DefV):
            mdef = self.info.defs[callee.name]
            arg_values = [self.expr(a, scope) for a in node.args]
            if mdef.uses_rdd or any(isinstance(v, (BagV, TupleV, GroupedV)) for v in arg_values):
                if scope.in_udf:
                    raise self.unsupported("RDD inside a function", f"'{callee.name}' works on RDDs and "
                                           "cannot be called inside a function passed to Spark", node)
                return self.inline_rdd_helper(mdef, arg_values, node)
            args = tuple(self.to_scalar(v, a) for v, a in zip(arg_values, node.args, strict=True))
            d = self.ensure_def(callee.name, node)
            self.check_arity(d, len(args), callee.name, node)
            self.value_uses.add(d.name)
            if isinstance(d, sl.ParamFunDef):
                return FnV(sl.PApp(d.name, args, loc=loc), len(d.fn.params))
            return Scalar(sl.Call(d.name, args, loc=loc))
        if isinstance(callee, LocalHelperV):
            return self.apply_local_helper(callee, node, scope)
        if isinstance(callee, PendingV):
            args = tuple(self.scalar(a, scope) for a in node.args)
            if len(args) != callee.arity:
                raise TypeCheckError(f"function takes {callee.arity} argument(s), {len(args)} given", loc)
            return Scalar(self.apply_fn(callee.fn, callee.args + args, loc))
        if isinstance(callee, FnV):
            args = tuple(self.scalar(a, scope) for a in node.args)
            if len(args) != callee.arity:
                raise TypeCheckError(f"function takes {callee.arity} argument(s), {len(args)} given", loc)
            self.note_use(callee.fn, "call")
            return Scalar(self.apply_fn(callee.fn, args, loc))
        raise self.unsupported("call of a non-function", "this value is not a function", node.func)

    @staticmethod
    def check_arity(d: sl.Def, n: int, name: str, node: pyast.AST | sl.Loc) -> None:
        expected = len(d.params)
        if n != expected:
            loc = node if isinstance(node, sl.Loc) else loc_of(node, "")
            raise TypeCheckError(f"'{name}' takes {expected} argument(s), {n} given", loc)

    def apply_fn(self, fn: sl.Fn, args: tuple[sl.Expr, ...], loc: sl.Loc | None) -> sl.Expr:
        """Apply a function value: a lambda is beta-reduced when its arguments turn out to be cheap values
        that cannot raise (``Beta``), else applied call-by-value."""
        if isinstance(fn, sl.FnRef):
            return sl.Call(fn.name, args, loc=loc)
        if isinstance(fn, sl.Lambda):
            if all(_maybe_simple(a) for a in args):
                return Beta(fn, args, loc=loc)
        return sl.Apply(fn, args, loc=loc)

    def apply_op(self, name: str, arg_nodes: list[pyast.expr], scope: Scope, node: pyast.AST) -> Value:
        loc = self.loc(node)
        n = len(arg_nodes)
        if name in ("sum", "len", "min", "max", "sorted", "list") and n == 1:
            arg = arg_nodes[0]
            if isinstance(arg, pyast.Tuple) and arg.elts and name in ("sum", "len", "min", "max"):
                elems = [self.scalar(e, scope) for e in arg.elts]
                if name == "len":  # Python evaluates every element, then counts them
                    n_lit = sl.IntLit(len(elems), loc=loc)
                    return Scalar(sl.Proj(sl.TupleExpr((*elems, n_lit), loc=loc), len(elems), loc=loc))
                if name == "sum":  # sum starts from 0: 0 + a + b
                    result: sl.Expr = sl.IntLit(0, loc=loc)
                    for e in elems:
                        result = self.arith("+", result, e, loc)
                    return Scalar(result)
                return Scalar(self.nary(name, elems, loc))
            value = self.expr(arg, scope)
            if isinstance(value, GroupValsV):
                if name in ("list", "sorted"):
                    ref = GroupAggRef("list", loc=loc)
                    return Scalar(ref if name == "list" else sl.Call("sorted", (ref,), loc=loc))
                return Scalar(GroupAggRef(name, loc=loc))
            x = self.to_scalar(value, arg)
            if name == "list":  # a copy of a list, a string's characters: [y for y in x]
                y = self.synth_param("c", _names_in(x))
                return Scalar(sl.ListComp(sl.Lambda((sl.Param(y, loc=loc),), sl.Var(y, loc=loc), loc=loc), x,
                                          loc=loc))
            return Scalar(sl.Call(name, (x,), loc=loc))
        if name in ("list", "sorted", "sum", "len"):
            raise TypeCheckError(f"{name}() takes one argument here", loc)
        args = [self.scalar(a, scope) for a in arg_nodes]
        if name in ("min", "max"):
            if n < 2:
                raise TypeCheckError(f"{name}() needs arguments", loc)
            return Scalar(self.nary(name, args, loc))
        return Scalar(self.op_expr(name, args, loc))

    @staticmethod
    def nary(name: str, args: list[sl.Expr], loc: sl.Loc | None) -> sl.Expr:
        result = args[0]
        for a in args[1:]:
            result = sl.Call(name, (result, a), loc=loc)
        return result

    def op_expr(self, name: str, args: list[sl.Expr], loc: sl.Loc | None) -> sl.Expr:
        """An operator/builtin applied to translated arguments."""
        unary = {"neg", "abs", "not_", "truth", "pos", "int", "bool", "float", "str", "math.sqrt",
                 "math.floor", "math.ceil"}
        expected: int | tuple[int, ...] = 1 if name in unary else 2
        if name in ("min", "max"):
            expected = max(2, len(args))
        if name == "round":
            expected = (1, 2)
        counts = expected if isinstance(expected, tuple) else (expected,)
        if len(args) not in counts:
            raise TypeCheckError(f"{name} takes {' or '.join(map(str, counts))} argument(s), {len(args)} "
                                 "given", loc)
        if name in OPERATOR_BINARY:
            sym = OPERATOR_BINARY[name]
            left, right = args
            if sym in sl.ARITH_OPS:
                return self.arith(sym, left, right, loc)
            return PyCompare(sym, left, right, loc=loc)
        if name in ("min", "max"):
            return self.nary(name, args, loc)
        if name == "round":
            return sl.Call("round", tuple(args), loc=loc)
        (x,) = args
        if name == "neg":
            if isinstance(x, sl.IntLit):
                return sl.IntLit(-x.value, loc=loc)
            return sl.Neg(self.as_int(x), loc=loc)
        if name == "pos":
            return self.as_int(x)
        if name == "int":
            return x if isinstance(x, sl.IntLit) else PyInt(x, loc=loc)
        if name == "abs":
            return sl.Call("abs", (self.as_int(x),), loc=loc)
        if name in ("float", "str", "math.sqrt", "math.floor", "math.ceil"):
            return sl.Call(name, (x,), loc=loc)
        if name in ("truth", "bool"):
            return self.as_bool(x)
        if name == "not_":
            return sl.Not(self.as_bool(x), loc=loc)
        raise TypeCheckError(f"{name} cannot be used here", loc)

    # --- function values -------------------------------------------------------------------------

    def note_use(self, fn: sl.Fn, purpose: str) -> None:
        """Remember how named functions are used: one returning list displays becomes a tuple for a
        ``flatMap`` that is its only use (``ListLit``)."""
        name = fn.name if isinstance(fn, (sl.FnRef, sl.PApp)) else None
        if name is not None:
            (self.flat_uses if purpose == "flatMap" else self.value_uses).add(name)

    def as_fn(self, value: Value, arity: int, node: pyast.AST, purpose: str) -> sl.Fn:
        """A function value passed to an RDD method, checked to take ``arity`` arguments."""
        loc = self.loc(node)
        if isinstance(value, FnV):
            if value.arity != arity:
                raise TypeCheckError(f"the function passed to {purpose} must take {arity} argument(s), "
                                     f"it takes {value.arity}", loc)
            fn = value.fn
        elif isinstance(value, OpV):
            if value.name in ("sum", "len", "sorted", "min", "max") and arity == 1:
                names = [self.synth_param("a")]
                params = tuple(sl.Param(nm, loc=loc) for nm in names)
                fn = sl.Lambda(params, sl.Call(value.name, (sl.Var(names[0], loc=loc),), loc=loc), loc=loc)
            elif value.name == "list" and arity == 1:
                a, c = self.synth_param("a"), self.synth_param("c")
                self.synth_names.add(c)
                comp = sl.ListComp(sl.Lambda((sl.Param(c, loc=loc),), sl.Var(c, loc=loc), loc=loc),
                                   sl.Var(a, loc=loc), loc=loc)
                fn = sl.Lambda((sl.Param(a, loc=loc),), comp, loc=loc)
            elif value.name in ("sum", "len", "sorted", "list"):
                raise TypeCheckError(f"'{value.name}' takes one argument; {purpose} passes {arity}", loc)
            else:
                names: list[str] = []
                for base in ("a", "b", "c", "d")[:arity]:
                    names.append(self.synth_param(base, set(names)))
                params = tuple(sl.Param(nm, loc=loc) for nm in names)
                body = self.op_expr(value.name, [sl.Var(p.name, loc=loc) for p in params], loc)
                fn = sl.Lambda(params, body, loc=loc)
        elif isinstance(value, DefV):
            mdef = self.info.defs[value.name]
            if mdef.uses_rdd:
                raise self.unsupported("RDD inside a function", f"'{value.name}' works on RDDs and cannot be "
                                       "passed to Spark", node)
            d = self.ensure_def(value.name, node)
            if isinstance(d, sl.ParamFunDef):
                raise self.unsupported("function-returning helper as a function", f"'{value.name}' returns a "
                                       f"function: call it with its arguments ({value.name}(...))", node)
            self.check_arity(d, arity, value.name, loc)
            fn = sl.FnRef(d.name, loc=loc)
        else:
            raise self.unsupported("not a function", f"{purpose} needs a function here", node)
        self.note_use(fn, purpose)
        if purpose == "flatMap" and isinstance(fn, sl.Lambda):
            fn = _tuples_for_flatmap(fn)
        return fn

    def fn_arg(self, node: pyast.expr, scope: Scope, arity: int, purpose: str) -> sl.Fn:
        return self.as_fn(self.expr(node, scope), arity, node, purpose)

    def finalize_lists(self) -> None:
        """A named function that returns list displays of one size and is used only by ``flatMap``
        returns tuples (the proof methods know fixed-size tuples); every other display is a list."""
        for name, d in list(self.defs.items()):
            only_flat = d.name in self.flat_uses and d.name not in self.value_uses
            if isinstance(d, sl.FunDef) and only_flat:
                self.defs[name] = replace(d, body=_tuples_for_flatmap(sl.Lambda(d.params, d.body)).body)
            elif isinstance(d, sl.ParamFunDef) and only_flat:
                self.defs[name] = replace(d, fn=_tuples_for_flatmap(d.fn))

    def lambda_fn(self, node: pyast.Lambda | pyast.FunctionDef, scope: Scope,
                  bind: dict[str, Value] | None = None) -> sl.Lambda:
        """A Python lambda or local ``def`` as a SparkLite lambda (parameters renamed if they would shadow
        a program-level name, which SparkLite forbids)."""
        loc = self.loc(node)
        params = self.params(node.args, node)
        taken = scope.names() | self.program_level()
        inner: dict[str, Value] = {}
        out_params = []
        for name, ann, p_loc in params:
            new = name if name not in taken else fresh(name, taken | self.taken)
            taken.add(new)
            self.synth_names.add(new)
            inner[name] = Scalar(sl.Var(new, loc=p_loc))
            out_params.append(sl.Param(new, ann, loc=p_loc))
        if bind:
            inner.update(bind)
        body_scope = scope.child(inner, in_udf=True, boundary=True, locals_=function_locals(node))
        if isinstance(node, pyast.Lambda):
            body = self.ret_expr(node.body, body_scope)
        else:
            body = self.block(node.body, body_scope, node)
        return sl.Lambda(tuple(out_params), body, loc=loc)

    def params(self, args: pyast.arguments, node: pyast.AST) -> list[tuple[str, object, sl.Loc]]:
        if args.vararg is not None:
            raise self.unsupported("*args", "*args parameters are not supported", args.vararg)
        if args.kwarg is not None:
            raise self.unsupported("**kwargs", "**kwargs parameters are not supported", args.kwarg)
        if args.kwonlyargs:
            raise self.unsupported("keyword-only parameter", "keyword-only parameters are not supported",
                                   args.kwonlyargs[0])
        if args.defaults or args.kw_defaults:
            default = (args.defaults or args.kw_defaults)[0]
            raise self.unsupported("default argument", "parameters with default values are not supported",
                                   default if default is not None else node)
        out = []
        for a in [*args.posonlyargs, *args.args]:
            ann = ftypes.annotation_type(a.annotation, self.filename) if a.annotation is not None else None
            out.append((a.arg, ann, self.loc(a)))
        return out

    def def_params(self, node: pyast.FunctionDef | pyast.Lambda) -> list[tuple[str, str, object, sl.Loc]]:
        """A module function's parameters as (Python name, SparkLite name, type, loc): renamed when they
        coincide with a program input, a let or a function name."""
        out = []
        taken = self.program_level()
        for name, ann, loc in self.params(node.args, node):
            new = name if name not in taken else fresh(name, taken | self.taken)
            taken.add(new)
            self.synth_names.add(new)
            out.append((name, new, ann, loc))
        return out

    def ret_expr(self, node: pyast.expr, scope: Scope) -> sl.Expr:
        """A returned expression: a list display stays a ``ListLit`` (a tuple for a flatMap)."""
        if isinstance(node, pyast.List) and not any(isinstance(e, pyast.Starred) for e in node.elts):
            return ListLit(tuple(self.scalar(e, scope) for e in node.elts), loc=self.loc(node))
        if isinstance(node, pyast.IfExp):
            true_keys, false_keys = self.none_tests(node.test, scope)
            return sl.Ite(self.truth(node.test, scope),
                          self.ret_expr(node.body, self.narrowed_child(scope, true_keys)),
                          self.ret_expr(node.orelse, self.narrowed_child(scope, false_keys)),
                          loc=self.loc(node))
        return self.scalar(node, scope)

    # --- function bodies -------------------------------------------------------------------------

    def block(self, stmts: list[pyast.stmt], scope: Scope, owner: pyast.AST) -> sl.Expr:
        """A straight-line body with if/elif/else as one expression (see the module docstring)."""
        for i, stmt in enumerate(stmts):
            rest = stmts[i + 1:]
            if isinstance(stmt, pyast.Return):
                if stmt.value is None:
                    raise self.unsupported("return None", "functions must return a value", stmt)
                return self.ret_expr(stmt.value, scope)
            if isinstance(stmt, pyast.Pass):
                continue
            if isinstance(stmt, pyast.Expr):
                if isinstance(stmt.value, pyast.Constant) and isinstance(stmt.value.value, str):
                    continue  # docstring
                self.expression_statement(stmt)
            if isinstance(stmt, pyast.If):
                true_keys, false_keys = self.none_tests(stmt.test, scope)
                cond = self.truth(stmt.test, scope)
                then = self.block(stmt.body + rest, self.narrowed_child(scope, true_keys), owner)
                orelse = self.block(stmt.orelse + rest, self.narrowed_child(scope, false_keys), owner)
                return sl.Ite(cond, then, orelse, loc=self.loc(stmt))
            if isinstance(stmt, (pyast.Assign, pyast.AnnAssign, pyast.AugAssign)):
                target, value_node = self.assignment_parts(stmt)
                value = self.expr(value_node, scope)
                if isinstance(value, (BagV, GroupedV, CollectedV)) or type(value) is TupleV:
                    raise self.unsupported("RDD inside a function", "RDDs cannot be used inside a function "
                                           "passed to Spark", value_node)
                self.check_rebind(target, scope)
                inner = scope.child()
                shaped = self.bind(target, value, inner.vars, stmt)
                body = self.block(rest, inner, owner)
                sloc = self.loc(stmt)
                # Python evaluates the assignment here: unpacking first (innermost last), then the value
                for s in reversed(shaped):
                    body = Force(s, body, loc=sloc)
                if isinstance(value, Scalar):
                    body = Force(value.expr, body, loc=sloc)
                held = _held_arguments(value)
                if held:  # ``h = below(10 // x)``: Python evaluates the arguments now, used or not
                    body = Force(sl.TupleExpr(held, loc=sloc), body, loc=sloc)
                return body
            if isinstance(stmt, pyast.FunctionDef):
                if stmt.decorator_list:
                    raise self.unsupported("decorator", "decorators are not supported",
                                           stmt.decorator_list[0])
                self.check_def_rebind(stmt, scope)
                inner = scope.child()
                fn = self.lambda_fn(stmt, scope)
                inner.vars[stmt.name] = FnV(fn, len(fn.params))
                return self.block(rest, inner, owner)
            self.unsupported_statement(stmt)
        raise self.unsupported("implicit None return", "the function can finish without returning a value",
                               owner)

    def expression_statement(self, stmt: pyast.Expr) -> None:
        call = stmt.value
        if isinstance(call, pyast.Call) and isinstance(call.func, pyast.Name) and call.func.id == "print":
            raise self.unsupported("print", "print is a side effect and is not supported", stmt)
        raise self.unsupported("expression statement", "expression statements (side effects) are not "
                               "supported inside functions", stmt)

    def unsupported_statement(self, stmt: pyast.stmt) -> None:
        for kind, construct in UNSUPPORTED_STATEMENTS.items():
            if isinstance(stmt, kind):
                raise self.unsupported(construct, f"'{construct}' is not supported", stmt)
        raise self.unsupported(type(stmt).__name__, f"the statement {type(stmt).__name__} is not supported",
                               stmt)

    def assignment_parts(self, stmt: pyast.stmt) -> tuple[pyast.expr, pyast.expr]:
        if isinstance(stmt, pyast.Assign):
            if len(stmt.targets) != 1:
                raise self.unsupported("chained assignment", "chained assignment (a = b = ...) is not "
                                       "supported", stmt)
            return stmt.targets[0], stmt.value
        if isinstance(stmt, pyast.AnnAssign):
            if stmt.value is None:
                raise self.unsupported("declaration without value", "annotated names need a value", stmt)
            return stmt.target, stmt.value
        assert isinstance(stmt, pyast.AugAssign)
        if not isinstance(stmt.target, pyast.Name):
            raise self.unsupported("augmented assignment to a subscript or attribute",
                                   "only names can be updated with op=", stmt)
        load = pyast.Name(stmt.target.id, pyast.Load())
        pyast.copy_location(load, stmt.target)
        value = pyast.BinOp(load, stmt.op, stmt.value)
        pyast.copy_location(value, stmt)
        return stmt.target, value

    def bind(self, target: pyast.expr, value: Value, into: dict[str, Value],
             stmt: pyast.AST) -> list[sl.Expr]:
        """Bind a name or an unpacking pattern (``(k, v), w = ...``) by substitution. Returns the
        unpackings (``Shaped`` nodes, outermost first) that Python performs here: a list or a string of
        the wrong length raises ``ValueError``, so the caller evaluates them where Python does."""
        if isinstance(target, pyast.Name):
            into[target.id] = value
            return []
        if isinstance(target, (pyast.Tuple, pyast.List)):
            if any(isinstance(e, pyast.Starred) for e in target.elts):
                raise self.unsupported("starred assignment", "starred unpacking is not supported", target)
            n = len(target.elts)
            if isinstance(value, TupleV):
                if len(value.items) != n:
                    raise TypeCheckError(f"cannot unpack {len(value.items)} values into {n} names",
                                         self.loc(target))
                out: list[sl.Expr] = []
                for t, v in zip(target.elts, value.items, strict=True):
                    out += self.bind(t, v, into, stmt)
                return out
            expr = self.to_scalar(value, target)
            if isinstance(expr, sl.TupleExpr):  # components bound one by one (the caller forces the tuple)
                if len(expr.elems) != n:
                    raise TypeCheckError(f"cannot unpack {len(expr.elems)} values into {n} names",
                                         self.loc(target))
                out = []
                for t, e in zip(target.elts, expr.elems, strict=True):
                    out += self.bind(t, Scalar(e), into, stmt)
                return out
            loc = self.loc(target)
            shaped = Shaped(expr, n, loc=loc)
            out = [shaped]
            for i, t in enumerate(target.elts):
                out += self.bind(t, Scalar(sl.Proj(shaped, i, loc=loc)), into, stmt)
            return out
        construct = "assignment to a subscript" if isinstance(target, pyast.Subscript) else \
            "assignment to an attribute" if isinstance(target, pyast.Attribute) else "assignment target"
        raise self.unsupported(construct, f"{construct} (mutation) is not supported", target)

    # --- module-level functions ------------------------------------------------------------------

    def ensure_def(self, name: str, use: pyast.AST | sl.Loc) -> sl.Def:
        """Translate the module-level function ``name`` (once), after the functions it calls."""
        if name in self.defs:
            return self.defs[name]
        if name in self.in_progress:
            raise self.unsupported("recursion", f"'{name}' is recursive: recursion is not supported", use)
        mdef = self.info.defs[name]
        self.in_progress.append(name)
        try:
            node = mdef.node
            loc = self.loc(node)
            module_scope = Scope({}, in_udf=True)
            if isinstance(node, pyast.FunctionDef) and node.decorator_list:
                raise self.unsupported("decorator", "decorators are not supported", node.decorator_list[0])
            if mdef.parametric:
                d: sl.Def = self.param_fundef(name, node, module_scope)
            else:
                params = self.def_params(node)
                inner = module_scope.child({p: Scalar(sl.Var(new, loc=pl)) for p, new, _, pl in params},
                                           locals_=function_locals(node))
                if isinstance(node, pyast.Lambda):
                    body = self.ret_expr(node.body, inner)
                    ret = None
                else:
                    body = self.block(node.body, inner, node)
                    ret = ftypes.annotation_type(node.returns, self.filename) if node.returns else None
                d = sl.FunDef(self.def_name(name), tuple(sl.Param(n, t, loc=pl)  # type: ignore[arg-type]
                                                         for _, n, t, pl in params),
                              ret, body, loc=loc)
        finally:
            self.in_progress.pop()
        self.defs[name] = d
        return d

    def def_name(self, name: str) -> str:
        """The SparkLite name of module function ``name``: renamed when it is a SparkLite builtin's name
        (a user's ``def sum(...)`` or ``def round(...)``)."""
        if name not in _LIBRARY and name not in sl.BUILTINS:
            return name
        new = fresh(f"{name}_fn", self.taken | set(self.info.defs) | self.program_names)
        self.taken.add(new)
        self.program_names.add(new)  # reserved like a program-level name
        return new

    def param_fundef(self, name: str, node: pyast.FunctionDef | pyast.Lambda, scope: Scope) -> sl.ParamFunDef:
        params = self.def_params(node)
        inner = scope.child({p: Scalar(sl.Var(new, loc=pl)) for p, new, _, pl in params},
                            locals_=function_locals(node))
        fn = self.returned_lambda(node, inner)
        return sl.ParamFunDef(self.def_name(name), tuple(sl.Param(n, t, loc=pl)  # type: ignore[arg-type]
                                                         for _, n, t, pl in params),
                              fn, loc=self.loc(node))

    def returned_lambda(self, node: pyast.FunctionDef | pyast.Lambda, inner: Scope) -> sl.Lambda:
        """The function a function-returning helper returns, its parameters bound in ``inner``."""
        if isinstance(node, pyast.Lambda):
            assert isinstance(node.body, pyast.Lambda)
            fn = self.lambda_fn(node.body, inner)
        else:
            fn = None
            guards: list[tuple[sl.Expr, sl.Loc]] = []
            for stmt in node.body:
                if isinstance(stmt, pyast.Expr) and isinstance(stmt.value, pyast.Constant):
                    continue
                if isinstance(stmt, pyast.Return):
                    value = stmt.value
                    if isinstance(value, pyast.Lambda):
                        fn = self.lambda_fn(value, inner)
                    else:
                        found = inner.lookup(value.id) if isinstance(value, pyast.Name) else None
                        if not (isinstance(found, FnV) and isinstance(found.fn, sl.Lambda)):
                            raise self.unsupported("returned value of a function-returning helper",
                                                   "the helper must return a lambda or a function it "
                                                   "defines", stmt)
                        fn = found.fn
                    break
                if isinstance(stmt, pyast.FunctionDef):
                    self.check_def_rebind(stmt, inner)
                    f = self.lambda_fn(stmt, inner)
                    inner.vars[stmt.name] = FnV(f, len(f.params))
                    continue
                if isinstance(stmt, (pyast.Assign, pyast.AnnAssign, pyast.AugAssign)):
                    target, value_node = self.assignment_parts(stmt)
                    value = self.expr(value_node, inner)
                    self.check_rebind(target, inner)  # the returned function reads it when it runs
                    shaped = self.bind(target, value, inner.vars, stmt)
                    for checked in ([value.expr] if isinstance(value, Scalar) else []) + shaped:
                        guards.append((checked, self.loc(stmt)))
                    continue
                self.unsupported_statement(stmt)
            assert fn is not None
            for checked, gloc in reversed(guards):  # the helper's own statements run when it is called
                fn = replace(fn, body=Guard(fn.body, checked, "raising assignment in a function-returning "
                                            "helper", "this assignment may raise; move it into the "
                                            "returned function", loc=gloc))
        return fn

    def apply_local_helper(self, callee: LocalHelperV, node: pyast.Call, scope: Scope) -> Value:
        """``helper(args)`` for a function-returning ``def`` nested in the pipeline: the returned lambda
        with the arguments substituted. Python evaluates the arguments at the call, so a non-trivial
        argument becomes a let (on the driver) or one call-by-value application (inside a UDF)."""
        fn_node = callee.node
        params = self.params(fn_node.args, fn_node)
        if len(params) != len(node.args):
            raise TypeCheckError(f"'{fn_node.name}' takes {len(params)} argument(s), {len(node.args)} given",
                                 self.loc(node))
        bound: dict[str, Value] = {}
        args = [self.scalar(arg, scope) for arg in node.args]
        if scope.in_udf and not all(_simple(e) for e in args):
            # helper(e)(y): one call-by-value application of the helper's parameters and the lambda's
            taken = scope.names() | self.program_level()
            names = []
            for name, _, _ in params:
                new = fresh(name, taken | self.taken)
                taken.add(new)
                self.synth_names.add(new)
                names.append(new)
            inner = callee.scope.child({n: Scalar(sl.Var(new, loc=self.loc(node)))
                                        for (n, _, _), new in zip(params, names, strict=True)},
                                       locals_=function_locals(fn_node))
            fn = self.returned_lambda(fn_node, inner)
            full = sl.Lambda(tuple(sl.Param(n, loc=self.loc(node)) for n in names) + fn.params, fn.body,
                             loc=fn.loc)
            return PendingV(full, tuple(args), len(fn.params))
        for (name, _, _), arg, e in zip(params, node.args, args, strict=True):
            if not _simple(e):
                if not self.evaluated_first(node):
                    e = Guard(e, e, "helper argument that may raise", "an argument that may raise must be "
                              "computed first in its statement: assign it to a variable before this "
                              "statement", loc=self.loc(arg))
                e = self.strict_let(e, name, self.loc(arg)).expr
            bound[name] = Scalar(e)
        fn = self.returned_lambda(fn_node, callee.scope.child(bound, locals_=function_locals(fn_node)))
        return FnV(fn, len(fn.params))


def _is_none_const(node: pyast.expr) -> bool:
    return isinstance(node, pyast.Constant) and node.value is None


def _simple(e: sl.Expr) -> bool:
    """Unresolved expressions that are surely cheap and cannot raise (variables, literals, projections)."""
    if isinstance(e, (sl.Var, sl.IntLit, sl.BoolLit, sl.StrLit, sl.FloatLit, sl.NoneLit)):
        return True
    if isinstance(e, sl.Proj):
        return _simple(e.tuple)
    return False


def _maybe_simple(e: sl.Expr) -> bool:
    """Unresolved expressions that may turn out simple once typed (``x[0]`` of a tuple is a projection;
    of a list it is ``py.getitem``, which may raise): ``Beta`` decides after resolution."""
    if _simple(e):
        return True
    if isinstance(e, sl.Proj):
        return _maybe_simple(e.tuple)
    if isinstance(e, (Shaped, Narrow)):
        return _maybe_simple(e.operand)
    if isinstance(e, PyIndex):
        return isinstance(e.index, sl.IntLit) and _maybe_simple(e.base)
    return False


def _names_in(e: sl.Node) -> set[str]:
    return {n.name for n in sl.walk(e) if isinstance(n, (sl.Var, sl.Param))}


def _tuples_for_flatmap(fn: sl.Lambda) -> sl.Lambda:
    """A flatMap function that always returns list displays of one size returns tuples instead."""
    sizes = _literal_sizes(fn.body)
    if not sizes or len(sizes) != 1 or 0 in sizes:  # () is no SparkLite value; [] stays a list
        return fn

    def to_tuple(e: sl.Expr) -> sl.Expr:
        if isinstance(e, ListLit):
            return sl.TupleExpr(e.elems, loc=e.loc)
        if isinstance(e, sl.Ite):
            return replace(e, then=to_tuple(e.then), orelse=to_tuple(e.orelse))
        return e

    return replace(fn, body=to_tuple(fn.body))


def _literal_sizes(body: sl.Expr) -> set[int] | None:
    """The sizes of the tuple/list displays a function body returns (None: not always a display)."""
    if isinstance(body, (sl.TupleExpr, ListLit)):
        return {len(body.elems)}
    if isinstance(body, sl.Ite):
        a, b = _literal_sizes(body.then), _literal_sizes(body.orelse)
        if a is None or b is None:
            return None
        return a | b
    return None


def _bag_chain(e: sl.Expr) -> list[sl.Node]:
    """The bag operators that building ``e`` builds (not looking through let-bound bags or functions)."""
    out: list[sl.Node] = []
    todo: list[sl.Node] = [e]
    while todo:
        n = todo.pop()
        if isinstance(n, sl.BAG_OPS):
            out.append(n)
            todo.extend(c for c in sl.children(n) if isinstance(c, sl.BAG_OPS))
    return out


def _driver_check(e: sl.Expr) -> sl.Expr:
    """What Python evaluates when it builds the RDD ``e`` (parametric helpers' arguments, by-key zero
    values), as one expression whose errors are those of building it."""
    parts: list[sl.Expr] = []

    def visit(n: sl.Node) -> None:
        for child in sl.children(n):
            if isinstance(child, (sl.Lambda, sl.FnRef, sl.Var)):
                continue
            if isinstance(child, sl.PApp):
                parts.extend(child.args)
            elif isinstance(child, sl.BAG_OPS) or isinstance(child, Guard):
                visit(child)
            else:
                parts.append(child)  # type: ignore[arg-type]

    visit(e)
    return sl.TupleExpr(tuple(parts), loc=e.loc) if parts else sl.BoolLit(True, loc=e.loc)


_LAZY_RDD_METHODS = frozenset({
    "map", "filter", "flatMap", "mapValues", "flatMapValues", "keys", "values", "cartesian", "join",
    "leftOuterJoin", "rightOuterJoin", "fullOuterJoin", "union", "distinct", "subtract", "intersection",
    "foldByKey", "reduceByKey", "aggregateByKey", "combineByKey", "groupByKey", "cache", "persist", "keyBy",
})


def _evaluation_order(node: pyast.AST) -> list[pyast.AST]:
    """The direct parts of a Python expression in the order Python evaluates them."""
    if isinstance(node, pyast.Call):
        func = [node.func.value] if isinstance(node.func, pyast.Attribute) else [node.func]
        return [*func, *node.args, *(k.value for k in node.keywords)]
    if isinstance(node, pyast.BinOp):
        return [node.left, node.right]
    if isinstance(node, pyast.Compare):  # a < b < c evaluates c only when a < b holds
        return [node.left, node.comparators[0]]
    if isinstance(node, pyast.Subscript):
        return [node.value, node.slice]
    if isinstance(node, pyast.Attribute):
        return [node.value]
    if isinstance(node, pyast.Tuple | pyast.List):
        return list(node.elts)
    if isinstance(node, pyast.UnaryOp):
        return [node.operand]
    return []  # conditionals and boolean operators evaluate only some parts: nothing is "after" them


def _surely_harmless(node: pyast.AST) -> bool:
    """Python evaluating ``node`` on the driver cannot raise (a syntactic, conservative judgement:
    arithmetic is not harmless, since ``n + f`` raises for a huge int and a float, ``x + 1`` for None)."""
    if isinstance(node, pyast.Name | pyast.Constant | pyast.Lambda):
        return True
    if isinstance(node, pyast.Attribute):
        return _surely_harmless(node.value)
    if isinstance(node, pyast.Tuple):
        return all(_surely_harmless(e) for e in node.elts)
    if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
            and node.func.attr in _LAZY_RDD_METHODS and not node.keywords:
        return _surely_harmless(node.func.value) and all(_surely_harmless(a) for a in node.args)
    return False


def _held_arguments(value: Value) -> tuple[sl.Expr, ...]:
    """Arguments a function value already holds (``below(10 // x)``, ``helper(e)`` pending its last
    call): Python evaluated them when the value was made."""
    if isinstance(value, FnV) and isinstance(value.fn, sl.PApp):
        return value.fn.args
    if isinstance(value, PendingV):
        return value.args
    return ()
