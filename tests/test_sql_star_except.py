"""``SELECT * EXCEPT (...)`` (``frontend/sql/star_except.py``): the columns Spark 4 keeps, and the errors
it raises for an unknown, ambiguous or repeated name, checked against Spark on ``local[2]`` (the tables
of ``test_sql_frontend``)."""

from __future__ import annotations

import pytest
from test_sql_frontend import (
    simple_schema,
    translate,
    views,  # noqa: F401 - the fixture registering the tables as views
)

from sparklite.errors import UnsupportedError
from sparklite.relational.build import AnalysisError

KEPT = {
    "SELECT * EXCEPT (s) FROM t": ["a", "b", "d", "n", "k"],
    "SELECT * EXCEPT (S, t.d) FROM t": ["a", "b", "n", "k"],
    "SELECT t.* EXCEPT (s), u.c FROM t JOIN u ON t.a = u.a": ["a", "b", "d", "n", "k", "c"],
    "SELECT * EXCEPT (u.a) FROM t JOIN u ON t.a = u.a": ["a", "b", "s", "d", "n", "k", "c"],
    "SELECT * EXCEPT (a), b AS y FROM t": ["b", "s", "d", "n", "k", "y"],
    "SELECT * EXCEPT (`a`) FROM t GROUP BY a, b, s, d, n, k": ["b", "s", "d", "n", "k"],
}
FAILING = [
    "SELECT * EXCEPT (zz) FROM t",  # UNRESOLVED_COLUMN
    "SELECT * EXCEPT (a) FROM t JOIN u ON t.a = u.a",  # AMBIGUOUS_REFERENCE
    "SELECT * EXCEPT (s, s) FROM t",  # EXCEPT_OVERLAPPING_COLUMNS
]


@pytest.mark.parametrize("q", list(KEPT))
def test_kept_columns(q: str) -> None:
    assert [f.name for f in translate(q).schema.fields] == KEPT[q]


@pytest.mark.parametrize("q", FAILING)
def test_spark_errors_are_analysis_errors(q: str) -> None:
    with pytest.raises(AnalysisError):
        translate(q)


def test_a_qualified_name_outside_the_star_is_refused() -> None:
    with pytest.raises(UnsupportedError) as info:
        translate("SELECT * EXCEPT (x.y) FROM t")
    assert info.value.loc is not None


@pytest.mark.spark
@pytest.mark.usefixtures("views")
def test_spark_agrees(spark_session) -> None:
    for q in KEPT:
        assert simple_schema(translate(q)) == spark_session.sql(q).dtypes, q
    for q in FAILING:
        with pytest.raises(Exception, match="UNRESOLVED_COLUMN|AMBIGUOUS_REFERENCE|EXCEPT_OVERLAPPING"):
            spark_session.sql(q).collect()


def test_select_expr_reads_it_too() -> None:
    # Spark 4: df.selectExpr("* EXCEPT (p)") and "* except (P)" keep k, x (checked on local[1])
    from frontend.dataframe.translator import translate_dataframe_source

    src = ("from typing import Annotated\nfrom pyspark.sql import DataFrame\n"
           "def f(df: Annotated[DataFrame, 'k int, p string, x int']):\n"
           "    return df.selectExpr('* except (P)')\n")
    assert translate_dataframe_source(src, "f", "<s>").body.schema.names == ("k", "x")
