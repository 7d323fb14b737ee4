"""Round trip through PySpark source: random SparkLite programs (``sparklite.generate``) are printed as
PySpark code (``sparklite.codegen``), annotated, translated back by the frontend, and both programs are
run by the reference interpreter on random inputs and partitionings. Every translatable program must
agree on every trial; programs outside the fragment must be rejected with a located InputError."""

from __future__ import annotations

import random
from typing import Any

from frontend import translate_source
from sparklite.codegen import function_name, py_name, to_pyspark
from sparklite.errors import InputError
from sparklite.generate import random_inputs, random_partitionings, random_program
from sparklite.interpreter import run
from sparklite.typecheck import typecheck
from sparklite.types import BagType, BoolType, TupleType, Type
from sparklite.values import outcomes_equal

PROGRAMS = 300
TRIALS = 4


def annotation(t: Type) -> str:
    if isinstance(t, BagType):
        return f"RDD[{annotation(t.elem)}]"
    if isinstance(t, TupleType):
        return "tuple[" + ", ".join(annotation(e) for e in t.elems) + "]"
    return "bool" if isinstance(t, BoolType) else "int"


def annotated_source(program: Any) -> str:
    src = to_pyspark(program)
    name = function_name(program)
    params = ", ".join(f"{py_name(p.name)}: {annotation(p.type)}" for p in program.params)
    lines = src.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"def {name}("):
            lines[i] = f"def {name}({params}):"
            break
    else:
        raise AssertionError("no pipeline function in the generated code")
    return "from pyspark import RDD\n" + "\n".join(lines) + "\n"


def test_codegen_round_trip() -> None:
    translated = 0
    for seed in range(PROGRAMS):
        rng = random.Random(seed)
        program = random_program(rng)
        source = annotated_source(program)
        try:
            back = translate_source(source, function_name(program), filename=f"gen{seed}.py")
        except InputError as exc:
            assert exc.loc is not None, f"unlocated error for seed {seed}: {exc}"
            continue
        translated += 1
        typecheck(back)
        for _ in range(TRIALS):
            inputs = random_inputs(rng, program)
            parts = random_partitionings(rng, inputs)
            want, got = run(program, inputs, parts), run(back, inputs, parts)
            assert outcomes_equal(want, got), (
                f"seed {seed} on {parts or inputs}: {want!r} vs {got!r}\n{source}")
    assert translated >= PROGRAMS * 0.9
