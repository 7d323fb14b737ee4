"""Orders that are not cancelled, with !=: an order with a NULL status is dropped too."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def active_orders(orders: Orders) -> DataFrame:
    return orders.filter(F.col("status") != "cancelled")
