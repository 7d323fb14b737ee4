"""Program terms (spec section 1): what a SparkLite program does to one arbitrary element.

Every *occurrence* of an input bag gets its own representative variable (tuple-shaped like the bag's
element type), so ``cartesian(R, R)`` reads two independent elements of ``R``. A bag expression becomes a
``BagTerm``: the element's symbolic value, a presence flag (the paper's bottom: the element was filtered
out), and the occurrences it depends on (``RepVarSet``, as a multiset of bag names).

Representative variables are named per program side (``L:R#0``); ``BagTerm.canonical`` renames them to
names shared by both programs (``x:R#0``, ``x:R#1`` in order of occurrence), which is how the methods
say "the same input elements" across programs, and how they take independent copies (prefix ``y``, ``a``).

Aggregations inside basic expressions become placeholder accumulators (``encoder.aggregates``): the
program's *top expression* is encoded over them. By-key aggregations inside bag expressions become
``KeyedAgg`` records whose output element is a placeholder ``(key, acc)``.

A bag expression denotes a *list of alternatives* (``Alts``, a tuple of ``BagTerm``): its bag is the sum
(multiplicities add) over the alternatives of the bag each alternative generates over its own input
occurrences. ``union(a, b)`` concatenates the alternatives; ``flatMap(f)`` with ``f`` returning a
k-tuple gives k alternatives per source alternative (component i of ``f``'s result, sharing the
source's occurrences); map/filter act per alternative; cartesian/join take all pairs. Each alternative
is canonicalised on its own, so ``union(R, R)`` is two alternatives each reading ``x:R#0``.

What is not encoded (``UnsupportedShape``, so methods answer NotApplicable and the bounded method
decides): ``distinct`` (multiplicities collapse), by-key aggregations of a bag with several
alternatives, more than ``MAX_ALTERNATIVES`` alternatives, nested aggregations, and aggregations
evaluated per element.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from encoder.aggregates import (
    AggTerm,
    KeyedAgg,
    acc_outcome,
    acc_step,
    acc_template,
    bucket_shape,
    fold_shape,
)
from encoder.basic import (
    BasicEncoder,
    EncodingError,
    Sym,
    fresh,
    fresh_like,
    key_eq,
    leaves,
    padded,
    rebuild,
)
from sparklite import ast as A
from sparklite.desugar import desugar
from sparklite.types import INT, BagType, Type


class UnsupportedShape(EncodingError):
    """The program is outside what program terms express (distinct, nesting, too many alternatives)."""


MAX_ALTERNATIVES = 16  # cartesian products of unions multiply alternatives; beyond this, bounded decides

INDEX_BAG = "#index"
"""The pseudo-bag of positions in a list (see ``_TermEncoder._index_occurrence``); not a parameter."""


@dataclass(frozen=True)
class Occurrence:
    """One read of input bag ``bag``; ``var`` is its representative element."""

    bag: str
    var: Sym


def canonical_var(prefix: str, bag: str, index: int, elem_type: Type) -> Sym:
    """The shared name of the ``index``-th occurrence of ``bag`` in a canonical term copy ``prefix``."""
    return fresh(f"{prefix}:{bag}#{index}", elem_type)


@dataclass(frozen=True)
class BagTerm:
    """phi(mu) boxed: ``value`` of one element, ``present`` unless filtered out.

    ``keyed`` lists the indices (in ``ProgramEncoding.keyed``) of by-key aggregations whose outputs the
    term is built from; such a term is about one *bucket*, not one input element.
    """

    value: Sym
    present: z3.BoolRef
    occurrences: tuple[Occurrence, ...]
    elem_types: Mapping[str, Type] = field(compare=False, hash=False, default_factory=dict)
    keyed: tuple[int, ...] = ()

    def rep_var_set(self) -> Counter[str]:
        """RepVarSet as a multiset of bag names (one per occurrence)."""
        return Counter(o.bag for o in self.occurrences)

    def has_self_product(self) -> bool:
        return any(n > 1 for n in self.rep_var_set().values())

    def canonical(self, prefix: str, perms: Mapping[str, Sequence[int]] | None = None) -> BagTerm:
        """This term over shared variables ``prefix:R#i``: the j-th occurrence of ``R`` becomes index
        ``perms[R][j]`` (identity by default). Terms of both programs canonicalised with the same prefix
        read the same input elements."""
        seen: Counter[str] = Counter()
        pairs: list[tuple[z3.ExprRef, z3.ExprRef]] = []
        occs: list[Occurrence] = []
        for o in self.occurrences:
            j = seen[o.bag]
            seen[o.bag] += 1
            idx = perms[o.bag][j] if perms and o.bag in perms else j
            new = canonical_var(prefix, o.bag, idx, self.elem_types[o.bag])
            pairs.extend(zip(leaves(o.var), leaves(new), strict=True))
            occs.append(Occurrence(o.bag, new))
        return BagTerm(substitute(self.value, pairs), _subst1(self.present, pairs), tuple(occs),
                       self.elem_types, self.keyed)


Alts = tuple[BagTerm, ...]
"""A bag as a list of alternatives: its multiset is the sum of what each alternative generates."""


def rep_var_sets(alts: Alts) -> list[Counter[str]]:
    return [t.rep_var_set() for t in alts]


def substitute(v: Sym, pairs: Sequence[tuple[z3.ExprRef, z3.ExprRef]]) -> Sym:
    """``v`` with the leaf variables in ``pairs`` replaced (Python tuples are mapped through)."""
    if isinstance(v, tuple):
        return rebuild(v, (substitute(x, pairs) for x in v))
    return _subst1(v, pairs)


def _subst1(e: z3.ExprRef, pairs: Sequence[tuple[z3.ExprRef, z3.ExprRef]]) -> z3.ExprRef:
    return z3.substitute(e, *pairs) if pairs else e


def sym_pairs(old: Sym, new: Sym) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
    """Substitution pairs mapping the leaves of ``old`` (variables) to those of ``new``."""
    return list(zip(leaves(old), leaves(new), strict=True))


# ---------------------------------------------------------------------------------------------------
# Program results
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BagResult:
    """A bag result: the sum of its alternatives (one for map/filter/cartesian/join programs)."""

    alts: Alts

    @property
    def term(self) -> BagTerm:
        """The single alternative; methods that only handle one-alternative bags use this."""
        if len(self.alts) != 1:
            raise UnsupportedShape(f"a bag of {len(self.alts)} alternatives (union/flatMap)")
        return self.alts[0]


@dataclass(frozen=True)
class ValueResult:
    value: Sym


@dataclass(frozen=True)
class TupleResult:
    """A result tuple holding at least one bag; compared component by component."""

    items: tuple[BagResult | ValueResult, ...]


Result = BagResult | ValueResult | TupleResult


@dataclass
class ProgramEncoding:
    """One program as terms.

    ``scalars`` are the basic parameters (variables ``v:name``, shared by both programs). ``result`` is
    over the placeholders of ``aggregates``/``keyed``. ``error`` says when the program raises
    ``ValueError`` (an empty ``reduce``/``min``/``max``), also over placeholders (``no_partition_error``:
    a ``countByValue`` over an RDD with no partition). ``hazards`` are the
    conditions under which some division could see a zero divisor (over-approximated: placeholders are
    free there).
    """

    program: A.Program
    side: str
    scalars: dict[str, Sym]
    bag_types: dict[str, Type]
    result: Result
    aggregates: list[AggTerm]
    keyed: list[KeyedAgg]
    error: z3.BoolRef
    hazards: list[z3.BoolRef]
    hazard_kind: dict[int, str] = field(default_factory=dict)
    no_partition_error: z3.BoolRef = field(default_factory=lambda: z3.BoolVal(False))
    """When an unused ``countByValue``/``top`` raises ``ValueError`` because its source has no
    partition, over the shared flags ``nopart:i`` (input ``i`` has no partition). Kept apart from
    ``error``, which the methods read with the accumulators: only ``methods._shared.prepare`` reads it."""

    def kind_of(self, hazard: z3.BoolRef) -> str:
        """The exception ``hazard`` stands for (``BasicEncoder.hazard``)."""
        return self.hazard_kind.get(hazard.get_id(), "ZeroDivisionError")

    @property
    def has_aggregation(self) -> bool:
        return bool(self.aggregates or self.keyed)


def has_aggregation_node(program: A.Program) -> bool:
    """Syntactic: does the program contain any aggregation (whole-bag or by-key)?"""
    nodes = [program.body, *(b.value for b in program.lets)]
    return any(isinstance(n, A.AGGREGATIONS + A.BY_KEY_OPS) for root in nodes for n in A.walk(root))


# ---------------------------------------------------------------------------------------------------
# The encoder
# ---------------------------------------------------------------------------------------------------


@dataclass
class _TermEncoder(BasicEncoder):
    """BasicEncoder that also understands bags and aggregations of one program."""

    side: str = "L"
    bag_params: dict[str, Type] = field(default_factory=dict)
    bag_lets: dict[str, A.Expr] = field(default_factory=dict)
    top_env: dict[str, Sym] = field(default_factory=dict)
    occ_count: Counter = field(default_factory=Counter)
    aggregates: list[AggTerm] = field(default_factory=list)
    agg_cache: dict[A.Expr, Sym] = field(default_factory=dict)
    keyed: list[KeyedAgg] = field(default_factory=list)
    errors: list[z3.BoolRef] = field(default_factory=list)
    element_level: int = 0
    param_names: set[str] = field(default_factory=set)

    # -- basic expressions (with aggregations) -------------------------------------------------

    def expr(self, e: A.Expr, env: Mapping[str, Sym], path: z3.BoolRef | None = None) -> Sym:
        if isinstance(e, A.AGGREGATIONS):
            return self._aggregate(e, z3.BoolVal(True) if path is None else path)
        if self.is_bag(e):
            raise EncodingError("a bag is used where a basic value is needed", e.loc)
        return super().expr(e, env, path)

    def _aggregate(self, node: A.Expr, path: z3.BoolRef) -> Sym:
        if self.element_level:
            raise UnsupportedShape("an aggregation evaluated per element", node.loc)
        if node in self.agg_cache:
            acc = self.agg_cache[node]
            agg = next(a for a in self.aggregates if a.acc is acc)
        else:
            src = self.bag(node.source)  # type: ignore[union-attr]
            if any(t.keyed for t in src):
                raise UnsupportedShape("an aggregation over the output of a by-key aggregation", node.loc)
            if any(_mentions(t.value, a.acc) or _mentions(t.present, a.acc)
                   for t in src for a in self.aggregates):
                raise UnsupportedShape("an aggregation over a bag that depends on another aggregation",
                                       node.loc)
            shape = fold_shape(node, self, self.top_env, src[0].value)
            acc = acc_template(f"{self.side}.acc{len(self.aggregates)}", shape)
            # one step per alternative (this also records the step's hazards)
            touched = [acc_step(shape, acc, t.value, t.present, t.present) for t in src]
            if shape.init is not None:
                touched.append(shape.init)
            if any(_mentions(v, a.acc) for v in touched for a in self.aggregates):
                # the fold's functions or zero read another aggregation's *final* result; in a joint
                # fold that result is a state variable, which would read the running value instead
                raise UnsupportedShape("an aggregation whose functions or zero value read another "
                                       "aggregation's result", node.loc)
            agg = AggTerm(node, shape, src, acc)
            self.aggregates.append(agg)
            self.agg_cache[node] = acc
        raises, value = acc_outcome(agg.shape, agg.acc)
        if not z3.is_false(raises):
            self.errors.append(z3.And(path, raises))
        return value

    # -- bag expressions ------------------------------------------------------------------------

    def is_bag(self, e: A.Expr) -> bool:
        if isinstance(e, A.Var):
            return e.name in self.bag_params or e.name in self.bag_lets
        return isinstance(e, A.BAG_OPS)

    def bag(self, e: A.Expr) -> Alts:
        """The alternatives of bag expression ``e`` (see the module doc); every read of an input bag
        gets fresh representative variables, so a let-bound bag used twice is read twice."""
        alts = self._bag(e)
        if len(alts) > MAX_ALTERNATIVES:
            raise UnsupportedShape(f"more than {MAX_ALTERNATIVES} alternatives (union/flatMap/cartesian)",
                                   e.loc)
        return alts

    def bag1(self, e: A.Expr, what: str) -> BagTerm:
        """The single alternative of ``e``; ``what`` names the consumer that cannot take several."""
        alts = self.bag(e)
        if len(alts) != 1:
            raise UnsupportedShape(f"{what} of a bag with several alternatives (union/flatMap)", e.loc)
        return alts[0]

    def _bag(self, e: A.Expr) -> Alts:
        match e:
            case A.Var(name=n) if n in self.bag_params:
                k = self.occ_count[n]
                self.occ_count[n] += 1
                var = fresh(f"{self.side}:{n}#{k}", self.bag_params[n])
                return (BagTerm(var, z3.BoolVal(True), (Occurrence(n, var),), self.bag_params),)
            case A.Var(name=n) if n in self.bag_lets:
                return self.bag(self.bag_lets[n])
            case A.Map(fn=fn, source=src):
                return tuple(BagTerm(self._per_element(fn, [t.value], t.present), t.present, t.occurrences,
                                     self.bag_params, t.keyed) for t in self.bag(src))
            case A.Filter(fn=fn, source=src):
                out = []
                for t in self.bag(src):
                    keep = self._per_element(fn, [t.value], t.present)
                    if isinstance(keep, tuple) or not z3.is_bool(keep):
                        raise EncodingError("a filter predicate that is not a boolean", e.loc)
                    out.append(BagTerm(t.value, z3.And(t.present, keep), t.occurrences, self.bag_params,
                                       t.keyed))
                return tuple(out)
            case A.FlatMap(fn=fn, source=src):
                # flatMap(f)(mu) = sum_i map(f_i)(mu): component i of f's k-tuple is alternative i,
                # reading the same input occurrences as its source element. A list (or a string's
                # characters) of any length: one alternative over the source element and an index.
                out = []
                for t in self.bag(src):
                    if isinstance(fn, A.Lambda) and isinstance(fn.body, A.ListComp) and len(fn.params) == 1:
                        out.append(self._flat_comprehension(fn, t))
                        continue
                    res = self._per_element(fn, [t.value], t.present)
                    if isinstance(res, z3.SeqRef):
                        out.append(self._flat_sequence(res, t, lambda x: x, None))
                        continue
                    if not isinstance(res, tuple):
                        raise EncodingError("a flatMap function that does not return a tuple", e.loc)
                    out += [BagTerm(c, t.present, t.occurrences, self.bag_params, t.keyed) for c in res]
                return tuple(out)
            case A.Union(left=lft, right=rgt):
                return self.bag(lft) + self.bag(rgt)
            case A.Cartesian(left=lft, right=rgt):
                left, right = self.bag(lft), self.bag(rgt)
                return tuple(BagTerm((a.value, b.value), z3.And(a.present, b.present),
                                     a.occurrences + b.occurrences, self.bag_params, a.keyed + b.keyed)
                             for a in left for b in right)
            case A.Join(left=lft, right=rgt):
                left, right = self.bag(lft), self.bag(rgt)
                out = []
                for a in left:
                    for b in right:
                        if not (_is_pair(a.value) and _is_pair(b.value)):
                            raise EncodingError("join of bags whose elements are not pairs", e.loc)
                        _no_float_key(a.value[0], e)
                        same_key = key_eq(a.value[0], b.value[0])
                        out.append(BagTerm((a.value[0], (a.value[1], b.value[1])),
                                           z3.And(a.present, b.present, same_key),
                                           a.occurrences + b.occurrences, self.bag_params, a.keyed + b.keyed))
                return tuple(out)
            case A.OuterJoin(kind=kind, left=lft, right=rgt):
                return self._outer_join(e, kind, lft, rgt)
            case A.SortBy(source=src):
                return self.bag(src)  # as a bag, the same elements (the order is Ordered's business)
            case A.CombineByKey() | A.GroupByKeyAgg():
                return (self._by_key(e),)
            case A.Distinct():
                raise UnsupportedShape("distinct (multiplicities collapse)", e.loc)
        raise EncodingError(f"{type(e).__name__} is not a bag expression", e.loc)

    def _index_occurrence(self) -> tuple[Occurrence, z3.ArithRef]:
        """A fresh position in a list: an occurrence of the pseudo-bag ``INDEX_BAG`` (the naturals, each
        once), so that a flatMap's output is the sum over (source element, position) of the element at
        that position when the position is inside the list. Proofs over every bag hold for this one."""
        k = self.occ_count[INDEX_BAG]
        self.occ_count[INDEX_BAG] += 1
        i = z3.Int(f"{self.side}:{INDEX_BAG}#{k}")
        self.bag_params.setdefault(INDEX_BAG, INT)
        return Occurrence(INDEX_BAG, i), i

    def _flat_sequence(self, seq: z3.SeqRef, t: BagTerm, value_of: Any, keep: Any) -> BagTerm:
        occ, i = self._index_occurrence()
        inside = z3.And(i >= 0, i < z3.Length(seq))
        elem = z3.SubString(seq, i, 1) if seq.is_string() else seq[i]
        present = z3.And(t.present, inside)
        if keep is not None:
            present = z3.And(present, keep(elem, present))
        return BagTerm(value_of(elem, present) if keep is not None else elem, present,
                       t.occurrences + (occ,), self.bag_params, t.keyed)

    def _flat_comprehension(self, fn: A.Lambda, t: BagTerm) -> BagTerm:
        """``flatMap(lambda x: [g(y) for y in S(x) if c(y)])``: position i of ``S(x)`` gives ``g(S[i])``
        when ``c(S[i])`` holds."""
        comp = fn.body
        assert isinstance(comp, A.ListComp)
        self.element_level += 1
        try:
            scope = dict(self.top_env)
            scope[fn.params[0].name] = t.value
            seq = self.expr(comp.source, scope, t.present)
            if not isinstance(seq, z3.SeqRef):
                raise EncodingError("a comprehension over a value that is not a list or a string", comp.loc)

            def keep(elem: Sym, path: z3.BoolRef) -> z3.BoolRef:
                if comp.cond is None:
                    return z3.BoolVal(True)
                return self.apply(comp.cond, [elem], scope, path)

            def value_of(elem: Sym, path: z3.BoolRef) -> Sym:
                return self.apply(comp.fn, [elem], scope, path)

            return self._flat_sequence(seq, t, value_of, keep)
        finally:
            self.element_level -= 1

    def _outer_join(self, e: A.Expr, kind: str, lft: A.Expr, rgt: A.Expr) -> Alts:
        """``leftOuterJoin`` and co. (PySpark's ``python_left_outer_join``): the inner join's pairs, plus,
        for an element of an outer side whose key no element of the other side has, the element with
        None. "No element of the other side has key k" is an uninterpreted predicate of k (``has``,
        ``verification-conditions.md`` section 6): a proof holds for every predicate, the real one
        included. Both programs share it only for one other side read the same way (same expression of
        the inputs); otherwise each program gets its own, which is always sound. Which alternative an
        element comes from says whether its side was padded; the side's value is Python's one ``None``
        either way (``padded``: the padding or-ed into a stored option, never an option of an option)."""
        left, right = self.bag(lft), self.bag(rgt)
        out = []
        for a in left:
            for b in right:
                if not (_is_pair(a.value) and _is_pair(b.value)):
                    raise EncodingError("outer join of bags whose elements are not pairs", e.loc)
                v = padded(z3.BoolVal(False), a.value[1]) if kind in ("right", "full") else a.value[1]
                w = padded(z3.BoolVal(False), b.value[1]) if kind in ("left", "full") else b.value[1]
                out.append(BagTerm((a.value[0], (v, w)), z3.And(a.present, b.present, key_eq(a.value[0],
                                   b.value[0])), a.occurrences + b.occurrences, self.bag_params,
                                   a.keyed + b.keyed))
        sides = [(left, right, rgt, True)] if kind == "left" else [(right, left, lft, False)] \
            if kind == "right" else [(left, right, rgt, True), (right, left, lft, False)]
        for mine, other, other_expr, mine_is_left in sides:
            if not other:
                continue
            for t in mine:
                has = self._has_key(other_expr, t.value[0], other)
                own = padded(z3.BoolVal(False), t.value[1]) if kind == "full" else t.value[1]
                none = padded(z3.BoolVal(True), fresh_like(f"{self.side}.none{next(self._counter)}",
                                                           other[0].value[1]))
                value = (t.value[0], (own, none) if mine_is_left else (none, own))
                out.append(BagTerm(value, z3.And(t.present, z3.Not(has)), t.occurrences, self.bag_params,
                                   t.keyed))
        return tuple(out)

    def _has_key(self, other_expr: A.Expr, key: Sym, other: Alts) -> z3.BoolRef:
        """"Some present element of the other side has key ``key``", as a predicate of the key."""
        _no_float_key(key, other_expr)
        keys = leaves(key)
        if A.free_names(other_expr) <= self.param_names:
            name = f"has_{abs(hash(A.alpha_key(other_expr))):x}"  # the same reading of the inputs
        else:
            name = f"has_{self.side}{next(self._counter)}"  # reads driver values: this program's own
        return z3.Function(name, *[k.sort() for k in keys], z3.BoolSort())(*keys)

    def _per_element(self, fn: A.Fn, args: list[Sym], present: z3.BoolRef) -> Sym:
        self.element_level += 1
        try:
            return self.apply(fn, args, self.top_env, present)
        finally:
            self.element_level -= 1

    def _by_key(self, node: A.Expr) -> BagTerm:
        alts = self.bag(node.source)  # type: ignore[union-attr]
        for src in alts:
            if src.keyed:
                raise UnsupportedShape("a by-key aggregation over the output of another", node.loc)
            if not _is_pair(src.value):
                raise EncodingError("by-key aggregation of elements that are not pairs", node.loc)
            _no_float_key(src.value[0], node)
            if self.aggregates and any(_mentions(src.value, a.acc) or _mentions(src.present, a.acc)
                                       for a in self.aggregates):
                raise UnsupportedShape("a by-key aggregation over a bag that depends on an aggregation",
                                       node.loc)
        src = alts[0]
        self.element_level += 1
        try:
            shape = bucket_shape(node, self, self.top_env, src.value[1])
            j = len(self.keyed)
            key = fresh_like(f"{self.side}.key{j}", src.value[0])
            acc = fresh_like(f"{self.side}.bucket{j}", shape.value_shape)
            probe = fresh_like(f"{self.side}.probe{j}", shape.value_shape)
            for t in alts:  # record hazards of the bucket's start and step on every element's value
                shape.first(t.value[1], t.present)
                shape.step(probe, t.value[1], t.present)
        finally:
            self.element_level -= 1
        self.keyed.append(KeyedAgg(node, shape, src, key, acc, tuple(alts)))
        return BagTerm((key, acc), z3.BoolVal(True), (), self.bag_params, (j,))


def _no_float_key(key: Sym, node: A.Expr) -> None:
    """Spark matches and groups keys by hash and ``==``: a NaN key is equal to nothing (and its hash is
    its identity), ``0.0`` and ``-0.0`` are one key. Neither the observational equality nor a model of
    identities says that, so keys holding floats are left to the other methods."""
    from encoder.basic import is_float

    if any(is_float(x) for x in leaves(key)):
        raise UnsupportedShape("keys holding floats (Spark matches them by hash and ==, NaN by identity)",
                               node.loc)


def _is_pair(v: Sym) -> bool:
    return isinstance(v, tuple) and len(v) == 2


def constant_names(term: Sym) -> set[str]:
    """The names of the free constants (variables, placeholders) ``term`` reads; shared subterms are
    visited once."""
    out: set[str] = set()
    seen: set[int] = set()
    todo = list(leaves(term))
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.add(str(t))
        else:
            todo.extend(t.children())
    return out


def _mentions(term: Sym, acc: Sym) -> bool:
    """Does ``term`` mention any leaf of the placeholder ``acc``?"""
    return not constant_names(term).isdisjoint(str(x) for x in leaves(acc))


def encode_program(program: A.Program, side: str) -> ProgramEncoding:
    """Encode one program. ``side`` ("L"/"R") keeps the two programs' private variables apart; scalars
    (``v:name``) are shared by name. Raises ``EncodingError``/``UnsupportedShape``."""
    program = desugar(program)  # the encoder reads only the kernel
    enc = _TermEncoder(defs={d.name: d for d in program.defs}, side=side,
                       param_names={p.name for p in program.params})
    scalars: dict[str, Sym] = {}
    for p in program.params:
        if p.type is None:
            raise EncodingError(f"parameter '{p.name}' has no type", p.loc)
        if isinstance(p.type, BagType):
            enc.bag_params[p.name] = p.type.elem
        else:
            scalars[p.name] = fresh(f"v:{p.name}", p.type)
    enc.top_env.update(scalars)
    # The driver is strict: every let is evaluated, used or not, so an unused ``let m = R.min()`` still
    # makes the program raise on an empty R (its condition joins ``errors``).
    unused = _unused_lets(program)
    no_partition: list[z3.BoolRef] = []
    for let in program.lets:
        if enc.is_bag(let.value):
            enc.bag_lets[let.name] = let.value
        elif let.name in unused and _raises_without_partitions(let.value):
            no_partition.append(_no_partition_error(enc, program, let.value))
        else:
            enc.top_env[let.name] = enc.expr(let.value, enc.top_env)
    result = _result(enc, program.body)
    for name in _unused_bag_lets(program, enc):
        enc.bag(enc.bag_lets[name])  # never read, but building it on the driver may still raise
    return ProgramEncoding(
        program=program,
        side=side,
        scalars=scalars,
        bag_types=dict(enc.bag_params),
        result=result,
        aggregates=list(enc.aggregates),
        keyed=list(enc.keyed),
        error=z3.Or(*enc.errors) if enc.errors else z3.BoolVal(False),
        hazards=list(enc.div_hazards),
        hazard_kind=dict(enc.hazard_kind),
        no_partition_error=z3.Or(*no_partition) if no_partition else z3.BoolVal(False),
    )


def _unused_lets(program: A.Program) -> set[str]:
    mentioned = {n.name for root in (program.body, *(b.value for b in program.lets))
                 for n in A.walk(root) if isinstance(n, A.Var)}
    return {b.name for b in program.lets} - mentioned


def _raises_without_partitions(e: A.Expr) -> bool:
    return isinstance(e, A.CountByValue) or (isinstance(e, A.TakeOrdered) and e.top)


def _no_partition_error(enc: _TermEncoder, program: A.Program, action: A.Expr) -> z3.BoolRef:
    """An unused ``countByValue()``/``top(n)`` (a script's loop over ``countByValue().items()`` keeps the
    job where Python runs it): its value is never read, but it raises ``ValueError`` when its source has
    no partition (``sparklite.no_partitions``). Whether input ``i`` has no partition is a free Boolean
    ``nopart:i`` shared by both programs (inputs are matched by position); that it is then also empty
    is left out, which only adds inputs to what a proof covers. The source is forced as the job does."""
    from sparklite import effects, no_partitions

    enc.bag(action.source)  # type: ignore[attr-defined]  # the job computes every partition of it
    bags = effects.bag_lets(program)
    names = [p.name for p in program.params if isinstance(p.type, BagType)]
    if len(names) > no_partitions.MAX_INPUTS:
        raise UnsupportedShape("a countByValue/top over too many inputs to tell when it has no partition",
                               action.loc)
    flags = {n: z3.Bool(f"nopart:{i}") for i, n in enumerate(names)}
    worlds = []
    for world in no_partitions.zero_partition_worlds(names):
        raises = no_partitions.raises_without_partitions(action, world, bags)
        if raises is None:
            raise UnsupportedShape("a countByValue/top whose source's partition count is not known",
                                   action.loc)
        if raises:
            worlds.append(z3.And(*(flags[n] if n in world else z3.Not(flags[n]) for n in names)))
    return z3.Or(*worlds) if worlds else z3.BoolVal(False)


def _unused_bag_lets(program: A.Program, enc: _TermEncoder) -> list[str]:
    mentioned = {n.name for root in (program.body, *(b.value for b in program.lets))
                 for n in A.walk(root) if isinstance(n, A.Var)}
    return [name for name in enc.bag_lets if name not in mentioned]


def _result(enc: _TermEncoder, body: A.Expr) -> Result:
    parts = body.elems if isinstance(body, A.TupleExpr) else (body,)
    if any(A.sorted_bag(x, enc.bag_lets) for x in parts):  # observed as sequences: Ordered's business
        raise UnsupportedShape("a sorted result (a sequence, not a bag)", body.loc)
    if enc.is_bag(body):
        return BagResult(enc.bag(body))
    if isinstance(body, A.TupleExpr) and any(_holds_bag(enc, x) for x in body.elems):
        items: list[BagResult | ValueResult] = []
        for x in body.elems:
            if _holds_bag(enc, x) and not enc.is_bag(x):
                raise UnsupportedShape("a nested tuple holding a bag", x.loc)
            items.append(BagResult(enc.bag(x)) if enc.is_bag(x) else ValueResult(enc.expr(x, enc.top_env)))
        return TupleResult(tuple(items))
    return ValueResult(enc.expr(body, enc.top_env))


def _holds_bag(enc: _TermEncoder, e: A.Expr) -> bool:
    if enc.is_bag(e):
        return True
    return isinstance(e, A.TupleExpr) and any(_holds_bag(enc, x) for x in e.elems)


__all__ = [
    "Alts", "BagResult", "BagTerm", "EncodingError", "MAX_ALTERNATIVES", "Occurrence", "ProgramEncoding",
    "Result", "TupleResult", "UnsupportedShape", "ValueResult", "canonical_var", "constant_names",
    "encode_program", "has_aggregation_node", "rep_var_sets", "substitute", "sym_pairs",
]
