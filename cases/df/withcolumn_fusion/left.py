"""Gross amount in two steps, the second overwriting the column of the first."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def gross(orders: Orders) -> DataFrame:
    doubled = orders.withColumn("gross", F.col("amount") * 2)
    return doubled.withColumn("gross", F.col("gross") + 1)
