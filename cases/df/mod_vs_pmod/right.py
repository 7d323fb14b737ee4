"""Bucket rows by pmod(v, 4), the positive modulo."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v INT"]


def bucket(t: Table) -> DataFrame:
    return t.withColumn("bucket", F.pmod(F.col("v"), F.lit(4)))
