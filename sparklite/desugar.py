"""Desugaring to the kernel: the one place that says what Spark's aggregation methods are made of.

Why: "``foldByKey``/``aggregateByKey``/``reduceByKey`` are ``combineByKey`` with these functions" and
"``fold`` is ``aggregate`` with ``seq = comb``" used to be written four times (interpreter, bounded
evaluator, aggregate terms, partition independence), each a chance to disagree with Spark. The kernel
has one by-key aggregation and one zero-based whole-bag aggregation; the interpreter, the encoder and
the methods read only the kernel, and the surface forms live on in the frontends, the printer and the
messages (``surface`` fields keep the method's name, ``loc`` the user's line).

The rewrites follow PySpark's own code (``pyspark/core/rdd.py``):

- ``fold(zero, op)`` -> ``aggregate(zero, op, op)`` (PySpark's ``fold`` is exactly that computation);
- ``foldByKey(zero, op)`` -> ``combineByKey[zero](op, op, op)``, and ``aggregateByKey(zero, seq, comb)``
  -> ``combineByKey[zero](seq, seq, comb)``: ``zero`` is evaluated once on the driver and every
  (partition, key) starts with ``create(zero, v)``;
- ``reduceByKey(op)`` -> ``combineByKey(lambda v: v, op, op)``.

Kernel node types: every expression node except ``Fold``, ``FoldByKey``, ``AggregateByKey`` and
``ReduceByKey``. ``desugar`` is idempotent, so a consumer may call it on what it is given.
"""

from __future__ import annotations

import dataclasses

from sparklite import ast as A

SURFACE_ONLY = (A.Fold, A.FoldByKey, A.AggregateByKey, A.ReduceByKey)

_IDENTITY_PARAM = "v__kernel"  # a name no frontend produces (SparkLite identifiers have no "__" there)


def desugar(program: A.Program) -> A.Program:
    """``program`` in kernel form (see the module doc), marked ``kernel`` so that desugaring it again
    costs nothing."""
    if program.kernel:
        return program
    kernel = program if is_kernel(program) else A.transform(program, _rewrite)
    return dataclasses.replace(kernel, kernel=True)


def is_kernel(program: A.Program) -> bool:
    """Structurally: no surface-only node anywhere (whatever the ``kernel`` flag says)."""
    return not any(isinstance(n, SURFACE_ONLY) for n in A.walk(program))


def _rewrite(n: A.Node) -> A.Node:
    match n:
        case A.Fold(zero=z, op=op, source=src):
            return A.Aggregate(z, op, op, src, surface="fold", loc=n.loc)
        case A.FoldByKey(zero=z, op=op, source=src):
            return A.CombineByKey(op, op, op, src, z, surface="foldByKey", loc=n.loc)
        case A.AggregateByKey(zero=z, seq=seq, comb=comb, source=src):
            return A.CombineByKey(seq, seq, comb, src, z, surface="aggregateByKey", loc=n.loc)
        case A.ReduceByKey(op=op, source=src):
            identity = A.Lambda((A.Param(_IDENTITY_PARAM),), A.Var(_IDENTITY_PARAM), loc=n.loc)
            return A.CombineByKey(identity, op, op, src, surface="reduceByKey", loc=n.loc)
    return n
