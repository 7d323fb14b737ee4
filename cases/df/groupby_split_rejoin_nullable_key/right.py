"""Total and maximum per key computed separately and joined on k: NULL = NULL is not true, so the NULL group
is lost."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v INT"]


def stats(t: Table) -> DataFrame:
    totals = t.groupBy("k").agg(F.sum("v").alias("total"))
    tops = t.groupBy("k").agg(F.max("v").alias("top"))
    return totals.join(tops, "k")
