"""Two SQL queries over one schema, loaded and aligned as the relational kind sees them: the shared
setup of the prover's unit tests (``test_row_cap``, ``test_rel_congruence``)."""

from __future__ import annotations

from pathlib import Path

from sparklite.relational import ast as R
from verifier.core.loading import load, load_schemas
from verifier.core.relational_search import align


def aligned(tmp: Path, schema: str, left: str, right: str) -> tuple[R.RelProgram, R.RelProgram]:
    """``left`` and ``right`` (SQL) over ``schema`` (DDL), written under ``tmp``, loaded and aligned."""
    (tmp / "s.sql").write_text(schema)
    (tmp / "l.sql").write_text(left)
    (tmp / "r.sql").write_text(right)
    schemas = load_schemas(str(tmp / "s.sql"))
    lp = load(str(tmp / "l.sql"), schemas=schemas).program
    rp = load(str(tmp / "r.sql"), schemas=schemas).program
    assert isinstance(lp, R.RelProgram) and isinstance(rp, R.RelProgram)
    lp, rp, _ = align(lp, rp)
    return lp, rp
