"""Shared fixtures. One real Spark (local[2]) per test run, started on first use."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def spark_context():
    """The test run's SparkContext (real Spark, local[2]); skips nothing: a missing Java fails loudly."""
    from verifier.spark import get_context

    return get_context("local[2]")


@pytest.fixture(scope="session")
def spark_session(spark_context):
    """The test run's SparkSession over the same context (DataFrame and SQL tests)."""
    from verifier.spark import get_session

    return get_session("local[2]")
