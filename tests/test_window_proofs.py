"""Proofs about window functions (issue 22): congruence, a window compared as a whole inside a larger
proof, and the optimiser's pushdown of a filter through a window on partition keys -- never past a
window on another column (``sparklite.relational.windows.pushed_filter``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier import check

SCHEMA = "t=a INT, b INT, c STRING"
# max cannot raise (a sum of ints may overflow: a window that may raise is not compared as a whole)
CALLS = "row_number() OVER (PARTITION BY a ORDER BY b) AS rn, max(b) OVER (PARTITION BY a) AS s"
INNER = f"SELECT a, b, c, {CALLS} FROM t"


def _verdict(tmp_path: Path, left: str, right: str) -> tuple[str, str]:
    lp, rp = tmp_path / "l.sql", tmp_path / "r.sql"
    lp.write_text(left)
    rp.write_text(right)
    r = check(str(lp), str(rp), replay=False, timeout=30, schema=[SCHEMA], config=False)
    return r.verdict, r.reason


@pytest.mark.parametrize(
    "left, right",
    [
        # the same query with other aliases and names: congruence
        (
            INNER,
            "SELECT x.a, x.b, x.c, row_number() OVER (PARTITION BY x.a ORDER BY x.b) AS rn, "
            "max(x.b) OVER (PARTITION BY x.a) AS s FROM t AS x",
        ),
        # a filter on the partition key, above or below the window
        (
            f"SELECT * FROM ({INNER}) WHERE a > 0",
            f"SELECT a, b, c, {CALLS} FROM t WHERE a > 0",
        ),
        # the window unchanged, a rewrite around it (a comparison flipped, a column filter above)
        (
            f"SELECT a, rn FROM ({INNER}) WHERE rn <= 2 AND c = 'x'",
            f"SELECT a, rn FROM ({INNER}) WHERE 'x' = c AND 2 >= rn",
        ),
    ],
)
def test_proved(tmp_path: Path, left: str, right: str) -> None:
    verdict, reason = _verdict(tmp_path, left, right)
    assert verdict == "equivalent", reason


@pytest.mark.parametrize(
    "left, right",
    [
        # a filter on a column the window orders by, pushed below it: the row numbers change
        (
            f"SELECT * FROM ({INNER}) WHERE b > 0",
            f"SELECT a, b, c, {CALLS} FROM t WHERE b > 0",
        ),
        # the partition key of one call only
        (
            "SELECT * FROM (SELECT a, b, rank() OVER (PARTITION BY a ORDER BY b) r, count(*) OVER () n "
            "FROM t) WHERE a = 1",
            "SELECT a, b, rank() OVER (PARTITION BY a ORDER BY b) r, count(*) OVER () n FROM t WHERE a = 1",
        ),
        # row_number against rank
        (
            "SELECT a, row_number() OVER (PARTITION BY a ORDER BY b) FROM t",
            "SELECT a, rank() OVER (PARTITION BY a ORDER BY b) FROM t",
        ),
    ],
)
def test_never_proved(tmp_path: Path, left: str, right: str) -> None:
    verdict, reason = _verdict(tmp_path, left, right)
    assert verdict in ("not_equivalent", "unknown"), reason
