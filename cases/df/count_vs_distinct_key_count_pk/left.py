"""Number of paid orders, counted as rows."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT PRIMARY KEY, cid INT, amount INT, status STRING"]


def paid_count(orders: Orders) -> int:
    return orders.filter(F.col("status") == "paid").count()
