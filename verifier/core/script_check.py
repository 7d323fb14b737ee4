"""Whole scripts in the check pipeline (``docs/scripts.md``; issue 12, "Whole scripts").

``frontend.script.rdd_script`` turns each script into a SparkLite program whose inputs are the script's
sources (text files, ``sys.argv`` values, ``parallelize`` literals) and whose result is the tuple of its sinks
(printed text, loops of printed lines, written part files, the exit code). ``verifier.core.kinds.rdd_script``
runs the ordinary pipeline on the two programs; this module supplies what differs for scripts, as one
``ScriptPair`` per check (no global state):

* **Inputs a script can be given.** A counterexample is a set of *files*: every line must be writable
  (no line break, valid UTF-8, no byte-order mark opening the file, which Hadoop's line reader drops), a
  ``parallelize`` literal has the values the script fixes (``fixed_inputs``), an argument holds no NUL.
  Candidates are ``realise``d that way or rejected.
* **Partitions a script cannot choose.** Spark cuts a file (and a literal) into partitions by its own rule
  (``script_replay.spark_partitions``), and two scripts may read the same file differently
  (``textFile`` splits it, ``spark.read.text`` reads a small file as one partition). So a candidate is
  evaluated with each side's *Spark* partitioning at the master's parallelism, never with the
  partitioning a method or the random search chose: the counterexample is exactly what a replay runs.
* **What "different" means.** Two scripts differ on a file only if no run of the one can write what a
  run of the other writes: different exception types, exit codes, part files (as bags), or standard
  output that no ordering Spark may choose makes equal (``observably_differ``). Comparing the sinks item
  by item is not enough: ``print("a")`` followed by a loop printing ``b`` writes the same text as two
  prints and an empty loop. Sinks of different shapes (a loop against a print, a file against stdout)
  go through the same test, so a shape difference is reported only with a concrete witness.
* **Counterexamples users can read and replay.** A difference resting on an exception is preferred when
  the exception does not depend on which failing task Spark reports first (``docs/scripts.md``, Known
  limits); the files are shrunk line by line; inputs are shown as files by path expression
  (``input_files``) and partitions as Spark reads those files.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from frontend.script.rdd_program import (
    DIR_LISTING,
    ScriptProgram,
    Sink,
    Source,
    file_text,
    fixed_inputs,
    input_files,
    path_name,
    text_input_hints,
    with_partition_counts,
)
from sparklite.ast import Program
from sparklite.values import (
    Bag,
    DictValue,
    ErrorOutcome,
    ListValue,
    Outcome,
    Partitioning,
    Sorted,
    outcomes_equal,
    to_json,
)
from verifier.core.base import Candidate
from verifier.core.validate import Confirmed, ValidationStats

__all__ = ["ScriptPair", "Evaluation", "observably_differ", "parallelism_of", "describe_sinks",
           "shape_difference", "reading_difference", "layout_sensitive"]

_LOCAL = re.compile(r"local(?:\[(\d+|\*)(?:,\s*\d+)?\])?")
_DEFAULT_PARALLELISM = 2
# How many more random inputs the search tries, after a difference resting on a task's exception that
# another failing task could replace, before it settles for that one.
_STABLE_PATIENCE = 400
_MAX_ROTATIONS = 8
_SINK_WORDS = {
    "print_value": "printed text", "print_branch": "printed text", "print_lines": "printed lines",
    "print_collection": "printed collection", "save_text": "files written", "exit": "exit code",
}


def parallelism_of(master: str) -> int:
    """Spark's default parallelism for ``master`` as far as it shapes a replay's partitions: ``local[N]``
    is N, ``local`` 1, ``local[*]`` the machine's cores; a cluster's is not known here (2 is assumed,
    and a replay that partitions otherwise shows as disagreeing with its prediction)."""
    m = _LOCAL.fullmatch(master.strip())
    if m is None:
        return _DEFAULT_PARALLELISM
    if m.group(1) is None:
        return 1
    if m.group(1) == "*":
        return os.cpu_count() or _DEFAULT_PARALLELISM
    return max(1, int(m.group(1)))


@dataclass(frozen=True)
class Evaluation:
    """One realised candidate: the inputs a script can be given, each side's Spark partitioning, both
    outcomes, whether they observably differ, and whether that difference survives another failing
    task being reported first (``stable``)."""

    candidate: Candidate
    right_partitions: Mapping[str, Partitioning]
    left: Outcome
    right: Outcome
    differs: bool
    stable: bool


@dataclass
class ScriptPair:
    """The two scripts of one check, ``right`` aligned with ``left`` (``rdd_script.align_sources``:
    the same inputs in the same order). Parameters are ``left``'s names throughout, as in the pipeline's
    ``Pair`` (``verifier.core.kinds.rdd`` renames RIGHT's parameters to LEFT's). ``fallback`` keeps, during
    one search, the first difference found that rests on an unstable exception."""

    left: ScriptProgram
    right: ScriptProgram
    parallelism: int = _DEFAULT_PARALLELISM
    hints: tuple[str, ...] = ()
    fallback: Evaluation | None = field(default=None, repr=False)

    @staticmethod
    def of(left: ScriptProgram, right: ScriptProgram, master: str) -> ScriptPair:
        hints = tuple(dict.fromkeys((*text_input_hints(left), *text_input_hints(right))))
        return ScriptPair(left, right, parallelism_of(master), hints)

    # -- inputs ----------------------------------------------------------------------------------

    def realise(self, inputs: Mapping[str, Any]) -> dict[str, Any] | None:
        """``inputs`` as the scripts can be given them, or None: each text source's lines written as a
        file (``None`` when some line cannot be), each ``parallelize`` literal its fixed values, each
        argument a string without NUL (a command line cannot hold one)."""
        out: dict[str, Any] = {}
        fixed = fixed_inputs(self.left)
        for s in self.left.sources:
            if s.kind == "literal":
                out[s.param] = list(fixed[s.param])
                continue
            if s.kind == "partitions":  # set from each side's partitioning when it runs
                out[s.param] = 0
                continue
            if s.kind in ("file_text", "dir_listing"):  # set when it runs (with_partition_counts)
                out[s.param] = ""
                continue
            if s.param not in inputs:
                out[s.param] = [] if s.kind == "text" else ""
                continue
            value = inputs[s.param]
            if s.kind == "argument":
                if not isinstance(value, str) or "\x00" in value or not _encodable(value):
                    return None
                out[s.param] = value
                if s.path_too:  # the file is named after it: one name per argument
                    taken = {out[r.param] for r in self.left.sources if r.path_too and r.param in out
                             and r.param != s.param}
                    name = path_name(value, s.argv_index or 0)
                    out[s.param] = name if name not in taken else f"path{s.argv_index}.txt"
                continue
            lines = list(value)
            if not all(isinstance(x, str) and _writable_line(x) for x in lines):
                return None
            if lines and lines[0].startswith("\ufeff"):  # Hadoop's LineRecordReader drops a leading BOM
                return None
            out[s.param] = lines
        return out

    def layouts(self, inputs: Mapping[str, Any]) -> tuple[dict[str, Partitioning], dict[str, Partitioning]]:
        """Each side's partitioning of ``inputs`` as Spark reads them (by LEFT's parameter names)."""
        from verifier.core.script_inputs import spark_partitions

        left = spark_partitions(self.left, inputs, self.parallelism)
        right_inputs = self.right_inputs(inputs)
        right = spark_partitions(self.right, right_inputs, self.parallelism)
        names = {rs.param: ls.param for ls, rs in zip(self.left.sources, self.right.sources, strict=True)}
        return left, {names[k]: v for k, v in right.items()}

    def counted_right(self, inputs: Mapping[str, Any], rparts: Mapping[str, Any]) -> dict[str, Any]:
        """``inputs`` (LEFT's names) with RIGHT's ``getNumPartitions()`` inputs set from RIGHT's own
        partitioning ``rparts`` (also by LEFT's names): a script reading a file otherwise counts its own."""
        names = {rs.param: ls.param for ls, rs in zip(self.left.sources, self.right.sources, strict=True)}
        out = dict(inputs)
        for ls, rs in zip(self.left.sources, self.right.sources, strict=True):
            if rs.kind == "partitions" and names.get(rs.partitions_of or "") in rparts:
                out[ls.param] = len(rparts[names[rs.partitions_of or ""]])
            elif rs.kind == "file_text" and names.get(rs.text_of or "") in inputs:
                out[ls.param] = file_text(inputs[names[rs.text_of or ""]])
            elif rs.kind == "dir_listing":
                out[ls.param] = DIR_LISTING
        return out

    def right_inputs(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """``inputs`` (by LEFT's parameter names) by RIGHT's own parameter names."""
        pairs = zip(self.left.sources, self.right.sources, strict=True)
        return {rs.param: inputs[ls.param] for ls, rs in pairs if ls.param in inputs}

    # -- evaluation ------------------------------------------------------------------------------

    def evaluate(self, left: Program, right: Program, candidate: Candidate) -> Evaluation | None:
        """Run ``left`` and ``right`` (the pair's programs, parameters by LEFT's names) on the realised
        ``candidate`` with Spark's partitionings; None when no file can hold it."""
        from sparklite.interpreter import run

        inputs = self.realise(candidate.inputs)
        if inputs is None:
            return None
        lparts, rparts = self.layouts(inputs)
        lin, rin = with_partition_counts(self.left, inputs, lparts), self.counted_right(inputs, rparts)
        lo, ro = run(left, lin, lparts), run(right, rin, rparts)
        differs = observably_differ(self.left, lo, self.right, ro)
        # rerun on the same inputs (the partition counts and file texts each side's run sets)
        stable = differs and _stable(left, lin, lparts, lo) and _stable(right, rin, rparts, ro)
        return Evaluation(Candidate(inputs, lparts, candidate.origin), rparts, lo, ro, differs, stable)

    def search_hook(self, left: Program, right: Program) -> Any:
        """The ``evaluate`` callback of ``verifier.core.difftest.search``: a stable difference at once; an
        unstable one is kept (``fallback``) while the search looks a little longer for a stable one."""
        self.fallback = None
        patience = [_STABLE_PATIENCE]

        def hook(candidate: Candidate) -> tuple[Candidate, Outcome, Outcome, bool] | None:
            ev = self.evaluate(left, right, candidate)
            if ev is None:
                return None
            if ev.differs and ev.stable:
                return ev.candidate, ev.left, ev.right, True
            if ev.differs and self.fallback is None:
                self.fallback = ev
            elif self.fallback is not None:
                patience[0] -= 1
            if self.fallback is not None and patience[0] <= 0:
                found = self.fallback
                return found.candidate, found.left, found.right, True
            return ev.candidate, ev.left, ev.right, False
        return hook

    def confirm(self, left: Program, right: Program, candidates: Iterable[Candidate],
                stats: ValidationStats, deadline: float | None) -> Confirmed | None:
        """``verifier.core.validate.validate`` for scripts: the first realised candidate on which the scripts
        observably differ (a stable one preferred), shrunk."""
        unstable: Evaluation | None = None
        for cand in candidates:
            if deadline is not None and time.monotonic() > deadline:
                break
            stats.tried += 1
            try:
                ev = self.evaluate(left, right, cand)
            except Exception as exc:  # noqa: BLE001 - an interpreter crash must not become a verdict
                stats.interpreter_failures.append(f"{type(exc).__name__}: {exc}")
                ev = None
            if ev is not None and ev.differs:
                if ev.stable:
                    return self.shrink(left, right, ev, deadline)
                unstable = unstable or ev
            stats.discarded += 1
        return self.shrink(left, right, unstable, deadline) if unstable is not None else None

    def shrink(self, left: Program, right: Program, found: Evaluation, deadline: float | None) -> Confirmed:
        """``found`` with lines removed from its files while the scripts still differ (and the difference
        stays stable if it was): a small file is easier to read, and a file with one failing line
        replays deterministically."""
        best = found
        # counted (each pass removes a line, so it ends), the check's deadline a hard cap (issue 24)
        end = deadline + 0.25 if deadline is not None else float("inf")
        changed = True
        while changed and time.monotonic() < end:
            changed = False
            for s in self.left.sources:
                if s.kind != "text":
                    continue
                lines = list(best.candidate.inputs[s.param])
                for i in range(len(lines)):
                    if time.monotonic() >= end:
                        break
                    smaller = {**best.candidate.inputs, s.param: lines[:i] + lines[i + 1:]}
                    try:
                        ev = self.evaluate(left, right, Candidate(smaller, None, best.candidate.origin))
                    except Exception:  # noqa: BLE001 - keep the larger, confirmed input
                        ev = None
                    if ev is not None and ev.differs and (ev.stable or not best.stable):
                        best, changed = ev, True
                        break
                if changed:
                    break
        c = best.candidate
        return Confirmed(c.inputs, c.partitions, best.left, best.right, c.origin)

    # -- reporting -------------------------------------------------------------------------------

    def files(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """The counterexample's inputs as JSON, by path expression (``{"sys.argv[1]": ["a,b,1"]}``)."""
        return {k: to_json(tuple(v)) if isinstance(v, list) else v for k, v in input_files(self.left,
                                                                                         inputs).items()}

    def shown_partitions(self, left: Program, right: Program, confirmed: Confirmed, sequential_ok: bool
                         ) -> dict[str, Any] | None:
        """Spark's partitions of the counterexample's files (LEFT's reading of them), by path expression,
        when they matter: some aggregation is not known to be partition-independent, or the scripts do
        not differ when every input is one partition. None otherwise."""
        from sparklite.interpreter import run

        matters = not sequential_ok
        if not matters:
            one = {s.param: (tuple(confirmed.inputs[s.param]),) for s in self.left.sources
                   if s.kind in ("text", "literal")}
            try:
                matters = not observably_differ(
                    self.left, run(left, with_partition_counts(self.left, confirmed.inputs, one), one),
                    self.right, run(right, self.counted_right(confirmed.inputs, one), one))
            except Exception:  # noqa: BLE001 - then show them
                matters = True
        if not matters:
            return None
        parts = confirmed.partitions or {}
        return {s.path: to_json(parts[s.param]) for s in self.left.sources
                if s.kind == "text" and s.param in parts}

    def other_readings(self, inputs: Mapping[str, Any]) -> list[str]:
        """A note for each file RIGHT reads into other partitions than LEFT (whose partitions the
        counterexample shows): ``textFile`` against ``spark.read.text``, or another ``minPartitions``."""
        left, right = self.layouts(inputs)
        return [f"RIGHT reads {ls.path} with {_reading(rs)}, in the partitions {_json(right[ls.param])} (the "
                f"partitions shown are LEFT's, read with {_reading(ls)})"
                for ls, rs in zip(self.left.sources, self.right.sources, strict=True)
                if ls.kind == "text" and left.get(ls.param) != right.get(ls.param)]

    def shown(self, side: str, value: Any) -> Any:
        """A side's outputs as the counterexample shows them (``value``: their JSON): a collection
        printed with constant text on its line as ``{"printed": [before, collection, after]}``, so that
        two scripts differing only in that text show where."""
        sp = self.left if side == "left" else self.right
        if not isinstance(value, list) or len(value) != _item_count(sp):
            return value
        out = list(value)
        for i in range(len(out)):
            k = _item(sp, i)[0]
            if k.observed == "elements" and (k.prefix or k.suffix):
                out[i] = {"printed": [k.prefix, out[i], k.suffix]}
        return out

    def description(self) -> dict[str, Any]:
        """Where each source and sink is in both scripts, for the report (``verifier.interfaces.render``):
        sources in input order with LEFT's and RIGHT's location, sinks per output item with what each
        writes."""
        sources = [{"path": f"{ls.path} (its text)" if ls.path_too else ls.path, "kind": ls.kind,
                    "left": str(ls.loc), "right": str(rs.loc)}
                   for ls, rs in zip(self.left.sources, self.right.sources, strict=True)]
        sinks = []
        for i in range(max(_item_count(self.left), _item_count(self.right))):
            sinks.append({side: [{"what": _sink_words(k) + (f" after {k.prefix!r}" if k.prefix else ""),
                              "at": str(k.loc)} for k in _item(sp, i)]
                          for side, sp in (("left", self.left), ("right", self.right))})
        return {"left": self.left.filename, "right": self.right.filename, "sources": sources, "sinks": sinks}


def _json(value: Any) -> str:
    import json

    return json.dumps(to_json(value))


def _writable_line(line: str) -> bool:
    return "\n" not in line and "\r" not in line and _encodable(line)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _stable(program: Program, inputs: Mapping[str, Any], parts: Mapping[str, Partitioning],
            outcome: Outcome) -> bool:
    """Does ``outcome``, if an exception, survive another failing task being reported first? The
    interpreter raises the first failing partition's exception, Spark the first task to fail: the
    program is run again with each partition first in turn (the partitions of every input rotated), and
    must raise the same every time. (A heuristic for choosing among counterexamples, never a reason for a
    verdict.)"""
    if not isinstance(outcome, ErrorOutcome):
        return True
    from sparklite.interpreter import run

    count = max((len(p) for p in parts.values()), default=0)
    for shift in range(1, min(count, _MAX_ROTATIONS)):
        rotated = {k: tuple(v[shift:]) + tuple(v[:shift]) for k, v in parts.items()}
        try:
            again = run(program, inputs, rotated)
        except Exception:  # noqa: BLE001
            return False
        if not (isinstance(again, ErrorOutcome) and again.kind == outcome.kind):
            return False
    return True


# ---------------------------------------------------------------------------------------------------
# Observable difference
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Segment:
    """A run of consecutive stdout lines whose order among themselves is Spark's choice: ``lines`` is
    their multiset (None: not known), ``size`` how many (None: not known); ``value`` is set for one
    printed collection (one line, the repr of ``value`` in an order Spark chooses)."""

    lines: tuple[str, ...] | None
    size: int | None
    value: Any = None


_UNKNOWN = _Segment(None, None)


def _item_count(sp: ScriptProgram) -> int:
    return len({k.index for k in sp.sinks})


def _item(sp: ScriptProgram, index: int) -> list[Sink]:
    return [k for k in sp.sinks if k.index == index]


def _sink_words(k: Sink) -> str:
    """What a sink writes, in a few words: ``printed lines (sorted)``, ``files written to sys.argv[2]``."""
    what = _SINK_WORDS.get(k.kind, k.kind.replace("_", " "))
    if k.kind == "save_text" and k.path:
        what = f"files written to {k.path}"
    elif k.observed == "sorted_lines":
        what += " (sorted)"
    elif k.observed == "lines_in_order":
        what += " (in order)"
    return what


def _text_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _element_lines(elements: Iterable[Any]) -> list[str] | None:
    out: list[str] = []
    for e in elements:
        if not isinstance(e, str):
            return None
        out.extend(e.split("\n"))
    return out


def _segments(sp: ScriptProgram, outcome: tuple[Any, ...]) -> list[_Segment]:
    """``outcome``'s standard output as segments, in order."""
    out: list[_Segment] = []
    for i, value in enumerate(outcome):
        sinks = _item(sp, i)
        if not sinks or not sinks[0].stdout:
            continue
        observed = sinks[0].observed
        if observed == "text":
            if not isinstance(value, str):
                out.append(_UNKNOWN)
                continue
            out.extend(_Segment((line,), 1) for line in _text_lines(value))
        elif observed == "elements":
            out.append(_Segment(None, 1, (sinks[0].prefix, value, sinks[0].suffix)))
        elif isinstance(value, Bag):
            lines = _element_lines(value.items)
            out.append(_Segment(tuple(lines), len(lines)) if lines is not None else _UNKNOWN)
        elif isinstance(value, ListValue):
            lines = _element_lines(value.items)
            out.extend(_Segment((x,), 1) for x in lines) if lines is not None else out.append(_UNKNOWN)
        elif isinstance(value, Sorted):
            for g, group in enumerate(value.groups):
                lines = _element_lines(group.items)
                if lines is None:
                    out.append(_UNKNOWN)
                elif value.taken is not None and g == len(value.groups) - 1:
                    one_each = all(isinstance(x, str) and "\n" not in x for x in group.items)
                    out.append(_Segment(None, value.taken if one_each else None))
                else:
                    out.append(_Segment(tuple(lines), len(lines)))
        else:
            out.append(_UNKNOWN)
    return out


def _ranges_differ(left: Sequence[_Segment], right: Sequence[_Segment]) -> bool:
    """Scanning from the front: whenever both sides' segments end at the same line, the lines since the
    last such point are a fixed multiset on each side in every run; different multisets mean different
    text. A segment of unknown size ends the scan."""
    i = j = 0
    while i < len(left) and j < len(right):
        gl, gr = [left[i]], [right[j]]
        i, j = i + 1, j + 1
        if gl[0].size is None or gr[0].size is None:
            return False
        nl, nr = gl[0].size, gr[0].size
        while nl != nr:
            if nl < nr:
                if i >= len(left) or left[i].size is None:
                    return False
                gl.append(left[i])
                nl += left[i].size  # type: ignore[operator]
                i += 1
            else:
                if j >= len(right) or right[j].size is None:
                    return False
                gr.append(right[j])
                nr += right[j].size  # type: ignore[operator]
                j += 1
        if len(gl) == 1 and len(gr) == 1 and gl[0].size == 1 and gl[0].value is not None \
                and gr[0].value is not None:
            if _labelled_differ(gl[0].value, gr[0].value):
                return True
            continue
        if all(s.lines is not None for s in (*gl, *gr)):
            if Counter(x for s in gl for x in s.lines or ()) != Counter(x for s in gr for x in s.lines or ()):
                return True
    return False


def _stdout_differs(left: list[_Segment], right: list[_Segment]) -> bool:
    sizes_l = [s.size for s in left]
    sizes_r = [s.size for s in right]
    if None not in sizes_l and None not in sizes_r and sum(sizes_l) != sum(sizes_r):  # type: ignore[arg-type]
        return True
    return _ranges_differ(left, right) or _ranges_differ(left[::-1], right[::-1])


def _sequence(v: Any) -> tuple[Any, ...] | None:
    if isinstance(v, Bag | ListValue):
        return v.items
    if isinstance(v, Sorted) and v.taken is None:
        return tuple(x for g in v.groups for x in g.items)
    return None


def _labelled_differ(a: tuple[str, Any, str], b: tuple[str, Any, str]) -> bool:
    """Do two printed collections with constant text around them (``print("n:", rdd.collect())``) surely
    print different lines? The same text around them: when the collections do. Otherwise when neither
    prefix starts the other or neither suffix ends the other (a collection's repr could otherwise make
    up the difference); else it cannot tell."""
    (pa, va, sa), (pb, vb, sb) = a, b
    if pa == pb and sa == sb:
        return _collections_differ(va, vb)
    return not (pa.startswith(pb) or pb.startswith(pa)) or not (sa.endswith(sb) or sb.endswith(sa))


def _collections_differ(a: Any, b: Any) -> bool:
    """Do two printed collections (one line each: the repr of a list or a dict) surely print different
    lines? Lists of different elements (as multisets) do, whatever order Spark gives them; two lists
    whose order is known are compared in order; a dict never prints like a list."""
    if isinstance(a, DictValue) or isinstance(b, DictValue):
        if isinstance(a, DictValue) and isinstance(b, DictValue):
            return not outcomes_equal(a, b)
        return _sequence(a if isinstance(b, DictValue) else b) is not None
    if isinstance(a, ListValue) and isinstance(b, ListValue):
        return not outcomes_equal(a, b)
    sa, sb = _sequence(a), _sequence(b)
    if sa is None or sb is None:
        return False
    return not outcomes_equal(Bag.of(sa), Bag.of(sb))


def _written(sp: ScriptProgram, outcome: tuple[Any, ...]) -> dict[str, Counter | None]:
    """The part files' lines of every ``saveAsTextFile``, by path expression (None: not known)."""
    out: dict[str, Counter | None] = {}
    for i, value in enumerate(outcome):
        for k in _item(sp, i)[:1]:
            if k.kind != "save_text":
                continue
            lines = _element_lines(value.items) if isinstance(value, Bag) else None
            key = k.path or f"#{i}"
            if key in out or lines is None:
                out[key] = None
            else:
                out[key] = Counter(lines)
    return out


def _exit_code(sp: ScriptProgram, outcome: tuple[Any, ...]) -> Any:
    for i, value in enumerate(outcome):
        if any(k.kind == "exit" for k in _item(sp, i)):
            return value
    return 0


def observably_differ(left: ScriptProgram, lo: Outcome, right: ScriptProgram, ro: Outcome) -> bool:
    """Does every run of ``left`` with outcome ``lo`` write something no run of ``right`` with outcome
    ``ro`` writes? An uncaught exception is observed by its type; otherwise the exit code, the lines of
    every written directory (a bag) and standard output, where the order of lines printed from a bag is
    Spark's choice (``_stdout_differs``). Conservative: False when it cannot tell."""
    le, re_ = isinstance(lo, ErrorOutcome), isinstance(ro, ErrorOutcome)
    if le or re_:
        return not (le and re_ and lo.kind == ro.kind)
    if not isinstance(lo, tuple) or not isinstance(ro, tuple):
        return False
    if len(lo) != _item_count(left) or len(ro) != _item_count(right):
        return False
    lx, rx = _exit_code(left, lo), _exit_code(right, ro)
    if type(lx) is int and type(rx) is int and lx != rx:
        return True
    lf, rf = _written(left, lo), _written(right, ro)
    if bool(lf) != bool(rf):
        return True  # one script writes a directory (saveAsTextFile always does), the other none
    if lf.keys() == rf.keys():
        if any(lf[k] is not None and rf[k] is not None and lf[k] != rf[k] for k in lf):
            return True
    elif None not in lf.values() and None not in rf.values():
        if sum(lf.values(), Counter()) != sum(rf.values(), Counter()):  # type: ignore[arg-type]
            return True
    return _stdout_differs(_segments(left, lo), _segments(right, ro))


# ---------------------------------------------------------------------------------------------------
# Inputs read differently
# ---------------------------------------------------------------------------------------------------


def _reading(s: Source) -> str:
    """How a text source is read, for notes: its reader, with ``minPartitions`` when given."""
    return f"{s.reader}(minPartitions={s.slices})" if s.slices else s.reader


def reading_difference(left: ScriptProgram, right: ScriptProgram) -> str | None:
    """An input the two scripts partition differently (``textFile`` against ``spark.read.text``, another
    ``numSlices``), or None. The proof methods compare the two programs under the *same* partitioning
    of every input, which is then not what Spark runs. Two different masters are such a difference:
    ``local[N]`` sets the default parallelism, the slices of every input read without a count."""
    if left.master != right.master:
        return f"LEFT sets the master {left.master or '(none)'} and RIGHT {right.master or '(none)'}: " \
               "the default parallelism, hence the partitions of the inputs, may differ"
    for ls, rs in zip(left.sources, right.sources, strict=True):
        if ls.kind == "text" and ls.reader != rs.reader:
            return f"{ls.path} is read with {ls.reader} by LEFT and with {rs.reader} by RIGHT"
        if ls.kind == "text" and ls.slices != rs.slices:
            return f"{ls.path} is read with minPartitions {ls.slices or 'default'} by LEFT and " \
                   f"{rs.slices or 'default'} by RIGHT"
        if ls.kind == "literal" and ls.slices != rs.slices:
            return f"the literal {ls.path} is parallelized into {ls.slices or 'the default number of'} " \
                   f"slices by LEFT and {rs.slices or 'the default number of'} by RIGHT"
    return None


def layout_sensitive(program: Program) -> str | None:
    """An operation of ``program`` (its kernel) whose observed result may change with the partitioning
    of its inputs even when every aggregation is partition-independent, or None: ``take``/``first``
    (which elements come first after a shuffle), ``collectAsMap`` (which value of a key), a group kept
    as a list (in arrival order), ``takeOrdered`` (conservatively), and a collected list the driver
    computes with (its order). A ``collect()`` that is only a strict job (an unused let) or one item of
    the result (observed as a bag) is not."""
    from sparklite import ast as A

    def at(what: str, node: A.Node) -> str:
        return f"{what} at {node.loc}" if node.loc is not None else what

    items = program.body.elems if isinstance(program.body, A.TupleExpr) else (program.body,)
    roots = [*(b.value for b in program.lets), program.body, *program.defs]
    used = Counter(n.name for r in roots for n in A.walk(r) if isinstance(n, A.Var))
    as_item = Counter(e.name for e in items if isinstance(e, A.Var))
    harmless = {id(e) for e in items if isinstance(e, A.Collect)}  # a result item: observed as a bag
    harmless |= {id(b.value) for b in program.lets if used[b.name] == as_item[b.name] <= 1}
    for r in roots:
        for n in A.walk(r):
            if isinstance(n, A.Take | A.First | A.CollectAsMap | A.TakeOrdered):
                return at(type(n).__name__, n)
            if isinstance(n, A.GroupByKeyAgg) and "list" in n.kinds:
                return at("a group kept as a list", n)
            if isinstance(n, A.Collect) and id(n) not in harmless:
                return at("a collected list the driver computes with", n)
    return None


# ---------------------------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------------------------


def _signature(sp: ScriptProgram, index: int) -> tuple[Any, ...]:
    sinks = _item(sp, index)
    k = sinks[0]
    if k.kind == "save_text":
        return ("files", k.path)
    if k.kind == "exit":
        return ("exit",)
    if k.observed == "elements" and (k.prefix or k.suffix):
        return ("stdout", k.observed, k.prefix, k.suffix)
    return ("stdout", k.observed)


def describe_sinks(sp: ScriptProgram) -> str:
    """``1. printed lines (job.py:20:5), 2. exit code (job.py:30:1)``."""
    parts = []
    for i in range(_item_count(sp)):
        texts = [f"{_sink_words(k)} ({k.loc})" for k in _item(sp, i)]
        parts.append(f"{i + 1}. " + " + ".join(texts))
    return ", ".join(parts) or "none"


def shape_difference(left: ScriptProgram, right: ScriptProgram, left_result: Any, right_result: Any
                     ) -> str | None:
    """Why the two scripts' outputs cannot be compared item by item (a proof compares them so), or None:
    a different number of outputs, an output of another kind at the same place (printed text against
    printed lines, a file against standard output, sorted against unsorted lines), or of another type."""
    n, m = _item_count(left), _item_count(right)
    if n != m:
        return f"LEFT writes {n} output(s) and RIGHT {m}"
    for i in range(n):
        if _signature(left, i) != _signature(right, i):
            return (f"output {i + 1} is {_describe_item(left, i)} in LEFT but {_describe_item(right, i)} "
                    "in RIGHT")
    if left_result is not None and right_result is not None and left_result != right_result:
        lt = getattr(left_result, "elems", None)
        rt = getattr(right_result, "elems", None)
        if lt is not None and rt is not None and len(lt) == len(rt):
            for i, (a, b) in enumerate(zip(lt, rt, strict=True)):
                if a != b:
                    return (f"output {i + 1} ({_describe_item(left, i)}) holds values of type {a} in LEFT "
                            f"but {b} in RIGHT")
        return f"LEFT's outputs have type {left_result} but RIGHT's {right_result}"
    return None


def _describe_item(sp: ScriptProgram, index: int) -> str:
    return " + ".join(f"{_sink_words(k)} at {k.loc}" for k in _item(sp, index))
