"""Orders placed by a known customer, as a left semi join (each order at most once)."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT PRIMARY KEY, cid INT, amount INT, status STRING"]
Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]


def ordering_customers(orders: Orders, customers: Customers) -> DataFrame:
    return orders.join(customers, orders.cid == customers.id, "left_semi")
