"""Is each aggregation's result independent of how Spark partitions its input? (conditions §5)

Spark folds every partition from ``zero`` and then folds the partition results at the driver (or merges
per-key combiners across partitions), while the paper's methods reason about one sequential fold. The
two agree for every partitioning when (``Inv`` an inductive invariant of reachable accumulators, tried
as ``True`` first, then as ``comb(zero, a) = a``):

- ``fold(z, op)`` / ``aggregate(z, seq, comb)``: ``comb`` associative and commutative, ``comb(z, a) = a``
  and ``seq(a, x) = comb(a, seq(z, x))`` (``seq = comb = op`` for ``fold``). Then each partition result
  is ``comb`` of ``seq(z, x)`` over its elements and ``z``, and the driver's extra ``z`` vanishes;
- ``reduce(op)``, ``reduceByKey(op)``: ``op`` associative and commutative;
- ``foldByKey``/``aggregateByKey``: ``comb`` associative and commutative and
  ``seq(a, x) = comb(a, seq(z, x))`` (each (partition, key) starts at ``seq(z, v)``; no driver ``zero``);
- ``combineByKey(create, mv, mc)``: ``mc`` associative and commutative, ``mv(a, x) = mc(a, create(x))``;
- ``count``/``sum``/``min``/``max`` and ``groupByKey`` with whole-group functions: independent by
  construction.

Every quantifier ranges over *all* values of the element and accumulator types (closures over program
scalars and let-bound results become unconstrained variables), which over-approximates what can reach
the aggregation: a proof is sound. A failed condition is only a reason to look for a concrete witness
(``find_witness``): an input and two partitionings on which the program's interpreted outcomes differ.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from encoder.basic import BasicEncoder, EncodingError, Sym, fresh_like, is_float, leaves, sym_eq, sym_to_value
from encoder.bounded import Evaluator, SBag, outcomes_equal, partitions_from, split_layouts, symbolic_inputs
from sparklite import ast as A
from sparklite.desugar import desugar
from sparklite.types import BagType, is_classic
from sparklite.values import Outcome, Partitioning
from verifier.core import budget
from verifier.core.base import Options
from verifier.core.methods._shared import involves_floats

NAME = "partition_independence"

_LABELS = {A.Reduce: "reduce", A.GroupByKeyAgg: "groupByKey"}


@dataclass(frozen=True)
class AggCheck:
    """The verdict on one aggregation: ``independent`` (proved), else the failed/undecided conditions."""

    node: A.Node
    label: str
    independent: bool
    failures: tuple[str, ...] = ()
    undecided: bool = False  # Z3 could not settle a condition (as opposed to a refuted one)

    @property
    def loc(self) -> A.Loc | None:
        return self.node.loc

    def unproved(self) -> str:
        """What could not be proved, when no input showed a dependence: not a claim that there is one
        (the failed condition's values range over everything the types allow, reachable or not)."""
        where = str(self.loc) if self.loc is not None else "<input>"
        what = "; ".join(self.failures)
        return f"aggregation at {where} not proved partition-independent: {self.label}: {what}; no input " \
               "was found on which its result depends on partitioning (the values shown satisfy the " \
               "types but may never reach it)"

    def warning(self) -> str:
        """The claim, once a witness confirmed that the program's output depends on partitioning."""
        where = str(self.loc) if self.loc is not None else "<input>"
        what = "; ".join(self.failures)
        if self.undecided:
            return f"partition-dependent aggregation at {where}: {self.label} could not be proved " \
                   f"partition-independent ({what})"
        return f"partition-dependent aggregation at {where}: {self.label}: {what}"


@dataclass(frozen=True)
class Witness:
    """Concrete inputs and two partitionings on which one program's interpreted outcomes differ."""

    inputs: Mapping[str, Any]
    first: Mapping[str, Partitioning]
    second: Mapping[str, Partitioning]
    first_outcome: Outcome
    second_outcome: Outcome


# ---------------------------------------------------------------------------------------------------
# Proving independence
# ---------------------------------------------------------------------------------------------------


def aggregations(program: A.Program) -> list[A.Node]:
    nodes = [program.body, *(let.value for let in program.lets)]
    return [n for root in nodes for n in A.walk(root) if isinstance(n, (*A.AGGREGATIONS, *A.BY_KEY_OPS))]


_COMB_NAMES = {"fold": "op", "foldByKey": "op", "reduceByKey": "op", "aggregateByKey": "combOp"}


def check_program(program: A.Program, options: Options) -> list[AggCheck]:
    """One ``AggCheck`` per aggregation of ``program`` (in evaluation order), on its kernel form."""
    program = desugar(program)
    seen: dict[int, tuple[A.Node, Sym, Sym | None, dict[str, Any], Any]] = {}

    def hook(node: A.Node, elem: Sym, acc: Sym | None, env: Mapping[str, Any], sole: Any = None) -> None:
        basic = {k: v for k, v in env.items() if not isinstance(v, SBag)}
        seen.setdefault(id(node), (node, elem, acc, basic, sole))

    results: list[AggCheck] = []
    nodes = aggregations(program)
    classic = all(is_classic(p.type.elem if isinstance(p.type, BagType) else p.type) for p in program.params)
    try:
        sym = symbolic_inputs(program, {p.name: 1 for p in program.params if isinstance(p.type, BagType)},
                              tag="shape")
        Evaluator(program, on_aggregation=hook).run(sym.laid_out())
    except (EncodingError, z3.Z3Exception) as exc:
        return [_trivial(n, None, not classic)
                or AggCheck(n, _label(n), False, (f"cannot be encoded: {exc}",), True) for n in nodes]
    for node in nodes:
        trivial = _trivial(node, seen[id(node)][1] if id(node) in seen else None, not classic)
        if trivial is not None:
            results.append(trivial)
        elif id(node) not in seen:
            results.append(AggCheck(node, _label(node), False, ("its input could not be analysed",), True))
        else:
            _, elem, acc, env, sole = seen[id(node)]
            try:
                results.append(_check(program, node, elem, acc, env, options, sole))
            except (EncodingError, z3.Z3Exception) as exc:
                results.append(AggCheck(node, _label(node), False, (f"cannot be encoded: {exc}",), True))
    return results


def _label(node: A.Node) -> str:
    """The method the user wrote (kernel nodes remember it in ``surface``)."""
    if isinstance(node, A.SimpleAgg):
        return f"{node.kind}()"
    if isinstance(node, A.Aggregate | A.CombineByKey):
        return node.surface
    return _LABELS.get(type(node), type(node).__name__)


def _trivial(node: A.Node, elem: Sym | None, floats_possible: bool) -> AggCheck | None:
    """``count``/``sum``/``min``/``max`` and groupByKey's whole-group functions are independent of the
    order of their elements, except over floats (``elem`` is a sample element; when it could not be
    built, floats are assumed if ``floats_possible``): ``min``/``max`` keep the first of equal values
    (``-0.0`` and ``0.0``; a NaN compares with nothing) and float sums round differently in another
    order. The methods fold in any order, so such an aggregation is not claimed independent."""
    if isinstance(node, A.SimpleAgg):
        kinds: tuple[str, ...] = (node.kind,)
        values = elem
    elif isinstance(node, A.GroupByKeyAgg):
        kinds = node.kinds
        values = elem[1] if isinstance(elem, tuple) and len(elem) == 2 else None
    else:
        return None
    floats = floats_possible if values is None else any(is_float(x) for x in leaves(values))
    if set(kinds) & {"sum", "min", "max"} and floats:
        return AggCheck(node, _label(node), False, (
            "its min/max/sum of floats depends on the order of the elements (the first of -0.0 and 0.0 "
            "is kept, NaN compares with nothing, float sums round by grouping)",))
    return AggCheck(node, _label(node), True)


@dataclass
class _Fns:
    """The aggregation's functions as Python callables over symbolic values."""

    seq: Callable[[Sym, Sym], Sym]
    comb: Callable[[Sym, Sym], Sym]
    zero: Sym | None  # the driver-side/per-partition zero (fold/aggregate) or None
    start: Callable[[Sym], Sym] | None  # first value of a (partition, key) / partition: create(x)
    driver_zero: bool  # fold/aggregate: zero applied at the driver and per (possibly empty) partition
    comb_name: str = "op"  # how the user calls the combining function, for messages


def _check(program: A.Program, node: A.Node, elem: Sym, acc: Sym | None, env: Mapping[str, Any],
           options: Options, sole: tuple[Sym, z3.BoolRef] | None = None) -> AggCheck:
    """The conditions for one aggregation. When its bag is one symbolic element (``sole``: no union or
    flatMap before it), the element folded in is that element's value over free inputs, under its
    presence condition: a filter's guarantee (``v >= 0`` before ``foldByKey(0, max)``) is known."""
    enc = BasicEncoder.for_program(program)
    fenv = {name: fresh_like(f"env.{name}", value) for name, value in env.items()}
    value_shape = elem[1] if isinstance(node, A.BY_KEY_OPS) else elem

    def app(fn: A.Fn) -> Callable[..., Sym]:
        return lambda *args: enc.apply(fn, list(args), fenv)

    match node:
        case A.Aggregate(zero=z, seq=seq, comb=comb):
            zv = enc.expr(z, fenv)
            fns = _Fns(app(seq), app(comb), zv, None, True, _COMB_NAMES.get(node.surface, "combOp"))
        case A.Reduce(op=op):
            fns = _Fns(app(op), app(op), None, lambda x: x, False)
        case A.CombineByKey(create=cr, merge_value=mv, merge_combiners=mc, zero=z):
            comb_name = _COMB_NAMES.get(node.surface, "mergeCombiners")
            if z is None:
                fns = _Fns(app(mv), app(mc), None, app(cr), False, comb_name)
            else:  # each (partition, key) starts at create(zero, v); no driver-side zero
                zv, create = enc.expr(z, fenv), app(cr)
                fns = _Fns(app(mv), app(mc), None, lambda x: create(zv, x), False, comb_name)
        case _:
            return AggCheck(node, _label(node), False, ("unknown aggregation",), True)
    x_ok: z3.BoolRef = z3.BoolVal(True)
    if sole is not None and _reads_inputs_once(program, node) \
            and (not isinstance(node, A.BY_KEY_OPS) or isinstance(sole[0], tuple)):
        x, x_ok = (sole[0][1] if isinstance(node, A.BY_KEY_OPS) else sole[0]), sole[1]  # type: ignore[index]
    else:
        x = fresh_like("x", value_shape)
    shape = fns.zero if fns.zero is not None else fns.start(x)
    a, b, c = (fresh_like(n, shape) for n in ("a", "b", "c"))
    invariants: list[tuple[str, Callable[[Sym], z3.BoolRef]]] = [("", lambda _v: z3.BoolVal(True))]
    if fns.zero is not None:
        zv = fns.zero
        invariants.append((" on reachable accumulators", lambda v: sym_eq(fns.comb(zv, v), v)))
    failures: tuple[str, ...] = ()
    undecided = False
    for note, inv in invariants:
        conds = _conditions(fns, inv, a, b, c, x, x_ok)
        hazards = enc.div_hazards[:]
        enc.div_hazards.clear()
        ok, fails, und = _discharge(conds, hazards, options)
        if ok:
            return AggCheck(node, _label(node), True, (f"proved{note}",))
        if not failures:
            failures, undecided = fails, und
    return AggCheck(node, _label(node), False, failures, undecided)


def _reads_inputs_once(program: A.Program, node: A.Node) -> bool:
    """Whether the one-element symbolic run shows a *general* element of the aggregated bag: every input
    bag read at most once (a bag read twice, ``cartesian(R, R)``, would show only the diagonal pairs),
    and no aggregation anywhere in it, by-key ones included, nor a let whose value holds one (with one
    element per input, ``count(S)`` would be fixed at 1). Let-bound values are expanded."""
    bags = {p.name for p in program.params if isinstance(p.type, BagType)}
    lets = {b.name: b.value for b in program.lets}
    counts: dict[str, int] = {}
    todo: list[A.Node] = [getattr(node, "source", node)]
    while todo:
        for n in A.walk(todo.pop()):
            if isinstance(n, (*A.AGGREGATIONS, *A.BY_KEY_OPS)):
                return False
            if isinstance(n, A.Var) and n.name in bags:
                counts[n.name] = counts.get(n.name, 0) + 1
            elif isinstance(n, A.Var) and n.name in lets:
                todo.append(lets[n.name])
    return all(c <= 1 for c in counts.values())


def _conditions(f: _Fns, inv: Callable[[Sym], z3.BoolRef], a: Sym, b: Sym, c: Sym, x: Sym,
                x_ok: z3.BoolRef) -> list[Condition]:
    """(description, formula that must be valid, variables to show on failure); ``x_ok`` is what is
    known of an element that reaches the aggregation."""
    hyp = z3.And(inv(a), inv(b), inv(c))
    conds = [
        (f"{f.comb_name} is not associative",
         z3.Implies(hyp, sym_eq(f.comb(f.comb(a, b), c), f.comb(a, f.comb(b, c)))),
         (("a", a), ("b", b), ("c", c))),
        (f"{f.comb_name} is not commutative", z3.Implies(hyp, sym_eq(f.comb(a, b), f.comb(b, a))),
         (("a", a), ("b", b))),
    ]
    if f.zero is not None:
        z = f.zero
        conds.append((f"the zero value is not an identity of {f.comb_name} "
                      "(it is applied once per partition and once more at the driver)",
                      z3.Implies(hyp, sym_eq(f.comb(z, a), a)), (("a", a),)))
        conds.append(("folding an element into an accumulator differs from combining the accumulator "
                      "with the element folded into the zero value",
                      z3.Implies(z3.And(hyp, x_ok), sym_eq(f.seq(a, x), f.comb(a, f.seq(z, x)))),
                      (("a", a), ("x", x))))
        # the invariant must hold on reachable accumulators: at zero and after each step
        conds.append(("(invariant) zero", inv(z), ()))
        conds.append(("(invariant) step", z3.Implies(z3.And(inv(a), x_ok), inv(f.seq(a, x))), ()))
        conds.append(("(invariant) combine", z3.Implies(z3.And(inv(a), inv(b)), inv(f.comb(a, b))), ()))
    elif f.start is not None:
        conds.append(("adding a value to a partial result differs from merging it as a new partial result",
                      z3.Implies(x_ok, sym_eq(f.seq(a, x), f.comb(a, f.start(x)))), (("a", a), ("x", x))))
    return conds


Condition = tuple[str, z3.BoolRef, Sequence[tuple[str, Sym]]]
FLOAT_LAW_PATIENCE_S = 1.0
"""A law over floats gets this patience (a resource budget: 2M units at
``budget.RLIMIT_PER_SECOND``): the float laws proved on the bundled cases need 1.0-1.6M units,
depending on the queries asked before in the process, and one that fails (float addition is not
associative) is found faster by a concrete witness than waited for."""


def _discharge(conds: Sequence[Condition], hazards: Sequence[z3.BoolRef], options: Options
               ) -> tuple[bool, tuple[str, ...], bool]:
    failures: list[str] = []
    undecided = False
    patience = min(options.timeout_s, 5.0)
    for desc, formula, shown in conds:
        options.deadline.check("partition independence")
        # floating point is bit-blasted: a law that fails (float + is not associative) is better shown
        # by a concrete witness (find_witness) than waited for
        solver = budget.solver(FLOAT_LAW_PATIENCE_S if involves_floats(formula) else patience)
        solver.add(z3.Not(formula))
        answer = budget.check(solver)
        if answer == z3.unsat:
            continue
        if answer == z3.unknown:
            undecided = True
            failures.append(f"{desc.removeprefix('the ')} could not be decided ({solver.reason_unknown()})")
            continue
        failures.append(desc + _show(solver.model(), shown))
    if hazards:
        solver = budget.solver(patience)
        solver.add(z3.Or(*hazards))
        if budget.check(solver) != z3.unsat:
            undecided = True
            failures.append("a function may divide by zero")
    return (not failures), tuple(failures), undecided


def _show(model: z3.ModelRef, shown: Sequence[tuple[str, Sym]]) -> str:
    if not shown:
        return ""
    parts = [f"{n}={sym_to_value(v, model)!r}" for n, v in shown]
    return f" (e.g. {', '.join(parts)})"


# ---------------------------------------------------------------------------------------------------
# Concrete witnesses
# ---------------------------------------------------------------------------------------------------


def find_witness(program: A.Program, options: Options, deadline: float | None = None) -> Witness | None:
    """Inputs and two partitionings on which ``program``'s interpreted outcomes differ, or None.

    Z3 proposes them (the program unrolled over small bags under one partition and under a split
    layout); the interpreter confirms. Where the encoder cannot go, small concrete inputs are enumerated.
    """
    end = deadline if deadline is not None else float("inf")  # a hard cap: the searches are counted
    try:
        found = _symbolic_witness(program, options, end)
    except (EncodingError, z3.Z3Exception):
        found = None
    if found is None and time.monotonic() < end:
        if all(is_classic(p.type.elem if isinstance(p.type, BagType) else p.type)
               for p in program.params if p.type is not None):
            found = _enumerated_witness(program, options, end)
        else:
            found = _random_witness(program, options, end)
    return found


def _random_witness(program: A.Program, options: Options, end: float, tries: int = 1000) -> Witness | None:
    """Random inputs (strings, floats: ``verifier.core.difftest``'s generator, biased to values such as
    0.1, 0.2, 0.3 whose float sums depend on grouping) under every small partitioning."""
    from sparklite.values import outcomes_equal as same
    from verifier.core.difftest import InputGenerator
    from verifier.core.validate import full_partitions, normalise_inputs, partitionings_of, run_program

    parts_max = max(3, options.max_partitions)  # orders inside a partition matter to float sums
    gen = InputGenerator((program,), seed=20170724, max_len=4, max_parts=parts_max)
    for i in range(1, tries + 1):
        if time.monotonic() > end:
            return None
        values = normalise_inputs(program, gen.candidate(i).inputs)
        base = full_partitions(program, values, None)
        try:
            ref = run_program(program, values, base)
            for parts in partitionings_of(program, values, options.max_partitions):
                out = run_program(program, values, parts)
                if not same(ref, out):
                    return Witness(values, base, parts, ref, out)
        except Exception:  # noqa: BLE001 - an interpreter crash is no witness
            continue
    return None


def _symbolic_witness(program: A.Program, options: Options, end: float) -> Witness | None:
    from encoder.bounded import size_vectors
    from verifier.core.validate import full_partitions, normalise_inputs, varies_with_partitioning

    bags = [p.name for p in program.params if isinstance(p.type, BagType)]
    for sizes in size_vectors(len(bags), options.bound):
        alternatives = [split_layouts(n, options.max_partitions)[1:] or [(n,)] for n in sizes]
        for i in range(max((len(a) for a in alternatives), default=0)):
            remaining = end - time.monotonic()
            if remaining <= 0:
                return None
            layout = {b: alt[min(i, len(alt) - 1)] for b, alt in zip(bags, alternatives, strict=True)}
            base = {b: (n,) for b, n in zip(bags, sizes, strict=True)}
            if layout == base:
                continue
            sym = symbolic_inputs(program, dict(zip(bags, sizes, strict=True)), tag="w")
            one = Evaluator(program).run(sym.laid_out(base))
            two = Evaluator(program).run(sym.laid_out(layout))
            solver = budget.solver(options.timeout_s)
            solver.add(z3.Not(outcomes_equal(one, two)))
            if budget.check(solver) != z3.sat:
                continue
            values = normalise_inputs(program, sym.read(solver.model()))
            first = full_partitions(program, values, partitions_from(values, base))
            second = full_partitions(program, values, partitions_from(values, layout))
            try:
                bad, out_a, out_b = varies_with_partitioning(program, values, first, second)
            except Exception:  # noqa: BLE001 - an interpreter crash is no witness
                continue
            if bad:
                return Witness(values, first, second, out_a, out_b)
    return None


def _enumerated_witness(program: A.Program, options: Options, end: float) -> Witness | None:
    from verifier.core.base import Pair
    from verifier.core.methods.bounded import enumerate_candidates
    from verifier.core.validate import full_partitions, normalise_inputs, partitionings_of, run_program

    pair = Pair(program, program, sequential_ok=False)
    from sparklite.values import outcomes_equal as same

    for cand in itertools.islice(enumerate_candidates(pair, options), 500):
        if time.monotonic() > end:
            return None
        values = normalise_inputs(program, cand.inputs)
        base = full_partitions(program, values, None)
        try:
            ref = run_program(program, values, base)
            for parts in partitionings_of(program, values, options.max_partitions):
                out = run_program(program, values, parts)
                if not same(ref, out):
                    return Witness(values, base, parts, ref, out)
        except Exception:  # noqa: BLE001 - an interpreter crash is no witness
            continue
    return None
