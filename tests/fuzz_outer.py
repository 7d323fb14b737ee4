"""Pairs for the soundness fuzzer around outer joins whose sides hold ``None`` (issue 26).

Why a flavor of its own: the generic generators rarely build an outer join over an input whose values
are already optional, yet that is where a ``None`` stored in the data and the ``None`` an outer join
pads a missing match with look alike in Python (both are ``None``) and were once confused by the prover
(``leftOuterJoin(A, B).filter(is not None)`` proved equal to ``join(A, B)``, and the unmatched count to
``count(leftOuterJoin) - count(join)``, both false when ``B`` holds ``(k, None)``).

Programs here join two keyed inputs whose values are ``Int`` or ``Option[Int]`` (sometimes made optional
by a conditional ``None``), with any join kind, then test, fill, print (``str``), project, count or
aggregate the sides. Variants come from rewrites specific to this family plus the generic ones of
``fuzzutil``:

- ``join_to_outer_filter`` / ``outer_filter_to_join``: ``join(A, B)`` <-> ``leftOuterJoin(A, B)``
  filtered on ``kv[1][1] is not None`` (right/full alike): equal only when the filtered side holds no
  ``None`` of its own;
- ``unmatched_count``: ``count(filter(is None)(leftOuterJoin(A, B)))`` <-> ``count(leftOuterJoin(A, B)) -
  count(join(A, B))``: the same trap;
- ``outer_swap``: ``leftOuterJoin(A, B)`` -> ``rightOuterJoin(B, A)`` with the value pair swapped
  (preserving), ``str_of_option`` (``str(x)`` -> ``"None" if x is None else str(x)``, preserving) and
  ``str_of_option_empty`` (the same with ``""``, mutating).

As in ``fuzzutil``, the labels are never trusted: the reference interpreter judges every verdict. Plain
AST surgery and SparkLite text; nothing here imports the verifier.
"""

from __future__ import annotations

import random

from fuzzutil import Rule, apply_rule, lam, make_variant

from sparklite import ast as A
from sparklite.parser import parse
from sparklite.types import BagType, ListType, OptionType, TupleType, Type

# ---------------------------------------------------------------------------------------------------
# Programs
# ---------------------------------------------------------------------------------------------------

_JOINS = {"inner": "join", "left": "leftOuterJoin", "right": "rightOuterJoin", "full": "fullOuterJoin"}


def _side(name: str, optional: bool, rng: random.Random) -> tuple[str, bool]:
    """An input (``name``, values optional or not) as read by the join, and whether its values are
    optional after that reading."""
    c = rng.randint(-1, 3)
    r = rng.random()
    if r < 0.45:
        return name, optional
    if r < 0.65 and not optional:  # a None made by a conditional (Python: None if v > c else v)
        return f"map(lambda kv -> (kv[0], if kv[1] > {c} then None else kv[1]))({name})", True
    if r < 0.75 and optional:  # the data's None filled before the join
        return f"map(lambda kv -> (kv[0], if py.is_none(kv[1]) then {c} else py.unwrap(kv[1])))({name})", \
            False
    return f"filter(lambda kv -> kv[0] != {rng.randint(0, 2)})({name})", optional


def _test(i: int, rng: random.Random) -> str:
    test = f"py.is_none(kv[1][{i}])"
    return test if rng.random() < 0.5 else f"not {test}"


def _post(joined: str, opt: tuple[bool, bool], rng: random.Random) -> str:
    """What the program does with the joined pairs ``(k, (v, w))`` (``opt``: which sides may be None)."""
    e = joined
    sides = [i for i in (0, 1) if opt[i]]
    if sides and rng.random() < 0.7:
        e = f"filter(lambda kv -> {_test(rng.choice(sides), rng)})({e})"
    if rng.random() < 0.15 and len(sides) == 2:
        e = f"filter(lambda kv -> {_test(0, rng)} or {_test(1, rng)})({e})"
    r = rng.random()
    i = rng.randint(0, 1)
    if r < 0.2:
        e = f"map(lambda kv -> kv[0])({e})"
    elif r < 0.35:
        e = f"map(lambda kv -> (kv[0], kv[1][{i}]))({e})"
    elif r < 0.5:
        e = f"map(lambda kv -> str(kv[0]) + ':' + str(kv[1][{i}]))({e})"
    elif r < 0.7 and opt[i]:
        fill = f"if py.is_none(kv[1][{i}]) then {rng.randint(-1, 1)} else py.unwrap(kv[1][{i}])"
        e = f"map(lambda kv -> (kv[0], {fill}))({e})"
        if rng.random() < 0.5:
            e = f"reduceByKey(lambda (a, b) -> max(a, b))({e})"
    elif r < 0.8:
        e = f"map(lambda kv -> (kv[0], kv[1][{i}] == kv[1][{1 - i}]))({e})"
    if rng.random() < 0.35:
        e = f"count({e})"
    return e


def random_outer_program(rng: random.Random) -> A.Program:
    """A program joining ``A: Bag[(Int, VA)]`` and ``B: Bag[(Int, VB)]``, ``VA``/``VB`` ``Int`` or
    ``Option[Int]`` (mostly optional), by any kind of join, then testing, filling or printing sides."""
    oa, ob = rng.random() < 0.6, rng.random() < 0.75
    params = ", ".join(f"{n}: Bag[(Int, {'Option[Int]' if o else 'Int'})]" for n, o in (("A", oa), ("B", ob)))
    a, va = _side("A", oa, rng)
    b, vb = _side("B", ob, rng)
    kind = rng.choice(list(_JOINS))
    opt = (va or kind in ("right", "full"), vb or kind in ("left", "full"))
    if rng.random() < 0.35:  # the shapes of issue 26 themselves, which the rewrites below turn around
        body = rng.choice((
            f"count(filter(lambda kv -> py.is_none(kv[1][1]))(leftOuterJoin({a}, {b})))",
            f"count(leftOuterJoin({a}, {b})) - count(join({a}, {b}))",
            f"map(lambda kv -> (kv[0], kv[1][0]))(filter(lambda kv -> not py.is_none(kv[1][1]))"
            f"(leftOuterJoin({a}, {b})))",
            f"map(lambda kv -> kv[0])(filter(lambda kv -> not py.is_none(kv[1][0]))"
            f"(rightOuterJoin({a}, {b})))",
            f"map(lambda kv -> (kv[0], kv[1][0]))(join({a}, {b}))",
        ))
    else:
        body = _post(f"{_JOINS[kind]}({a}, {b})", opt, rng)
    return parse(f"program P({params}) =\n{body}\n")


# ---------------------------------------------------------------------------------------------------
# Rewrites
# ---------------------------------------------------------------------------------------------------


def _is_none_of(e: A.Node, side: int) -> bool:
    """``py.is_none(kv[1][side])`` of the function's parameter ``kv``."""
    return isinstance(e, A.Call) and e.func == "py.is_none" and isinstance(e.args[0], A.Proj) \
        and e.args[0].index == side and isinstance(e.args[0].tuple, A.Proj) and e.args[0].tuple.index == 1 \
        and isinstance(e.args[0].tuple.tuple, A.Var)


def _not_none_filter(kind: str) -> A.Lambda:
    """``kv[1][i] is not None`` for the padded side(s) of an outer join of ``kind``."""
    def test(kv: A.Expr, i: int) -> A.Expr:
        return A.Not(A.Call("py.is_none", (A.Proj(A.Proj(kv, 1), i),)))

    if kind == "left":
        return lam(1, lambda kv: test(kv, 1))
    if kind == "right":
        return lam(1, lambda kv: test(kv, 0))
    return lam(1, lambda kv: A.BinOp("and", test(kv, 0), test(kv, 1)))


def _join_to_outer_filter(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``join(A, B)`` -> ``filter(padded sides not None)(xOuterJoin(A, B))``: the trap of issue 26."""
    if isinstance(n, A.Join):
        kind = rng.choice(("left", "right", "full"))
        return A.Filter(_not_none_filter(kind), A.OuterJoin(kind, n.left, n.right))  # type: ignore[arg-type]
    return None


def _outer_filter_to_join(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``filter(kv[1][1] is not None)(leftOuterJoin(A, B))`` -> ``join(A, B)`` (right: ``kv[1][0]``)."""
    if isinstance(n, A.Filter) and isinstance(n.source, A.OuterJoin) and n.source.kind in ("left", "right") \
            and isinstance(n.fn, A.Lambda) and isinstance(n.fn.body, A.Not) \
            and _is_none_of(n.fn.body.operand, 1 if n.source.kind == "left" else 0):
        return A.Join(n.source.left, n.source.right)
    return None


def _unmatched_count(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``count(filter(kv[1][1] is None)(leftOuterJoin(A, B)))`` <-> ``count(leftOuterJoin(A, B)) -
    count(join(A, B))``."""
    if isinstance(n, A.SimpleAgg) and n.kind == "count" and isinstance(n.source, A.Filter) \
            and isinstance(n.source.source, A.OuterJoin) and n.source.source.kind == "left" \
            and isinstance(n.source.fn, A.Lambda) and _is_none_of(n.source.fn.body, 1):
        oj = n.source.source
        return A.BinOp("-", A.SimpleAgg("count", oj), A.SimpleAgg("count", A.Join(oj.left, oj.right)))
    if isinstance(n, A.BinOp) and n.op == "-" and isinstance(n.left, A.SimpleAgg) \
            and isinstance(n.right, A.SimpleAgg) and n.left.kind == n.right.kind == "count" \
            and isinstance(n.left.source, A.OuterJoin) and n.left.source.kind == "left" \
            and isinstance(n.right.source, A.Join) \
            and (n.right.source.left, n.right.source.right) == (n.left.source.left, n.left.source.right):
        oj = n.left.source
        unmatched = lam(1, lambda kv: A.Call("py.is_none", (A.Proj(A.Proj(kv, 1), 1),)))
        return A.SimpleAgg("count", A.Filter(unmatched, oj))
    return None


def _outer_swap(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``xOuterJoin(A, B)`` -> ``map(swap the values)(yOuterJoin(B, A))`` (left <-> right)."""
    if isinstance(n, A.OuterJoin):
        flipped = {"left": "right", "right": "left", "full": "full"}[n.kind]
        swap = lam(1, lambda kv: A.TupleExpr((A.Proj(kv, 0), A.TupleExpr((A.Proj(A.Proj(kv, 1), 1),
                                                                          A.Proj(A.Proj(kv, 1), 0))))))
        return A.Map(swap, A.OuterJoin(flipped, n.right, n.left))  # type: ignore[arg-type]
    return None


def _str_of_option(shown: str) -> Rule:
    def rule(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
        """``str(x)`` -> ``if x is None then shown else str(x)`` (ill-typed, so discarded, unless ``x`` is
        optional; Python prints None as ``None``)."""
        if isinstance(n, A.Call) and n.func == "str" and isinstance(n.args[0], A.Proj):
            x = n.args[0]
            shown_value = A.Call("str", (A.Call("py.unwrap", (x,)),))
            return A.Ite(A.Call("py.is_none", (x,)), A.StrLit(shown), shown_value)
        return None

    return rule


OUTER_PRESERVING = {
    "outer_swap": _outer_swap,
    "str_of_option": _str_of_option("None"),
}
OUTER_MUTATING = {
    "join_to_outer_filter": _join_to_outer_filter,
    "outer_filter_to_join": _outer_filter_to_join,
    "unmatched_count": _unmatched_count,
    "str_of_option_empty": _str_of_option(""),
}


def observed(t: Type | None) -> Type | None:
    """What a result is compared as (``verifier.api``'s rule): ``Option[T]`` and ``T``, lists and bags,
    alike, so ``join`` and a filtered outer join are comparable programs."""
    if isinstance(t, OptionType):
        return observed(t.elem)
    if isinstance(t, ListType | BagType):
        return BagType(observed(t.elem))  # type: ignore[arg-type]
    if isinstance(t, TupleType):
        return TupleType(tuple(observed(e) for e in t.elems))  # type: ignore[misc]
    return t


def outer_variant(program: A.Program, rng: random.Random) -> tuple[A.Program, tuple[str, ...], str] | None:
    """A variant: the family's rewrites (one mutation about half the time), then maybe a generic
    preserving rewrite of ``fuzzutil``."""
    steps: list[str] = []
    current = program
    mutate = rng.random() < 0.5
    pool = dict(OUTER_MUTATING) if mutate else dict(OUTER_PRESERVING)
    names = list(pool)
    rng.shuffle(names)
    for name in names:
        nxt = apply_rule(current, name, pool[name], rng)
        if nxt is not None:
            current, steps = nxt, [name]
            break
    else:
        if mutate:  # none of the family's mutations applies: a generic one
            generic = make_variant(current, rng, mutate=True, steps=0)
            if generic is None:
                return None
            current, steps = generic.program, list(generic.steps)
    if rng.random() < 0.5:
        generic = make_variant(current, rng, mutate=False, steps=1)
        if generic is not None:
            current, steps = generic.program, [*steps, *generic.steps]
    if current == program:
        return None
    return current, tuple(steps), "not_equivalent" if mutate else "equivalent"


def generate_outer_pair(seed: int, index: int) -> tuple[A.Program, A.Program, tuple[str, ...], str] | None:
    """Pair ``index`` of ``seed`` (deterministic), well-typed, with comparable results; None when the
    draws give nothing usable."""
    from sparklite.typecheck import typecheck

    rng = random.Random(f"outer:{seed}:{index}")
    for _ in range(8):
        program = random_outer_program(rng)
        try:
            variant = outer_variant(program, rng)
        except Exception:  # noqa: BLE001 - a generic rule built an ill-typed intermediate (sum of pairs)
            continue
        if variant is None:
            continue
        candidate, steps, intended = variant
        try:
            before, after = typecheck(program), typecheck(candidate)
        except Exception:  # noqa: BLE001 - an ill-typed rewrite (str_of_option of a plain value): draw again
            continue
        if observed(before.result) != observed(after.result):
            continue
        return before.program, after.program, steps, intended
    return None
