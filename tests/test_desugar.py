"""The kernel (``sparklite.desugar``): every by-key form is ``combineByKey``, ``fold`` is ``aggregate``.

What the interpreter, the encoder and the methods read is the kernel, so the differential test against
Spark (``test_interpreter_vs_spark``, surface programs run by Spark, kernel programs by the interpreter)
and the soundness fuzzer are the real checks of the rewrites; these tests pin their shape.
"""

from __future__ import annotations

import random

from sparklite import ast as A
from sparklite.desugar import SURFACE_ONLY, desugar, is_kernel
from sparklite.generate import GenConfig, random_program
from sparklite.parser import parse
from sparklite.printer import pretty
from verifier.core.base import Options
from verifier.core.methods import partition_independence as pi


def kernel_of(src: str) -> A.Program:
    return desugar(parse(src))


def test_by_key_forms_become_combine_by_key_with_their_names() -> None:
    p = kernel_of("program p(R: Bag[(Int, Int)]) =\n"
                  "  (foldByKey(0, lambda (a: Int, b: Int) -> a + b)(R),"
                  " aggregateByKey(1, lambda (a: Int, v: Int) -> a * v, lambda (a: Int, b: Int) -> a * b)(R),"
                  " reduceByKey(lambda (a: Int, b: Int) -> max(a, b))(R))\n")
    combines = [n for n in A.walk(p) if isinstance(n, A.CombineByKey)]
    assert [c.surface for c in combines] == ["foldByKey", "aggregateByKey", "reduceByKey"]
    assert [c.zero for c in combines] == [A.IntLit(0), A.IntLit(1), None]
    fold_by_key, agg_by_key, _ = combines
    assert fold_by_key.create == fold_by_key.merge_value == fold_by_key.merge_combiners
    assert agg_by_key.create == agg_by_key.merge_value != agg_by_key.merge_combiners


def test_fold_becomes_aggregate() -> None:
    p = kernel_of("program p(R: Bag[Int]) =\n  fold(0, lambda (a: Int, b: Int) -> a + b)(R)\n")
    assert isinstance(p.body, A.Aggregate) and p.body.surface == "fold"
    assert p.body.seq == p.body.comb


def test_desugar_is_idempotent_and_total_on_random_programs() -> None:
    rng = random.Random(3)
    seen: set[type] = set()
    for _ in range(200):
        program = random_program(rng, config=GenConfig(max_depth=2))
        seen |= {type(n) for n in A.walk(program) if isinstance(n, SURFACE_ONLY)}
        k = desugar(program)
        assert is_kernel(k) and desugar(k) == k
        assert desugar(parse(pretty(k))) == k  # the printer shows kernel nodes as what they came from
    assert seen == set(SURFACE_ONLY)


def test_messages_name_the_method_the_user_wrote() -> None:
    p = parse("program p(R: Bag[(Int, Int)]) =\n  foldByKey(1, lambda (a: Int, b: Int) -> a + b)(R)\n")
    (check,) = pi.check_program(p, Options(timeout_s=5))
    assert not check.independent and "foldByKey" in check.warning()


def test_a_kernel_program_is_marked_and_not_walked_again() -> None:
    """The interpreter and the encoders desugar what they are given; on a kernel program that must be
    free (the mark does not take part in equality)."""
    p = parse("program p(R: Bag[Int]) =\n  fold(0, lambda (a: Int, b: Int) -> a + b)(R)\n")
    k = desugar(p)
    assert k.kernel and not p.kernel and desugar(k) is k
    unmarked = desugar(parse("program q(R: Bag[Int]) =\n  count(R)\n"))
    assert unmarked.kernel and unmarked == parse("program q(R: Bag[Int]) =\n  count(R)\n")
