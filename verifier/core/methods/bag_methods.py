"""The proof methods that compare two bags (every method but ``ordered``), in the order they are tried.

Why a module of its own: ``ordered`` proves two sorted results equal by proving the bags they sort equal
with these methods. It used to read them from the package's ``PROOF_METHODS``, which lists ``ordered``
itself, so the package and ``ordered`` imported each other; both now read this list.
"""

from verifier.core.methods import agg_mult, agg_one, agg_one_sync, by_key, noagg, support

BAG_METHODS = (noagg, agg_one_sync, agg_one, agg_mult, by_key, support)

__all__ = ["BAG_METHODS"]
