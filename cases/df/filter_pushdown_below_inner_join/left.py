"""Big orders with the customer's name: join, then filter."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]
Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]


def big_order_names(orders: Orders, customers: Customers) -> DataFrame:
    joined = orders.join(customers, orders.cid == customers.id)
    return joined.filter(F.col("amount") > 100).select("oid", "name", "amount")
