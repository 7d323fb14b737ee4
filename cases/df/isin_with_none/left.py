"""Drop the orders of excluded customers, where the exclusion list picked up a None: `cid IN (3, NULL)` is
NULL for every cid other than 3, so its negation is never true and nothing is kept."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def not_excluded(orders: Orders) -> DataFrame:
    return orders.filter(~F.col("cid").isin(3, None))
