"""Amounts in descending order."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def amounts_desc(orders: Orders) -> DataFrame:
    return orders.select("amount").orderBy(F.col("amount").desc())
