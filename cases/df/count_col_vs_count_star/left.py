"""Orders per customer, counted with count(amount): an order whose amount is NULL is not counted."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def orders_per_customer(orders: Orders) -> DataFrame:
    return orders.groupBy("cid").agg(F.count("amount").alias("n_orders"))
