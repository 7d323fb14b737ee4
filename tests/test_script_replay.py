"""Replay of whole scripts on Spark (verifier/runtime/script_replay.py): the unmodified scripts of
cases/scripts run as ``python script.py FILE``.

Every not-equivalent pair is run on its witness file and must differ on Spark as the manifest says;
one equivalent pair is run on a random file and must agree; every run must show what the interpreter
predicted for it (modulo the order of bag outputs). All runs share one subprocess (one JVM start),
because a JVM start costs seconds. The partitionings Spark gives a written text file and a literal
are checked against the model of them (``text_file_partitions``, ``parallelize_partitions``). The tests
without the ``spark`` mark check the runner's bookkeeping offline (arguments, files, observations), with
partitionings recorded from Spark 4.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from frontend.script.rdd_script import align_sources, translate_script_file
from sparklite.values import Bag, ErrorOutcome
from verifier.core.script_inputs import (
    ReplayError,
    lines_file_text,
    parallelize_partitions,
    predict,
    text_file_partitions,
)
from verifier.runtime.script_replay import ScriptRun, _parse_repr, observe_run, replay_many, write_inputs

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = json.loads((ROOT / "cases" / "scripts" / "manifest.json").read_text())
# DataFrame scripts replay through verifier.runtime.df_script_replay (tests/test_df_script.py)
NOT_EQUIVALENT = [
    p for p in MANIFEST["pairs"] if p["expected"] == "not_equivalent" and not p.get("dataframe")
]
EQUIVALENT = "wordcount_save_two_ways"


def _pair(entry):
    left = translate_script_file(str(ROOT / entry["left"]))
    right = align_sources(left, translate_script_file(str(ROOT / entry["right"])))
    return left, right


def _random_file(seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    words = ["spark", "rdd", "map", "a", "b", ""]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(0, 5))) for _ in range(12)]


@pytest.fixture(scope="module")
def replays():
    """Every replay of this module, run in one batch."""
    pairs, names = [], []
    for entry in NOT_EQUIVALENT:
        left, right = _pair(entry)
        inputs = {s.param: entry["witness"]["files"][s.path] for s in left.sources}
        pairs.append((left, right, inputs, None))
        names.append(entry["name"])
    entry = next(p for p in MANIFEST["pairs"] if p["name"] == EQUIVALENT)
    left, right = _pair(entry)
    pairs.append((left, right, {s.param: _random_file() for s in left.sources}, None))
    names.append(EQUIVALENT)
    return dict(zip(names, replay_many(pairs), strict=True))


@pytest.mark.spark
@pytest.mark.parametrize("entry", NOT_EQUIVALENT, ids=lambda p: p["name"])
def test_not_equivalent_pair_differs_on_spark(replays, entry):
    r = replays[entry["name"]]
    assert r.differs, (r.left_outcome, r.right_outcome)
    assert r.left_agrees and r.right_agrees, (r.left_outcome, r.left_reference, r.right_outcome,
                                               r.right_reference)
    for side, run in (("left", r.left), ("right", r.right)):
        witness = entry["witness"]
        if f"{side}_exception" in witness:
            assert run.exception == witness[f"{side}_exception"]
            continue
        assert run.exception is None and run.exit_code == 0, run.stderr[-2000:]
        assert sorted(run.stdout_lines) == sorted(witness[f"{side}_stdout"])


@pytest.mark.spark
def test_equivalent_pair_agrees_on_a_random_file(replays):
    r = replays[EQUIVALENT]
    assert not r.differs, (r.left_outcome, r.right_outcome)
    assert r.left_agrees and r.right_agrees
    (left_files,) = r.left.files_written.values()
    (right_files,) = r.right.files_written.values()
    assert sorted(left_files) == sorted(right_files) and left_files
    words = [w for line in _random_file() for w in line.split()]
    assert sorted(left_files) == sorted(f"{w}\t{words.count(w)}" for w in set(words))


CONTENTS = [[], ["a"], ["ab", "cd"], ["a", "b", "c"], ["", "", ""], [f"line{i}" for i in range(11)],
            ["x", "", "yy", "zzz", ""], ["é", "ü", "ß"], ["aaaa", "bbbbb"]]


@pytest.mark.spark
def test_text_file_partitions_are_sparks(spark_context, tmp_path):
    for i, lines in enumerate(CONTENTS):
        path = tmp_path / f"f{i}.txt"
        path.write_bytes(lines_file_text(lines).encode("utf-8"))
        got = tuple(tuple(p) for p in spark_context.textFile(str(path), 2).glom().collect())
        assert got == text_file_partitions(lines, 2), lines


@pytest.mark.spark
def test_parallelize_partitions_are_sparks(spark_context):
    for n in (0, 1, 2, 5, 10, 33):
        for slices in (2, 3, 4):
            data = list(range(n))
            got = tuple(tuple(p) for p in spark_context.parallelize(data, slices).glom().collect())
            assert got == parallelize_partitions(data, slices), (n, slices)


# --- offline: the runner's bookkeeping ----------------------------------------------------------------

# What Spark 4.3 (local[2]) read back from these files with sc.textFile(path) and glom()
RECORDED = [
    ([], ()),
    (["a"], (("a",), ())),
    (["ab", "cd"], (("ab", "cd"), ())),
    (["a", "b", "c"], (("a", "b"), ("c",))),
    (["", "", ""], (("", ""), ("",), ())),
    ([f"line{i}" for i in range(11)], (tuple(f"line{i}" for i in range(6)),
                                       tuple(f"line{i}" for i in range(6, 11)))),
    (["x", "", "yy", "zzz", ""], (("x", "", "yy"), ("zzz", ""), ())),
    (["é", "ü", "ß"], (("é", "ü"), ("ß",), ())),
    (["aaaa", "bbbbb"], (("aaaa", "bbbbb"), (), ())),
]


def test_text_file_partitions_as_recorded():
    for lines, parts in RECORDED:
        assert text_file_partitions(lines, 2) == parts, lines


def test_parallelize_partitions_as_recorded():
    assert parallelize_partitions(list(range(5)), 2) == ((0, 1), (2, 3, 4))
    assert parallelize_partitions([0], 3) == ((), (), (0,))
    assert parallelize_partitions(list(range(10)), 4) == ((0, 1), (2, 3), (4, 5), (6, 7, 8, 9))


def test_lines_that_no_file_holds():
    assert lines_file_text(["a", ""]) == "a\n\n"
    for bad in (["a\nb"], ["x\r"], ["\ud800"]):
        with pytest.raises(ReplayError):
            lines_file_text(bad)


def test_inputs_and_arguments(tmp_path):
    sp = translate_script_file(str(ROOT / "cases" / "scripts" / "wordcount_save_concat.py"))
    argv = write_inputs(sp, {"lines_1": ["a b", "b"]}, str(tmp_path))
    assert argv == [str(tmp_path / "input_1.txt"), str(tmp_path / "output_2")]
    assert (tmp_path / "input_1.txt").read_text() == "a b\nb\n"
    assert not (tmp_path / "output_2").exists()


def test_observe_run_cuts_stdout_by_the_prediction():
    sp = translate_script_file(str(ROOT / "cases" / "scripts" / "max_salary_skip_header.py"))
    inputs = {"lines": ["name,salary", "ann,10"]}
    ref = predict(sp, inputs)
    assert ref == ("max salary: 10\nemployees: 1\n",)
    ok = ScriptRun(("max salary: 10", "employees: 1"), {}, None, 0)
    assert observe_run(sp, ok, ref, ["f"], "/w") == ref
    extra = ScriptRun(("max salary: 10", "employees: 1", "debug"), {}, None, 0)
    assert observe_run(sp, extra, ref, ["f"], "/w") != ref
    assert observe_run(sp, ScriptRun((), {}, "ValueError", 1), ref, ["f"], "/w") == ErrorOutcome("ValueError")
    loop = translate_script_file(str(ROOT / "cases" / "scripts" / "wordcount_tabs.py"))
    ref = predict(loop, {"lines_1": ["b a b"]})
    run = ScriptRun(("b\t2", "a\t1"), {}, None, 0)
    assert observe_run(loop, run, ref, ["f"], "/w") == ref == (Bag.of(["a\t1", "b\t2"]),)


def test_printed_reprs_are_read_back_without_eval():
    assert _parse_repr("[('a', 1), ('b', -2.5)]") == [("a", 1), ("b", -2.5)]
    assert _parse_repr("defaultdict(<class 'int'>, {'x': 2})") == {"x": 2}
    assert _parse_repr("[nan, -inf]")[1] == float("-inf")
    with pytest.raises(ValueError):
        _parse_repr("[__import__('os').getcwd()]")
