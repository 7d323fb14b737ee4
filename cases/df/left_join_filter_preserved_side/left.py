"""Oslo customers with their orders, filtered after the left join."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]
Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def oslo_orders(customers: Customers, orders: Orders) -> DataFrame:
    joined = customers.join(orders, customers.id == orders.cid, "left")
    return joined.filter(F.col("city") == "Oslo")
