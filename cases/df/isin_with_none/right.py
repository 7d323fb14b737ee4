"""The exclusion list without the None: keeps every order whose cid is known and not 3."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def not_excluded(orders: Orders) -> DataFrame:
    return orders.filter(~F.col("cid").isin(3))
