"""Number of distinct customers via distinct(): NULL is one more distinct value."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def customer_count(orders: Orders) -> DataFrame:
    return orders.select("cid").distinct().agg(F.count("*").alias("customers"))
