"""Total and maximum per key computed separately and joined on k (USING, so one k column). Each side has
exactly one row per key and k is never NULL, so the inner join pairs them all."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT NOT NULL, v INT"]


def stats(t: Table) -> DataFrame:
    totals = t.groupBy("k").agg(F.sum("v").alias("total"))
    tops = t.groupBy("k").agg(F.max("v").alias("top"))
    return totals.join(tops, "k")
