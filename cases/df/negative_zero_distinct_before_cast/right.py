"""Distinct readings, then cast to string: distinct groups -0.0 with 0.0 (normalised to 0.0), so only '0.0'
is left."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Readings = Annotated[DataFrame, "sensor INT, reading DOUBLE"]


def labels(readings: Readings) -> DataFrame:
    distinct = readings.select("reading").distinct()
    return distinct.select(F.col("reading").cast("string").alias("reading"))
