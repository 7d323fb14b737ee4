"""Customers with their orders over 100, as a left join filtered on an order column."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]
Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def big_orders(customers: Customers, orders: Orders) -> DataFrame:
    joined = customers.join(orders, customers.id == orders.cid, "left")
    return joined.filter(F.col("amount") > 100)
