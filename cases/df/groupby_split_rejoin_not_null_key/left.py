"""Total and maximum per key in one aggregation."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT NOT NULL, v INT"]


def stats(t: Table) -> DataFrame:
    return t.groupBy("k").agg(F.sum("v").alias("total"), F.max("v").alias("top"))
