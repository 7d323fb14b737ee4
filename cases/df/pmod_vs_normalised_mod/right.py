"""Bucket rows with the C-style normalisation of a truncated modulo."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v INT"]


def bucket(t: Table) -> DataFrame:
    return t.withColumn("bucket", (F.col("v") % 4 + 4) % 4)
