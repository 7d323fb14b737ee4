"""Orders that are not big paid orders, as the negation of a conjunction."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def not_big_paid(orders: Orders) -> DataFrame:
    return orders.filter(~((F.col("amount") > 100) & (F.col("status") == "paid")))
