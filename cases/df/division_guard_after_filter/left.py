"""Rows whose ratio exceeds 2, guarding against a zero denominator first."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Fractions = Annotated[DataFrame, "id INT, num INT, den INT"]


def ratios(t: Fractions) -> DataFrame:
    return t.filter(F.col("den") != 0).filter(F.col("num") / F.col("den") > 2)
