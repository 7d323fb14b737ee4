"""Customers without orders as a left_anti join. oid is declared NOT NULL, so a NULL oid after the left join
means exactly that no order matched."""

from typing import Annotated

from pyspark.sql import DataFrame

Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]
Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def customers_without_orders(customers: Customers, orders: Orders) -> DataFrame:
    return customers.join(orders, customers.id == orders.cid, "left_anti")
