"""Total of doubled values: v * 2 is an INT product, which raises ARITHMETIC_OVERFLOW at v = 2^30 before sum
widens to bigint."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v INT"]


def doubled_total(t: Table) -> DataFrame:
    return t.groupBy("k").agg(F.sum(F.col("v") * 2).alias("total"))
