"""AggMult^p and AggOne^b: several aggregations, or aggregation results used in bag/tuple results.

Several folds of one program over bags with the same RepVarSet become one fold with a tuple accumulator
(``verifier.core.methods._shared.SideFold``): walking the input tuples once feeds every fold its elements.
A fold result used inside a bag expression (``R.map(lambda x: x - m)`` with ``m = R.min()``) is a
shared symbolic constant: the outcome condition quantifies over every element ``x`` *and* the related
accumulators, which is sufficient (not necessary) for equal bags. Tuple results are compared component
by component. Then Lemma 1 with the invariant family, as in AggOne.

Folds over different inputs within one program (``R.count()`` and ``S.count()``), and folds over unions
of different bags, walk several *groups* of input tuples (``_shared.SideFold``): the invariant must then
be preserved by a tuple of every group.
"""

from __future__ import annotations

from verifier.core.base import MethodOutcome, NotApplicable, Options, Pair
from verifier.core.methods._shared import prepare, value_only
from verifier.core.methods.agg_one import prove_by_induction

NAME = "AggMult"


def run(pair: Pair, options: Options) -> MethodOutcome:
    prep = prepare(pair, options, NAME)
    if isinstance(prep, NotApplicable):
        return prep
    if prep.left.keyed or prep.right.keyed:
        return NotApplicable(NAME, "a by-key aggregation (see AggOneK)")
    n1, n2 = len(prep.left.aggregates), len(prep.right.aggregates)
    if n1 + n2 == 0:
        return NotApplicable(NAME, "no aggregation (see NoAgg)")
    if n1 <= 1 and n2 <= 1 and value_only(prep):
        return NotApplicable(NAME, "one aggregation per program with a primitive result (see AggOne)")
    return prove_by_induction(prep, NAME)
