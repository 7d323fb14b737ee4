"""AWS Glue jobs and operations sparkeq does not model (issue 20): ``sparklite.relational.opaque`` (the
kernel's ``Opaque`` node, proved only by congruence) and ``frontend.script.glue`` (Glue jobs read as
DataFrame scripts, Glue's calls kept opaque). No Spark: a Glue job never runs on local Spark."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from case_verdicts import assert_verdict

from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.canonical import nondeterminism, rel_key
from sparklite.relational.interpreter import run
from sparklite.relational.opaque import NotModelled, assumption
from sparklite.relational.types import BIGINT, Field, Schema
from verifier import check
from verifier.core.methods import rel_terms
from verifier.core.methods.rel_terms import RelProof

ROOT = Path(__file__).resolve().parent.parent
PAIRS = json.loads((ROOT / "cases" / "glue" / "manifest.json").read_text())["pairs"]
SCHEMA = Schema((Field("a", BIGINT, True), Field("b", BIGINT, True)))
OUT = Schema((Field("x", BIGINT, True),))


def _table(name: str = "t") -> R.Table:
    return build.table(name, SCHEMA)


def _opaque(source: R.Rel, arg: str = "m", nondeterministic: bool = False) -> R.Opaque:
    return R.Opaque("Glue.Op", (("mapping", arg),), (source,), OUT, True, nondeterministic)


def _program(body: R.Rel, *tables: str) -> R.RelProgram:
    return R.RelProgram("p", tuple(R.TableParam(t, SCHEMA) for t in tables or ("t",)), body)


def _filtered(rel: R.Rel, n: int) -> R.Rel:
    col = R.Col(0, "a", BIGINT, True)
    return R.Filter(rel, R.Cmp(">", col, R.Lit(n, BIGINT), True))


# --- the kernel node ----------------------------------------------------------------------------------


def test_the_interpreter_does_not_run_an_opaque_operation():
    with pytest.raises(NotModelled, match="Glue.Op is not modelled: only proved by congruence"):
        run(_program(_opaque(_table())), {"t": [(1, 2)]})


def test_congruence_keys_see_the_call_its_arguments_and_its_inputs():
    same = rel_key(_opaque(_table()))
    assert rel_key(_opaque(_table())) == same
    assert rel_key(_opaque(_table(), "other")) != same  # another argument
    assert rel_key(_opaque(_filtered(_table(), 1))) != same  # another input
    assert rel_key(R.Opaque("Glue.Other", (("mapping", "m"),), (_table(),), OUT, True)) != same


def test_the_prover_equates_the_same_call_on_inputs_it_proves_equal():
    left = _program(_opaque(_filtered(_filtered(_table(), 1), 2)))
    right = _program(_opaque(_filtered(_filtered(_table(), 2), 1)))  # filters swapped: equal inputs
    proof = rel_terms.run(left, right, timeout_s=5.0, until=time.monotonic() + 60)
    assert isinstance(proof, RelProof), proof
    assert assumption(left.body) in proof.assumptions  # type: ignore[arg-type]
    assert "deterministic function of its inputs" in assumption(left.body)  # type: ignore[arg-type]


@pytest.mark.parametrize("right", [
    _opaque(_table(), "other"),  # another argument
    _opaque(_filtered(_table(), 1)),  # another input
])
def test_the_prover_never_equates_different_calls(right):
    until = time.monotonic() + 60
    proof = rel_terms.run(_program(_opaque(_table())), _program(right), timeout_s=5.0, until=until)
    assert not isinstance(proof, RelProof)


def test_a_nondeterministic_operation_is_equal_as_sets_of_results():
    node = _opaque(_table(), nondeterministic=True)
    assert "equal as sets of possible results" in assumption(node)
    assert any("Glue.Op" in c for c in nondeterminism(node))


# --- Glue jobs ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def results():
    return {p["name"]: check(str(ROOT / p["left"]), str(ROOT / p["right"]), replay=False) for p in PAIRS}


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p["name"])
def test_glue_pair(results, pair):
    result = results[pair["name"]]
    if pair["expected"] == "unknown":
        assert result.verdict == "unknown", result.reason
        assert pair["reason"] in result.reason
        return
    assert_verdict(result, pair)


def test_a_proof_lists_what_it_assumes_of_glue(results):
    for name in ("glue_renamed", "glue_select_first"):
        assumed = " | ".join(results[name].assumptions)
        assert "ApplyMapping.apply is not modelled: it is assumed to be a deterministic function" in assumed
        assert "write_dynamic_frame.from_options is not modelled: it writes the same" in assumed
        assert "each AWS Glue source (create_dynamic_frame) reads the same rows" in assumed
        assert "the result of ApplyMapping.apply has the columns declared for it" in assumed


def test_glue_bookkeeping_is_listed_as_ignored(results):
    ignored = {(i["side"], i["construct"]) for i in results["glue_renamed"].ignored_statements}
    assert {("left", "job.init()"), ("left", "job.commit()")} <= ignored


def test_a_glue_difference_is_not_replayed(results):
    result = results["glue_message"]
    assert not result.counterexample.replayed_on_spark
    assert "does not run on local Spark" in " ".join(result.warnings)
    assert "df_found" not in result.stats  # nothing for a replay to run


JOB = '''import sys
from awsglue.transforms import *
from awsglue.context import GlueContext
from pyspark.context import SparkContext
glueContext = GlueContext(SparkContext.getOrCreate())
dyf = glueContext.create_dynamic_frame.from_catalog(database="db", table_name="t")
res = dyf.resolveChoice(specs=[("a", "cast:long")])
res.toDF().show()
'''


def test_a_source_without_a_schema_says_what_to_declare(tmp_path: Path):
    job = tmp_path / "job.py"
    job.write_text(JOB)
    result = check(str(job), str(job), replay=False)
    assert result.verdict == "error"
    assert result.reason.startswith(f"{job}:6:")
    assert "# sparkeq: schema db.t = " in result.reason and "--schema 'dyf=" in result.reason


def test_the_columns_of_a_transform_must_be_declared_to_be_read(tmp_path: Path):
    job = tmp_path / "job.py"
    job.write_text('# sparkeq: schema db.t = "a STRING, b INT"\n' + JOB)
    result = check(str(job), str(job), replay=False)
    assert result.verdict == "error"
    assert "the columns of DynamicFrame.resolveChoice's result are not known" in result.reason
    assert "# sparkeq: schema res = " in result.reason
    job.write_text('# sparkeq: schema db.t = "a STRING, b INT"\n# sparkeq: schema res = "a BIGINT, b INT"\n'
                   + JOB)
    result = check(str(job), str(job), replay=False)
    assert result.verdict == "equivalent" and result.method == "congruence"
    assert any("DynamicFrame.resolveChoice is not modelled" in a for a in result.assumptions)


def test_a_declaration_names_the_first_frame_bound_to_a_variable(tmp_path: Path):
    """``dyf = ApplyMapping.apply(frame=dyf, ...)`` makes another frame: the source's declaration (by
    the variable) is not taken for it."""
    job = tmp_path / "job.py"
    job.write_text(JOB.replace("res = dyf.resolveChoice", "dyf = dyf.resolveChoice")
                   .replace("res.toDF", "dyf.toDF"))
    result = check(str(job), str(job), replay=False, schema=["dyf=a STRING, b INT"])
    assert result.verdict == "error"
    assert "the columns of DynamicFrame.resolveChoice's result are not known" in result.reason


def test_a_non_literal_glue_argument_is_refused(tmp_path: Path):
    job = tmp_path / "job.py"
    job.write_text('# sparkeq: schema db.t = "a STRING, b INT"\n'
                   + JOB.replace('specs=[("a", "cast:long")]', 'specs=[("a", sys.argv[1])]'))
    result = check(str(job), str(job), replay=False)
    assert result.verdict == "error"
    assert "is not modelled (Glue's operations are compared by their literal arguments" in result.reason


def test_an_unused_glue_import_does_not_matter(tmp_path: Path) -> None:
    job = tmp_path / "job.py"
    job.write_text('import sys\nfrom awsglue.context import GlueContext\n'
                   'from pyspark.sql import SparkSession\nspark = SparkSession.builder.getOrCreate()\n'
                   'spark.read.csv(sys.argv[1], schema="a INT").show()\n')
    assert check(str(job), str(job), replay=False).verdict == "equivalent"


def test_a_glue_job_with_rdd_code_is_refused_at_its_first_glue_name(tmp_path: Path) -> None:
    job = tmp_path / "job.py"
    job.write_text("import sys\nfrom awsglue.context import GlueContext\n"
                   "from pyspark.context import SparkContext\nsc = SparkContext()\n"
                   "glueContext = GlueContext(sc)\n"
                   "print(sc.textFile(sys.argv[1]).count())\n")
    result = check(str(job), str(job), replay=False)
    assert result.verdict == "error"
    assert result.reason.startswith(f"{job}:5:15: 'GlueContext' (from awsglue.context): an AWS Glue job")


# --- random columns and approxQuantile in scripts (frontend.script.df_opaque) ----------------------------

SCRIPT = '''import sys
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
spark = SparkSession.builder.getOrCreate()
df = spark.read.csv(sys.argv[1], schema="id INT, v DOUBLE")
print("start")
df.withColumn("r", F.rand(7)).show()
print(df.approxQuantile("v", [0.5], 0.01))
'''


def _pair(tmp_path: Path, right: str, left: str = SCRIPT, replay: bool = False):
    lp, rp = tmp_path / "left.py", tmp_path / "right.py"
    lp.write_text(left)
    rp.write_text(right)
    return check(str(lp), str(rp), replay=replay)


def test_a_random_column_and_quantiles_are_equal_to_themselves_as_sets(tmp_path: Path):
    result = _pair(tmp_path, SCRIPT)
    assert result.verdict == "equivalent" and result.method == "congruence"
    assumed = " | ".join(result.assumptions)
    assert "withColumn('r', F.rand(7)) is not modelled: two calls with the same arguments on equal inputs " \
           "are taken as equal as sets of possible results" in assumed
    assert "approxQuantile('v', [0.5], 0.01) is not modelled" in assumed
    assert "what withColumn('r', F.rand(7)) returns (not modelled" in assumed  # the nondeterminism caveat
    assert "has the columns declared for it" not in assumed  # known columns, not a user's declaration


@pytest.mark.parametrize("right, reason", [
    (SCRIPT.replace("F.rand(7)", "F.rand(8)"), "withColumn('r', F.rand(7)) is not modelled"),
    (SCRIPT.replace("F.rand(7)", "F.randn(7)"), "withColumn('r', F.rand(7)) is not modelled"),
    (SCRIPT.replace('df.withColumn("r"', 'df.filter("id > 0").withColumn("r"'), "F.rand(7)) is not modelled"),
    (SCRIPT.replace("[0.5], 0.01", "[0.5], 0.001"), "approxQuantile('v', [0.5], 0.01) is not modelled"),
])
def test_another_random_call_or_input_is_unknown(tmp_path: Path, right: str, reason: str):
    result = _pair(tmp_path, right)
    assert result.verdict == "unknown", result.reason
    assert reason in result.reason


def test_text_printed_before_a_random_column_still_tells_scripts_apart(tmp_path: Path):
    result = _pair(tmp_path, SCRIPT.replace('print("start")', 'print("begin")'))
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample.left["stdout"] == ["start"]
    assert "not known" in result.counterexample.left["then"]


def test_a_random_column_elsewhere_is_refused(tmp_path: Path):
    result = _pair(tmp_path, SCRIPT.replace('df.withColumn("r", F.rand(7))', 'df.select("id", F.rand(7))'))
    assert result.verdict == "error"
    assert "a random column (F.rand/F.randn: only withColumn(name, F.rand(seed)) is read)" in result.reason


@pytest.mark.spark
def test_text_printed_before_a_random_column_replays_on_spark(tmp_path: Path):
    """Spark's output starts with the text the interpreter knew (``df_script_replay._agrees``)."""
    result = _pair(tmp_path, SCRIPT.replace('print("start")', 'print("begin")'), replay=True)
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample.replayed_on_spark, result.warnings


def test_other_declared_columns_for_the_same_transform_are_not_the_same_call(tmp_path: Path):
    head = '# sparkeq: schema db.t = "a STRING, b INT"\n# sparkeq: schema res = "{}"\n'
    left = head.format("a BIGINT, b INT") + JOB
    right = head.format("x BIGINT, b INT") + JOB.replace("res.toDF().show()",
                                                          "res.toDF().toDF('a', 'b').show()")
    result = _pair(tmp_path, right, left)
    assert result.verdict == "unknown", result.reason
    assert "DynamicFrame.resolveChoice is not modelled: only proved by congruence" in result.reason


def test_a_printed_job_argument_is_the_same_text_for_both_jobs(tmp_path: Path):
    printed = 'args = getResolvedOptions(sys.argv, ["JOB_NAME", "day"])\nprint("job", args["JOB_NAME"])\n'
    job = ('# sparkeq: schema db.t = "a STRING, b INT"\n'
           + JOB.replace("res = dyf", printed + "res = dyf")
           .replace("import *\n", "import *\nfrom awsglue.utils import getResolvedOptions\n")
           .replace("res.toDF().show()", "dyf.toDF().show()"))
    assert _pair(tmp_path, job, job).verdict == "equivalent"
    result = _pair(tmp_path, job.replace('args["JOB_NAME"]', 'args["day"]'), job)
    assert result.verdict == "not_equivalent"  # run with other values for the two arguments
    assert result.counterexample.left["stdout"][0] == "job <job argument --JOB_NAME>"


def test_a_glue_difference_resting_on_an_error_is_unknown(tmp_path: Path):
    counted = 'print(dyf.toDF().filter("b > 1").count())'
    job = '# sparkeq: schema db.t = "a STRING, b INT"\n' + JOB.replace("res.toDF().show()", counted)
    result = _pair(tmp_path, job.replace('"b > 1"', '"b div 0 > 1"'), job)
    assert result.verdict == "unknown", result.reason
    assert "an AWS Glue job does not run on local Spark" in result.reason


def test_a_dynamic_frame_count_is_an_opaque_call(tmp_path: Path):
    job = '# sparkeq: schema db.t = "a STRING, b INT"\n' + JOB.replace("res.toDF().show()",
                                                                      'print("n:", dyf.count())')
    same = _pair(tmp_path, job, job)
    assert same.verdict == "equivalent"
    assert any("DynamicFrame.count is not modelled" in a for a in same.assumptions)
    other = _pair(tmp_path, job.replace("dyf.count()", "res.count()"), job)
    assert other.verdict == "unknown" and "DynamicFrame.count is not modelled" in other.reason


FILTERED = '''import sys
from awsglue.transforms import Filter
from awsglue.context import GlueContext
from pyspark.context import SparkContext
# sparkeq: schema db.t = "a STRING, b INT"
glueContext = GlueContext(SparkContext.getOrCreate())
dyf = glueContext.create_dynamic_frame.from_catalog(database="db", table_name="t")
def big(rec):
    return rec["b"] > 10
kept = Filter.apply(frame=dyf, f=lambda r: r["b"] > 10)
glueContext.write_dynamic_frame.from_options(frame=kept, connection_type="s3",
                                             connection_options={"path": "s3://b/o"}, format="json")
'''


def test_a_function_handed_to_a_glue_transform_is_compared_by_its_code(tmp_path: Path):
    assert _pair(tmp_path, FILTERED, FILTERED).verdict == "equivalent"
    other = _pair(tmp_path, FILTERED.replace('r["b"] > 10)', 'r["b"] > 11)'), FILTERED)
    assert other.verdict == "unknown" and "Filter.apply is not modelled" in other.reason
    named = _pair(tmp_path, FILTERED.replace("f=lambda r: r[\"b\"] > 10", "f=big"), FILTERED)
    assert named.verdict == "unknown"  # another function's code (a def, not a lambda): not proved
    assert _pair(tmp_path, FILTERED.replace("f=lambda r: r[\"b\"] > 10", "f=big"),
                 FILTERED.replace("f=lambda r: r[\"b\"] > 10", "f=big")).verdict == "equivalent"


def test_a_function_reading_other_names_is_refused(tmp_path: Path):
    job = FILTERED.replace('r["b"] > 10', 'r["b"] > int(sys.argv[1])')
    result = _pair(tmp_path, job, job)
    assert result.verdict == "error"
    assert "the function handed to it reads sys" in result.reason


STUDIO = '''import sys
from awsglue.transforms import *
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext
from awsglue.context import GlueContext
from awsglue.job import Job
# sparkeq: schema db.t = "a STRING, b INT"
args = getResolvedOptions(sys.argv, ["JOB_NAME"])
sc = SparkContext()
glueContext = GlueContext(sc)
spark = glueContext.spark_session
job = Job(glueContext)
job.init(args["JOB_NAME"], args)
node1 = glueContext.create_dynamic_frame.from_catalog(database="db", table_name="t",
                                                      transformation_ctx="node1")
node2 = ApplyMapping.apply(frame=node1, mappings=[("a", "string", "a", "string")], transformation_ctx="node2")
sink = glueContext.getSink(path="s3://b/out/", connection_type="s3", updateBehavior="UPDATE_IN_DATABASE",
                           partitionKeys=[], enableUpdateCatalog=True, transformation_ctx="node3")
sink.setCatalogInfo(catalogDatabase="db", catalogTableName="out")
sink.setFormat("glueparquet")
sink.writeFrame(node2)
df = glueContext.create_data_frame.from_catalog(database="db", table_name="t")
df.filter(df.b > 1).show()
job.commit()
'''


def test_a_glue_studio_job_with_get_sink_and_create_data_frame(tmp_path: Path):
    same = _pair(tmp_path, STUDIO, STUDIO)
    assert same.verdict == "equivalent", same.reason
    other = _pair(tmp_path, STUDIO.replace('setFormat("glueparquet")', 'setFormat("json")'), STUDIO)
    assert other.verdict == "unknown"
    assert "the AWS Glue calls differ" in other.reason and "setFormat('json')" in other.reason
    shown = _pair(tmp_path, STUDIO.replace("df.b > 1", "df.b > 2"), STUDIO)
    assert shown.verdict == "unknown"  # the show() comes after Glue's writer, whose output is not known


def test_a_glue_log_record_is_no_output_but_its_job_runs(tmp_path: Path):
    logged = STUDIO.replace("job.commit()", 'logger = glueContext.get_logger()\n'
                            'logger.info("rows: " + str(df.filter("b div 0 > 1").count()))\njob.commit()')
    result = _pair(tmp_path, logged, STUDIO)
    assert result.verdict == "unknown"  # the job in the message runs, and may raise: not proved
    assert _pair(tmp_path, logged, logged).verdict == "equivalent"
    quiet = STUDIO.replace("job.commit()", 'glueContext.get_logger().warn("done")\njob.commit()')
    assert _pair(tmp_path, quiet, STUDIO).verdict == "equivalent"
