"""Spark's optimiser rule ``SimplifyCaseConversionExpressions``: ``upper(lower(x))`` runs as
``upper(x)``, ``lower(upper(x))`` as ``lower(x)`` (and ``upper(upper(x))``, ``lower(lower(x))`` as one
call). The two are not equal on every string (``upper(lower('ẞ'))`` is ``SS``, ``upper('ẞ')`` is
``ẞ``), so this is a fact about what Spark computes, checked on Spark 4.3 (docs/semantics-notes.md):

- on a column of a table (a DataFrame Spark did not build from literals) the rule applies:
  ``upper(lower(name))`` gives ``ẞ`` for ``ẞ``;
- where Spark folds ``x`` to a constant first (a literal, an inline ``VALUES`` table, a column a
  projection set to a literal), it evaluates the nested calls exactly: ``SS``.

So the reference interpreter keeps the exact value and adds ``CAVEAT_CASE_CONVERSION`` where the
rewritten value differs (a difference resting on it waits for Spark), and the prover's normal form
(``encoder.relational.normal``) collapses the calls only over columns of base tables.
"""

from __future__ import annotations

import dataclasses

from sparklite.relational import ast as R

CAVEAT_CASE_CONVERSION = (
    "case conversion: Spark's optimiser runs upper(lower(x)) as upper(x) (SimplifyCaseConversionExpressions) "
    "unless it folds x to a constant first, and the two differ on this input"
)
_CASE = frozenset({"upper", "lower"})


def _case_call(e: object) -> bool:
    return isinstance(e, R.Func) and e.udf is None and e.name in _CASE and len(e.args) == 1


def collapsed(e: object) -> R.Func | None:
    """``e`` as Spark's rule rewrites it when ``e`` is a case conversion of a case conversion (the
    outer call of the innermost argument), else None."""
    if not (_case_call(e) and _case_call(e.args[0])):  # type: ignore[union-attr]
        return None
    assert isinstance(e, R.Func)
    out = e
    while _case_call(out.args[0]):
        inner = out.args[0]
        assert isinstance(inner, R.Func)
        out = dataclasses.replace(out, args=inner.args)
    return out


__all__ = ["CAVEAT_CASE_CONVERSION", "collapsed"]
