"""DataFrame scripts in script mode (frontend/script/df_script.py, verifier/core/kinds/df_script.py;
docs/scripts.md).

What is checked, without Spark: the DataFrame pairs of cases/scripts/manifest.json get their expected
verdicts with their witness files and outputs (CSV lines with a header, JSON lines), the equivalent ones
by a proof listing its assumptions; what the proof refuses (a different print text, show() arguments,
save mode, read mode, sort, printed column names, sink order, argument count); sources and sinks
are found with their lines; located input errors for what is outside the fragment (inferSchema without
a schema, parquet, printSchema...), exit 3 from the CLI; the human report names sources and sinks in
both scripts; show()'s text, the CSV/JSON writers' lines and what counts as observably different.
With Spark (marked slow): every not-equivalent pair's counterexample replays by running the two
unmodified scripts on the witness files, show() prints exactly the predicted table, a proved pair
writes the same files on Spark, and a pair reading catalog tables replays with the tables created.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from schema_util import validate

from frontend.script.df_program import align_df_sources
from frontend.script.df_script import is_df_script, translate_df_script, translate_df_script_file
from sparklite.errors import InputError
from sparklite.values import Bag, Sorted
from verifier import check, replay_counterexamples
from verifier.core.df_script_search import DfObservation, csv_field, json_line, observably_differ, observe
from verifier.interfaces.cli import main

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = json.loads((ROOT / "cases" / "scripts" / "manifest.json").read_text())
PAIRS = [p for p in MANIFEST["pairs"] if p.get("dataframe")]
NOT_EQUIVALENT = [p for p in PAIRS if p["expected"] == "not_equivalent"]
EQUIVALENT = [p for p in PAIRS if p["expected"] == "equivalent"]

# script -> (sources (param, kind, path, line), sinks (kind, line))
EXPECTED = {
    "dept_avg_salary_df": ([("employees", "csv", "sys.argv[1]", 14)], [("show", 21)]),
    "dept_avg_salary_sql": ([("input", "csv", "sys.argv[1]", 17)], [("show", 18)]),
    "comp_per_dept": ([("payroll", "csv", "sys.argv[1]", 13)], [("write", 16), ("print", 17)]),
    "comp_per_dept_split_sums": ([("payroll", "csv", "sys.argv[1]", 13)], [("write", 16), ("print", 17)]),
    "customer_revenue": ([("orders", "json", "sys.argv[1]", 11)], [("print_rows", 15)]),
    "customer_revenue_wrong_column": ([("orders", "json", "sys.argv[1]", 11)], [("print_rows", 15)]),
    "large_orders_filter_after_join": (
        [("orders", "csv", "sys.argv[1]", 14), ("customers", "csv", "sys.argv[2]", 15)],
        [("write", 18), ("print", 19)],
    ),
    "large_orders_filter_before_join": (
        [("orders", "csv", "sys.argv[1]", 12), ("customers", "csv", "sys.argv[2]", 15)],
        [("write", 18), ("print", 19)],
    ),
    "dept_avg_salary_df_untruncated": ([("employees", "csv", "sys.argv[1]", 15)], [("show", 22)]),
}


@pytest.fixture(scope="module")
def results():
    return {p["name"]: check(p["left"], p["right"]) for p in PAIRS}


def test_corpus_has_five_dataframe_pairs():
    assert len(PAIRS) >= 5 and len(NOT_EQUIVALENT) >= 3 and len(EQUIVALENT) >= 2
    assert {Path(p[s]).stem for p in PAIRS for s in ("left", "right")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sources_and_sinks_are_found_with_their_lines(name):
    path = str(ROOT / "cases" / "scripts" / f"{name}.py")
    assert is_df_script(Path(path).read_text(), path)
    sp = translate_df_script_file(path)
    sources, sinks = EXPECTED[name]
    assert [(s.param, s.kind, s.path, s.loc.line) for s in sp.sources] == sources
    assert [(k.kind, k.loc.line) for k in sp.sinks if k.kind != "job"] == sinks
    assert all(f.nullable for s in sp.sources for f in s.schema.fields)  # file sources: Spark's rule


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p["name"])
def test_corpus_verdict_and_witness(results, pair):
    result = results[pair["name"]]
    validate(result.to_json())
    assert result.verdict == pair["expected"], result.reason
    assert "script" in result.stats
    if pair["expected"] == "unknown":
        assert result.counterexample is None and "no proof" in result.reason
        return
    if pair["expected"] == "equivalent":
        assert result.method == pair["method"] and result.counterexample is None
        assert any("command-line argument" in a for a in result.assumptions), result.assumptions
        assert any("PERMISSIVE" in a for a in result.assumptions), result.assumptions
        return
    cex = result.counterexample
    assert cex is not None and cex.replayed_on_spark is False and result.method == pair["method"]
    witness = pair["witness"]
    assert cex.inputs == witness["files"]
    for side, out in (("left", cex.left), ("right", cex.right)):
        if f"{side}_stdout" in witness:
            assert out["stdout"] == witness[f"{side}_stdout"]
        if f"{side}_files" in witness:
            assert out["files"] == witness[f"{side}_files"]


def test_report_names_sources_and_sinks_in_both_scripts(capsys):
    pair = next(p for p in PAIRS if p["name"] == "comp_per_dept_null_bonus")
    assert main(["check", pair["left"], pair["right"], "--no-replay"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "sources: sys.argv[1] (comp_per_dept.py:13, comp_per_dept_split_sums.py:13)" in out
    assert "1. csv files written (comp_per_dept.py:16, comp_per_dept_split_sums.py:16)" in out
    assert "2. printed text (comp_per_dept.py:17, comp_per_dept_split_sums.py:17)" in out
    assert "emp_id,dept,salary,bonus" in out  # the input file, header first


# --- input errors ------------------------------------------------------------------------------------

HEAD = "import sys\nfrom pyspark.sql import SparkSession\n\nspark = SparkSession.builder.getOrCreate()\n"


@pytest.mark.parametrize(
    "body, line, col, text",
    [
        (
            "df = spark.read.csv(sys.argv[1], header=True, inferSchema=True)\nprint(df.count())\n",
            5,
            17,
            "needs a schema",
        ),
        ("df = spark.read.parquet(sys.argv[1])\nprint(df.count())\n", 5, 17, "parquet"),
        (
            "df = spark.read.csv(sys.argv[1], schema='a INT')\nspark.stop()\nprint(df.count())\n",
            7,
            1,
            "after spark.stop()",
        ),
        (
            "df = spark.read.csv(sys.argv[1], schema='a INT', nullValue='NA')\nprint(df.count())\n",
            5,
            17,
            "nullValue",
        ),
        (
            "spark.conf.set('spark.sql.ansi.enabled', 'false')\n"
            "df = spark.read.json(sys.argv[1], schema='a INT')\n"
            "print(df.count())\n",
            5,
            12,
            "spark.sql.ansi.enabled",
        ),
        ("df = spark.read.csv(sys.argv[1], schema='a INT')\nwhile True:\n    df.show()\n", 6, 1, "while"),
        (
            "df = spark.read.csv(sys.argv[1], schema='a INT')\ndf.write.parquet(sys.argv[2])\n",
            6,
            1,
            "parquet",
        ),
    ],
)
def test_outside_the_fragment_is_a_located_error(tmp_path, body, line, col, text):
    path = tmp_path / "job.py"
    path.write_text(HEAD + body)
    with pytest.raises(InputError) as info:
        translate_df_script(path.read_text(), str(path))
    assert (info.value.loc.line, info.value.loc.col) == (line, col), info.value
    assert text in str(info.value)


def test_cli_input_error_is_one_located_line(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text(HEAD + "df = spark.read.csv(sys.argv[1], inferSchema=True)\nprint(df.count())\n")
    assert main(["check", str(bad), "cases/scripts/comp_per_dept.py"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{bad}:5:17: ") and "schema" in err[0]


def test_a_dataframe_script_against_an_rdd_script_is_an_input_error(capsys):
    assert main(["check", "cases/scripts/comp_per_dept.py", "cases/scripts/dept_totals.py"]) == 3
    assert "can only be compared with another DataFrame script" in capsys.readouterr().err


def test_literal_rows_and_sql_over_a_view(tmp_path):
    """createDataFrame of literal rows is an input the script fixes: nothing to give as files."""
    body = (
        "rows = [(1, 'eng', None), (2, None, 5)]\ndf = spark.createDataFrame(rows, 'id INT, dept STRING, "
        "bonus INT')\ndf.createOrReplaceTempView('emp')\n"
        'spark.sql("SELECT id FROM emp WHERE COND").show()\n'
    )
    left, right = tmp_path / "left.py", tmp_path / "right.py"
    left.write_text(HEAD + body.replace("COND", "bonus > 0 OR dept = 'eng'"))
    right.write_text(HEAD + body.replace("COND", "NOT (bonus <= 0)"))
    result = check(str(left), str(right))
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample is not None and result.counterexample.inputs == {}
    assert "|  1|" in result.counterexample.left["stdout"]


# --- what the scripts write ----------------------------------------------------------------------------


def test_show_prints_sparks_table():
    """The text Spark 4 printed for this table (replayed by hand: test_show_text_is_sparks below)."""
    sp = translate_df_script_file(str(ROOT / "cases/scripts/dept_avg_salary_df.py"))
    table = {
        "employees": [
            ("ann", "eng", 10),
            ("bob", None, 3),
            ("cy", "a very long department name here", 7),
            ("dd", "eng", None),
            ("e", "x", 2147483647),
            ("f", "x", 2147483647),
        ]
    }
    assert observe(sp, table).text() == (
        "+--------------------+-------------+---------+\n"
        "|                dept|   avg_salary|employees|\n"
        "+--------------------+-------------+---------+\n"
        "|                NULL|          3.0|        1|\n"
        "|a very long depar...|          7.0|        1|\n"
        "|                 eng|         10.0|        1|\n"
        "|                   x|2.147483647E9|        2|\n"
        "+--------------------+-------------+---------+\n\n"
    )
    assert observe(sp, {"employees": []}).text() == (
        "+----+----------+---------+\n|dept|avg_salary|employees|\n+----+----------+---------+\n"
        "+----+----------+---------+\n\n"
    )


def test_an_empty_string_is_not_a_csv_input(tmp_path):
    """Spark's CSV reader reads "" as NULL (checked on Spark 4): a table holding '' is no CSV file, so
    NULL against '' is no difference between scripts reading CSV."""
    left, right = tmp_path / "left.py", tmp_path / "right.py"
    base = HEAD + READ.format(mode="")
    left.write_text(base + "print(emp.where(emp.dept.isNull()).count())\n")
    right.write_text(base + "print(emp.where(emp.dept.isNull() | (emp.dept == '')).count())\n")
    result = check(str(left), str(right))
    assert result.verdict == "unknown", (result.reason, result.counterexample)


def test_writers_lines():
    assert [csv_field(v, None, ",") for v in (None, "", " a ", "a,b", 1.0e7, True)] == [
        "",
        '""',
        "a",
        '"a,b"',
        "1.0E7",
        "true",
    ]
    assert json_line((1, None, "x"), ["a", "b", "c"], [None] * 3) == '{"a":1,"c":"x"}'


def test_observable_difference_of_printed_rows():
    bag = DfObservation((("bag", Bag.of(["a\n", "b\n"])),))
    assert not observably_differ(bag, DfObservation((("text", "b\na\n"),)))
    assert observably_differ(bag, DfObservation((("text", "a\n"),)))
    two = DfObservation((("sorted", Sorted((Bag(("a\n",)), Bag(("b\n",))))),))
    assert observably_differ(two, DfObservation((("text", "b\na\n"),)))
    assert not observably_differ(
        DfObservation((), error="E [X]", condition="X"),
        DfObservation((("text", "a\n"),), error="E [X]", condition="X"),
    )
    files = DfObservation((), (("sys.argv[2]", ("a", Bag.of(["1"]))),))
    assert observably_differ(files, DfObservation((), (("sys.argv[2]", ("a", Bag.of(["2"]))),)))


# --- on Spark ------------------------------------------------------------------------------------------


@pytest.mark.spark
@pytest.mark.slow
def test_counterexamples_replay_on_spark(results):
    """Both unmodified scripts of every not-equivalent pair run on the witness files (one JVM)."""
    items = [(results[p["name"]], p["left"], p["right"]) for p in NOT_EQUIVALENT]
    for pair, after in zip(NOT_EQUIVALENT, replay_counterexamples(items), strict=True):
        assert after.verdict == "not_equivalent", (pair["name"], after.reason, after.warnings)
        assert after.counterexample is not None and after.counterexample.replayed_on_spark, after.warnings
        validate(after.to_json())


def _replayed_alike(left_name, right_name, tables):
    """Both scripts run on Spark with ``tables`` as their files: each writes what the interpreter
    predicts, and they write the same."""
    from verifier.core.df_script_search import realisable
    from verifier.runtime.df_script_replay import replay_df_scripts

    left = translate_df_script_file(str(ROOT / "cases" / "scripts" / f"{left_name}.py"))
    right = align_df_sources(
        left, translate_df_script_file(str(ROOT / "cases" / "scripts" / f"{right_name}.py"))
    )
    assert realisable(left, tables) and realisable(right, tables)
    (replayed,) = replay_df_scripts([(left, right, tables, (observe(left, tables), observe(right, tables)))])
    assert replayed.left_agrees and replayed.right_agrees and not replayed.differs, replayed
    return replayed


@pytest.mark.spark
@pytest.mark.slow
def test_show_text_is_sparks():
    table = {
        "employees": [
            ("ann", "eng", 10),
            ("bob", None, 3),
            ("cy", "a very long department name here", 7),
            ("e", "x", 2147483647),
            ("f", "x", 2147483647),
            ("g", "y", None),
        ]
    }
    _replayed_alike("dept_avg_salary_df", "dept_avg_salary_sql", table)


@pytest.mark.spark
@pytest.mark.slow
def test_proved_pair_writes_the_same_on_spark():
    """The filter moved below the join: both scripts write the predicted files and print the same count."""
    tables = {
        "orders": [
            (1, 10, 100),
            (2, 10, 99),
            (3, None, 500),
            (4, 11, None),
            (5, 12, 2147483647),
            (6, 10, 150),
        ],
        "customers": [(10, "north"), (10, "south"), (11, None), (12, "east"), (None, "x")],
    }
    replayed = _replayed_alike("large_orders_filter_after_join", "large_orders_filter_before_join", tables)
    assert replayed.left.lines == ("large orders: 5",)


def _catalog_pair(tmp_path):
    """spark.sql over a table the script does not read: its schema from --schema, its rows shown as
    JSON objects by the table's name."""
    left, right = tmp_path / "left.py", tmp_path / "right.py"
    left.write_text(HEAD + "spark.sql(\"SELECT id FROM emp WHERE dept <> 'x'\").show()\n")
    where = "NOT dept = 'x' OR dept IS NULL"
    right.write_text(HEAD + f"spark.table('emp').where(\"{where}\").select('id').show()\n")
    result = check(str(left), str(right), schema=["emp=id INT, dept STRING"])
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample is not None
    assert result.counterexample.inputs == {"'emp'": [{"id": None, "dept": None}]}
    return str(left), str(right), result


def test_catalog_tables_come_from_the_schema_option(tmp_path):
    _catalog_pair(tmp_path)


@pytest.mark.spark
@pytest.mark.slow
def test_catalog_tables_replay_as_temp_views(tmp_path):
    """The replay creates the catalog table from the counterexample's rows in the session each script
    builds, so a pair reading spark.table replays."""
    left, right, result = _catalog_pair(tmp_path)
    (after,) = replay_counterexamples([(result, left, right)], schema=["emp=id INT, dept STRING"])
    assert after.verdict == "not_equivalent", (after.reason, after.warnings)
    assert after.counterexample is not None and after.counterexample.replayed_on_spark, after.warnings


# --- proofs ---------------------------------------------------------------------------------------------

READ = "emp = spark.read.csv(sys.argv[1], header=True, schema='name STRING, dept STRING, salary INT'{mode})\n"
RES = "res = emp.where(emp.salary > 0).select('dept', 'salary')\n"
RENAMED = "res = emp.where(emp.salary > 0).select('dept', emp.salary.alias('pay'))\n"


def _prove(tmp_path, left_sink, right_sink, right_res=RES, right_mode=""):
    import time

    from verifier.core.df_script_prove import prove_df_scripts

    paths = []
    for name, res, sink, mode in (("left", RES, left_sink, ""), ("right", right_res, right_sink, right_mode)):
        path = tmp_path / f"{name}.py"
        path.write_text(HEAD + READ.format(mode=mode) + res + sink + "\n")
        paths.append(str(path))
    left = translate_df_script_file(paths[0])
    right = align_df_sources(left, translate_df_script_file(paths[1]))
    return prove_df_scripts(left, right, until=time.monotonic() + 20)


@pytest.mark.parametrize(
    "left, right, right_res, assumed",
    [
        ("res.show(5)", "res.show(5)", RES, "any n of them"),
        ("print('rows:', res.count())", "print('rows:', res.where('salary > 0').count())", RES, "PERMISSIVE"),
        ("res.write.csv(sys.argv[2])", "res.write.csv(sys.argv[2])", RENAMED, "compared as a bag"),
        (
            "for r in res.orderBy('dept', 'salary').collect():\n    print(r.dept, r.salary)",
            "for r in res.orderBy('dept', 'salary').collect():\n    print(r['dept'], r[1])",
            RES,
            "command-line argument",
        ),
        ("print(res.first())", "print(res.first())", RES, "PERMISSIVE"),
    ],
)
def test_proved_scripts_list_their_assumptions(tmp_path, left, right, right_res, assumed):
    proof = _prove(tmp_path, left, right, right_res)
    assert not isinstance(proof, str), proof
    assert any(assumed in a for a in proof.assumptions), proof.assumptions


@pytest.mark.parametrize(
    "left, right, right_res, right_mode, why",
    [
        ("res.show()", "res.show(truncate=False)", RES, "", "truncate"),
        ("res.show()", "res.show(21)", RES, "", "show(n=20"),
        ("print('rows:', res.count())", "print('rows: ', res.count())", RES, "", "printed text"),
        (
            "res.write.mode('overwrite').csv(sys.argv[2])",
            "res.write.csv(sys.argv[2])",
            RES,
            "",
            "save mode",
        ),
        ("res.orderBy('dept').show()", "res.show()", RES, "", "sorts the rows"),
        (
            "res.write.option('header', True).csv(sys.argv[2])",
            "res.write.csv(sys.argv[2], header=True)",
            RENAMED,
            "",
            "column names differ",
        ),
        (
            "for r in res.collect():\n    print(r)",
            "for r in res.collect():\n    print(r)",
            RENAMED,
            "",
            "column names differ",
        ),
        ("res.show()\nprint(res.count())", "print(res.count())\nres.show()", RES, "", "sink 1"),
        ("res.show()", "res.show()", RES, ", mode='FAILFAST'", "FAILFAST"),
        ("res.write.csv(sys.argv[2])", "res.write.csv('out')", RES, "", "command-line argument"),
        ("res.show()", "res.where('salary > 1').show()", RES, "", "not proved equal"),
    ],
)
def test_what_is_not_shown_identical_is_not_proved(tmp_path, left, right, right_res, right_mode, why):
    proof = _prove(tmp_path, left, right, right_res, right_mode)
    assert isinstance(proof, str), proof
    assert why in proof


def test_no_proof_says_why_and_the_search_finds_the_difference(tmp_path):
    left, right = tmp_path / "left.py", tmp_path / "right.py"
    base = HEAD + READ.format(mode="") + RES
    left.write_text(base + "print('rows:', res.count())\n")
    right.write_text(base + "print('rows: ', res.count())\n")
    result = check(str(left), str(right))
    assert result.verdict == "not_equivalent" and result.counterexample is not None
    same = tmp_path / "same.py"
    same.write_text(base + "res.orderBy('dept').show()\n")
    other = tmp_path / "other.py"
    other.write_text(base + "res.show()\n")
    result = check(str(same), str(other))
    assert result.verdict == "unknown" and "no proof: sink 1" in result.reason and "sorts" in result.reason
