"""A counted cap on the rows one run of the relational interpreter may build in joins.

The counterexample search runs both programs on many small candidate tables. On a wide join (TPC-DS
q64 joins 18 tables) a candidate of five rows a table can make intermediate join results of millions
of rows: the interpreter ran out of memory (24 GB) before the search's time cap was ever checked.
The search therefore sets a cap here (``row_cap``), and every join spends the pairs of rows it
compares (``spend``); past the cap the run stops with ``RowCapExceeded`` and the search skips that
candidate, saying so in its reason.

Why a count and not time or memory: the candidates skipped must be the same on every machine and under
every load, so a verdict never depends on them. Skipping is sound because the search only refutes: a
skipped candidate is a candidate not tried, never a proof. Outside the search (the differential tests,
replay, a user's run) no cap is set and nothing is counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# Pairs of rows one candidate evaluation (both programs) may compare in joins. A join of the search's
# small tables compares at most a few thousand; 200,000 pairs of wide rows stay within some 100 MB.
SEARCH_ROW_CAP = 200_000

_left: ContextVar[list[int] | None] = ContextVar("sparkeq_row_cap", default=None)


class RowCapExceeded(Exception):
    """A run built more intermediate rows than the cap allows: the candidate is skipped, not judged."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"more than {cap:,} intermediate row pairs in joins")
        self.cap = cap


@contextmanager
def row_cap(cap: int | None = None) -> Iterator[None]:
    """Count the join pairs of every interpreter run inside the block against one shared ``cap``
    (``SEARCH_ROW_CAP`` by default, read when the block starts)."""
    cap = SEARCH_ROW_CAP if cap is None else cap
    token = _left.set([cap, cap])
    try:
        yield
    finally:
        _left.reset(token)


def spend(pairs: int) -> None:
    """Record that a join compares ``pairs`` pairs of rows; raise ``RowCapExceeded`` past the cap
    (nothing is counted where no cap is set)."""
    budget = _left.get()
    if budget is None:
        return
    budget[0] -= pairs
    if budget[0] < 0:
        raise RowCapExceeded(budget[1])
