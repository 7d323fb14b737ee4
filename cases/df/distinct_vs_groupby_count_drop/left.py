"""Each (customer, status) pair once with distinct."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def customer_statuses(orders: Orders) -> DataFrame:
    return orders.select("cid", "status").distinct()
