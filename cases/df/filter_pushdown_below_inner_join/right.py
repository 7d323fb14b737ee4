"""Big orders with the customer's name: filter, then join (an inner join commutes with a filter on one side's
columns)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]
Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]


def big_order_names(orders: Orders, customers: Customers) -> DataFrame:
    big = orders.filter(F.col("amount") > 100)
    return big.join(customers, big.cid == customers.id).select("oid", "name", "amount")
