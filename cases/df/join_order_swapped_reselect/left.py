"""Orders with their customer, orders on the left of the join."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]
Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]


def order_customers(orders: Orders, customers: Customers) -> DataFrame:
    return orders.join(customers, orders.cid == customers.id)
