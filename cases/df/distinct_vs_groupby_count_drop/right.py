"""Each (customer, status) pair once via groupBy().count() with the count dropped."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def customer_statuses(orders: Orders) -> DataFrame:
    return orders.groupBy("cid", "status").count().drop("count")
