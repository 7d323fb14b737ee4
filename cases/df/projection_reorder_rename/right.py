"""The same with withColumnRenamed, then the columns picked in the same order."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def order_states(orders: Orders) -> DataFrame:
    renamed = orders.withColumnRenamed("oid", "order_id").withColumnRenamed("status", "state")
    return renamed.select("state", "order_id")
