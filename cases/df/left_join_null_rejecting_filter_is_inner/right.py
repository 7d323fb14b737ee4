"""The same with an inner join: amount > 100 is never true on a row the left join pads with NULLs, so the
filter drops exactly the rows the inner join does not produce."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]
Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def big_orders(customers: Customers, orders: Orders) -> DataFrame:
    joined = customers.join(orders, customers.id == orders.cid, "inner")
    return joined.filter(F.col("amount") > 100)
