"""The join's sides swapped (an inner join is commutative up to column order), then every column selected
again in the original order."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]
Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]


def order_customers(orders: Orders, customers: Customers) -> DataFrame:
    joined = customers.join(orders, customers.id == orders.cid)
    return joined.select("oid", "cid", "amount", "status", "id", "name", "city")
