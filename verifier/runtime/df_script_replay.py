"""Replay of DataFrame scripts: both *unmodified* scripts run on Spark with a counterexample's input files.

The files are written in the format each script reads (CSV with or without a header, JSON lines; catalog
tables as JSON lines the runner creates temp views from), ``sys.argv`` points at them, and each script
runs in a fresh Python process (``verifier.runtime.script_replay.run_scripts``: one JVM start for all the
runs of a batch). What a run wrote -- its printed lines, the part files of every written path, its error
and error condition -- is compared with the interpreter's prediction (``verifier.core.df_script_search``);
the verdict that follows from the comparison is the core's (``verifier.core.kinds.df_script``).
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from frontend.script.df_listing import listing_file
from frontend.script.df_program import DfScriptProgram
from sparklite.values import Bag
from verifier.core.df_script_search import (
    FILE_KINDS,
    DfObservation,
    canonical_json,
    observably_differ,
    source_lines,
)

_ADDRESS = re.compile(r"(<pyspark\.sql\.session\.SparkSession object at )0x[0-9a-fA-F]+>")
# an RDD's repr (ParallelCollectionRDD[0] at readRDDFromFile at PythonRDD.scala:326): id and lineage
_RDD = re.compile(r"\b\w*RDD\[\d+\] at \w+ at [\w.]+:\d+")


def _stand_ins(line: str, argv: Sequence[str]) -> str:
    """A real run's line with what the prediction prints as stand-ins (``Part`` kinds ``arg`` and
    ``opaque``): each command-line argument (the replay's own file paths) as ``sys.argv[i]``, the
    SparkSession's object address as ``0x…``. The comparison excludes the address; the arguments are the
    same for both scripts of a pair by construction, so they are compared as their names."""
    line = _ADDRESS.sub(r"\g<1>0x…>", line)
    line = _RDD.sub("<RDD: its id and lineage>", line)  # frontend.script.mixed_df.RDD_REPR
    for i, arg in sorted(enumerate(argv, 1), key=lambda ia: -len(ia[1])):
        if arg:
            line = line.replace(arg, f"sys.argv[{i}]")
    return line


_CONDITION = re.compile(r"\[([A-Z][A-Z0-9_]+(?:\.[A-Z0-9_]+)*)\]")


@dataclass(frozen=True)
class RunObservation:
    """A real run: its stdout lines, the files of every written path (header, lines), the error."""

    lines: tuple[str, ...]
    files: tuple[tuple[str, Any], ...]
    error: str | None
    condition: str | None

    def as_observation(self) -> DfObservation:
        text = "".join(f"{line}\n" for line in self.lines)
        return DfObservation((("text", text),), self.files, self.error, frozenset(), self.condition)


@dataclass(frozen=True)
class DfReplay:
    left: RunObservation
    right: RunObservation
    differs: bool
    left_agrees: bool
    right_agrees: bool
    seconds: float = 0.0
    stderr: tuple[str, str] = ("", "")


def _views(
    sp: DfScriptProgram, tables: Mapping[str, list[tuple]], workdir: str
) -> tuple[tuple[str, str, str], ...]:
    """The catalog tables a script reads (``spark.table(name)``, SQL over ``--schema`` tables), written as
    JSON lines for the replay runner to create as temp views: (name, DDL schema, file)."""
    views = []
    for s in sp.sources:
        if s.kind != "table":
            continue
        target = os.path.join(workdir, f"table_{len(views)}.json")
        with open(target, "w", encoding="utf-8", newline="") as fh:
            fh.writelines(
                f"{line}\n" for line in source_lines(s.schema, tables.get(s.param, []), "json", False, ",")
            )
        ddl = ", ".join(f"`{f.name.replace('`', '``')}` {f.type}" for f in s.schema.fields)
        views.append((s.param, ddl, target))
    return tuple(views)


def _write_inputs(sp: DfScriptProgram, tables: Mapping[str, list[tuple]], workdir: str) -> list[str]:
    from verifier.core.script_inputs import ReplayError

    argv: list[str | None] = [None] * (sp.argv_length - 1)
    for s in sp.sources:
        if s.kind not in FILE_KINDS:
            continue
        text = "".join(
            f"{line}\n" for line in source_lines(s.schema, tables.get(s.param, []), s.kind, s.header, s.sep)
        )
        if s.literal_path is not None:
            if os.path.isabs(s.literal_path):
                raise ReplayError(
                    f"{s.loc}: the script reads the absolute path {s.literal_path!r}: a replay "
                    "cannot redirect it without editing the script (use sys.argv or a relative "
                    "path)"
                )
            target = os.path.join(workdir, s.literal_path)
        elif s.dir_glob is not None:  # sys.argv[i] + "/*.csv": a directory holding one file (df_listing)
            target = os.path.join(workdir, f"input_{s.argv_index}", listing_file(s.dir_glob))
        else:
            target = os.path.join(workdir, f"input_{s.argv_index}.{s.kind}")
        os.makedirs(os.path.dirname(target) or workdir, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        if s.argv_index is not None:
            argv[s.argv_index - 1] = os.path.dirname(target) if s.dir_glob is not None else target
    for k in sp.sinks:
        if k.kind == "write" and k.argv_index is not None:
            argv[k.argv_index - 1] = os.path.join(workdir, f"output_{k.argv_index}")
        elif k.kind == "write" and k.literal_path is not None and os.path.isabs(k.literal_path):
            raise ReplayError(f"{k.loc}: the script writes the absolute path {k.literal_path!r}")
    return [a if a is not None else f"unused_{i + 1}" for i, a in enumerate(argv)]


def _written(sp: DfScriptProgram, argv: Sequence[str], workdir: str) -> tuple[tuple[str, Any], ...]:
    out: dict[str, Any] = {}
    for k in sp.sinks:
        if k.kind != "write":
            continue
        assert k.path is not None
        where = k.literal_path if k.literal_path is not None else argv[k.argv_index - 1]  # type: ignore[operator]
        directory = os.path.join(workdir, where)
        if not os.path.isdir(directory):
            out[k.path] = ("(nothing written)", Bag.of([]))
            continue
        header = None
        lines: list[str] = []
        for name in sorted(os.listdir(directory)):
            if not name.startswith("part-") or name.endswith(".crc"):
                continue
            with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as fh:
                part = fh.read().splitlines()
            if k.header and part:
                header, part = part[0], part[1:]
            lines.extend(canonical_json(x) if k.fmt == "json" else x for x in part)
        out[k.path] = (header if lines else None, Bag.of(lines))
    return tuple(sorted(out.items()))


def _runnable(sp: DfScriptProgram, workdir: str) -> str:
    """The file a replay runs: the script itself, or (a notebook, code given a session) its code as the
    translator read it, written beside the inputs."""
    if sp.code is None:
        return sp.filename
    target = os.path.join(workdir, "_sparkeq_script.py")
    with open(target, "w", encoding="utf-8") as fh:
        fh.write(sp.code)
    return target


def _agrees(run: RunObservation, predicted: DfObservation) -> bool:
    if predicted.unmodelled is not None:  # known up to an opaque call: Spark's text starts with it
        text, seen = predicted.text(), run.as_observation().text()
        return run.error is None and text is not None and seen is not None and seen.startswith(text)
    if predicted.error is not None or run.error is not None:
        if predicted.error is None or run.error is None:
            return False
        return predicted.condition is None or predicted.condition == run.condition
    obs = run.as_observation()
    if dict(obs.files) != dict(predicted.files):
        return False
    if obs.line_keys() != predicted.line_keys():
        return False
    text = predicted.text()
    return text is None or text == obs.text()


def replay_df_scripts(
    pairs: Sequence[
        tuple[
            DfScriptProgram, DfScriptProgram, Mapping[str, list[tuple]], tuple[DfObservation, DfObservation]
        ]
    ],
    master: str = "local[2]",
) -> list[DfReplay]:
    """Run both unmodified scripts of every pair on Spark with the pair's input files (all runs in one
    Python process: one JVM start), and compare what they wrote."""
    from verifier.runtime.script_replay import ScriptJob, run_scripts

    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sparkeq-dfreplay-") as root:
        plans = []
        for i, (left, right, tables, refs) in enumerate(pairs):
            sides = []
            for side, sp, ref in (("left", left, refs[0]), ("right", right, refs[1])):
                wd = os.path.join(root, f"{i}-{side}")
                os.makedirs(wd)
                sides.append((sp, ref, _write_inputs(sp, tables, wd), wd))
            plans.append(sides)
        jobs = [
            ScriptJob(_runnable(sp, wd), tuple(argv), wd, _views(sp, tables, wd))
            for sides in plans
            for sp, _, argv, wd in sides
        ]
        runs = iter(run_scripts(jobs, master))
        out = []
        for sides in plans:
            seen = []
            for sp, ref, argv, wd in sides:
                r = next(runs)
                cond = None
                if r.exception is not None:
                    found = _CONDITION.findall(r.stderr)
                    cond = found[-1] if found else None
                error = None if r.exception is None else r.exception + (f" [{cond}]" if cond else "")
                if r.exception is None and r.exit_code != 0:
                    error = f"SystemExit({r.exit_code})"
                lines = tuple(_stand_ins(line, argv) for line in r.stdout_lines)
                obs = RunObservation(lines, _written(sp, argv, wd), error, cond)
                seen.append((obs, _agrees(obs, ref), r.stderr))
            (lo, la, lerr), (ro, ra, rerr) = seen
            differs = observably_differ(lo.as_observation(), ro.as_observation())
            out.append(
                DfReplay(
                    lo, ro, differs, la, ra, (time.monotonic() - start) / max(1, len(plans)), (lerr, rerr)
                )
            )
    return out
