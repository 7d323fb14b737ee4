"""Proofs across the kernels: an RDD program carried into the relational kernel, matched by ``rel_terms``.

Why this is sound: ``sparklite.bridge.to_relational`` gives a relational term that computes, on every
NULL-free table and under the assumptions it lists, exactly the RDD program's elements (flattened into
rows, integral columns read as Python ints). ``rel_terms`` proves that term equal to the DataFrame/SQL
program on *every* table (NULLs included, a superset of the inputs compared), so the RDD program and the
DataFrame/SQL program give the same output on every input of the correspondence
(``verifier.core.cross_inputs``) under those assumptions. Result columns are compared by position, and
every integral column as BIGINT on both sides (Python sees an ``int`` either way); a DOUBLE column against
an integral one stays a difference (``2.0`` is not ``2`` to Python's eyes when printed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sparklite import ast as A
from sparklite.bridge import NotBridged, python_typed, to_relational
from sparklite.relational import ast as R
from verifier.core.base import Inconclusive, NotApplicable
from verifier.core.methods import rel_terms

if TYPE_CHECKING:
    from verifier.core.cross_inputs import Correspondence

NAME = "cross_terms"


def run(c: Correspondence, rdd: A.Program, rel: R.RelProgram, *, timeout_s: float, until: float
        ) -> tuple[bool, str, str, tuple[str, ...]]:
    """(proved?, the method or why not, the explanation, the assumptions); ``timeout_s`` is the
    prover's patience (a resource limit, issue 24), ``until`` only the check's hard cap."""
    tables = {lk.rdd: (next(tp for tp in rel.params if tp.name == lk.table), lk.tuple_elem) for lk in c.links}
    if any(any(lk.optional) for lk in c.links):
        return False, "the bridge does not carry None (Optional fields) across the kernels", "", ()
    try:
        bridged, assumptions = to_relational(rdd, tables, rel.params)
    except NotBridged as exc:
        return False, f"the RDD program is outside the fragment both kernels express: {exc}", "", ()
    except Exception as exc:  # noqa: BLE001 - the relational typing rules refused a bridged term
        return False, f"the RDD program could not be carried into the relational kernel: {exc}", "", ()
    left, right = python_typed(bridged), python_typed(rel)
    proof = rel_terms.run(left, right, timeout_s=timeout_s, until=until,
                          ignore_names=True)
    if isinstance(proof, Inconclusive | NotApplicable):
        why = f"the RDD program carried into the relational kernel is not proved equal: {proof.reason}"
        return False, why, "", ()
    explanation = (f"the RDD program carried into the relational kernel and the DataFrame/SQL program: "
                   f"{proof.explanation.rstrip('.')}")
    return True, NAME, explanation, (*assumptions, *proof.assumptions)
