"""Net of all deltas with sum: the running sum MAX + 1 raises ARITHMETIC_OVERFLOW in a partition that sees
MAX, 1, -1 in this order (with [MAX] and [1, -1] in two partitions it gives MAX)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Ledger = Annotated[DataFrame, "account INT, delta BIGINT"]


def net(ledger: Ledger) -> DataFrame:
    return ledger.agg(F.sum("delta").alias("net"))
