"""Orders per customer, counted with count('*'): every row counts, NULL amount or not."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def orders_per_customer(orders: Orders) -> DataFrame:
    return orders.groupBy("cid").agg(F.count("*").alias("n_orders"))
