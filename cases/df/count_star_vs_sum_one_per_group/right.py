"""Orders per status with sum(1): sum of an int literal is a bigint, and every group has a row, so the empty-
input NULL of the global aggregate cannot happen."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def orders_per_status(orders: Orders) -> DataFrame:
    return orders.groupBy("status").agg(F.sum(F.lit(1)).alias("n"))
