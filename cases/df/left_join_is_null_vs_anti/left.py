"""Customers without orders: left join, keep the rows where the order id is NULL."""

from typing import Annotated

from pyspark.sql import DataFrame

Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]
Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def customers_without_orders(customers: Customers, orders: Orders) -> DataFrame:
    joined = customers.join(orders, customers.id == orders.cid, "left")
    return joined.filter(orders.oid.isNull()).select("id", "name", "city")
