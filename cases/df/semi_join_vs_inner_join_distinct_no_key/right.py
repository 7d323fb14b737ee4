"""Inner join, order columns, distinct: duplicate order rows collapse into one."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]
Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]


def ordering_customers(orders: Orders, customers: Customers) -> DataFrame:
    joined = orders.join(customers, orders.cid == customers.id)
    return joined.select("oid", "cid", "amount", "status").distinct()
