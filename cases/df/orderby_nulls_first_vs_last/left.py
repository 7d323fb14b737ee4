"""Amounts in ascending order (NULLs first, Spark's default)."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def amounts_sorted(orders: Orders) -> DataFrame:
    return orders.select("amount").orderBy("amount")
