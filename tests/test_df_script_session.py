"""Notebook set-up code around the session (frontend/script/df_session.py, issue 20): ``os.getcwd()`` in
the warehouse setting (a value shared by both scripts, printed as a stand-in), Delta Lake's builder
wrapper and SQL extension/catalog settings (harmless until a catalog table is read: then refused), and
``SQLContext(spark)`` bound but not used. Without Spark; the Spark facts (SQLContext(spark) in Spark 4,
what configure_spark_with_delta_pip adds) are in docs/semantics-notes.md.
"""

from __future__ import annotations

import pytest

from frontend.script.df_script import translate_df_script
from sparklite.errors import InputError
from verifier import check

NOTEBOOK = """\
import os
from pyspark.sql import SparkSession, SQLContext
from delta import *

warehouse_path = "file://{}/spark_warehouse".format(os.getcwd())
builder = (
    SparkSession.builder.master("local[*]")
    .config("spark.driver.memory", "2G")
    .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
    .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
    .config("spark.sql.warehouse.dir", warehouse_path)
    .appName("cheatsheet")
)
spark = configure_spark_with_delta_pip(builder, extra_packages=["org.postgresql:postgresql:42"]).getOrCreate()
sqlContext = SQLContext(spark)
df = spark.read.csv("data/emp.csv", header=True, schema="name STRING, age INT")
print("rows:", df.count())
print("warehouse:", warehouse_path)
"""


def test_notebook_set_up_is_read():
    sp = translate_df_script(NOTEBOOK, "nb.py")
    assert [k.kind for k in sp.sinks] == ["print", "print"]
    parts = sp.sinks[1].parts
    assert [(p.kind, p.text) for p in parts] == [
        ("lit", "warehouse: file://"), ("arg", "os.getcwd()"), ("lit", "/spark_warehouse\n")
    ]


def test_notebook_set_up_is_equivalent_to_itself(tmp_path):
    path = tmp_path / "nb.py"
    path.write_text(NOTEBOOK)
    result = check(str(path), str(path))
    assert result.verdict == "equivalent", result.reason


def test_a_different_printed_directory_is_found(tmp_path):
    left, right = tmp_path / "a.py", tmp_path / "b.py"
    left.write_text(NOTEBOOK)
    printed = NOTEBOOK.replace('print("warehouse:", warehouse_path)', 'print("warehouse:", os.getcwd())')
    right.write_text(printed)
    result = check(str(left), str(right))
    assert result.verdict == "not_equivalent", result.reason


def test_a_catalog_table_after_a_catalog_setting_is_refused():
    source = NOTEBOOK.replace('spark.read.csv("data/emp.csv", header=True, schema="name STRING, age INT")',
                              'spark.table("emp")')
    with pytest.raises(InputError) as info:
        translate_df_script(source, "nb.py", schemas={"emp": _ddl("name STRING, age INT")})
    assert "spark.sql.extensions" in str(info.value) and info.value.loc.line == 16
    # without the catalog settings, the same table read is modelled
    plain = "\n".join(line for line in source.splitlines() if "spark.sql." not in line)
    translate_df_script(plain, "nb.py", schemas={"emp": _ddl("name STRING, age INT")})


def test_other_settings_and_uses_stay_refused():
    with pytest.raises(InputError) as info:
        ansi = NOTEBOOK.replace('"spark.driver.memory", "2G"', '"spark.sql.ansi.enabled", "false"')
        translate_df_script(ansi, "nb.py")
    assert "spark.sql.ansi.enabled" in str(info.value)
    with pytest.raises(InputError):
        translate_df_script(NOTEBOOK + 'sqlContext.sql("SELECT 1").show()\n', "nb.py")
    with pytest.raises(InputError) as info:  # another name from the star import: not read
        translate_df_script(NOTEBOOK + 'DeltaTable.forPath(spark, "t").toDF().show()\n', "nb.py")
    assert "from delta import *" in str(info.value)
    with pytest.raises(InputError):  # the working directory is not a path that is read
        translate_df_script(NOTEBOOK + "spark.read.csv(os.getcwd()).show()\n", "nb.py")


def _ddl(text):
    from sparklite.relational.types import parse_ddl

    return parse_ddl(text)


def test_a_verdict_names_the_delta_assumption(tmp_path):
    from frontend.script.df_session import DELTA_ASSUMPTION

    path = tmp_path / "nb.py"
    path.write_text(NOTEBOOK)
    result = check(str(path), str(path))
    assert DELTA_ASSUMPTION in result.assumptions, result.assumptions
    plain = tmp_path / "plain.py"
    plain.write_text("\n".join(line for line in NOTEBOOK.splitlines()
                               if "spark.sql.extensions" not in line and "spark_catalog" not in line)
                     .replace("configure_spark_with_delta_pip(builder, extra_packages=[\"org.postgresql:"
                              "postgresql:42\"])", "builder") + "\n")
    result = check(str(plain), str(plain))
    assert result.verdict == "equivalent" and DELTA_ASSUMPTION not in result.assumptions, result.assumptions
    result = check(str(path), str(plain))  # the same outputs; the Delta session is an assumption
    assert result.verdict == "equivalent" and DELTA_ASSUMPTION in result.assumptions, result.reason
