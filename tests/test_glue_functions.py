"""A DataFrame function whose parameter is an AWS Glue DynamicFrame (``frontend.dataframe.dynamic_frames``):
declared with ``--schema 'dyf=DynamicFrame<DDL>'``, its ``toDF()`` is the DataFrame of those columns and
``DynamicFrame.fromDF(df, dyf.glue_ctx, dyf.name)`` a frame of ``df``'s rows. No Spark: Glue runs only on
AWS (the round trip is an assumption the result lists)."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontend.dataframe.dynamic_frames import DynamicFrameSchema
from sparklite.relational.types import Schema
from verifier import check
from verifier.core.loading import load_schemas

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpora" / "realworld" / "aws-samples__aws-glue-samples"

HELPERS = '''
import pyspark.sql.functions as F
from awsglue import DynamicFrame


def to_df(dyf):
    return dyf.toDF()


def to_df_filtered(dyf):
    return dyf.toDF().filter(F.col("a") > 1)


def filled(self, columnName, newValue):
    df = self.toDF().fillna(value=newValue, subset=[columnName])
    return DynamicFrame.fromDF(df, self.glue_ctx, self.name)


def filled_where(self, columnName, newValue):
    df = self.toDF()
    df = df.withColumn(columnName, F.when(F.col(columnName).isNull(), newValue).otherwise(F.col(columnName)))
    return DynamicFrame.fromDF(df, self.glue_ctx, "renamed")


def counted(self):
    return self.count()


def branching(self):
    df = self.toDF()
    if df.filter(F.col("a") > 1).count() > 0:
        return DynamicFrame.fromDF(df.filter(F.col("a") > 1), self.glue_ctx, self.name)
    return self
'''


@pytest.fixture()
def helpers(tmp_path: Path) -> str:
    path = tmp_path / "glue_helpers.py"
    path.write_text(HELPERS)
    return str(path)


def _check(helpers: str, left: str, right: str, *schemas: str):
    return check(f"{helpers}::{left}", f"{helpers}::{right}", replay=False, schema=list(schemas))


def test_the_declaration_is_a_schema_marked_as_a_dynamic_frame():
    schemas = load_schemas(["dyf=DynamicFrame<a INT, b STRING>", "t=a INT"])
    assert isinstance(schemas["dyf"], DynamicFrameSchema)
    assert schemas["dyf"].names == ("a", "b")
    assert type(schemas["t"]) is Schema


def test_to_df_of_a_declared_dynamic_frame_is_its_columns(helpers: str):
    result = _check(helpers, "to_df", "to_df", "dyf=DynamicFrame<a INT, b STRING>")
    assert result.verdict == "equivalent", result.reason
    assert any("DynamicFrame" in a for a in result.assumptions)


def test_a_filter_after_to_df_is_not_the_frame(helpers: str):
    result = check(f"{helpers}::to_df", f"{helpers}::to_df_filtered", replay=False,
                   schema=["dyf=DynamicFrame<a INT, b STRING>"])
    assert result.verdict == "not_equivalent"


def test_from_df_returns_the_rows_and_the_frame_name_is_no_output(helpers: str):
    decl = ["self=DynamicFrame<a INT, b STRING>", "columnName='b'", "newValue='n/a'"]
    result = _check(helpers, "filled", "filled_where", *decl)
    assert result.verdict == "equivalent", result.reason


def test_a_dynamic_frame_declared_as_a_dataframe_is_refused_at_to_df(helpers: str):
    result = _check(helpers, "to_df", "to_df", "dyf=a INT, b STRING")  # DataFrame.toDF() needs names
    assert result.verdict == "error"


def test_glue_operations_are_refused_located(helpers: str):
    result = _check(helpers, "counted", "counted", "self=DynamicFrame<a INT>")
    assert result.verdict == "error" and "DynamicFrame.count" in result.reason


def test_a_branch_on_a_count_returning_frames_reads(helpers: str):
    """Both outcomes modelled (frontend.dataframe.branches; tests/test_df_branches.py)."""
    result = _check(helpers, "branching", "branching", "self=DynamicFrame<a INT>")
    assert result.verdict == "equivalent", result.reason


@pytest.mark.skipif(not CORPUS.exists(), reason="the real-world corpus is not present")
def test_the_corpus_helper_over_a_dynamic_frame_reads():
    path = CORPUS / "utilities" / "Hive_metastore_migration" / "src" / "export_from_datacatalog.py"
    unit = f"{path}::transform_catalog_to_df"
    result = check(unit, unit, replay=False, schema=["dyf=DynamicFrame<type STRING, name STRING>"])
    assert result.verdict == "equivalent", result.reason


def test_a_difference_over_a_dynamic_frame_is_not_replayed(helpers: str):
    """Spark would be handed a DataFrame for the frame and fail at toDF(): the interpreter's counterexample
    stands, with a warning, and no Spark is started."""
    result = check(f"{helpers}::to_df", f"{helpers}::to_df_filtered", replay=True,
                   schema=["dyf=DynamicFrame<a INT, b STRING>"])
    assert result.verdict == "not_equivalent"
    assert any("does not run on local Spark" in w for w in result.warnings)
