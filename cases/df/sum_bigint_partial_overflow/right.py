"""Net of all deltas summed as decimal(38, 0), which cannot overflow on such inputs, then cast back to bigint
(the total, MAX, fits)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Ledger = Annotated[DataFrame, "account INT, delta BIGINT"]


def net(ledger: Ledger) -> DataFrame:
    exact = F.sum(F.col("delta").cast("decimal(38,0)"))
    return ledger.agg(exact.cast("bigint").alias("net"))
