"""Total doubled after summing: sum(INT) is a bigint, so the product does not overflow here."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v INT"]


def doubled_total(t: Table) -> DataFrame:
    return t.groupBy("k").agg((F.sum("v") * 2).alias("total"))
