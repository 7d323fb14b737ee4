"""TPC queries against their optimizer rewrites (``cases/tpc_rewrites/``, made by ``bench/tpc_rewrites.py``).

Each rewrite (columns qualified, aliases renamed, CTEs inlined, predicates pushed into joins and derived
tables, derived tables merged) was run on Spark next to its original (``--spark``: the manifest's
``spark`` field), so the pairs are equivalent as Spark runs them on those tables. The manifest records
sparkeq's verdict for each pair; this test checks that it still holds:

- a pair recorded ``equivalent`` is still proved (a regression of the prover fails here);
- no pair is ever ``not_equivalent`` without a counterexample Spark confirms (none is expected: every
  rewrite is meaning-preserving), and none is ``equivalent`` where Spark showed a difference;
- entries not re-checked since the last prover change say so (``verdict`` ``unchecked``);
- the pairs still ``unknown`` are checked in the slow suite only (each runs the search to its budget).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "cases" / "tpc_rewrites"
CORPUS = REPO.parent / "shared" / "corpora" / "tpc"
if not CORPUS.is_dir():  # a worktree next to the main checkout: /work/wt-x -> /work/shared
    CORPUS = Path("/work/shared/corpora/tpc")
MANIFEST = json.loads((CASES / "manifest.json").read_text()) if (CASES / "manifest.json").exists() else []

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="the TPC corpus is not there")


def _check(entry: dict[str, Any], timeout: float) -> Any:
    from verifier import check

    suite = entry["name"].split("/")[0]
    return check(str(CORPUS / entry["left"]), str(CASES / entry["right"]),
                 schema=str(CORPUS / suite / "schema.sql"), timeout=timeout, replay=False)


def test_manifest_covers_every_rewrite_and_spark_never_differed() -> None:
    """Every rewrite has an entry; every one run on Spark gave the same columns, types and rows (or the
    same error) as its original (an entry without ``spark`` was not run there yet)."""
    names = {e["name"] for e in MANIFEST}
    files = {f"{p.parent.name}/{p.stem}" for p in CASES.glob("*/q*.sql")}
    assert files and names == files
    for e in MANIFEST:
        assert str(e.get("spark", "same")).startswith("same"), (e["name"], e.get("spark"))
        assert e["verdict"] != "not_equivalent", e


@pytest.mark.parametrize("entry", [e for e in MANIFEST if e["verdict"] == "equivalent"],
                         ids=lambda e: e["name"])
def test_proved_rewrites_stay_proved(entry: dict[str, Any]) -> None:
    result = _check(entry, timeout=20)
    assert result.verdict == "equivalent", result.reason


@pytest.mark.slow
@pytest.mark.parametrize("entry", [e for e in MANIFEST if e["verdict"] != "equivalent"],
                         ids=lambda e: e["name"])
def test_unproved_rewrites_are_never_refuted(entry: dict[str, Any]) -> None:
    result = _check(entry, timeout=10)
    assert result.verdict in ("unknown", "equivalent"), result.reason
