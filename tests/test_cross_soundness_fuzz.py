"""The soundness fuzzer for cross-kind pairs (issue 23): sparkeq must never give a wrong definite verdict
on an RDD program against a DataFrame program.

Each pair (``crossfuzzutil.random_pair``) is a random RDD pipeline and its DataFrame translation, half
of them with one mutation on the DataFrame side. ``verifier.check`` answers with ``replay=False``; the two
reference interpreters judge the answer, never the labels:

- ``equivalent``: both programs run on many random tables (small ints, so that the proofs' assumptions,
  no overflow and exact division, hold; strings with the programs' literals; duplicates so that keys
  collide) through the correspondence of ``verifier.core.cross_inputs``; a run where Python sees
  different outputs (``same`` is False) is a violation.
- ``not_equivalent``: the counterexample's tables (read back from the result) are re-run; the outputs must
  differ there, definitely (no replay was asked, so no difference resting on an error may be reported).
- ``unknown`` is always allowed; ``error`` on these well-typed pairs is a crash.

``SPARKEQ_CROSS_FUZZ_PAIRS`` sets the number of pairs (200 in CI; 1,000 nightly:
``SPARKEQ_CROSS_FUZZ_PAIRS=1000 .venv/bin/python -m pytest tests/test_cross_soundness_fuzz.py``).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

from crossfuzzutil import random_pair

import verifier
from verifier.core.cross_inputs import correspond, rdd_inputs, same
from verifier.core.loading import load

SEED = 20260523
PAIRS = int(os.environ.get("SPARKEQ_CROSS_FUZZ_PAIRS", "200"))
TRIALS = 40


def _tables(rng: random.Random) -> dict[str, list[tuple]]:
    ints = (-3, -2, -1, 0, 1, 2, 3, 4, 5)
    strs = ("", "a", "b", "ab")
    t = [(rng.choice(ints), rng.choice(ints)) for _ in range(rng.randint(0, 5))]
    u = [(rng.choice(ints), rng.choice(strs)) for _ in range(rng.randint(0, 5))]
    if t and rng.random() < 0.3:
        t.append(rng.choice(t))
    return {"t": t, "u": u}


def _outcomes(lp: Any, rp: Any, c: Any, tables: dict[str, list[tuple]]) -> tuple[Any, Any]:
    from sparklite.interpreter import run as run_rdd
    from sparklite.relational.interpreter import run as run_rel

    return run_rdd(lp.program, rdd_inputs(c, tables)), run_rel(rp.program, tables).outcome


def check_pair(seed: int, index: int) -> tuple[str, str | None, Any]:
    """(verdict, violation or None, the pair): replays one pair of a campaign."""
    rng = random.Random(f"{seed}:{index}")
    pair = random_pair(rng, mutate=index % 2 == 1)
    result = verifier.check((pair.source, "r"), (pair.source, "d"), timeout=10)
    if result.verdict == "error":
        return "error", f"error on a well-typed pair: {result.reason}", pair
    if result.verdict == "unknown":
        return "unknown", None, pair
    lp, rp = load((pair.source, "r")), load((pair.source, "d"))
    c = correspond(lp.program.params, rp.program, "LEFT")
    if result.verdict == "equivalent":
        for _ in range(TRIALS):
            tables = _tables(rng)
            lo, ro = _outcomes(lp, rp, c, tables)
            if same(lo, ro) is False:
                why = f"proved equivalent, but the interpreters differ on {tables}: {lo} vs {ro}"
                return "equivalent", why, pair
        return "equivalent", None, pair
    cex = result.counterexample
    tables = {lk.table: [tuple(r) for r in cex.inputs[lk.rdd]] for lk in c.links}
    lo, ro = _outcomes(lp, rp, c, tables)
    if same(lo, ro) is not False:
        return "not_equivalent", f"the counterexample {tables} does not show a definite difference", pair
    return "not_equivalent", None, pair


def test_cross_kind_soundness_fuzz() -> None:
    verdicts: Counter[tuple[bool, str]] = Counter()
    violations = []
    for index in range(PAIRS):
        verdict, violation, pair = check_pair(SEED, index)
        verdicts[(pair.mutated, verdict)] += 1
        if violation is not None:
            violations.append(f"pair {index} ({' -> '.join(pair.steps)}): {violation}\n{pair.source}")
    print(dict(verdicts))
    assert not violations, "\n\n".join(violations[:3])
    faithful = sum(n for (m, _), n in verdicts.items() if not m)
    proved = verdicts[(False, "equivalent")]
    assert proved * 2 >= faithful, f"{proved} of {faithful} faithful translations proved: {dict(verdicts)}"
