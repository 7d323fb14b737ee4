"""Bucket rows by v % 4: Spark's % truncates, so a negative v gets a negative bucket."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v INT"]


def bucket(t: Table) -> DataFrame:
    return t.withColumn("bucket", F.col("v") % 4)
