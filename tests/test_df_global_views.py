"""``createGlobalTempView`` (issue 20, the corpus's basic_dataframe_example): a view in Spark's
``global_temp`` database, read as ``global_temp.name`` (any case) by ``spark.sql`` and ``spark.table``, not
by its bare name; created twice it raises. Checked on Spark 4 (docs/semantics-notes.md)."""

from __future__ import annotations

import pytest

from frontend.script.df_script import translate_df_script
from sparklite.errors import InputError

HEAD = '''from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
df = spark.createDataFrame([(1, "a")], ["id", "k"])
df.createGlobalTempView("People")
'''


@pytest.mark.parametrize("read", [
    'spark.sql("SELECT * FROM global_temp.people").show()',
    'spark.sql("SELECT p.id FROM GLOBAL_TEMP.PEOPLE p WHERE p.id > 0").show()',
    'spark.table("global_temp.people").show()',
])
def test_a_global_view_is_read_qualified(read: str) -> None:
    sp = translate_df_script(HEAD + read + "\n", "job.py")
    assert [k.kind for k in sp.sinks] == ["show"]


@pytest.mark.parametrize(("read", "text"), [
    ('spark.sql("SELECT * FROM people").show()', "not found"),
    ('df.createGlobalTempView("people")', "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS"),
    ('spark.sql("SELECT * FROM other_db.people").show()', "qualified table name"),
])
def test_what_spark_rejects_is_rejected_located(read: str, text: str) -> None:
    with pytest.raises(InputError) as err:
        translate_df_script(HEAD + read + "\nspark.sql('SELECT 1').show()\n", "job.py")
    assert err.value.loc is not None and err.value.loc.line == 5, str(err.value)
    assert text in str(err.value)


def test_create_or_replace_replaces() -> None:
    sp = translate_df_script(HEAD + 'df.filter("id > 5").createOrReplaceGlobalTempView("people")\n'
                             'spark.sql("SELECT count(*) AS n FROM global_temp.people").show()\n', "job.py")
    assert len(sp.sinks) == 1
