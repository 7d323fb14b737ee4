"""Gross amount in one withColumn: amount * 2 + 1 raises ARITHMETIC_OVERFLOW on the same rows."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def gross(orders: Orders) -> DataFrame:
    return orders.withColumn("gross", F.col("amount") * 2 + 1)
