"""The same filters in the other order: Spark combines them into `num / den > 2 AND den != 0` and evaluates
left to right, so the division by zero raises before the guard is seen."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Fractions = Annotated[DataFrame, "id INT, num INT, den INT"]


def ratios(t: Fractions) -> DataFrame:
    return t.filter(F.col("num") / F.col("den") > 2).filter(F.col("den") != 0)
