"""dropDuplicates on cid alone: one (arbitrary) row per customer, so a customer with two statuses loses one
of them."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def customer_statuses(orders: Orders) -> DataFrame:
    return orders.dropDuplicates(["cid"]).select("cid", "status")
