"""The filter on the customers' city moved before the left join: it reads only left-side columns, which the
join never changes or pads."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]
Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def oslo_orders(customers: Customers, orders: Orders) -> DataFrame:
    oslo = customers.filter(F.col("city") == "Oslo")
    return oslo.join(orders, oslo.id == orders.cid, "left")
