"""The sort dropped: limit(2) keeps the first two rows of the first partition here."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def top_two(orders: Orders) -> DataFrame:
    return orders.limit(2)
