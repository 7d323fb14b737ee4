"""Total and maximum per key in one aggregation: the NULL keys form a group."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v INT"]


def stats(t: Table) -> DataFrame:
    return t.groupBy("k").agg(F.sum("v").alias("total"), F.max("v").alias("top"))
