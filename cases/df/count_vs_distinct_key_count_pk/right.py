"""Number of paid orders, counted as distinct order ids: the primary key makes every row's oid distinct, so
the counts agree."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT PRIMARY KEY, cid INT, amount INT, status STRING"]


def paid_count(orders: Orders) -> int:
    return orders.where(F.col("status") == "paid").select("oid").distinct().count()
