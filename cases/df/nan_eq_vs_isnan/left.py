"""Find NaN readings by comparing with NaN: Spark's = treats all NaNs as equal (unlike IEEE)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Readings = Annotated[DataFrame, "sensor INT, reading DOUBLE"]


def broken_readings(readings: Readings) -> DataFrame:
    return readings.filter(F.col("reading") == float("nan"))
