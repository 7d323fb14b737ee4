"""Orders that are not cancelled, with a null-safe comparison: a NULL status is kept."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def active_orders(orders: Orders) -> DataFrame:
    return orders.filter(~F.col("status").eqNullSafe("cancelled"))
