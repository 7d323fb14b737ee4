"""The two biggest orders."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def top_two(orders: Orders) -> DataFrame:
    return orders.orderBy(F.col("amount").desc()).limit(2)
