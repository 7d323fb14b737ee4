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

This module holds the translator's state and its expressions; ``udf_calls`` its calls and function
bodies, ``udf_rules`` the tables and tree helpers both read.
"""

from __future__ import annotations

import ast as pyast
import math
import re
from dataclasses import replace
from typing import Any

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
    ModuleDef,
    ModuleInfo,
    OpV,
    Scalar,
    Scope,
    TupleV,
    Value,
    undefined,
    unsupported,
)
from frontend.python.nodes import (
    AsBool,
    AsInt,
    Force,
    Guard,
    Narrow,
    PyArith,
    PyCompare,
    PyIndex,
    PyPow,
    PySlice,
    ShortCircuit,
    Undefined,
    fresh,
    loc_of,
    may_raise,
)
from frontend.python.nodes import driver_may_raise as pre_driver_may_raise
from frontend.python.udf_calls import CallsMixin
from frontend.python.udf_rules import (
    _MAX_CONSTANT_DIGITS,
    _TUPLE_RAISES,
    _TUPLE_RAISES_MESSAGE,
    ARITH,
    BITWISE,
    COMPARE,
    MAX_POWER,
    UNSUPPORTED_EXPRS,
    _bag_chain,
    _driver_check,
    _evaluation_order,
    _is_none_const,
    _NotConstant,
    _surely_harmless,
    is_bool_shaped,
)
from frontend.python.unbound import certainly_undefined
from sparklite import ast as sl
from sparklite.errors import InputError, TypeCheckError


class Translator(CallsMixin):
    """Shared state of one translation: the module, the named functions emitted so far, the lets.

    The RDD dialect plugs in through ``rdd_methods`` (method names that make an RDD call),
    ``rdd_method`` and ``inline_rdd_helper``; ``frontend.rdd.translator.RddTranslator`` implements them."""

    rdd_methods: frozenset[str] = frozenset()
    #: a name bound nowhere in the file reads as raising ``NameError`` when evaluated (``unbound``): only
    #: in a script, run as ``__main__``; a function unit's module globals may be set by whoever imports it
    #: (``mod.THRESHOLD = 3``), so there an undefined name stays a located refusal
    names_fail_late: bool = False

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
        which is ``str(x)`` for the values SparkLite has), evaluated left to right; a field with a
        constant spec is ``format(x, spec)`` (the kernel's ``py.format``, Python's own ``format``)."""
        loc = self.loc(node)
        parts: list[sl.Expr] = []
        for value in node.values:
            if isinstance(value, pyast.Constant) and isinstance(value.value, str):
                parts.append(sl.StrLit(value.value, loc=self.loc(value) if hasattr(value, "lineno") else loc))
                continue
            if not isinstance(value, pyast.FormattedValue):
                raise self.unsupported("f-string", "this f-string is not supported", value)
            spec = value.format_spec
            if value.conversion not in (-1, ord("s")) or spec is not None and not (
                    len(spec.values) <= 1 and all(isinstance(v, pyast.Constant) for v in spec.values)):
                raise self.unsupported("f-string with a conversion or a computed spec", "f-string fields "
                                       "with !r/!a or a spec holding fields are not supported; {expr}, "
                                       "{expr!s} and constant specs ({x:.2f}, {x:>8,}) are", value)
            text = spec.values[0].value if spec is not None and spec.values else ""  # type: ignore[attr-defined]
            if any(len(d) > 4 for d in re.findall(r"\d+", text)):
                raise self.unsupported("f-string with a huge width", "a format spec's width or precision "
                                       "over 9999 is not supported", value)
            field = self.scalar(value.value, scope)
            if value.conversion == ord("s"):
                field = sl.Call("str", (field,), loc=field.loc or loc)
            if text:  # Python calls format(x, spec)
                parts.append(sl.Call("py.format", (field, sl.StrLit(text, loc=loc)), loc=field.loc or loc))
            else:
                parts.append(sl.Call("str", (field,), loc=field.loc or loc))
        if not parts:
            return sl.StrLit("", loc=loc)
        result = parts[0]
        for part in parts[1:]:
            result = PyArith("+", result, part, loc=loc)
        return result

    def list_comp(self, node: pyast.ListComp, scope: Scope) -> sl.Expr:
        """``[f(x) for x in xs if c(x)]``: one generator, any number of ``if`` clauses (Python tests
        them in order), a name or an unpacking pattern as target. Several ``for`` clauses
        (``[e for a in A for b in B]``) are the first clause over a comprehension of the rest, flattened
        (``py.flatten``): Python evaluates them in that same order (``A``, then for each ``a`` its ``if``
        clauses, ``B`` and the rest), so values and the first error are the same."""
        loc = self.loc(node)
        if len(node.generators) > 1:
            rest = pyast.copy_location(pyast.ListComp(elt=node.elt, generators=node.generators[1:]),
                                       node.generators[1].target)
            outer = pyast.copy_location(pyast.ListComp(elt=rest, generators=node.generators[:1]), node)
            return sl.Call("py.flatten", (self.list_comp(outer, scope),), loc=loc)
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
        if node.id in info.opaque and isinstance(info.opaque[node.id], (pyast.Import, pyast.ImportFrom)):
            raise self.unsupported("imported module", _imported_note(node.id, info.opaque[node.id]), node)
        if node.id in info.opaque:
            raise self.unsupported("non-constant module variable", f"'{node.id}' is bound at module level to "
                                   "something other than a constant or a function", node)
        if node.id in BUILTIN_FUNCS:
            return OpV(node.id)
        if node.id in UNSUPPORTED_BUILTINS:
            raise self.unsupported(node.id, f"the builtin '{node.id}' is not supported", node)
        # NameError when Spark evaluates it (in a script: ``names_fail_late``)
        if scope.in_udf and self.names_fail_late and certainly_undefined(node.id, info.tree):
            return Scalar(Undefined(node.id, loc=loc))
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
        if isinstance(value, Scalar) and isinstance(value.expr, Undefined):
            return value  # C[i]: evaluating C raises NameError before the index is looked at
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


# Modules a function run by Spark may use but the kernel has no model of, with why (refused, never
# approximated: Python's own module is what runs in an RDD task).
_MODULE_NOTES = {
    "re": "regular expressions are read only as calls re.split/re.sub/re.findall(PATTERN, ...), directly "
          "or on re.compile(PATTERN[, FLAGS]), with a constant pattern (frontend.python.regex)",
    "statistics": "statistics is read only as calls statistics.mean/median/stdev/...(xs) (sparklite.pystats)",
    "collections": "collections types are not modelled",
}


def _imported_note(name: str, stmt: pyast.AST) -> str:
    """The message for a name imported at module level and used in a translated function: only ``math``
    and ``operator`` are modelled; ``re`` and a few others say why."""
    module = stmt.module if isinstance(stmt, pyast.ImportFrom) and stmt.module else name
    root = module.split(".")[0]
    why = _MODULE_NOTES.get(root, "only math and operator are modelled")
    return f"'{name}' comes from the module '{module}' (imported at line {getattr(stmt, 'lineno', '?')}), " \
           f"used in a function Spark runs: {why}"
