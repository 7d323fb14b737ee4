"""SparkLite -> Z3: basic expressions (``basic``), bag terms (``bag_terms``), program terms (``terms``),
aggregate terms (``aggregates``). Imports only ``sparklite`` and ``z3``."""

from encoder.aggregates import AggTerm, FoldShape, KeyedAgg, acc_init, acc_outcome, acc_step, acc_template
from encoder.bag_terms import BagTerm, Occurrence
from encoder.basic import BasicEncoder, EncodingError, Sym, fresh, fresh_like, sym_eq, sym_ite, sym_to_value
from encoder.terms import (
    BagResult,
    ProgramEncoding,
    TupleResult,
    UnsupportedShape,
    ValueResult,
    encode_program,
)

__all__ = [
    "AggTerm", "BagResult", "BagTerm", "BasicEncoder", "EncodingError", "FoldShape", "KeyedAgg",
    "Occurrence", "ProgramEncoding", "Sym", "TupleResult", "UnsupportedShape", "ValueResult", "acc_init",
    "acc_outcome", "acc_step", "acc_template", "encode_program", "fresh", "fresh_like", "sym_eq", "sym_ite",
    "sym_to_value",
]
