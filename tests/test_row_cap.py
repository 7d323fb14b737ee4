"""The search's counted cap on intermediate join rows (``sparklite.relational.row_cap``).

TPC-DS q64 against its rewrite (an 18-table join) ran the interpreter out of memory: a candidate of a
few rows a table made join results of millions of rows. The search now caps the pairs of rows the
joins of one candidate evaluation compare; a candidate past the cap is skipped and counted, never
judged (the search only refutes, so skipping is sound), and the reason says so. Outside the search
nothing is counted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from relpairs import aligned

from sparklite.relational.interpreter import run
from sparklite.relational.row_cap import RowCapExceeded, row_cap
from verifier.core.relational_search import search

SCHEMA = "CREATE TABLE t (a INT, b INT);\n"
# six copies of t joined on a column of few values: a handful of rows a table gives up to n^6 pairs
WIDE = ("select t1.a, t6.b from t t1 join t t2 on t1.a = t2.a join t t3 on t2.a = t3.a "
        "join t t4 on t3.a = t4.a join t t5 on t4.a = t5.a join t t6 on t5.a = t6.a")


def _programs(tmp: Path, left: str, right: str):
    return aligned(tmp, SCHEMA, left, right)


def test_a_run_past_the_cap_stops_and_without_a_cap_completes(tmp_path: Path) -> None:
    lp, _ = _programs(tmp_path, WIDE, WIDE)
    rows = [(1, i) for i in range(8)]  # every row matches every row: 8^6 = 262,144 output rows
    with row_cap(10_000), pytest.raises(RowCapExceeded):
        run(lp, {"t": rows})
    small = [(1, 0), (2, 1)]
    assert len(run(lp, {"t": small}).outcome.rows) == 2  # no cap outside the search


def test_the_search_skips_and_counts_candidates_past_the_cap(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The candidates past the cap are skipped deterministically (the same count on every run) and the
    search still refutes a real difference on the candidates it can evaluate."""
    from sparklite.relational import row_cap as cap_module

    monkeypatch.setattr(cap_module, "SEARCH_ROW_CAP", 300)
    lp, rp = _programs(tmp_path, WIDE, WIDE.replace("t6.b", "t6.b + 1"))
    out = search(lp, rp, tries=300, seed=1)
    assert out.found is not None  # refuted on a small candidate
    same = _programs(tmp_path, WIDE, WIDE)
    first = search(*same, tries=600, seed=1)
    again = search(*same, tries=600, seed=1)
    assert first.found is None and first.pending is None
    assert first.skipped == again.skipped
    assert 0 < first.skipped < first.tried


def test_the_reason_names_the_skipped_candidates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a cap small enough that some candidates pass it, an ``unknown`` verdict counts them."""
    from sparklite.relational import row_cap as cap_module
    from verifier.core.kinds.relational import _skipped

    monkeypatch.setattr(cap_module, "SEARCH_ROW_CAP", 300)
    lp, rp = _programs(tmp_path, WIDE, WIDE)
    out = search(lp, rp, tries=300, seed=1)
    assert out.skipped > 0
    assert "past the search's cap on intermediate rows" in _skipped(out)
    assert "300 pairs" in _skipped(out)
