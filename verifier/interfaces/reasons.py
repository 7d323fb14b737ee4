"""One or two sentences a user can act on, for every verdict (``Result.reason``).

The decision pipeline (``verifier.core.check``) records what each step said in ``stats["methods"]``, in the
methods' own vocabulary (RepVarSets, K1-K4, "not applicable (...)" once per method). That list is the
detail ``--explain`` shows; the default reason says instead *what blocked the proof*, *where in the
user's code* and *what was searched*. Nothing here decides anything: it only rewords a finished
``Result``, so the verdict and the counterexample are exactly what the pipeline produced.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from verifier.core.result import Result

# What a proof by each method means, in the user's terms (method names are the paper's).
_PROVED = {
    "NoAgg": "both programs compute the same output element from each input element, and keep the "
             "same elements",
    "AggOneSync": "the two aggregations step in lockstep: after every input element their "
                  "accumulators correspond",
    "AggOne": "an invariant relating the two aggregations holds for every input, element by element",
    "AggMult": "the aggregations, taken together, agree on every input, element by element",
    "AggOneK": "for every key, the per-key aggregations agree, and keys are grouped the same way",
    "Support": "both sets hold the same elements",
    "Ordered": "both programs order the same elements the same way and keep as many of them",
}

# A method's "not applicable"/"inconclusive" text -> what blocked it, in plain words.
_BLOCKERS: Sequence[tuple[str, str]] = (
    ("division by zero", "a division or modulo{where} may divide by zero, and the proof methods do "
                         "not reason about runtime errors"),
    ("possible (left to", "an operation may raise (an int() of a bad string, an index out of range...), "
                          "and the proof methods do not reason about runtime errors"),
    ("not proved partition-independent", "an aggregation{where} was not proved independent of how "
                                         "Spark partitions the data"),
    ("Z3 could not decide", "the solver could not decide a proof condition within its time limit"),
    ("unsupported shape", "the pipelines' shape is outside what the proof methods handle"),
    ("cannot encode", "an expression could not be translated for the solver"),
    ("self-product", "a self-join or cartesian product of the same input is involved"),
    ("no invariant", "no invariant in sparkeq's family relates the two aggregations"),
    ("induction step", "no invariant in sparkeq's family relates the two aggregations"),
    ("one-element condition fails", "the two aggregations' accumulators do not correspond element by "
                                    "element, so the step-by-step proofs fail (the final results may "
                                    "still agree)"),
    ("do not collapse in synchrony", "the two aggregations' accumulators do not correspond element by "
                                     "element"),
    ("base case fails", "the two aggregations start from different values (on an empty input)"),
    ("one-to-one correspondence", "the unions/flatMaps of the two programs do not correspond one to one"),
)

# Only the bounded search's clean summary licenses "every input of up to N elements" (not one that ran
# out of time or left cases undecided).
_BOUNDED = re.compile(r"bounded: no difference on input bags of up to (\d+) element\(s\)(?!;)")
_RANDOM = re.compile(r"difftest: no difference on (\d+) random input")
_GENERIC = ("no proof and no counterexample", "ran out of time")


def summarise(result: Result, programs: Iterable[Any] = ()) -> Result:
    """``result`` with a plain ``reason`` (the per-method detail stays in ``stats["methods"]``).

    ``programs`` (SparkLite ``Program``s of both sides, optional) let an unknown verdict point at the
    division that blocked the proof."""
    if result.verdict == "equivalent":
        reason = _equivalent(result)
    elif result.verdict == "not_equivalent":
        reason = _not_equivalent(result)
    elif result.verdict == "unknown" and (result.reason is None or result.reason.startswith(_GENERIC)):
        reason = _unknown(result, list(programs))
    else:
        return result
    outputs = result.stats.get("outputs", {})  # one result of several (verifier.core.kinds.outputs)
    if "index" in outputs and not reason.startswith("result "):
        reason = f"result {outputs['index'] + 1} of {outputs['count']} (index {outputs['index']}): {reason}"
    return dataclasses.replace(result, reason=reason)


def detail(result: Result) -> list[str]:
    """What each step of the pipeline said (for ``--explain``), one line per distinct statement: steps
    that said the same thing share a line (``NoAgg, AggOne: not applicable (...)``)."""
    grouped: dict[str, list[str]] = {}
    for step in (str(s) for s in result.stats.get("methods", ())):
        name, sep, said = step.partition(": ")
        key = said if sep else step
        grouped.setdefault(key, []).append(name if sep else "")
    return [f"{', '.join(names)}: {said}" if all(names) else said for said, names in grouped.items()]


def _equivalent(result: Result) -> str:
    # never "every input" silently: a proof that rests on assumptions (an unannotated input taken as
    # int, declared keys) says so, and the assumptions are listed with the result
    inputs = "every input the assumptions allow" if result.assumptions else "every input"
    if result.method == "congruence" and result.explanation:  # verifier.core.congruence: its own words
        return f"Proved for {inputs} and every partitioning: {result.explanation}."
    if ("relational" in result.stats or "cross" in result.stats) and result.explanation:  # the prover's words
        return f"Proved for {inputs} and every partitioning: {result.explanation}."
    why = _PROVED.get(result.method or "", "a proof method showed that the outputs agree")
    return f"Proved for {inputs} and every partitioning: {why}."


def _not_equivalent(result: Result) -> str:
    cex = result.counterexample
    if cex is None:  # pragma: no cover - the pipeline never builds one without a counterexample
        return "The programs differ."
    where = " with the partitioning shown" if cex.partitions is not None else ""
    spark = " Spark shows the same difference." if cex.replayed_on_spark else ""
    shown = "input files" if "script" in result.stats else "inputs"  # whole scripts read files
    rows = _row_difference(cex.left, cex.right)
    if rows is not None:  # DataFrame/SQL results: the rows that differ, not a cut JSON prefix
        return f"On the {shown} shown{where}, {rows}.{spark}"
    return (f"On the {shown} shown{where}, LEFT gives {_short(cex.left)} but RIGHT gives "
            f"{_short(cex.right)}.{spark}")


def _rows_of(v: dict[str, Any]) -> Any:
    return v.get("rows", v.get("sorted"))


def _renamed_like(v: dict[str, Any], like: dict[str, Any]) -> dict[str, Any] | None:
    """``v`` with ``like``'s column names, when the two have the same column types and distinct names
    (a check by position, ``--ignore-names``); else None."""
    names = [n for n, _ in like["columns"]]
    if [t for _, t in v["columns"]] != [t for _, t in like["columns"]] or len(set(names)) != len(names):
        return None
    if len({n for n, _ in v["columns"]}) != len(names):
        return None

    def row(r: Any) -> Any:
        return dict(zip(names, r.values(), strict=True)) if isinstance(r, dict) else r

    out = dict(v, columns=[[n, t] for n, (_, t) in zip(names, v["columns"], strict=True)])
    if "rows" in v:
        out["rows"] = [row(r) for r in v["rows"]]
    if "sorted" in v:
        out["sorted"] = [[row(r) for r in g] for g in v["sorted"]]
    return out


def _row_difference(left: Any, right: Any, limit: int = 3) -> str | None:
    """What differs between two DataFrame/SQL results (``rel_to_json`` forms): the columns, else the
    rows one side has and the other lacks (as bags), else the order; None for other values."""
    if not (isinstance(left, dict) and isinstance(right, dict) and "columns" in left and "columns" in right):
        return None
    if left["columns"] != right["columns"]:
        def cols(v: dict[str, Any]) -> str:
            return ", ".join(f"{n} {t}" for n, t in v["columns"])
        renamed = _renamed_like(right, left)
        if renamed is None or _rows_of(renamed) == _rows_of(left):
            return f"the results' columns differ: LEFT ({cols(left)}), RIGHT ({cols(right)})"
        right = renamed  # only the names differ (compared by position): the rows are what differs

    def flat(v: dict[str, Any]) -> list[Any]:
        return v["rows"] if "rows" in v else [r for group in v.get("sorted", []) for r in group]

    def key(row: Any) -> str:
        return json.dumps(row, sort_keys=True)

    lrows, rrows = Counter(key(r) for r in flat(left)), Counter(key(r) for r in flat(right))
    only_l, only_r = lrows - rrows, rrows - lrows
    if not only_l and not only_r:
        if left.get("taken") != right.get("taken"):
            return f"LEFT keeps {left.get('taken')} row(s) of its last group but RIGHT {right.get('taken')}"
        return "both results hold the same rows, in a different order"

    def listed(rows: Counter[str]) -> str:
        items = list(rows.elements())
        text = ", ".join(items[:limit])
        return text + (f" and {len(items) - limit} more" if len(items) > limit else "")

    parts = []
    if only_l:
        n = sum(only_l.values())
        parts.append(f"LEFT has {n} row{'s' if n > 1 else ''} RIGHT lacks: {listed(only_l)}")
    if only_r:
        n = sum(only_r.values())
        parts.append(f"RIGHT has {n} row{'s' if n > 1 else ''} LEFT lacks: {listed(only_r)}")
    return "; ".join(parts)


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _unknown(result: Result, programs: list[Any]) -> str:
    said = detail(result)
    text = " ".join(said) + " " + (result.reason or "")
    blocked = _blocker(text, programs)
    searched = _searched(text)
    timed_out = (result.reason or "").startswith("ran out of time")
    first = "No proof and no counterexample"
    if timed_out:
        first = "Ran out of time before a proof or a counterexample was found (raise --timeout)"
    first += f": {blocked}." if blocked else "."
    return f"{first} {searched}" if searched else first


def _blocker(text: str, programs: list[Any]) -> str | None:
    for needle, plain in _BLOCKERS:
        if needle in text:
            return plain.format(where=_where(needle, programs))
    return None


def _where(needle: str, programs: list[Any]) -> str:
    """`` at file:line:col`` of the first division/modulo (for a division hazard), else ``""``."""
    if "division" not in needle:
        return ""
    from sparklite.ast import BinOp, walk

    for program in programs:
        for node in walk(program):
            if isinstance(node, BinOp) and node.op in ("//", "%") and node.loc is not None:
                return f" ({node.op}) at {node.loc}"
    return ""


def _searched(text: str) -> str:
    bounded = _BOUNDED.search(text)
    random = _RANDOM.search(text)
    parts = []
    if random:
        parts.append(f"{int(random.group(1)):,} random inputs")
    if bounded:
        parts.append(f"every input of up to {bounded.group(1)} elements")
    if not parts:
        return ""
    return "Searched without finding a difference: " + " and ".join(parts) + " (details: --explain)."
