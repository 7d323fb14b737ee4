"""Every customer with the amounts of their orders (a left join)."""

from typing import Annotated

from pyspark.sql import DataFrame

Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]
Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def customer_amounts(customers: Customers, orders: Orders) -> DataFrame:
    joined = customers.join(orders, customers.id == orders.cid, "left")
    return joined.select("name", "amount")
