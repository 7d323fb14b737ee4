"""The same report with DataFrames: the filter pushed before the join."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "cust INT NOT NULL, amount INT NOT NULL"]
Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING NOT NULL"]


def big_orders(orders: Orders, customers: Customers) -> DataFrame:
    big = orders.filter(F.col("amount") > 100)
    joined = big.join(customers, big.cust == customers.id)
    return joined.select("cust", "name", "amount")
