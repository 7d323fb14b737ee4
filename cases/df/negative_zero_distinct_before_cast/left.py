"""Distinct reading labels, cast to string first: -0.0 and 0.0 give two strings."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Readings = Annotated[DataFrame, "sensor INT, reading DOUBLE"]


def labels(readings: Readings) -> DataFrame:
    return readings.select(F.col("reading").cast("string").alias("reading")).distinct()
