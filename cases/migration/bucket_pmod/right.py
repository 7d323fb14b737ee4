"""Buckets with pmod: Python's % for a positive divisor."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Ids = Annotated[DataFrame, "id BIGINT NOT NULL, name STRING NOT NULL"]


def buckets(ids: Ids) -> DataFrame:
    return ids.select(F.pmod(F.col("id"), F.lit(8)).alias("bucket"), "name")
