"""The filter pushed into the right side of the left join: every customer is kept, padded with NULLs. Not the
same rows."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]
Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def big_orders(customers: Customers, orders: Orders) -> DataFrame:
    big = orders.filter(F.col("amount") > 100)
    return customers.join(big, customers.id == big.cid, "left")
