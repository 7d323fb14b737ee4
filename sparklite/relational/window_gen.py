"""Random window operators for the relational differential test (``sparklite.relational.generate``).

Why a module of its own: the generator of the other operators is shared by every kernel extension; a
window operator needs its own choices (partition and order keys, a function, a frame that fits it) and
stays out of the shared file but for the one line that draws it.
"""

from __future__ import annotations

import random
from typing import Any

from sparklite.relational import ast as R
from sparklite.relational import build as B
from sparklite.relational import windows

_FUNCTIONS = [
    ("row_number", 2.0),
    ("rank", 1.2),
    ("dense_rank", 1.0),
    ("percent_rank", 0.6),
    ("cume_dist", 0.6),
    ("ntile", 0.8),
    ("lag", 1.5),
    ("lead", 1.5),
    ("first", 1.0),
    ("last", 1.0),
    ("nth_value", 0.6),
    ("sum", 2.0),
    ("avg", 1.0),
    ("min", 1.0),
    ("max", 1.0),
    ("count", 1.0),
    ("count_star", 0.8),
]
_BOUNDS: list[int | None] = [None, -2, -1, 0, 1, 2]


def random_window(rels: Any, depth: int) -> R.Rel:
    """``rels`` is ``generate._Rels``: a window over one of its child relations, 1-2 calls."""
    rng: random.Random = rels.rng
    src = rels._child(depth)
    gen = rels.exprs(src)
    cols = B.columns_of(src)
    calls = []
    for _ in range(rng.randint(1, 2)):
        partition: list[R.Expr] = []
        for _ in range(rng.choice((0, 1, 1, 2))):
            partition.append(rng.choice(cols) if rng.random() < 0.8 else gen.expr(gen.any_kind(), 1))
        order = rels._sort_keys(src) if rng.random() < 0.85 else []
        name = _pick(rng)
        if (name in windows.RANKING or name in windows.OFFSET or name == "nth_value") and not order:
            order = rels._sort_keys(src)
        calls.append(_call(rng, gen, name, partition, order))
    return windows.window(src, calls, [rels.name() for _ in calls])


def _pick(rng: random.Random) -> str:
    total = sum(w for _, w in _FUNCTIONS)
    r = rng.random() * total
    for name, w in _FUNCTIONS:
        r -= w
        if r <= 0:
            return name
    return _FUNCTIONS[-1][0]


def _frame(rng: random.Random, ordered: bool) -> R.Frame | None:
    r = rng.random()
    if r < 0.4:
        return None
    if r < 0.6 and ordered:
        return R.Frame("range", rng.choice((None, 0)), rng.choice((None, 0)) if rng.random() < 0.5 else None)
    start = rng.choice(_BOUNDS)
    ends = [b for b in _BOUNDS if b is None or start is None or b >= start]
    return R.Frame("rows", start, rng.choice(ends))


def _call(
    rng: random.Random, gen: Any, name: str, partition: list[R.Expr], order: list[R.SortKey]
) -> R.WindowCall:
    if name in windows.RANKING:
        return windows.call(name, [], partition, order, None, offset=rng.randint(1, 4))
    if name in windows.OFFSET:
        kind = gen.any_kind()
        args = [gen.expr(kind, rng.randint(0, 1))]
        if rng.random() < 0.5:
            args.append(gen.literal(kind))
        offset, ignore = rng.randint(1, 2), rng.random() < 0.3
        return windows.call(name, args, partition, order, None, offset=offset, ignore_nulls=ignore)
    frame = _frame(rng, bool(order))
    if frame is not None and frame.kind == "range" and frame.start == 0 and frame.end is None and not order:
        frame = None
    if name in windows.VALUE:
        return windows.call(
            name,
            [gen.expr(gen.any_kind(), rng.randint(0, 1))],
            partition,
            order,
            frame,
            offset=rng.randint(1, 3),
            ignore_nulls=rng.random() < 0.4,
        )
    if name == "count_star":
        return windows.call(name, [], partition, order, frame)
    if name in ("sum", "avg"):
        numeric = [k for k in gen.kinds() if k in ("int", "double", "decimal")] or ["int"]
        return windows.call(name, [gen.expr(rng.choice(numeric), rng.randint(0, 1))], partition, order, frame)
    return windows.call(name, [gen.expr(gen.any_kind(), rng.randint(0, 1))], partition, order, frame)
