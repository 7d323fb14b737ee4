"""How many orders, as a one-row DataFrame: count('*') gives 0 on an empty table."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def order_count(orders: Orders) -> DataFrame:
    return orders.agg(F.count("*").alias("n"))
