"""How many orders as sum(1): a bigint like count, but NULL on an empty table."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def order_count(orders: Orders) -> DataFrame:
    return orders.agg(F.sum(F.lit(1)).alias("n"))
