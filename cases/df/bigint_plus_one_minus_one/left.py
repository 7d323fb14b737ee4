"""The +1 -1 adjustment on v cast to bigint: no overflow is possible from an INT input."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v INT"]


def adjusted(t: Table) -> DataFrame:
    return t.select("k", (F.col("v").cast("bigint") + 1 - 1).alias("v"))
