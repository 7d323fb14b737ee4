"""Shared fixtures. One real Spark (local[2]) per test run, started on first use."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def spark_context():
    """The test run's SparkContext (real Spark, local[2]); skips nothing: a missing Java fails loudly."""
    from verifier.runtime.spark import get_context

    return get_context("local[2]")


@pytest.fixture(scope="session")
def spark_session(spark_context):
    """The test run's SparkSession over the same context (DataFrame and SQL tests)."""
    from verifier.runtime.spark import get_session

    return get_session("local[2]")


# Spark corpora that re-check, on Spark, what the CI suite already covers in a smaller form: they run
# from ``bash scripts/test_slow.sh`` (``-m slow``) so that CI's suite stays under 15 minutes on 2 cores.
# CI keeps the DataFrame differential test (300 programs), the interpreter-vs-Spark facts, every
# cases/df verdict with its replay, and the script checks with their replays.
SLOW_SPARK_FILES = ("test_dataframe_frontend.py", "test_sql_frontend.py", "test_sqlsolver_corpus.py",
                    "test_script_replay.py")
SLOW_TESTS = ("test_df_cases.py::test_witness_differs_on_spark",
              "test_df_cases.py::test_equivalent_pair_agrees_on_spark")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        path = item.nodeid.split("::")[0].rsplit("/", 1)[-1]
        spark = item.get_closest_marker("spark") is not None
        if (spark and path in SLOW_SPARK_FILES) or any(s in item.nodeid for s in SLOW_TESTS):
            item.add_marker(pytest.mark.slow)
