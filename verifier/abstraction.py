"""Proof views of a pair: sound rewritings of both programs that the proof methods can read.

Why: the methods of the CAV 2017 paper read bags of primitive values through program terms. Real jobs
return dictionaries (``countByValue``, ``collectAsMap``) and start with steps no theory describes well
(``lines.flatMap(lambda l: l.split())``, a parsing ``map``). Two rewritings, each applied to *both*
programs, turn such pairs into pairs the methods handle (``verification-conditions.md``, section 6):

- **Dictionary results as bags** (exact). A dict whose keys are unique is determined by its items, so
  ``countByValue(S)`` is observed as ``reduceByKey(add)(map(x -> (x, 1))(S))`` and ``collectAsMap(B)``,
  for a ``B`` whose keys are unique (a by-key aggregation, then filters or ``mapValues``), as ``B``:
  two such results are equal dicts exactly when the bags are equal. Except on an ``S`` with no
  partition (an empty text file), where ``countByValue`` raises ``ValueError`` and the bag is empty
  (``sparklite.no_partitions``): the rewriting is used only when, for every set of inputs without
  partitions, both programs' dict actions raise alike, and a raising one is the whole result (in a
  tuple, another component's error could come first on one side only).
- **Shared subprograms become inputs** (an over-approximation). A bag-valued subexpression that both
  programs compute identically (same text up to the names of lambda parameters and of the defs it
  calls, whose bodies must be the same up to the same renaming; reading only the inputs) is replaced in
  both by one fresh input bag, with an arbitrary partitioning: what holds for every bag and every
  partitioning holds for the one the subexpression computes. When the subexpression may raise, the
  rewriting is used only if it is the only shared one that may, both programs force it whole (no
  ``take``/``first``/``takeOrdered``, no ``cartesian``, whose right side Spark may never open), and
  everything else in either program that may raise runs only after a shuffle has computed it whole
  (``_raises_after``: a by-key aggregation over it with nothing raising on its map side, as the division
  of an average per key): then both raise exactly when it does, with its error.

A view is for proofs only: its counterexamples are not counterexamples of the original pair (the
fresh input stands for no concrete input), so ``verifier.api`` keeps only a view's ``Proved``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from sparklite import ast as A
from sparklite import effects, no_partitions
from sparklite.typecheck import type_of
from sparklite.types import BagType, Type, contains_bag

__all__ = ["abstract_shared", "lower_dict_results", "proof_views"]

_SHARED = "shared_"


def proof_views(left: A.Program, right: A.Program) -> Iterator[tuple[str, A.Program, A.Program]]:
    """The views to try, each as (what was done, left, right); none when no rewriting applies."""
    lowered = lower_dict_results(left, right)
    base_l, base_r = lowered if lowered is not None else (left, right)
    if lowered is not None:
        yield "dictionary results compared as the bags of their items", base_l, base_r
    shared = abstract_shared(base_l, base_r)
    if shared is not None:
        names, sl, sr = shared
        what = (f"the subprogram{'s' if len(names) > 1 else ''} both programs share "
                f"({'; '.join(names)}) taken as {'inputs' if len(names) > 1 else 'an input'}")
        if lowered is not None:
            what = "dictionary results compared as bags, and " + what
        yield what, sl, sr


# ---------------------------------------------------------------------------------------------------
# Dictionary results
# ---------------------------------------------------------------------------------------------------


def lower_dict_results(left: A.Program, right: A.Program) -> tuple[A.Program, A.Program] | None:
    """Both programs with their dictionary results as bags, when both return a dict at the same
    places and every dict can be lowered; None otherwise."""
    ls, rs = _dict_slots(left), _dict_slots(right)
    if not ls or ls.keys() != rs.keys() or not _raise_alike(left, right, ls, rs):
        return None
    out = []
    for program, slots in ((left, ls), (right, rs)):
        lowered = {pos: _as_bag(node) for pos, node in slots.items()}
        if any(v is None for v in lowered.values()):
            return None
        out.append(_replace_slots(program, lowered))  # type: ignore[arg-type]
    return out[0], out[1]


def _raise_alike(left: A.Program, right: A.Program, ls: dict[int, A.Expr], rs: dict[int, A.Expr]) -> bool:
    """Whether lowering the dict slots keeps every ``ValueError`` of a ``countByValue`` over a bag with
    no partition: for every set of inputs (by position) without partitions, each slot raises on both
    sides or on neither, and a raising slot is the program's whole result."""
    if not any(isinstance(x, A.CountByValue) for x in (*ls.values(), *rs.values())):
        return True
    worlds = no_partitions.paired_worlds(left, right)
    if worlds is None:
        return False
    lets_l, lets_r = effects.bag_lets(left), effects.bag_lets(right)
    for zl, zr in worlds:
        for pos in ls:
            a = no_partitions.raises_without_partitions(ls[pos], zl, lets_l)
            b = no_partitions.raises_without_partitions(rs[pos], zr, lets_r)
            if a is None or b is None or a != b or (a and pos != -1):
                return False
    return True


def _resolve(program: A.Program, e: A.Expr) -> tuple[A.Expr, str | None]:
    """A result expression, looking through a variable bound by the program's *last* let (moving the
    last let into the result changes no evaluation order)."""
    if isinstance(e, A.Var) and program.lets and program.lets[-1].name == e.name:
        return program.lets[-1].value, e.name
    return e, None


def _dict_slots(program: A.Program) -> dict[int, A.Expr]:
    """Positions (-1: the whole result; i: component i of a result tuple) holding a dict action."""
    body, _ = _resolve(program, program.body)
    if isinstance(body, A.CountByValue | A.CollectAsMap):
        return {-1: body}
    if isinstance(body, A.TupleExpr):
        return {i: x for i, x in enumerate(body.elems) if isinstance(x, A.CountByValue | A.CollectAsMap)}
    return {}


def _replace_slots(program: A.Program, lowered: dict[int, A.Expr]) -> A.Program:
    body, let_name = _resolve(program, program.body)
    lets = program.lets
    if let_name is not None:
        if _mentions(let_name, program.body, *(b.value for b in lets[:-1])) > 1:
            return program
        lets = lets[:-1]
    if -1 in lowered:
        body = lowered[-1]
    else:
        assert isinstance(body, A.TupleExpr)
        body = dataclasses.replace(body, elems=tuple(lowered.get(i, x) for i, x in enumerate(body.elems)))
    return dataclasses.replace(program, lets=lets, body=body)


def _mentions(name: str, *roots: A.Node) -> int:
    return sum(1 for r in roots for n in A.walk(r) if isinstance(n, A.Var) and n.name == name)


def _as_bag(node: A.Expr) -> A.Expr | None:
    if isinstance(node, A.CountByValue):
        one = A.Lambda((A.Param("x_cbv"),), A.TupleExpr((A.Var("x_cbv"), A.IntLit(1))))
        add = A.Lambda((A.Param("a_cbv"), A.Param("b_cbv")), A.BinOp("+", A.Var("a_cbv"), A.Var("b_cbv")))
        ident = A.Lambda((A.Param("v_cbv"),), A.Var("v_cbv"))
        return A.CombineByKey(ident, add, add, A.Map(one, node.source), surface="reduceByKey")
    if isinstance(node, A.CollectAsMap) and _unique_keys(node.source):
        return node.source
    return None


def _unique_keys(e: A.Expr) -> bool:
    """Keys are unique in a by-key aggregation's output, and stay so through filters and ``mapValues``."""
    if isinstance(e, A.BY_KEY_OPS):
        return True
    if isinstance(e, A.Filter):
        return _unique_keys(e.source)
    if isinstance(e, A.Map) and _keeps_key(e.fn):
        return _unique_keys(e.source)  # mapValues
    return False


def _keeps_key(fn: A.Fn) -> bool:
    """``lambda kv: (kv[0], ...)``: the function visibly keeps the key (as ``mapValues`` does)."""
    if not (isinstance(fn, A.Lambda) and len(fn.params) == 1 and isinstance(fn.body, A.TupleExpr)):
        return False
    body = fn.body
    if len(body.elems) != 2:
        return False
    first = body.elems[0]
    return (isinstance(first, A.Proj) and first.index == 0 and isinstance(first.tuple, A.Var)
            and first.tuple.name == fn.params[0].name)


# ---------------------------------------------------------------------------------------------------
# Shared subprograms
# ---------------------------------------------------------------------------------------------------


def abstract_shared(left: A.Program, right: A.Program) -> tuple[list[str], A.Program, A.Program] | None:
    """Both programs with their maximal shared bag subprograms replaced by fresh inputs, or None.

    "Shared" is up to alpha-equivalence, including the functions a subprogram calls: a def of one
    program and a def of the other are the same function when their bodies are (up to the names of
    their parameters and of the defs they call in turn), whatever they are called (``_def_tokens``)."""
    params = {p.name: p.type for p in left.params}
    if {p.name: p.type for p in right.params} != params:
        return None
    tokens_l, tokens_r = _def_tokens(left, right, params)
    key_l = _keyer(left, tokens_l)
    key_r = _keyer(right, tokens_r)
    right_keys = {key_r(n) for n in _candidates(right, params, tokens_r)}
    shared: list[A.Expr] = []
    for node in _candidates(left, params, tokens_l):  # pre-order: the first match on a path is maximal
        if key_l(node) in right_keys and not any(_inside(node, s) for s in shared):
            shared.append(node)
    shared = [s for s in shared if _worth_it(s, left.defs)]
    if not shared:
        return None
    defs_l = {d.name: d for d in left.defs}
    if any(effects.driver_may_raise(s, defs_l) for s in shared):
        return None
    raising = [i for i, s in enumerate(shared) if effects.may_raise(s, defs_l)]
    if len(raising) > 1:
        return None  # which of two raising inputs a program forces first decides its error
    if raising and not (_forces_all(left) and _forces_all(right)):
        return None
    env = {n: t for n, t in params.items() if t is not None}
    names: list[str] = []
    table_l: dict[tuple, str] = {}
    table_r: dict[tuple, str] = {}
    new_params = list(left.params)
    for i, s in enumerate(shared):
        try:
            t = type_of(s, env, left.defs)
        except Exception:  # noqa: BLE001 - an ill-typed view is no view
            return None
        if not isinstance(t, BagType) or contains_bag(t.elem):
            return None
        name = f"{_SHARED}{i}"
        table_l[key_l(s)] = name
        table_r[key_l(s)] = name  # key_r of the matching right subprogram is the same key
        names.append(_describe(s))
        new_params.append(A.Param(name, t))
    out = []
    for program, key, table in ((left, key_l, table_l), (right, key_r, table_r)):
        replaced = _replace(program, table, key)
        if raising and not _raises_after(replaced, f"{_SHARED}{raising[0]}", env):
            return None
        out.append(dataclasses.replace(replaced, params=tuple(new_params)))
    return names, out[0], out[1]


_TOKEN = "@def"
"""Canonical names of shared defs (not an identifier, so never a name of either program)."""


def _def_tokens(left: A.Program, right: A.Program, params: dict[str, Type | None]
                ) -> tuple[dict[str, str], dict[str, str]]:
    """A canonical name for every def of either program that a shared subprogram may call: the same
    name for defs whose bodies are alpha-equivalent once the defs they call are named canonically (so a
    def is the same in both programs only with the same body, down to the defs it calls), none for a
    def reading anything but its parameters and the programs' inputs (a def sees the lets as they are
    when it is called) or calling a def without a canonical name."""
    interned: dict[tuple, str] = {}
    out = []
    for program in (left, right):
        names = {d.name for d in program.defs}
        tokens: dict[str, str] = {}
        for d in program.defs:  # in order: a def calls only the defs before it (no recursion)
            fn = A.Lambda(d.params, d.body if isinstance(d, A.FunDef) else d.fn)
            renamed = _rename_defs(fn, tokens, names)
            free = _free_vars(renamed)
            if any(n not in params and not n.startswith(_TOKEN) for n in free):
                continue
            ret = str(d.ret) if isinstance(d, A.FunDef) else None
            key = (type(d).__name__, ret, A.alpha_key(renamed))
            tokens[d.name] = interned.setdefault(key, f"{_TOKEN}{len(interned)}")
        out.append(tokens)
    return out[0], out[1]


def _rename_defs(node: A.Node, tokens: dict[str, str], names: set[str]) -> A.Node:
    """``node`` with the program's defs (``names``) called by their canonical names (``tokens``); a def
    without one keeps its own name (then no subprogram calling it is shared)."""
    def rename(n: A.Node) -> A.Node:
        if isinstance(n, A.Call) and n.func in names and n.func in tokens:
            return dataclasses.replace(n, func=tokens[n.func])
        if isinstance(n, A.FnRef | A.PApp) and n.name in tokens:
            return dataclasses.replace(n, name=tokens[n.name])
        return n

    return A.transform(node, rename)


def _keyer(program: A.Program, tokens: dict[str, str]):  # noqa: ANN202 - a key function
    names = {d.name for d in program.defs}
    return lambda node: A.alpha_key(_rename_defs(node, tokens, names))


def _candidates(program: A.Program, params: dict[str, Type | None], tokens: dict[str, str]
                ) -> Iterator[A.Expr]:
    """Bag subexpressions reading only the inputs (and calling only defs with a canonical name),
    outermost first; never a sorted bag (an input is a bag in no order, and the order of a sorted bag
    is observed)."""
    allowed = set(params) | set(tokens)
    unnamed = {d.name for d in program.defs} - set(tokens)  # (a def may be named like a builtin)
    for root in (*(b.value for b in program.lets), program.body):
        for n in A.walk(root):
            if isinstance(n, A.BAG_OPS) and not A.sorted_bag(n) and _free_vars(n) <= allowed \
                    and not _calls(n, unnamed):
                yield n


def _calls(node: A.Node, names: set[str]) -> bool:
    return bool(names) and any(isinstance(n, A.Call) and n.func in names
                               or isinstance(n, A.FnRef | A.PApp) and n.name in names for n in A.walk(node))



def _worth_it(node: A.Expr, defs: tuple[A.Def, ...] = ()) -> bool:
    """Abstract only what the term encoder cannot read: variable-length ``flatMap`` and the operators
    outside the paper (outer joins, ``distinct``, set operations, sorting), or string/float work (in the
    subprogram or in the defs it calls)."""
    by_name = {d.name: d for d in defs}
    called = {n.func if isinstance(n, A.Call) else n.name for n in A.walk(node)
              if isinstance(n, A.Call | A.FnRef | A.PApp)}
    roots = [node, *(by_name[c] for c in called if c in by_name)]
    for n in (m for r in roots for m in A.walk(r)):
        fixed = isinstance(n, A.FlatMap) and isinstance(n.fn, A.Lambda) and isinstance(n.fn.body, A.TupleExpr)
        if isinstance(n, A.FlatMap) and not fixed:
            return True
        if isinstance(n, A.OuterJoin | A.Distinct | A.Subtract | A.Intersection | A.SortBy | A.ListComp
                      | A.NoneLit):
            return True
        if isinstance(n, A.Call) and "." in n.func:
            return True
        if isinstance(n, A.StrLit | A.FloatLit) or (isinstance(n, A.BinOp) and n.op in ("/", "in")):
            return True
    return False


def _forces_all(program: A.Program) -> bool:
    """Every bag the program builds is computed whole by whatever reads it, and every action runs:
    no ``take``/``first``/``takeOrdered``/``cartesian`` (which may leave elements or a side unread),
    and no action under a conditional or the right operand of ``and``/``or`` (which may not run)."""
    lazy = (A.Take, A.First, A.TakeOrdered, A.Cartesian)
    roots = (*(b.value for b in program.lets), program.body)
    if any(isinstance(n, lazy) for r in roots for n in A.walk(r)):
        return False
    for r in roots:
        for n in A.walk(r):
            conditional: tuple[A.Node, ...] = ()
            if isinstance(n, A.Ite):
                conditional = (n.then, n.orelse)
            elif isinstance(n, A.BinOp) and n.op in A.BOOL_OPS:
                conditional = (n.right,)
            if any(isinstance(m, (*A.BAG_OPS, *A.ACTIONS)) for c in conditional for m in A.walk(c)):
                return False
    used = {n.name for r in roots for n in A.walk(r) if isinstance(n, A.Var)}
    return all(b.name in used for b in program.lets if isinstance(b.value, A.BAG_OPS))


def _raises_after(program: A.Program, shared: str, env: dict[str, Type]) -> bool:
    """Whether every evaluation of ``program`` (whose input ``shared`` stands for a subprogram that may
    raise) that may raise happens only once ``shared`` has been computed whole, so that when the
    subprogram raises, the program raises its error, whatever else it computes.

    Each let and the body, in order: one that cannot raise is harmless (a bag let: building it on the
    driver cannot raise; its functions run when a later action forces it, which is checked there); one
    that may raise must only do so after a shuffle whose map side computes ``shared`` whole, with nothing
    raising before that shuffle (``_after_barrier``)."""
    ctx = _Ctx({d.name: d for d in program.defs}, effects.bag_lets(program), env, shared)
    for b in program.lets:
        if isinstance(b.value, A.BAG_OPS) or b.name in ctx.bags:
            if effects.driver_may_raise(b.value, ctx.defs, ctx.bags):
                return False
        elif ctx.raises(b.value) and not _after_barrier(b.value, ctx, set()):
            return False
    return not ctx.raises(program.body) or _after_barrier(program.body, ctx, set())


@dataclasses.dataclass(frozen=True)
class _Ctx:
    defs: dict[str, A.Def]
    bags: dict[str, A.Expr]
    env: dict[str, Type]
    shared: str

    def raises(self, e: A.Node) -> bool:
        return effects.may_raise(e, self.defs, self.bags, self.env)

    def reads_shared(self, e: A.Node, seen: frozenset[str] = frozenset()) -> bool:
        for n in A.walk(e):
            if isinstance(n, A.Var):
                if n.name == self.shared:
                    return True
                if n.name in self.bags and n.name not in seen \
                        and self.reads_shared(self.bags[n.name], seen | {n.name}):
                    return True
        return False

    def function_ok(self, f: A.Node) -> bool:
        """A function argument whose *building* on the driver cannot raise (its body runs in the job)."""
        if isinstance(f, A.Lambda | A.FnRef):
            return True
        if isinstance(f, A.PApp):
            return not any(self.raises(a) for a in f.args)
        return not self.raises(f)


_UNARY = (A.Map, A.Filter, A.FlatMap, A.Distinct, A.Collect, A.CountByValue, A.CollectAsMap, A.Fold,
          A.Aggregate, A.Reduce, A.SimpleAgg)


def _after_barrier(e: A.Node, ctx: _Ctx, seen: set[str]) -> bool:
    """Every evaluation in ``e`` that may raise, and every element of ``e``, comes after a shuffle whose
    map side has computed the shared input whole (the interpreter computes a shuffle's whole map side
    before any reduce partition, as Spark runs a reduce stage only after its map stage succeeded): a
    by-key aggregation whose source reads the shared input and cannot raise, nor can its map-side
    functions (``create``, ``mergeValue``, the zero), then only one-source operators and actions above
    it whose other arguments cannot raise when they are built (their functions run in the job)."""
    if isinstance(e, A.Var) and e.name in ctx.bags and e.name not in seen:
        return _after_barrier(ctx.bags[e.name], ctx, seen | {e.name})
    if isinstance(e, A.TupleExpr):
        return all(not ctx.raises(x) or _after_barrier(x, ctx, seen) for x in e.elems)
    if isinstance(e, A.CombineByKey):
        return (ctx.reads_shared(e.source) and not ctx.raises(e.source) and not ctx.raises(e.create)
                and not ctx.raises(e.merge_value) and (e.zero is None or not ctx.raises(e.zero))
                and ctx.function_ok(e.merge_combiners))
    if isinstance(e, A.GroupByKeyAgg):
        return ctx.reads_shared(e.source) and not ctx.raises(e.source)
    if isinstance(e, _UNARY):
        others = [getattr(e, f.name) for f in dataclasses.fields(e)
                  if f.name not in ("source", "loc") and isinstance(getattr(e, f.name), A.Node)]
        return all(ctx.function_ok(o) for o in others) and _after_barrier(e.source, ctx, seen)
    return False


def _replace(program: A.Program, table: dict[tuple, str], key) -> A.Program:  # noqa: ANN001
    # top-down: replace the outermost match first, so inner matches are never rewritten separately
    def walk(node: A.Node) -> A.Node:
        if isinstance(node, A.BAG_OPS) and key(node) in table:
            return A.Var(table[key(node)], loc=node.loc)
        changes = {}
        for f in dataclasses.fields(node):
            if f.name == "loc":
                continue
            value = getattr(node, f.name)
            if isinstance(value, A.Node):
                new = walk(value)
                if new is not value:
                    changes[f.name] = new
            elif isinstance(value, tuple) and any(isinstance(v, A.Node) for v in value):
                new_t = tuple(walk(v) if isinstance(v, A.Node) else v for v in value)
                if any(a is not b for a, b in zip(new_t, value, strict=True)):
                    changes[f.name] = new_t
        return dataclasses.replace(node, **changes) if changes else node

    lets = tuple(dataclasses.replace(b, value=walk(b.value)) for b in program.lets)
    return dataclasses.replace(program, lets=lets, body=walk(program.body))


def _inside(node: A.Node, outer: A.Node) -> bool:
    return any(n is node for n in A.walk(outer))


def _free_vars(node: A.Node) -> set[str]:
    """Names read by ``node`` that it does not bind; builtin calls are not names (a def is: a
    subexpression calling one is shared only through the def's canonical name, ``_def_tokens``)."""
    from sparklite.builtins import BUILTINS

    return {n for n in A.free_names(node) if n not in BUILTINS}




def _describe(node: A.Expr) -> str:
    try:
        from sparklite.printer import pretty_expr

        text = pretty_expr(node)
    except Exception:  # noqa: BLE001 - the printer may not know every node yet
        text = type(node).__name__
    return text if len(text) <= 80 else text[:77] + "..."

