"""The bridge from SparkLite (RDD programs) to the relational kernel, for what both express alike.

Why: to *prove* an RDD job equal to its DataFrame rewrite, both must be terms of one language. Rather
than a third kernel, an RDD program over tables (each RDD parameter reads one table's rows as tuples,
``verifier.core.cross_inputs``) is carried into the relational kernel where its Python meaning and the
relational term's Spark meaning coincide on NULL-free inputs, so the relational prover can match it
against the DataFrame/SQL program. ``to_relational`` refuses (``NotBridged``, with the reason) every
construct where they may differ, and lists as *assumptions* the two places where they coincide only
under a condition:

- Python's ``int`` is unbounded, Spark's INT/BIGINT raise on overflow: ``+ - *``, ``abs`` and sums are
  the same *unless a value overflows* (assumption "no overflow");
- ``x / y`` on ints is Python's exact division rounded once, Spark's after converting both to DOUBLE:
  the same while both are below 2**53 in magnitude (assumption).

What is carried over: tuples (flattened to columns, their shape kept aside), literals, ``+ - *`` on
ints (``+`` on strings as ``concat``), ``/`` on ints outside ``and``/``or``/conditionals, ``%`` and
``//`` by a positive int literal (``pmod``; floor division as ``(x - pmod(x, k)) div k``, exact),
comparisons of ints, strings and booleans (not floats: NaN compares otherwise), ``and``/``or``/``not``
on booleans, conditionals, ``len`` of a string (code points on both sides), ``min``/``max``/``abs`` of
ints; ``map``, ``filter``, ``distinct`` (no double column: ``-0.0``/NaN), ``union``, ``join`` on a
scalar key of ints or strings, ``reduceByKey``/``combineByKey`` whose operator is a componentwise
``+``, ``min`` or ``max`` of ints (or strings for min/max), ``groupByKey`` with ``sum``/``len``/``min``/
``max``; ``collect()`` and ``count()``. A double sum is refused (its value depends on the order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sparklite import ast as A
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.generate import kind_of
from sparklite.relational.types import BIGINT, BooleanType, DoubleType, IntegralType, Schema

NO_OVERFLOW = ("no integer overflows: Python's ints are unbounded, Spark's INT/BIGINT arithmetic and sums "
               "raise past their range")
EXACT_DIVISION = ("integers divided with / are below 2**53 in magnitude: Python divides them exactly, Spark "
                  "after converting them to DOUBLE")


class NotBridged(Exception):
    """The RDD program uses a construct whose Python meaning the relational kernel may not share."""


Value = Any  # an R.Expr, or a tuple of Values (a Python tuple)


@dataclass(frozen=True)
class _Bag:
    """A bag as a relation and its element as a ``Value`` over the relation's columns. A ``map`` only
    changes the value (no projection node): the relational prover reads an aggregate's arguments
    through its own terms, not through a projection below it, so projections are made only where a
    relation must hold the element itself (``materialise``)."""

    rel: R.Rel
    value: Value


def _shape(v: Value) -> Any:
    """The tuple structure of a value, leaves numbered in order."""
    return _reshape(v, [0])


def materialise(b: _Bag) -> _Bag:
    """A bag whose relation's columns are exactly its element's leaves, in order."""
    leaves = _leaves(b.value)
    cols = build.columns_of(b.rel)
    if len(leaves) == len(cols) and all(x == c for x, c in zip(leaves, cols, strict=True)):
        return b
    rel = build.project(b.rel, leaves, [f"_{i}" for i in range(len(leaves))])
    return _Bag(rel, _cols(_shape(b.value), build.columns_of(rel)))


@dataclass
class _State:
    assumptions: list[str] = field(default_factory=list)

    def assume(self, text: str) -> None:
        if text not in self.assumptions:
            self.assumptions.append(text)


def _cols(shape: Any, columns: tuple[R.Col, ...]) -> Value:
    if isinstance(shape, tuple):
        return tuple(_cols(s, columns) for s in shape)
    return columns[shape]


def _leaves(v: Value) -> list[R.Expr]:
    if isinstance(v, tuple):
        return [x for e in v for x in _leaves(e)]
    return [v]


def _reshape(v: Value, counter: list[int]) -> Any:
    if isinstance(v, tuple):
        return tuple(_reshape(e, counter) for e in v)
    counter[0] += 1
    return counter[0] - 1


class _Translator:
    def __init__(self, tables: Mapping[str, tuple[R.TableParam, bool]], state: _State) -> None:
        self.tables = tables
        self.state = state
        self.lets: dict[str, Any] = {}

    # -- bags -------------------------------------------------------------------------------------

    def source(self, e: A.Expr) -> _Bag:
        """A bag an operation reads: its elements must not hold a division (the one operator that may
        raise here): Python computes every element of a map, Spark's optimiser only the values a later
        step uses, or only for the rows a later filter keeps."""
        b = self.bag(e)
        if _divides(b.value):
            raise NotBridged("a division inside the pipeline (only the result's own values may divide: "
                             "Spark evaluates a value only where a later step needs it, Python always)")
        return b

    def bag(self, e: A.Expr) -> _Bag:
        if isinstance(e, A.Var):
            if e.name in self.lets:
                return self.bag(self.lets[e.name])
            if e.name not in self.tables:
                raise NotBridged(f"{e.name} is not an RDD parameter")
            tp, tuple_elem = self.tables[e.name]
            rel = build.table(tp.name, tp.schema)
            cols = build.columns_of(rel)
            return _Bag(rel, tuple(cols) if tuple_elem else cols[0])
        if isinstance(e, A.Map):
            src = self.source(e.source)
            return _Bag(src.rel, self.apply(e.fn, [src.value]))
        if isinstance(e, A.Filter):
            src = self.source(e.source)
            pred = self._bool(self.apply(e.fn, [src.value], guarded=True))
            return _Bag(build.filter_(src.rel, pred), src.value)
        if isinstance(e, A.Distinct):
            src = materialise(self.source(e.source))
            if any(isinstance(c.type, DoubleType) for c in build.columns_of(src.rel)):
                raise NotBridged("distinct over a float (Python keeps -0.0 and 0.0 apart, and every NaN)")
            rel = build.distinct(src.rel)
            return _Bag(rel, _cols(_shape(src.value), build.columns_of(rel)))
        if isinstance(e, A.Union):
            left, right = materialise(self.source(e.left)), materialise(self.source(e.right))
            if _shape(left.value) != _shape(right.value):
                raise NotBridged("a union of differently shaped elements")
            self._same_types(left.rel, right.rel)
            rel = build.set_op("union", True, left.rel, right.rel)
            return _Bag(rel, _cols(_shape(left.value), build.columns_of(rel)))
        if isinstance(e, A.Join):
            return self.join(e)
        if isinstance(e, A.CombineByKey):
            return self.combine(e)
        if isinstance(e, A.ReduceByKey):
            return self.by_key(e.source, e.op, e.op)
        if isinstance(e, A.GroupByKeyAgg):
            return self.group_agg(e)
        raise NotBridged(f"{type(e).__name__} has no relational counterpart in the bridge")

    def _same_types(self, a: R.Rel, b: R.Rel) -> None:
        for x, y in zip(build.columns_of(a), build.columns_of(b), strict=True):
            if _family(x.type) != _family(y.type):
                raise NotBridged("a union of elements of different types")

    def _pair(self, b: _Bag, what: str) -> tuple[Any, Any]:
        if not (isinstance(b.value, tuple) and len(b.value) == 2):
            raise NotBridged(f"{what} of elements that are not (key, value) pairs")
        return b.value

    def join(self, e: A.Join) -> _Bag:
        left, right = materialise(self.source(e.left)), materialise(self.source(e.right))
        self._pair(left, "a join")
        self._pair(right, "a join")
        (lk, lv), (rk, rv) = _shape(left.value), _shape(right.value)
        if isinstance(lk, tuple) or isinstance(rk, tuple):
            raise NotBridged("a join on a tuple key")
        lcols, rcols = build.columns_of(left.rel), build.columns_of(right.rel)
        if not (_key_type(lcols[lk].type) and _family(lcols[lk].type) == _family(rcols[rk].type)):
            raise NotBridged("a join on a key that is not an int or a string on both sides")
        crossed = build.columns_of(build.join("cross", left.rel, right.rel, None))
        n = len(lcols)
        joined = build.join("inner", left.rel, right.rel, build.compare("=", crossed[lk], crossed[n + rk]))
        cols = build.columns_of(joined)
        return _Bag(joined, (cols[lk], (_cols(lv, cols), _cols(_shift(rv, n), cols))))

    def combine(self, e: A.CombineByKey) -> _Bag:
        create = e.create
        if e.zero is not None or not (isinstance(create, A.Lambda) and len(create.params) == 1
                                      and isinstance(create.body, A.Var)
                                      and create.body.name == create.params[0].name):
            raise NotBridged("combineByKey with a createCombiner that is not the identity")
        return self.by_key(e.source, e.merge_value, e.merge_combiners)

    def by_key(self, source: A.Expr, op: A.Fn, comb: A.Fn) -> _Bag:
        src = self.source(source)
        k, v = self._pair(src, "a by-key aggregation")
        if A.alpha_key(op) != A.alpha_key(comb):
            raise NotBridged("a by-key aggregation whose two operators differ")
        if not isinstance(op, A.Lambda) or len(op.params) != 2:
            raise NotBridged("a by-key operator that is not a two-argument lambda")
        kinds = _op_kinds(op, _shape(v))
        aggs = [self._agg(kind, leaf) for leaf, kind in zip(_leaves(v), kinds, strict=True)]
        return self._grouped(src.rel, _leaves(k), _shape(k), aggs, _shape(v))

    def _agg(self, kind: str, col: R.Expr) -> R.AggCall:
        fam = _family(col.type)
        if kind == "sum":
            if fam != "int":
                raise NotBridged("a sum of non-integers (a double sum depends on the order of additions)")
            self.state.assume(NO_OVERFLOW)
            return build.agg("sum", [col])
        if kind == "len":
            return build.agg("count_star", [])
        if fam not in ("int", "string"):
            raise NotBridged(f"{kind} of a {col.type.simple} (NaN and -0.0 order otherwise)")
        return build.agg(kind, [col])

    def _grouped(self, rel: R.Rel, keys: list[R.Expr], kshape: Any, aggs: list[R.AggCall], vshape: Any
                 ) -> _Bag:
        for key in keys:
            if _family(key.type) not in ("int", "string", "bool"):
                raise NotBridged("grouping by a float key (NaN and -0.0 group otherwise)")
        grouped = build.aggregate(rel, keys, [f"k{i}" for i in range(len(keys))], aggs,
                                  [f"a{i}" for i in range(len(aggs))])
        out = build.columns_of(grouped)
        return _Bag(grouped, (_cols(kshape, out[:len(keys)]), _cols(_shape(vshape), out[len(keys):])))

    def group_agg(self, e: A.GroupByKeyAgg) -> _Bag:
        src = self.source(e.source)
        k, v = self._pair(src, "groupByKey")
        if isinstance(v, tuple) and any(kind != "len" for kind in e.kinds):
            raise NotBridged("groupByKey over tuple values")
        aggs = []
        for kind in e.kinds:
            if kind == "list":
                raise NotBridged("groupByKey keeping the group as a list (its order is Spark's)")
            aggs.append(self._agg(kind, v if not isinstance(v, tuple) else _leaves(v)[0]))
        vshape = 0 if len(aggs) == 1 else tuple(range(len(aggs)))
        return self._grouped(src.rel, _leaves(k), _shape(k), aggs, vshape)

    # -- expressions ------------------------------------------------------------------------------

    def apply(self, fn: A.Fn, args: list[Value], guarded: bool = False) -> Value:
        """``fn`` applied to symbolic arguments; ``guarded``: no division (a filter's condition, which
        Spark may evaluate for other rows or in another order than Python)."""
        if not isinstance(fn, A.Lambda) or len(fn.params) != len(args):
            raise NotBridged("a function that is not a lambda of its elements")
        env = {p.name: a for p, a in zip(fn.params, args, strict=True)}
        return self.expr(fn.body, env, guarded)

    def expr(self, e: A.Expr, env: dict[str, Value], guarded: bool) -> Value:
        if isinstance(e, A.Var):
            if e.name not in env:
                raise NotBridged(f"{e.name} is not an element of the bag")
            return env[e.name]
        if isinstance(e, A.IntLit | A.StrLit | A.BoolLit):
            return build.lit(e.value)
        if isinstance(e, A.TupleExpr):
            return tuple(self.expr(x, env, guarded) for x in e.elems)
        if isinstance(e, A.Proj):
            t = self.expr(e.tuple, env, guarded)
            if not isinstance(t, tuple) or not 0 <= e.index < len(t):
                raise NotBridged("an index into a value that is not a tuple")
            return t[e.index]
        if isinstance(e, A.Not):
            return build.not_(self._bool(self.expr(e.operand, env, True)))
        if isinstance(e, A.Neg):
            x = self._scalar(self.expr(e.operand, env, guarded), "int")
            self.state.assume(NO_OVERFLOW)
            return build.neg(x)
        if isinstance(e, A.Ite):
            cond = self._bool(self.expr(e.cond, env, True))
            a, b = self.expr(e.then, env, True), self.expr(e.orelse, env, True)
            if isinstance(a, tuple) or isinstance(b, tuple) or _family(a.type) != _family(b.type):
                raise NotBridged("a conditional whose branches are tuples or of different types")
            return build.case([(cond, a)], b)
        if isinstance(e, A.BinOp):
            return self.binop(e, env, guarded)
        if isinstance(e, A.Call):
            return self.call(e, env, guarded)
        raise NotBridged(f"the expression {type(e).__name__} has no relational counterpart in the bridge")

    def _scalar(self, v: Value, family: str | None = None) -> R.Expr:
        if isinstance(v, tuple) or (family is not None and _family(v.type) != family):
            raise NotBridged(f"an operand that is not a{'n' if family == 'int' else ''} {family or 'scalar'}")
        return v

    def _bool(self, v: Value) -> R.Expr:
        if isinstance(v, tuple) or not (isinstance(v, R.Predicate) or isinstance(v.type, BooleanType)):
            raise NotBridged("a condition that is not a boolean (Python's truthiness)")
        return v

    def binop(self, e: A.BinOp, env: dict[str, Value], guarded: bool) -> Value:
        op = e.op
        if op in ("and", "or"):
            a = self._bool(self.expr(e.left, env, True))
            b = self._bool(self.expr(e.right, env, True))
            return build.and_(a, b) if op == "and" else build.or_(a, b)
        a, b = self.expr(e.left, env, guarded), self.expr(e.right, env, guarded)
        if op in ("==", "!=", "<", "<=", ">", ">="):
            if isinstance(a, tuple) or isinstance(b, tuple):
                raise NotBridged("a comparison of tuples")
            fa, fb = _family(a.type), _family(b.type)
            if fa != fb or fa not in ("int", "string", "bool"):
                raise NotBridged(f"a comparison of {a.type.simple} with {b.type.simple} (Python and Spark "
                                 "compare these otherwise)")
            return build.compare("=" if op == "==" else op, a, b)  # type: ignore[arg-type]
        a, b = self._scalar(a), self._scalar(b)
        fa, fb = _family(a.type), _family(b.type)
        if op == "+" and fa == fb == "string":
            return build.func("concat", [a, b])
        if fa != "int" or fb != "int":
            raise NotBridged(f"{op} on {a.type.simple} and {b.type.simple}")
        if op in ("+", "-", "*"):
            self.state.assume(NO_OVERFLOW)
            return build.arith(op, a, b)  # type: ignore[arg-type]
        if op == "/":
            if guarded:
                raise NotBridged("a division under and/or/if (Spark may evaluate it where Python does not)")
            self.state.assume(EXACT_DIVISION)
            return build.arith("/", a, b)
        if op in ("%", "//"):
            if not (isinstance(b, R.Lit) and isinstance(b.value, int) and b.value > 0):
                raise NotBridged(f"{op} by something other than a positive literal (Python floors; Spark's "
                                 "%, div and pmod differ for negative divisors)")
            mod = build.arith("pmod", a, b)
            if op == "%":
                return mod
            self.state.assume(NO_OVERFLOW)
            return build.arith("div", build.arith("-", a, mod), b)
        raise NotBridged(f"the operator {op}")

    def call(self, e: A.Call, env: dict[str, Value], guarded: bool) -> Value:
        args = [self._scalar(self.expr(x, env, guarded)) for x in e.args]
        fams = [_family(a.type) for a in args]
        if e.func == "len" and fams == ["string"]:
            return build.func("length", args)
        if e.func in ("min", "max") and len(args) == 2 and fams[0] == fams[1] in ("int", "string"):
            return build.func("least" if e.func == "min" else "greatest", args)
        if e.func == "abs" and fams == ["int"]:
            self.state.assume(NO_OVERFLOW)
            return build.func("abs", args)
        raise NotBridged(f"the call {e.func}(...) on {', '.join(a.type.simple for a in args)}")


def _family(t: Any) -> str:
    """The generator's coarse class of a type (``int``, ``double``, ``string``, ``bool``...)."""
    return kind_of(t) or t.simple


def _divides(v: Value) -> bool:
    """Does a value hold a division (``R.Arith`` ``/``), anywhere in its leaves?"""
    stack: list[Any] = list(_leaves(v))
    while stack:
        n = stack.pop()
        if isinstance(n, R.Arith) and n.op == "/":
            return True
        if isinstance(n, R.RNode):
            stack.extend(getattr(n, f) for f in n.__dataclass_fields__ if f != "loc")
        elif isinstance(n, tuple):
            stack.extend(n)
    return False


def _key_type(t: Any) -> bool:
    return _family(t) in ("int", "string")


def _shift(shape: Any, n: int) -> Any:
    return tuple(_shift(s, n) for s in shape) if isinstance(shape, tuple) else shape + n


def _op_kinds(op: A.Lambda, vshape: Any) -> list[str]:
    """The aggregate per value leaf of a by-key operator ``lambda a, b: ...``: ``a + b``, ``min(a, b)``,
    ``max(a, b)``, or a tuple of these over ``a[i]``/``b[i]``."""
    a, b = op.params[0].name, op.params[1].name

    def leaf(body: A.Expr, pa: A.Expr, pb: A.Expr) -> str:
        ka, kb = A.alpha_key(pa), A.alpha_key(pb)

        def same(x: A.Expr, y: A.Expr) -> bool:
            return (A.alpha_key(x), A.alpha_key(y)) in ((ka, kb), (kb, ka))

        if isinstance(body, A.BinOp) and body.op == "+" and same(body.left, body.right):
            return "sum"
        if isinstance(body, A.Call) and body.func in ("min", "max") and len(body.args) == 2 \
                and same(body.args[0], body.args[1]):
            return body.func
        raise NotBridged("a by-key operator other than +, min or max (componentwise)")

    def walk(body: A.Expr, shape: Any, pa: A.Expr, pb: A.Expr) -> list[str]:
        if isinstance(shape, tuple):
            if not (isinstance(body, A.TupleExpr) and len(body.elems) == len(shape)):
                raise NotBridged("a by-key operator over tuples that is not componentwise")
            out = []
            for i, (sub, s) in enumerate(zip(body.elems, shape, strict=True)):
                out += walk(sub, s, A.Proj(pa, i), A.Proj(pb, i))
            return out
        return [leaf(body, pa, pb)]

    return walk(op.body, vshape, A.Var(a), A.Var(b))


def to_relational(program: A.Program, tables: Mapping[str, tuple[R.TableParam, bool]],
                  params: tuple[R.TableParam, ...]) -> tuple[R.RelProgram, tuple[str, ...]]:
    """``program`` as a relational program over ``params`` (``tables`` maps each RDD parameter to its
    table and whether its elements are tuples), with the assumptions under which the two agree on
    NULL-free tables; raises ``NotBridged``. The result's rows are the RDD's elements flattened, so an
    element that nests tuples is refused (a DataFrame row is flat)."""
    from sparklite.desugar import desugar

    state = _State()
    kernel = desugar(program)
    if kernel.defs:
        raise NotBridged("named functions (def) in the RDD program")
    tr = _Translator(tables, state)
    for b in kernel.lets:
        tr.lets[b.name] = b.value
    body = kernel.body
    kind: str | None = None
    if isinstance(body, A.Collect):
        body, kind = body.source, "collect"
    elif isinstance(body, A.SimpleAgg) and body.kind == "count":
        body, kind = body.source, "count"
    bag = tr.bag(body) if kind != "count" else tr.source(body)  # count() computes every element
    if isinstance(bag.value, tuple) and any(isinstance(s, tuple) for s in bag.value):
        raise NotBridged("the result's elements nest tuples, a DataFrame's rows are flat")
    bag = materialise(bag)
    rel: R.Rel | R.Action = bag.rel
    if kind is not None:
        rel = R.Action(kind, bag.rel)  # type: ignore[arg-type]
    return R.RelProgram(program.name, params, rel), tuple(state.assumptions)


def python_typed(program: R.RelProgram) -> R.RelProgram:
    """``program`` with every integral result column cast to BIGINT: Python sees an ``int`` whatever
    Spark's integral type, so ``count`` (bigint) and a Python ``len`` (int here) are the same output."""
    body = program.body
    source = body.source if isinstance(body, R.Action) else body
    cols = build.columns_of(source)
    if not any(isinstance(c.type, IntegralType) and c.type != BIGINT for c in cols):
        return program
    cast = build.project(source, [build.cast(c, BIGINT) if isinstance(c.type, IntegralType) else c
                                  for c in cols], [c.name for c in cols])
    new_body: Any = R.Action(body.kind, cast, body.count) if isinstance(body, R.Action) else cast
    return R.RelProgram(program.name, program.params, new_body, program.language)


__all__ = ["EXACT_DIVISION", "NO_OVERFLOW", "NotBridged", "Schema", "python_typed", "to_relational"]
