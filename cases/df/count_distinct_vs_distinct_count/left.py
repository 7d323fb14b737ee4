"""Number of distinct customers with count_distinct, which ignores NULL."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def customer_count(orders: Orders) -> DataFrame:
    return orders.agg(F.count_distinct("cid").alias("customers"))
