"""Checking two SQL queries over a schema written in a test's temporary directory: the relational
prover alone (``prove``) or the whole check (``check_pair``), by position (``--ignore-names``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from verifier.core.loading import load, load_schemas
from verifier.core.methods import rel_terms
from verifier.core.relational_search import align


def write_pair(left: str, right: str, schema: str, tmp: Path) -> tuple[str, str, str]:
    (tmp / "schema.sql").write_text(schema)
    (tmp / "l.sql").write_text(left)
    (tmp / "r.sql").write_text(right)
    return str(tmp / "l.sql"), str(tmp / "r.sql"), str(tmp / "schema.sql")


def prove(left: str, right: str, schema: str, tmp: Path) -> Any:
    """``rel_terms.run`` on the aligned pair: a ``RelProof`` or why not."""
    lpath, rpath, spath = write_pair(left, right, schema, tmp)
    schemas = load_schemas(spath)
    lp = load(lpath, schemas=schemas).program
    rp = load(rpath, schemas=schemas).program
    lp, rp, _ = align(lp, rp)
    return rel_terms.run(lp, rp, timeout_s=5.0, until=time.monotonic() + 20, ignore_names=True)


def check_pair(left: str, right: str, schema: str, tmp: Path) -> Any:
    """``verifier.check`` without replay, comparing by position, 10 s at most."""
    from verifier import check

    lpath, rpath, spath = write_pair(left, right, schema, tmp)
    return check(lpath, rpath, schema=spath, timeout=10, replay=False, ignore_names=True)


def assert_proved(left: str, right: str, schema: str, tmp: Path, warning: str | None = None) -> None:
    """The prover proves the pair (and, given ``warning``, one of its warnings contains it)."""
    proof = prove(left, right, schema, tmp)
    assert isinstance(proof, rel_terms.RelProof), proof
    assert warning is None or any(warning in w for w in proof.warnings), proof.warnings


def assert_not_proved(left: str, right: str, schema: str, tmp: Path) -> None:
    assert not isinstance(prove(left, right, schema, tmp), rel_terms.RelProof)
