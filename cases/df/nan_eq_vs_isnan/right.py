"""Find NaN readings with isnan (false on NULL; the comparison is NULL there: both drop it)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Readings = Annotated[DataFrame, "sensor INT, reading DOUBLE"]


def broken_readings(readings: Readings) -> DataFrame:
    return readings.filter(F.isnan("reading"))
