"""Split the readings at 15 and glue the halves back together. A NULL reading makes `v > 15` NULL, and `~(v >
15)` is NULL too: filter keeps only true, so the row is lost (not the table: see right.py)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Readings = Annotated[DataFrame, "sensor INT, v INT"]


def split_and_merge(readings: Readings) -> DataFrame:
    high = readings.filter(F.col("v") > 15)
    low = readings.filter(~(F.col("v") > 15))
    return high.union(low)
