"""Mean per key as sum / count: the bigint sum is exact and only the final division rounds. Also a double
(and NULL on an all-NULL group, as NULL / 0 is NULL), but not the same double."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v BIGINT"]


def mean_per_key(t: Table) -> DataFrame:
    return t.groupBy("k").agg((F.sum("v") / F.count("v")).alias("mean"))
