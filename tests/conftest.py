"""Shared fixtures. One real Spark (local[2]) per test run, started on first use."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def spark_context():
    """The test run's SparkContext (real Spark, local[2]); skips nothing: a missing Java fails loudly."""
    from verifier.spark import get_context

    return get_context("local[2]")
