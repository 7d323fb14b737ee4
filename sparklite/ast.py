"""The SparkLite abstract syntax tree: the single contract between sparkeq's parts.

The frontend produces it, the printer/parser round-trip it, the type checker accepts or rejects it
(and returns an elaborated copy with every lambda parameter typed), the interpreter gives it
Spark's meaning, and the encoder turns it into Z3 terms.
Every node is a frozen dataclass; the source location ``loc`` is carried on every node but is excluded
from equality and hashing, so ``parse(print(p)) == p`` compares structure only while errors and warnings
can still point at the user's line.

Shape of the language (section 3 of the CAV 2017 paper, extended with Spark's real aggregation shapes):

- *basic expressions* over ``Int``, ``Bool`` and tuples: literals, variables, arithmetic with Python's
  floor ``//`` and ``%``, comparisons, ``and/or/not``, ``if-then-else``, tuples and projections,
  ``min/max/abs``, calls of first-order functions;
- *functions* passed to bag operators: inline ``Lambda``, a reference to a named first-order ``FunDef``,
  or the instantiation of a parametric function ``ParamFunDef`` (``geq(100)``);
- *bag expressions*: ``Map``, ``Filter``, ``FlatMap``, ``Cartesian``, ``Join``, ``Union``, ``Distinct``
  and the by-key aggregations, which return bags;
- *aggregations* returning basic values: ``Fold``, ``Aggregate``, ``Reduce``, ``SimpleAgg``.

Aggregations keep Spark's two-function shape (``seq`` inside partitions, ``comb`` at the driver or across
partitions) because their meaning under Spark depends on it (``fold`` applies ``zero`` per partition and
once more at the driver); see ``shared/design/spark-semantics.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from sparklite.types import Type


@dataclass(frozen=True)
class Loc:
    """A source position: ``file`` may be None for programs built in memory; line and column are 1-based."""

    file: str | None
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file or '<input>'}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Node:
    loc: Loc | None = field(default=None, compare=False, repr=False, kw_only=True)


# ---------------------------------------------------------------------------------------------------
# Basic expressions
# ---------------------------------------------------------------------------------------------------

ARITH_OPS = ("+", "-", "*", "//", "%", "/")
COMPARE_OPS = ("==", "!=", "<", "<=", ">", ">=")
BOOL_OPS = ("and", "or")
MEMBER_OPS = ("in",)
BINARY_OPS = ARITH_OPS + COMPARE_OPS + BOOL_OPS + MEMBER_OPS

BinOpName = Literal["+", "-", "*", "//", "%", "/", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in"]
BuiltinName = Literal["min", "max", "abs"]
BUILTINS = ("min", "max", "abs")


@dataclass(frozen=True)
class IntLit(Node):
    value: int


@dataclass(frozen=True)
class BoolLit(Node):
    value: bool


@dataclass(frozen=True)
class StrLit(Node):
    value: str


@dataclass(frozen=True)
class FloatLit(Node):
    """A finite float literal (NaN and infinities are written ``float("nan")``, as in Python).

    Literals compare by their bits, not by ``==``: ``-0.0 == 0.0`` in Python, but ``str(-0.0)`` and
    ``str(0.0)`` differ, so two programs differing only there must not compare (or hash) equal."""

    value: float = field(compare=False)
    bits: str = field(init=False, repr=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "bits", float(self.value).hex())


@dataclass(frozen=True)
class NoneLit(Node):
    pass


@dataclass(frozen=True)
class ListExpr(Node):
    """A list display ``[a, b]``."""

    elems: tuple[Expr, ...]


@dataclass(frozen=True)
class ListComp(Node):
    """``[fn(x) for x in source if cond(x)]`` over a list or a string (its characters)."""

    fn: Lambda
    source: Expr
    cond: Lambda | None = None


@dataclass(frozen=True)
class Var(Node):
    """A variable: a program parameter (bag or basic), a let-bound name, or a function parameter."""

    name: str


@dataclass(frozen=True)
class BinOp(Node):
    """``//`` and ``%`` mean Python's floor division and floor modulo (divisor 0 raises).

    ``and``/``or`` take and return booleans (the frontend rejects Python's value-returning uses).
    Comparisons ``==``/``!=`` work on any basic type, the order comparisons on ``Int`` only.
    """

    op: BinOpName
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Not(Node):
    operand: Expr


@dataclass(frozen=True)
class Neg(Node):
    operand: Expr


@dataclass(frozen=True)
class Ite(Node):
    """``if cond then a else b``: only the taken branch is evaluated (matters for errors)."""

    cond: Expr
    then: Expr
    orelse: Expr


@dataclass(frozen=True)
class TupleExpr(Node):
    elems: tuple[Expr, ...]


@dataclass(frozen=True)
class Proj(Node):
    """Tuple projection ``e[index]``, 0-based as in Python."""

    tuple: Expr
    index: int


@dataclass(frozen=True)
class Call(Node):
    """Call of a builtin (``sparklite.builtins``: ``min``, ``len``, ``str.split``, ``py.getitem``...)
    or of a named first-order ``FunDef``. Dotted names (``str.split(s, ",")``, receiver first) are
    builtins only, so a user's ``def split`` never captures a method."""

    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Apply(Node):
    """Application of any function value, e.g. an instantiated parametric function ``below(5)(x)``."""

    fn: Fn
    args: tuple[Expr, ...]


# ---------------------------------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param(Node):
    """A typed name. ``type`` may be None on lambda parameters, where the context settles it."""

    name: str
    type: Type | None = None


@dataclass(frozen=True)
class Lambda(Node):
    """A first-order function literal. Its body may mention enclosing basic variables (closures over
    program scalars, let-bound aggregate results, parametric-function parameters) but never a bag."""

    params: tuple[Param, ...]
    body: Expr


@dataclass(frozen=True)
class FnRef(Node):
    """A reference to a named first-order ``FunDef``."""

    name: str


@dataclass(frozen=True)
class PApp(Node):
    """Instantiation of a parametric function with basic arguments: ``geq(100)``."""

    name: str
    args: tuple[Expr, ...]


Fn = Lambda | FnRef | PApp


# ---------------------------------------------------------------------------------------------------
# Bag expressions
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Map(Node):
    """``map(fn)``. ``preserves_partitioning`` is Spark's flag of the same name (``mapValues`` sets it):
    a bag that is hash-partitioned by key after a shuffle stays so, which changes how a later ``union``
    or ``join`` lays out partitions (and so what partition-dependent aggregations compute). Only set it
    when ``fn`` keeps the key, as ``mapValues`` does."""

    fn: Fn
    source: Expr
    preserves_partitioning: bool = False


@dataclass(frozen=True)
class Filter(Node):
    fn: Fn
    source: Expr


@dataclass(frozen=True)
class FlatMap(Node):
    """``flatMap`` whose function returns a fixed-size tuple ``(e1, ..., ek)`` of one element type;
    each component becomes an element, in the same partition as its source element (so it is *not*
    a union of k maps, whose partitions Spark would concatenate)."""

    fn: Fn
    source: Expr
    preserves_partitioning: bool = False


@dataclass(frozen=True)
class Cartesian(Node):
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Join(Node):
    """Inner join on the first component: ``(k, v)`` and ``(k, w)`` give ``(k, (v, w))``."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class Union(Node):
    """Bag union (multiplicities add); Spark concatenates the partition lists."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class Distinct(Node):
    source: Expr


OuterJoinKind = Literal["left", "right", "full"]


@dataclass(frozen=True)
class OuterJoin(Node):
    """``leftOuterJoin``/``rightOuterJoin``/``fullOuterJoin``: like ``Join``, with ``None`` for the
    value of a side that has no element with the key."""

    kind: OuterJoinKind
    left: Expr
    right: Expr


@dataclass(frozen=True)
class SortBy(Node):
    """``sortBy(key, ascending)`` (``sortByKey`` is ``sortBy`` on the first component): as a bag, the
    same elements; collected, taken or ``first``-ed, the order across keys is fixed, among equal keys not."""

    key: Fn
    ascending: bool
    source: Expr
    surface: str = field(default="sortBy", compare=False, repr=False, kw_only=True)


@dataclass(frozen=True)
class Subtract(Node):
    """``left.subtract(right)``: the elements of ``left`` (with multiplicity) equal to no element of
    ``right``."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class Intersection(Node):
    """``left.intersection(right)``: the distinct elements present in both."""

    left: Expr
    right: Expr


# ---------------------------------------------------------------------------------------------------
# Actions returning lists and dictionaries
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Collect(Node):
    """``collect()`` where the program uses the list (``sorted(R.collect())``); a collected result that
    is only returned is the bag itself."""

    source: Expr


@dataclass(frozen=True)
class Take(Node):
    """``take(n)``: the first ``n`` elements in partition order (of the sorted order after ``sortBy``)."""

    count: Expr
    source: Expr


@dataclass(frozen=True)
class TakeOrdered(Node):
    """``takeOrdered(n, key)`` (ascending) or ``top(n, key)`` (``top=True``, descending)."""

    count: Expr
    key: Fn | None
    source: Expr
    top: bool = False


@dataclass(frozen=True)
class First(Node):
    """``first()``: the first element; ``ValueError`` on an empty bag."""

    source: Expr


@dataclass(frozen=True)
class CountByValue(Node):
    """``countByValue()``: a dict from each distinct element to its multiplicity (``countByKey()`` is
    ``map(lambda kv: kv[0]).countByValue()``, which is what PySpark runs)."""

    source: Expr


@dataclass(frozen=True)
class CollectAsMap(Node):
    """``collectAsMap()``: ``dict(collect())``, so for a repeated key the last value in partition order."""

    source: Expr


# ---------------------------------------------------------------------------------------------------
# Aggregations to a basic value
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fold(Node):
    """Spark's ``fold(zero, op)``: every partition folds from ``zero``; the driver folds the partition
    results with ``op``, again from ``zero``."""

    zero: Expr
    op: Fn
    source: Expr


@dataclass(frozen=True)
class Aggregate(Node):
    """Spark's ``aggregate(zero, seq, comb)``: ``seq`` within partitions, ``comb`` at the driver; also
    the kernel form of ``fold`` (``surface`` names what the user wrote, for messages)."""

    zero: Expr
    seq: Fn
    comb: Fn
    source: Expr
    surface: str = field(default="aggregate", compare=False, repr=False, kw_only=True)


@dataclass(frozen=True)
class Reduce(Node):
    """Spark's ``reduce(op)``: empty bag raises ``ValueError``."""

    op: Fn
    source: Expr


SimpleAggKind = Literal["count", "sum", "min", "max"]


@dataclass(frozen=True)
class SimpleAgg(Node):
    """``count()``, ``sum()`` (0 on empty), ``min()``, ``max()`` (raise ``ValueError`` on empty)."""

    kind: SimpleAggKind
    source: Expr


# ---------------------------------------------------------------------------------------------------
# By-key aggregations (return bags of (key, value) pairs)
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FoldByKey(Node):
    """``combineByKey(lambda v: op(zero, v), op, op)``: zero applied per (partition, key)."""

    zero: Expr
    op: Fn
    source: Expr


@dataclass(frozen=True)
class AggregateByKey(Node):
    """``combineByKey(lambda v: seq(zero, v), seq, comb)``."""

    zero: Expr
    seq: Fn
    comb: Fn
    source: Expr


@dataclass(frozen=True)
class ReduceByKey(Node):
    """``combineByKey(lambda v: v, op, op)``."""

    op: Fn
    source: Expr


@dataclass(frozen=True)
class CombineByKey(Node):
    """Spark's ``combineByKey``; also the kernel form of every by-key aggregation (``sparklite.desugar``).

    ``zero`` (kernel only: the desugaring of ``foldByKey``/``aggregateByKey``) is evaluated once, on the
    driver, when the RDD is built, as PySpark evaluates ``zeroValue``; ``create`` then takes
    ``(zero, v)``. ``surface`` names the method the user wrote, for messages."""

    create: Fn
    merge_value: Fn
    merge_combiners: Fn
    source: Expr
    zero: Expr | None = None
    surface: str = field(default="combineByKey", compare=False, repr=False, kw_only=True)


GroupAggKind = Literal["sum", "len", "min", "max", "list"]


@dataclass(frozen=True)
class GroupByKeyAgg(Node):
    """``groupByKey().mapValues(lambda vs: (k1(vs), ..., kn(vs)))`` for whole-group functions ``kinds``.

    With one kind the value is that result (``(k, sum(vs))``); with several it is the tuple of results
    (``(k, (sum(vs), len(vs)))``). ``list`` keeps the group as a list, in the order Spark collects it
    (which depends on the partitioning).
    """

    kinds: tuple[GroupAggKind, ...]
    source: Expr


Expr = (
    IntLit | BoolLit | StrLit | FloatLit | NoneLit | ListExpr | ListComp
    | Var | BinOp | Not | Neg | Ite | TupleExpr | Proj | Call | Apply
    | Map | Filter | FlatMap | Cartesian | Join | OuterJoin | Union | Distinct | SortBy | Subtract
    | Intersection
    | Fold | Aggregate | Reduce | SimpleAgg | Collect | Take | TakeOrdered | First | CountByValue
    | CollectAsMap
    | FoldByKey | AggregateByKey | ReduceByKey | CombineByKey | GroupByKeyAgg
)

LITERALS = (IntLit, BoolLit, StrLit, FloatLit, NoneLit)
BAG_OPS = (Map, Filter, FlatMap, Cartesian, Join, OuterJoin, Union, Distinct, SortBy, Subtract,
           Intersection, FoldByKey, AggregateByKey, ReduceByKey, CombineByKey, GroupByKeyAgg)
BY_KEY_OPS = (FoldByKey, AggregateByKey, ReduceByKey, CombineByKey, GroupByKeyAgg)
AGGREGATIONS = (Fold, Aggregate, Reduce, SimpleAgg)
#: Actions whose result is a list or a dict (they run a Spark job, as aggregations do).
COLLECTING_ACTIONS = (Collect, Take, TakeOrdered, First, CountByValue, CollectAsMap)
ACTIONS = AGGREGATIONS + COLLECTING_ACTIONS


# ---------------------------------------------------------------------------------------------------
# Programs
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FunDef(Node):
    """``def name(x: Int, y: Int): Int = body`` -- a named first-order function of basic values."""

    name: str
    params: tuple[Param, ...]
    ret: Type | None
    body: Expr


@dataclass(frozen=True)
class ParamFunDef(Node):
    """``def geq(y: Int) = lambda x: Int. x >= y`` -- takes basic values, returns a first-order function."""

    name: str
    params: tuple[Param, ...]
    fn: Lambda


Def = FunDef | ParamFunDef


@dataclass(frozen=True)
class LetBinding(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class Program(Node):
    """``program P(R: Bag[Int], t: Int) = defs; lets; body``.

    ``params`` are the inputs (bags and basic values, all typed). ``defs`` and ``lets`` are in scope in
    order (no recursion, no shadowing). ``body`` is a bag, a basic value, or a tuple of these.
    """

    name: str
    params: tuple[Param, ...]
    defs: tuple[Def, ...]
    lets: tuple[LetBinding, ...]
    body: Expr
    kernel: bool = field(default=False, compare=False, repr=False, kw_only=True)
    """Set by ``sparklite.desugar`` on the programs it returns, so that the interpreter and the encoders,
    which desugar whatever they are given, skip a whole-tree walk on programs already in kernel form
    (the interpreter runs one program thousands of times during validation and random testing). The
    passes after desugaring (simplify, renaming) keep the kernel form and so may keep the flag."""
    assumed: tuple[str, ...] = field(default=(), compare=False, repr=False, kw_only=True)
    """What the frontend assumed about the inputs, in words for a result's ``assumptions``: an
    unannotated parameter whose type nothing in the code decides is taken as ``int`` (issue 24: a
    proof over ints says nothing about floats, so it must not claim "every input" silently)."""


# ---------------------------------------------------------------------------------------------------
# Generic traversal (used by passes that must visit every node without knowing every node type)
# ---------------------------------------------------------------------------------------------------


def children(node: Node) -> Iterator[Node]:
    """The direct sub-nodes of ``node`` in field order (tuples of nodes are flattened)."""
    for f in fields(node):
        if f.name == "loc":
            continue
        value = getattr(node, f.name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Node):
                    yield item


def walk(node: Node) -> Iterator[Node]:
    """Pre-order traversal of ``node`` and all its descendants.

    Iterative: nested generators (``yield from walk(child)``) cost time proportional to the depth for
    every node produced, quadratic on a pipeline of a thousand chained operations, and one C stack
    frame per level."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(tuple(children(current))))


def sorted_bag(e: Node, bag_lets: Any = None) -> bool:
    """Is ``e`` a sorted bag: ``sortBy``, then maps, filters and flatMaps, which keep the order (through
    the let-bound bags in ``bag_lets``, by name)? Collected, it is a sequence (Spark's exact order), not a
    bag."""
    if isinstance(e, SortBy):
        return True
    if isinstance(e, Map | Filter | FlatMap):
        return sorted_bag(e.source, bag_lets)
    if isinstance(e, Var) and bag_lets and e.name in bag_lets:
        return sorted_bag(bag_lets[e.name], bag_lets)
    return False


def alpha_key(node: Node) -> tuple:
    """A structural key equal for two expressions equal up to the names of their lambda parameters
    (and ignoring locations): how sparkeq recognises "the same subexpression" in two programs."""
    counter = iter(range(1 << 30))

    def k(n: object, names: dict[str, int]) -> object:
        # bound names become ("Bound", i) and free ones ("Var", name): the two never meet, so a lambda
        # parameter renamed by position cannot be confused with a program variable of any name
        if isinstance(n, Lambda):
            inner = dict(names)
            ps = []
            for p in n.params:
                i = next(counter)
                inner[p.name] = i
                ps.append((i, str(p.type)))
            return ("Lambda", tuple(ps), k(n.body, inner))
        if isinstance(n, Var):
            return ("Bound", names[n.name]) if n.name in names else ("Var", n.name)
        if isinstance(n, Param):
            return ("Param", str(n.type))
        if isinstance(n, Node):
            return (type(n).__name__, *(k(getattr(n, f.name), names) for f in fields(n)
                                        if f.name != "loc" and f.compare))
        if isinstance(n, tuple):
            return tuple(k(x, names) for x in n)
        if isinstance(n, float):
            return ("float", n.hex())
        return (type(n).__name__, n)

    return k(node, {})  # type: ignore[return-value]


def free_names(node: Node) -> set[str]:
    """Names ``node`` reads without binding them (lambda parameters are bound), functions included."""
    out: set[str] = set()

    def go(n: Node, bound: frozenset[str]) -> None:
        if isinstance(n, Var):
            if n.name not in bound:
                out.add(n.name)
            return
        if isinstance(n, Call) and n.func not in bound:
            out.add(n.func)
        if isinstance(n, FnRef | PApp):
            out.add(n.name)
        if isinstance(n, Lambda):
            go(n.body, bound | {p.name for p in n.params})
            return
        for c in children(n):
            go(c, bound)

    go(node, frozenset())
    return out


def transform(node: Any, fn: Any) -> Any:
    """Rebuild ``node`` bottom-up: ``fn`` gets every node after its children were rebuilt and returns
    its replacement (or the node itself). Unchanged subtrees are shared, not copied. The one generic
    rewrite every SparkLite pass uses (``simplify``, ``desugar``, renaming)."""
    if not isinstance(node, Node):
        return node
    changes = {}
    for f in fields(node):
        if f.name == "loc":
            continue
        value = getattr(node, f.name)
        if isinstance(value, Node):
            new = transform(value, fn)
            if new is not value:
                changes[f.name] = new
        elif isinstance(value, tuple) and any(isinstance(v, Node) for v in value):
            new_t = tuple(transform(v, fn) for v in value)
            if any(a is not b for a, b in zip(new_t, value, strict=True)):
                changes[f.name] = new_t
    rebuilt = replace(node, **changes) if changes else node
    return fn(rebuilt)
