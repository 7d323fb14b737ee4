"""Translation of Python expressions and function bodies (UDFs) to SparkLite expressions.

``Translator`` walks Python's ``ast`` (the user's module is never imported). Function bodies are
straight-line code with ``if``/``elif``/``else``; a body becomes one expression: ``if`` splits the rest
of the block into the two branches of an ``Ite``, and local assignments are substituted into their
uses. Substitution would drop the evaluation of an unused assignment that raises
(``y = 1 // x; return x``), so such an assignment is forced with ``Ite(y == y, rest, rest)``; likewise
``a and b`` becomes ``Ite`` when ``b`` may raise, so that Python's short circuit is kept whatever
SparkLite's ``and`` does with errors.

The RDD method chain (``rdd.py``) and the pipeline function's statements (``pipeline.py``) build on
the same ``Translator``.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import replace

from frontend import types as ftypes
from frontend.names import (
    BUILTIN_FUNCS,
    OPERATOR_BINARY,
    OPERATOR_UNARY,
    OPERATOR_UNSUPPORTED,
    UNBOUND,
    UNSUPPORTED_BUILTINS,
    BagV,
    DefV,
    FnV,
    GroupAggRef,
    GroupedV,
    GroupValsV,
    InputV,
    LocalHelperV,
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
from frontend.nodes import (
    AsBool,
    AsInt,
    ListLit,
    Shaped,
    fresh,
    loc_of,
    may_raise,
    strictly_evaluated,
    subst,
)
from sparklite import ast as sl
from sparklite import effects
from sparklite.effects import driver_may_raise
from sparklite.errors import InputError, TypeCheckError

ARITH = {pyast.Add: "+", pyast.Sub: "-", pyast.Mult: "*", pyast.FloorDiv: "//", pyast.Mod: "%"}
BITWISE = {pyast.BitAnd: "&", pyast.BitOr: "|", pyast.BitXor: "^", pyast.LShift: "<<", pyast.RShift: ">>",
           pyast.MatMult: "@"}
COMPARE = {pyast.Eq: "==", pyast.NotEq: "!=", pyast.Lt: "<", pyast.LtE: "<=", pyast.Gt: ">", pyast.GtE: ">="}
MAX_POWER = 8

_BOOL_SHAPED = (sl.Not, sl.BoolLit, AsBool)
_INT_SHAPED = (sl.IntLit, sl.Neg, AsInt)

RDD_SOURCES = {"parallelize", "textFile", "wholeTextFiles", "range", "emptyRDD", "sequenceFile", "read"}

UNSUPPORTED_STATEMENTS = {
    pyast.For: "for loop", pyast.While: "while loop", pyast.Global: "global", pyast.Nonlocal: "nonlocal",
    pyast.Raise: "raise", pyast.Try: "try", pyast.Assert: "assert", pyast.With: "with",
    pyast.Delete: "del", pyast.Import: "import inside a function",
    pyast.ImportFrom: "import inside a function",
    pyast.ClassDef: "class definition", pyast.AsyncFunctionDef: "async def", pyast.Match: "match",
}
UNSUPPORTED_EXPRS = {
    pyast.ListComp: "list comprehension", pyast.SetComp: "set comprehension",
    pyast.DictComp: "dict comprehension", pyast.GeneratorExp: "generator expression",
    pyast.Dict: "dict literal", pyast.Set: "set literal", pyast.JoinedStr: "f-string",
    pyast.NamedExpr: "assignment expression (:=)", pyast.Starred: "starred expression",
    pyast.Await: "await", pyast.Yield: "yield", pyast.YieldFrom: "yield", pyast.Slice: "slice",
}


def is_bool_shaped(e: sl.Expr) -> bool:
    """Expressions that are syntactically booleans (no truth-test placeholder needed)."""
    if isinstance(e, _BOOL_SHAPED):
        return True
    return isinstance(e, sl.BinOp) and e.op in sl.COMPARE_OPS + sl.BOOL_OPS


def is_int_shaped(e: sl.Expr) -> bool:
    if isinstance(e, _INT_SHAPED):
        return True
    if isinstance(e, sl.Call) and e.func in sl.BUILTINS:
        return True
    return isinstance(e, sl.BinOp) and e.op in sl.ARITH_OPS


class Translator:
    """Shared state of one translation: the module, the named functions emitted so far, the lets."""

    def __init__(self, info: ModuleInfo, source_lines: list[str]) -> None:
        self.info = info
        self.filename = info.filename
        self.lines = source_lines
        self.defs: dict[str, sl.Def] = {}
        self.list_defs: set[str] = set()
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
        """Translate ``node`` where a basic value (int, bool, tuple) is required."""
        return self.to_scalar(self.expr(node, scope), node)

    def to_scalar(self, value: Value, node: pyast.AST) -> sl.Expr:
        if isinstance(value, Scalar):
            return value.expr
        if isinstance(value, InputV):
            return value.var
        if isinstance(value, (BagV, GroupedV)):
            raise self.unsupported("RDD as a value", "an RDD cannot be used as a basic value here", node)
        if isinstance(value, GroupValsV) or type(value) is not TupleV and isinstance(value, TupleV):
            raise self.unsupported(
                "group values", "the values of a group can only be used through sum/len/min/max "
                "(their order depends on partitioning)", node)
        if isinstance(value, TupleV):
            raise self.unsupported("RDD as a value", "a tuple holding an RDD cannot be used here", node)
        raise self.unsupported("function as a value", "a function cannot be used as a basic value", node)

    def as_int(self, e: sl.Expr) -> sl.Expr:
        return e if is_int_shaped(e) else AsInt(e, loc=e.loc)

    def as_bool(self, e: sl.Expr) -> sl.Expr:
        return e if is_bool_shaped(e) else AsBool(e, loc=e.loc)

    def truth(self, node: pyast.expr, scope: Scope) -> sl.Expr:
        """Translate ``node`` in a condition (``if``, ``filter``, ``not``): Python's truth test."""
        if isinstance(node, pyast.BoolOp):
            return self.bool_op(node, [self.truth(v, scope) for v in node.values])
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
            return sl.Not(self.truth(node.operand, scope), loc=self.loc(node))
        return self.as_bool(self.scalar(node, scope))

    def bool_op(self, node: pyast.BoolOp, operands: list[sl.Expr]) -> sl.Expr:
        op = "and" if isinstance(node.op, pyast.And) else "or"
        loc = self.loc(node)
        result = operands[-1]
        for left in reversed(operands[:-1]):
            result = self.short_circuit(op, left, result, loc)
        return result

    @staticmethod
    def short_circuit(op: str, left: sl.Expr, right: sl.Expr, loc: sl.Loc | None) -> sl.Expr:
        if not may_raise(right):
            return sl.BinOp(op, left, right, loc=loc)  # type: ignore[arg-type]
        if op == "and":
            return sl.Ite(left, right, sl.BoolLit(False, loc=loc), loc=loc)
        return sl.Ite(left, sl.BoolLit(True, loc=loc), right, loc=loc)

    def expr(self, node: pyast.expr, scope: Scope) -> Value:
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
            raise self.unsupported("list literal", "list values are not supported (a list literal may only "
                                   "be returned by a flatMap function)", node)
        if isinstance(node, pyast.BinOp):
            return Scalar(self.binop(node, scope))
        if isinstance(node, pyast.UnaryOp):
            if isinstance(node.op, pyast.Not):
                return Scalar(sl.Not(self.truth(node.operand, scope), loc=loc))
            if isinstance(node.op, pyast.Invert):
                raise self.unsupported("bitwise ~", "bitwise operators are not supported", node)
            operand = self.as_int(self.scalar(node.operand, scope))
            if isinstance(node.op, pyast.UAdd):
                return Scalar(operand)
            if isinstance(operand, sl.IntLit):
                return Scalar(sl.IntLit(-operand.value, loc=loc))
            return Scalar(sl.Neg(operand, loc=loc))
        if isinstance(node, pyast.BoolOp):
            return Scalar(self.bool_op(node, [self.scalar(v, scope) for v in node.values]))
        if isinstance(node, pyast.Compare):
            return Scalar(self.compare(node, scope))
        if isinstance(node, pyast.IfExp):
            return Scalar(sl.Ite(self.truth(node.test, scope), self.scalar(node.body, scope),
                                 self.scalar(node.orelse, scope), loc=loc))
        if isinstance(node, pyast.Call):
            return self.call(node, scope)
        if isinstance(node, pyast.Attribute):
            if isinstance(node.value, pyast.Name) and node.value.id in self.info.operator_modules \
                    and scope.lookup(node.value.id) is None:
                return self.operator_fn(node.attr, node)
            raise self.unsupported("attribute access", f"attribute access '.{node.attr}' is not supported "
                                   "(only RDD methods can be called)", self.attr_loc(node))
        if isinstance(node, pyast.Subscript):
            return self.subscript(node, scope)
        if isinstance(node, pyast.Lambda):
            fn = self.lambda_fn(node, scope)
            return FnV(fn, len(fn.params))
        for kind, construct in UNSUPPORTED_EXPRS.items():
            if isinstance(node, kind):
                raise self.unsupported(construct, f"{construct} is not supported", node)
        raise self.unsupported(type(node).__name__, f"Python expression {type(node).__name__} is not "
                               "supported", node)

    def driver_tuple(self, node: pyast.Tuple, items: list[Value]) -> TupleV:
        """A driver tuple holding an RDD. Its items are substituted where the tuple is used (an RDD
        cannot be a SparkLite value), which would drop or repeat an item that raises; so such an item is
        evaluated where Python evaluates it, as a let. That is exact only when the tuple is a
        statement's whole value (nothing else in the statement runs before it)."""
        out: list[Value] = []
        for item, elt in zip(items, node.elts, strict=True):
            if self.builds_raising(item):
                if not self.evaluated_first(node):
                    raise self.unsupported("tuple of an RDD and an action that may raise",
                                           "a tuple holding an RDD and a computation that may raise must "
                                           "be the whole value of an assignment or return", elt)
                item = self.strict_let(item.expr, "item", self.loc(elt)) if isinstance(item, Scalar) \
                    else self.bag_let(item, "item", self.loc(elt))  # type: ignore[arg-type]
            out.append(item)
        return TupleV(tuple(out))

    def evaluated_first(self, node: pyast.AST) -> bool:
        """Whether everything Python evaluates before ``node`` in the current driver statement is
        surely harmless (names, constants, lambdas, RDD transformations of those, arithmetic that
        cannot raise). Only then can a let, evaluated before the statement, take ``node``'s place
        without reordering errors."""
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
        """``sparklite.effects.may_raise`` with the RDDs bound so far (an action forces their
        definitions)."""
        return effects.may_raise(expr, bags=self.bag_lets)

    def builds_raising(self, value: Value) -> bool:
        """Whether Python's evaluation of this driver value may raise where it stands."""
        if isinstance(value, Scalar):
            return self.raises(value.expr)
        return isinstance(value, BagV) and driver_may_raise(value.expr, bags=self.bag_lets)

    def constant(self, node: pyast.Constant) -> sl.Expr:
        loc = self.loc(node)
        value = node.value
        if isinstance(value, bool):
            return sl.BoolLit(value, loc=loc)
        if isinstance(value, int):
            return sl.IntLit(value, loc=loc)
        if isinstance(value, float):
            raise self.unsupported("float literal", "floating-point values are not supported", node)
        if isinstance(value, str):
            raise self.unsupported("string literal", "strings are not supported", node)
        if value is None:
            raise self.unsupported("None", "None is not supported", node)
        kind = type(value).__name__
        raise self.unsupported(kind, f"{kind} literals are not supported", node)

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
            if scope.in_udf and (isinstance(value, (BagV, GroupedV)) or type(value) is TupleV):
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
        if node.id in info.opaque and isinstance(info.opaque[node.id], pyast.FunctionDef):
            raise self.unsupported("redefined function", f"'{node.id}' is defined more than once at module "
                                   "level", node)
        if node.id in info.opaque:
            raise self.unsupported("non-constant module variable", f"'{node.id}' is bound at module level to "
                                   "something other than an int/bool constant or a function", node)
        if node.id in BUILTIN_FUNCS:
            return OpV(node.id)
        if node.id in UNSUPPORTED_BUILTINS:
            raise self.unsupported(node.id, f"the builtin '{node.id}' is not supported", node)
        raise undefined(node.id, loc)

    def module_constant(self, name: str, loc: sl.Loc) -> sl.Expr:
        """Closures over module constants inline the (folded) constant."""
        if name not in self.constant_cache:
            value = self.scalar(self.info.constants[name], Scope({}, in_udf=True))
            if may_raise(value):  # Python would raise at import, before any job
                raise self.unsupported("module constant that may raise", f"the module constant '{name}' "
                                       "may raise when the module is imported", self.info.constants[name])
            self.constant_cache[name] = value
        return self.constant_cache[name]

    def operator_fn(self, name: str, node: pyast.AST) -> Value:
        if name in OPERATOR_BINARY or name in OPERATOR_UNARY:
            return OpV(name)
        reason = OPERATOR_UNSUPPORTED.get(name, "not supported")
        raise self.unsupported(f"operator.{name}", f"operator.{name} is not supported ({reason})", node)

    def binop(self, node: pyast.BinOp, scope: Scope) -> sl.Expr:
        loc = self.loc(node)
        if isinstance(node.op, pyast.Div):
            raise self.unsupported("true division /", "'/' is true division and produces a float; use '//'",
                                   node)
        if type(node.op) in BITWISE:
            sym = BITWISE[type(node.op)]
            raise self.unsupported(f"bitwise {sym}", f"the operator '{sym}' is not supported", node)
        left = self.as_int(self.scalar(node.left, scope))
        if isinstance(node.op, pyast.Pow):
            exponent = self.scalar(node.right, scope)
            if not isinstance(exponent, sl.IntLit) or not 0 <= exponent.value <= MAX_POWER:
                raise self.unsupported("** with a non-constant exponent", "'**' is supported only with a "
                                       f"constant exponent between 0 and {MAX_POWER}", node)
            if exponent.value == 0:  # Python evaluates the base all the same (it may raise)
                return sl.Proj(sl.TupleExpr((left, sl.IntLit(1, loc=loc)), loc=loc), 1, loc=loc)
            result: sl.Expr = left
            for _ in range(exponent.value - 1):
                result = self.arith("*", result, left, loc)
            return result
        right = self.as_int(self.scalar(node.right, scope))
        return self.arith(ARITH[type(node.op)], left, right, loc)

    @staticmethod
    def arith(op: str, left: sl.Expr, right: sl.Expr, loc: sl.Loc | None) -> sl.Expr:
        """Fold literal arithmetic (module constants) with Python's meaning; keep x // 0 unfolded."""
        if isinstance(left, sl.IntLit) and isinstance(right, sl.IntLit):
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
        return sl.BinOp(op, left, right, loc=loc)  # type: ignore[arg-type]

    def compare(self, node: pyast.Compare, scope: Scope) -> sl.Expr:
        loc = self.loc(node)
        operands = [node.left, *node.comparators]
        translated = [self.scalar(o, scope) for o in operands]
        parts: list[sl.Expr] = []
        for i, op in enumerate(node.ops):
            if type(op) not in COMPARE:
                name = {pyast.In: "in", pyast.NotIn: "not in", pyast.Is: "is",
                        pyast.IsNot: "is not"}[type(op)]
                raise self.unsupported(f"'{name}' comparison", f"the comparison '{name}' is not supported",
                                       node)
            sym = COMPARE[type(op)]
            left, right = translated[i], translated[i + 1]
            if sym not in ("==", "!="):
                left, right = self.as_int(left), self.as_int(right)
            parts.append(sl.BinOp(sym, left, right, loc=loc))  # type: ignore[arg-type]
        result = parts[-1]
        for left in reversed(parts[:-1]):
            result = self.short_circuit("and", left, result, loc)
        return result

    def subscript(self, node: pyast.Subscript, scope: Scope) -> Value:
        loc = self.loc(node)
        if isinstance(node.slice, pyast.Slice):
            raise self.unsupported("slice", "slices are not supported", node.slice)
        value = self.expr(node.value, scope)
        index_expr = self.scalar(node.slice, scope)
        if not isinstance(index_expr, sl.IntLit):
            raise self.unsupported("non-constant index", "tuple indices must be integer constants",
                                   node.slice)
        index = index_expr.value
        if index < 0:
            raise self.unsupported("negative index", "negative tuple indices are not supported", node.slice)
        if isinstance(value, TupleV):
            if index >= len(value.items):
                raise TypeCheckError(f"tuple index {index} out of range", loc)
            return value.items[index]
        if isinstance(value, (BagV, GroupedV)):
            raise self.unsupported("indexing an RDD", "RDDs cannot be indexed", node)
        base = self.to_scalar(value, node.value)
        if isinstance(base, sl.TupleExpr) and index >= len(base.elems):
            raise TypeCheckError(f"tuple index {index} out of range for a tuple of {len(base.elems)}", loc)
        return Scalar(sl.Proj(base, index, loc=loc))  # the whole tuple is evaluated, as in Python

    # --- calls -----------------------------------------------------------------------------------

    def call(self, node: pyast.Call, scope: Scope) -> Value:
        from frontend import rdd  # the RDD method chain needs the translator and vice versa

        for arg in node.args:
            if isinstance(arg, pyast.Starred):
                raise self.unsupported("*args", "star-arguments are not supported", arg)
        if node.keywords:
            kw = node.keywords[0]
            construct = "**kwargs" if kw.arg is None else "keyword argument"
            raise self.unsupported(construct, f"keyword arguments are not supported ({kw.arg or '**'}=...)",
                                   kw.value)
        func = node.func
        if isinstance(func, pyast.Attribute):
            if isinstance(func.value, pyast.Name) and func.value.id in self.info.operator_modules \
                    and scope.lookup(func.value.id) is None:
                callee: Value = self.operator_fn(func.attr, func)
            elif func.attr in RDD_SOURCES:
                raise self.unsupported(f"sc.{func.attr}", f"creating an RDD with .{func.attr}() inside the "
                                       "pipeline is not supported: pass the input RDDs as parameters",
                                       self.attr_loc(func))
            else:
                receiver = self.expr(func.value, scope)
                if isinstance(receiver, (BagV, InputV, GroupedV)):
                    if scope.in_udf:
                        raise self.unsupported("RDD inside a function", "RDD methods cannot be called inside "
                                               "a function passed to Spark", self.attr_loc(func))
                    return rdd.method(self, receiver, func, node, scope)
                if isinstance(receiver, GroupValsV):
                    raise self.unsupported(f".{func.attr}", "the values of a group can only be used through "
                                           "sum/len/min/max", self.attr_loc(func))
                raise self.unsupported(f"method .{func.attr}", f"method call '.{func.attr}()' on a value "
                                       "that is not an RDD is not supported", self.attr_loc(func))
        else:
            callee = self.expr(func, scope)
        return self.apply_value(callee, node, scope)

    def apply_value(self, callee: Value, node: pyast.Call, scope: Scope) -> Value:
        from frontend import pipeline

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
                return pipeline.inline_helper(self, mdef, arg_values, node)
            args = tuple(self.to_scalar(v, a) for v, a in zip(arg_values, node.args, strict=True))
            d = self.ensure_def(callee.name, node)
            self.check_arity(d, len(args), callee.name, node)
            if isinstance(d, sl.ParamFunDef):
                return FnV(sl.PApp(callee.name, args, loc=loc), len(d.fn.params))
            if callee.name in self.list_defs:
                raise self.unsupported("list value", f"'{callee.name}' returns a list: only a flatMap "
                                       "function may return a list", node)
            return Scalar(sl.Call(callee.name, args, loc=loc))
        if isinstance(callee, LocalHelperV):
            return self.apply_local_helper(callee, node, scope)
        if isinstance(callee, PendingV):
            args = tuple(self.scalar(a, scope) for a in node.args)
            if len(args) != callee.arity:
                raise TypeCheckError(f"function takes {callee.arity} argument(s), {len(args)} given", loc)
            if self.returns_list(callee.fn):
                raise self.unsupported("list value", "this function returns a list: only a flatMap function "
                                       "may return a list", node)
            return Scalar(sl.Apply(callee.fn, callee.args + args, loc=loc))
        if isinstance(callee, FnV):
            args = tuple(self.scalar(a, scope) for a in node.args)
            if len(args) != callee.arity:
                raise TypeCheckError(f"function takes {callee.arity} argument(s), {len(args)} given", loc)
            if self.returns_list(callee.fn):
                raise self.unsupported("list value", "this function returns a list: only a flatMap function "
                                       "may return a list", node)
            return Scalar(self.apply_fn(callee.fn, args, loc))
        raise self.unsupported("call of a non-function", "this value is not a function", node.func)

    @staticmethod
    def check_arity(d: sl.Def, n: int, name: str, node: pyast.AST | sl.Loc) -> None:
        expected = len(d.params)
        if n != expected:
            loc = node if isinstance(node, sl.Loc) else loc_of(node, "")
            raise TypeCheckError(f"'{name}' takes {expected} argument(s), {n} given", loc)

    def apply_fn(self, fn: sl.Fn, args: tuple[sl.Expr, ...], loc: sl.Loc | None) -> sl.Expr:
        """Apply a function value; a lambda applied to variables/projections is beta-reduced."""
        if isinstance(fn, sl.FnRef):
            return sl.Call(fn.name, args, loc=loc)
        if isinstance(fn, sl.Lambda) and all(_simple(a) for a in args):
            return subst(fn.body, {p.name: a for p, a in zip(fn.params, args, strict=True)})
        return sl.Apply(fn, args, loc=loc)

    def apply_op(self, name: str, arg_nodes: list[pyast.expr], scope: Scope, node: pyast.AST) -> Value:
        loc = self.loc(node)
        n = len(arg_nodes)
        if name in ("sum", "len", "min", "max") and n == 1:
            arg = arg_nodes[0]
            value = self.expr(arg, scope) if not isinstance(arg, (pyast.Tuple, pyast.List)) else None
            if isinstance(value, GroupValsV):
                return Scalar(GroupAggRef(name, loc=loc))
            if isinstance(arg, (pyast.Tuple, pyast.List)) and arg.elts:
                elems = [self.scalar(e, scope) for e in arg.elts]
                if name == "len":  # Python evaluates every element, then counts them
                    n_lit = sl.IntLit(len(elems), loc=loc)
                    return Scalar(sl.Proj(sl.TupleExpr((*elems, n_lit), loc=loc), len(elems), loc=loc))
                if name == "sum":
                    result = self.as_int(elems[0])
                    for e in elems[1:]:
                        result = self.arith("+", result, self.as_int(e), loc)
                    return Scalar(result)
                return Scalar(self.nary(name, elems, loc))
            raise self.unsupported(f"{name} of an iterable", f"{name}() of an iterable is supported only on "
                                   "a tuple literal or on the values of groupByKey()", node)
        args = [self.scalar(a, scope) for a in arg_nodes]
        if name in ("min", "max"):
            if n < 2:
                raise TypeCheckError(f"{name}() needs arguments", loc)
            return Scalar(self.nary(name, args, loc))
        if name in ("sum", "len"):
            raise TypeCheckError(f"{name}() takes one argument", loc)
        return Scalar(self.op_expr(name, args, loc))

    @staticmethod
    def nary(name: str, args: list[sl.Expr], loc: sl.Loc | None) -> sl.Expr:
        result = args[0]
        for a in args[1:]:
            result = sl.Call(name, (result, a), loc=loc)
        return result

    def op_expr(self, name: str, args: list[sl.Expr], loc: sl.Loc | None) -> sl.Expr:
        """An operator/builtin applied to translated arguments."""
        unary = {"neg", "abs", "not_", "truth", "pos", "int", "bool"}
        expected = 1 if name in unary else 2
        if name in ("min", "max"):
            expected = max(2, len(args))
        if len(args) != expected:
            raise TypeCheckError(f"{name} takes {expected} argument(s), {len(args)} given", loc)
        if name in OPERATOR_BINARY:
            sym = OPERATOR_BINARY[name]
            left, right = args
            if sym in ("==", "!="):
                return sl.BinOp(sym, left, right, loc=loc)  # type: ignore[arg-type]
            left, right = self.as_int(left), self.as_int(right)
            if sym in sl.ARITH_OPS:
                return self.arith(sym, left, right, loc)
            return sl.BinOp(sym, left, right, loc=loc)  # type: ignore[arg-type]
        if name in ("min", "max"):
            return self.nary(name, args, loc)
        (x,) = args
        if name == "neg":
            return sl.Neg(self.as_int(x), loc=loc)
        if name in ("pos", "int"):
            return self.as_int(x)
        if name == "abs":
            return sl.Call("abs", (self.as_int(x),), loc=loc)
        if name in ("truth", "bool"):
            return self.as_bool(x)
        if name == "not_":
            return sl.Not(self.as_bool(x), loc=loc)
        raise TypeCheckError(f"{name} cannot be used here", loc)

    # --- function values -------------------------------------------------------------------------

    def as_fn(self, value: Value, arity: int, node: pyast.AST, purpose: str) -> sl.Fn:
        """A function value passed to an RDD method, checked to take ``arity`` arguments."""
        loc = self.loc(node)
        if isinstance(value, FnV):
            if value.arity != arity:
                raise TypeCheckError(f"the function passed to {purpose} must take {arity} argument(s), "
                                     f"it takes {value.arity}", loc)
            fn = value.fn
        elif isinstance(value, OpV):
            if value.name in ("sum", "len"):
                raise self.unsupported(f"{value.name} as a function", f"'{value.name}' can be passed only to "
                                       "groupByKey().mapValues", node)
            names: list[str] = []
            for base in ("a", "b", "c", "d")[:arity]:
                names.append(self.synth_param(base, set(names)))
            params = tuple(sl.Param(n, loc=loc) for n in names)
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
            fn = sl.FnRef(value.name, loc=loc)
        else:
            raise self.unsupported("not a function", f"{purpose} needs a function here", node)
        if purpose != "flatMap" and self.returns_list(fn):
            raise self.unsupported("list value", "a function returning a list is supported only as a "
                                   "flatMap function", node)
        return fn

    def fn_arg(self, node: pyast.expr, scope: Scope, arity: int, purpose: str) -> sl.Fn:
        return self.as_fn(self.expr(node, scope), arity, node, purpose)

    def returns_list(self, fn: sl.Fn) -> bool:
        if isinstance(fn, sl.FnRef):
            return fn.name in self.list_defs
        if isinstance(fn, sl.Lambda):
            return _returns_list(fn.body)
        if isinstance(fn, sl.PApp):
            d = self.defs.get(fn.name)
            return isinstance(d, sl.ParamFunDef) and _returns_list(d.fn.body)
        return False

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
        """A returned expression: list literals are allowed here (for flatMap functions)."""
        if isinstance(node, pyast.List):
            return ListLit(tuple(self.scalar(e, scope) for e in node.elts), loc=self.loc(node))
        if isinstance(node, pyast.IfExp):
            return sl.Ite(self.truth(node.test, scope), self.ret_expr(node.body, scope),
                          self.ret_expr(node.orelse, scope), loc=self.loc(node))
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
                cond = self.truth(stmt.test, scope)
                then = self.block(stmt.body + rest, scope.child(), owner)
                orelse = self.block(stmt.orelse + rest, scope.child(), owner)
                return sl.Ite(cond, then, orelse, loc=self.loc(stmt))
            if isinstance(stmt, (pyast.Assign, pyast.AnnAssign, pyast.AugAssign)):
                target, value_node = self.assignment_parts(stmt)
                value = self.expr(value_node, scope)
                if isinstance(value, (BagV, GroupedV)) or type(value) is TupleV:
                    raise self.unsupported("RDD inside a function", "RDDs cannot be used inside a function "
                                           "passed to Spark", value_node)
                self.check_rebind(target, scope)
                inner = scope.child()
                self.bind(target, value, inner.vars, stmt)
                body = self.block(rest, inner, owner)
                if isinstance(value, Scalar) and may_raise(value.expr) \
                        and not strictly_evaluated(value.expr, body):
                    # keep Python's eager evaluation (and its ZeroDivisionError) of an unused local
                    body = _forcing(value.expr, body, self.loc(stmt))
                held = _held_arguments(value)
                if any(may_raise(a) for a in held):
                    # ``h = below(10 // x)``: Python evaluates the arguments now, used or not
                    body = _forcing(sl.TupleExpr(held, loc=self.loc(stmt)), body, self.loc(stmt))
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

    def bind(self, target: pyast.expr, value: Value, into: dict[str, Value], stmt: pyast.AST) -> None:
        """Bind a name or an unpacking pattern (``(k, v), w = ...``) by substitution."""
        if isinstance(target, pyast.Name):
            into[target.id] = value
            return
        if isinstance(target, (pyast.Tuple, pyast.List)):
            if any(isinstance(e, pyast.Starred) for e in target.elts):
                raise self.unsupported("starred assignment", "starred unpacking is not supported", target)
            n = len(target.elts)
            if isinstance(value, TupleV):
                if len(value.items) != n:
                    raise TypeCheckError(f"cannot unpack {len(value.items)} values into {n} names",
                                         self.loc(target))
                for t, v in zip(target.elts, value.items, strict=True):
                    self.bind(t, v, into, stmt)
                return
            expr = self.to_scalar(value, target)
            if isinstance(expr, sl.TupleExpr) and not any(may_raise(e) for e in expr.elems):
                if len(expr.elems) != n:
                    raise TypeCheckError(f"cannot unpack {len(expr.elems)} values into {n} names",
                                         self.loc(target))
                for t, e in zip(target.elts, expr.elems, strict=True):
                    self.bind(t, Scalar(e), into, stmt)
                return
            loc = self.loc(target)
            shaped = Shaped(expr, n, loc=loc)
            for i, t in enumerate(target.elts):
                self.bind(t, Scalar(sl.Proj(shaped, i, loc=loc)), into, stmt)
            return
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
                d = sl.FunDef(name, tuple(sl.Param(n, t, loc=pl) for _, n, t, pl in params),  # type: ignore[arg-type]
                              ret, body, loc=loc)
                if _returns_list(body):
                    self.list_defs.add(name)
        finally:
            self.in_progress.pop()
        self.defs[name] = d
        return d

    def param_fundef(self, name: str, node: pyast.FunctionDef | pyast.Lambda, scope: Scope) -> sl.ParamFunDef:
        params = self.def_params(node)
        inner = scope.child({p: Scalar(sl.Var(new, loc=pl)) for p, new, _, pl in params},
                            locals_=function_locals(node))
        fn = self.returned_lambda(node, inner)
        return sl.ParamFunDef(name, tuple(sl.Param(n, t, loc=pl) for _, n, t, pl in params),  # type: ignore[arg-type]
                              fn, loc=self.loc(node))

    def returned_lambda(self, node: pyast.FunctionDef | pyast.Lambda, inner: Scope) -> sl.Lambda:
        """The function a function-returning helper returns, its parameters bound in ``inner``."""
        if isinstance(node, pyast.Lambda):
            assert isinstance(node.body, pyast.Lambda)
            fn = self.lambda_fn(node.body, inner)
        else:
            fn = None
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
                    if isinstance(value, Scalar) and may_raise(value.expr):
                        raise self.unsupported("raising assignment in a function-returning helper",
                                               "this assignment may raise; move it into the returned "
                                               "function", stmt)
                    self.check_rebind(target, inner)  # the returned function reads it when it runs
                    self.bind(target, value, inner.vars, stmt)
                    continue
                self.unsupported_statement(stmt)
            assert fn is not None
        return fn

    def apply_local_helper(self, callee: LocalHelperV, node: pyast.Call, scope: Scope) -> Value:
        """``helper(args)`` for a function-returning ``def`` nested in the pipeline: the returned lambda
        with the arguments substituted. Python evaluates the arguments at the call, so a non-trivial
        argument becomes a let (on the driver) and is rejected inside a UDF."""
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
                if self.raises(e) and not self.evaluated_first(node):
                    raise self.unsupported("helper argument that may raise", "an argument that may raise "
                                           "must be computed first in its statement: assign it to a "
                                           "variable before this statement", arg)
                e = self.strict_let(e, name, self.loc(arg)).expr
            bound[name] = Scalar(e)
        fn = self.returned_lambda(fn_node, callee.scope.child(bound, locals_=function_locals(fn_node)))
        return FnV(fn, len(fn.params))


def _simple(e: sl.Expr) -> bool:
    """Cheap, non-raising expressions that may be duplicated or dropped by beta reduction."""
    if isinstance(e, (sl.Var, sl.IntLit, sl.BoolLit)):
        return True
    if isinstance(e, sl.Proj):
        return _simple(e.tuple)
    if isinstance(e, Shaped):
        return _simple(e.operand)
    return False


def _returns_list(body: sl.Expr) -> bool:
    if isinstance(body, ListLit):
        return True
    if isinstance(body, sl.Ite):
        return _returns_list(body.then) or _returns_list(body.orelse)
    return False


_LAZY_RDD_METHODS = frozenset({
    "map", "filter", "flatMap", "mapValues", "keys", "values", "cartesian", "join", "union", "distinct",
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
    """Python evaluating ``node`` on the driver cannot raise (a syntactic, conservative judgement)."""
    if isinstance(node, pyast.Name | pyast.Constant | pyast.Lambda):
        return True
    if isinstance(node, pyast.Attribute):
        return _surely_harmless(node.value)
    if isinstance(node, pyast.Tuple):
        return all(_surely_harmless(e) for e in node.elts)
    if isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.Add | pyast.Sub | pyast.Mult):
        return _surely_harmless(node.left) and _surely_harmless(node.right)
    if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
            and node.func.attr in _LAZY_RDD_METHODS and not node.keywords:
        return _surely_harmless(node.func.value) and all(_surely_harmless(a) for a in node.args)
    return False


def _forcing(v: sl.Expr, body: sl.Expr, loc: sl.Loc | None) -> sl.Expr:
    """``body``, after evaluating ``v`` for its errors only: ``if v == v then body else body``."""
    return sl.Ite(sl.BinOp("==", v, v, loc=v.loc), body, body, loc=loc)


def _held_arguments(value: Value) -> tuple[sl.Expr, ...]:
    """Arguments a function value already holds (``below(10 // x)``, ``helper(e)`` pending its last
    call): Python evaluated them when the value was made."""
    if isinstance(value, FnV) and isinstance(value.fn, sl.PApp):
        return value.fn.args
    if isinstance(value, PendingV):
        return value.args
    return ()
