"""Big paid orders, with where and a SQL predicate string."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def big_paid(orders: Orders) -> DataFrame:
    return orders.where("amount > 100 AND status = 'paid'")
