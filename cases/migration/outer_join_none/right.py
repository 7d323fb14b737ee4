"""Spend per customer with DataFrames, the padding forgotten: a customer without orders gets NULL
(None in Python), not 0."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING NOT NULL"]
Orders = Annotated[DataFrame, "cust INT NOT NULL, amount INT NOT NULL"]


def spend(customers: Customers, orders: Orders) -> DataFrame:
    totals = orders.groupBy("cust").agg(F.sum("amount").alias("total"))
    joined = customers.join(totals, customers.id == totals.cust, "left")
    return joined.select("id", "name", "total")
