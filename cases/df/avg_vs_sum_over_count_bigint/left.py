"""Mean per key with avg: Spark adds the values as doubles, so 2^53 + 1 is rounded back to 2^53."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v BIGINT"]


def mean_per_key(t: Table) -> DataFrame:
    return t.groupBy("k").agg(F.avg("v").alias("mean"))
