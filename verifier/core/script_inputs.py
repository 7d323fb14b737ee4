"""The files of a script counterexample as Spark will read them in a replay, and the run they predict.

``spark_partitions`` gives the partitioning Spark uses for a written text file (Hadoop's byte-range
splits, ``text_file_partitions``) or a literal list (``parallelize_partitions``), so the reference
interpreter can predict the very run that is replayed (``predict``). Why in the core, apart from the
replay runner (``verifier.runtime.script_replay``): these are part of the model of Spark the verdict
rests on (a scripts' counterexample is validated on them before it is replayed), and computing them runs
no Spark. ``ReplayError`` says a script cannot be replayed at all (a line no text file can hold).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from frontend.script.rdd_program import ScriptProgram
from sparklite.values import Outcome, Partitioning

_SPLIT_SLOP = 1.1  # Hadoop FileInputFormat's
_MAX_SMALL_FILE = 4 * 1024 * 1024  # spark.sql.files.openCostInBytes: one DataFrame partition below it


class ReplayError(RuntimeError):
    """A script could not be replayed at all (an input that no file can hold, a path that cannot be
    redirected, Spark not starting): there is no outcome to compare."""


def lines_file_text(lines: Sequence[str]) -> str:
    """The text file whose lines ``sc.textFile`` reads back as ``lines`` (each line ends with a newline).
    A line holding a line break, or a lone surrogate (not UTF-8), cannot be written: ``ReplayError``."""
    for line in lines:
        if not isinstance(line, str):
            raise ReplayError(f"a text input holds strings, not {type(line).__name__} ({line!r})")
        if "\n" in line or "\r" in line:
            raise ReplayError(f"the line {line!r} holds a line break: no text file has it as one line")
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:
            raise ReplayError(f"the line {line!r} cannot be written as UTF-8") from None
    return "".join(f"{line}\n" for line in lines)


def text_file_partitions(lines: Sequence[str], min_partitions: int = 2) -> Partitioning:
    """The partitions ``sc.textFile`` reads from the file ``lines_file_text(lines)``: Hadoop's
    ``FileInputFormat`` cuts the file into byte ranges of ``len // min_partitions`` bytes (the last
    range up to 1.1 times longer), and a line belongs to the range in which it starts (the first range
    from byte 0 on, the others after their first byte, up to and including their last). An empty file
    has no partition at all."""
    data = lines_file_text(lines).encode("utf-8")
    total = len(data)
    if total == 0:  # Hadoop makes no split of an empty file: an RDD with no partition
        return ()
    goal = total // max(1, min_partitions)
    size = max(1, goal)
    splits: list[tuple[int, int]] = []
    remaining = total
    while remaining / size > _SPLIT_SLOP:
        start = total - remaining
        splits.append((start, start + size))
        remaining -= size
    if remaining:
        splits.append((total - remaining, total))
    starts = []
    pos = 0
    for line in lines:
        starts.append(pos)
        pos += len(line.encode("utf-8")) + 1
    parts: list[list[str]] = [[] for _ in splits]
    for line, p in zip(lines, starts, strict=True):
        for i, (s, e) in enumerate(splits):
            if (p == 0 and i == 0) or (s < p <= e):
                parts[i].append(line)
                break
    return tuple(tuple(p) for p in parts)


def parallelize_partitions(values: Sequence[Any], slices: int = 2) -> Partitioning:
    """``sc.parallelize(values, slices)``'s partitions: PySpark pickles the list in batches of
    ``len // slices`` elements (at least 1, at most 1024) and the JVM cuts the list of batches into
    ``slices`` runs by position."""
    items = list(values)
    batch = max(1, min(len(items) // slices, 1024))
    batches = [items[i:i + batch] for i in range(0, len(items), batch)]
    n = len(batches)
    parts = []
    for i in range(slices):
        lo, hi = (i * n) // slices, ((i + 1) * n) // slices
        parts.append(tuple(x for b in batches[lo:hi] for x in b))
    return tuple(parts)


def spark_partitions(sp: ScriptProgram, inputs: Mapping[str, Any], parallelism: int = 2
                     ) -> dict[str, Partitioning]:
    """The partitioning of every bag input of ``sp`` as Spark reads it in a replay with ``inputs`` (by
    parameter name): what the interpreter must be given to predict that run."""
    out: dict[str, Partitioning] = {}
    for s in sp.sources:
        if s.kind == "text":
            lines = list(inputs[s.param])
            if s.reader == "spark.read.text":
                if len(lines_file_text(lines).encode("utf-8")) > _MAX_SMALL_FILE:
                    raise ReplayError("spark.read.text of a file over 4 MB: its partitioning is not modelled")
                # a small file is one partition; an empty one none at all, as for textFile (seen on
                # Spark 4: countByValue of spark.read.text(empty).rdd raises ValueError)
                out[s.param] = (tuple(lines),) if lines else ()
            else:
                out[s.param] = text_file_partitions(lines, s.slices or min(parallelism, 2))
        elif s.kind == "literal":
            assert s.values is not None
            out[s.param] = parallelize_partitions(s.values, s.slices or parallelism)
    return out


def predict(sp: ScriptProgram, inputs: Mapping[str, Any], parallelism: int = 2) -> Outcome:
    """The interpreter's outcome of ``sp`` on ``inputs`` with the partitionings Spark will use for the
    written files and literals (``spark_partitions``): what a replay of the script must show. A
    counterexample found with other partitionings should be re-validated with this before replaying."""
    from frontend.script.rdd_program import with_partition_counts
    from sparklite.interpreter import run

    parts = spark_partitions(sp, inputs, parallelism)
    return run(sp.program, with_partition_counts(sp, inputs, parts), parts)
