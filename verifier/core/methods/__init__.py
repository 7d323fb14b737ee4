"""Verification methods. ``PROOF_METHODS`` is the ordered list of the paper's proof methods that
``verifier.core.decide`` tries (each module has ``NAME`` and ``run(pair, options)``): the decision procedures
first (NoAgg, AggOne_sync: their failures are real counterexamples), then the sound-but-incomplete ones.
"""

from verifier.core.methods import agg_mult, agg_one, agg_one_sync, by_key, noagg, ordered, support
from verifier.core.methods.bag_methods import BAG_METHODS

PROOF_METHODS = (*BAG_METHODS, ordered)

__all__ = [
    "PROOF_METHODS", "agg_mult", "agg_one", "agg_one_sync", "by_key", "noagg", "ordered", "support",
]
