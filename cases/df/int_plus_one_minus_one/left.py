"""A leftover +1 -1 adjustment: INT arithmetic stays INT, and under ANSI mode v + 1 raises at the maximum
instead of wrapping."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v INT"]


def adjusted(t: Table) -> DataFrame:
    return t.select("k", (F.col("v") + 1 - 1).alias("v"))
