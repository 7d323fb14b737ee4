"""AWS Glue jobs are refused at their first Glue name (issue 20, ``frontend.script.glue``): located, exit 3,
never read as a Spark script."""

from __future__ import annotations

from pathlib import Path

from verifier import check

JOB = '''import sys
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext
from awsglue.context import GlueContext
from awsglue.dynamicframe import DynamicFrame

sc = SparkContext.getOrCreate()
glueContext = GlueContext(sc)
spark = glueContext.spark_session
df = spark.read.csv(sys.argv[1], schema="a INT")
dyf = DynamicFrame.fromDF(df, glueContext, "x")
'''


def test_a_glue_job_is_refused_at_its_first_glue_name(tmp_path: Path) -> None:
    job = tmp_path / "job.py"
    job.write_text(JOB)
    result = check(str(job), str(job), replay=False)
    assert result.verdict == "error"
    assert result.reason.startswith(f"{job}:8:15: 'GlueContext' (from awsglue.context) is AWS Glue's API")


def test_an_unused_glue_import_does_not_matter(tmp_path: Path) -> None:
    job = tmp_path / "job.py"
    job.write_text('import sys\nfrom awsglue.context import GlueContext\n'
                   'from pyspark.sql import SparkSession\nspark = SparkSession.builder.getOrCreate()\n'
                   'spark.read.csv(sys.argv[1], schema="a INT").show()\n')
    assert check(str(job), str(job), replay=False).verdict == "equivalent"
