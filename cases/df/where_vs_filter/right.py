"""Big paid orders, with filter and Column expressions."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def big_paid(orders: Orders) -> DataFrame:
    return orders.filter((F.col("amount") > 100) & (F.col("status") == "paid"))
