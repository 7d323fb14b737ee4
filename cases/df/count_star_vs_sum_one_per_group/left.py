"""Orders per status with count('*')."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def orders_per_status(orders: Orders) -> DataFrame:
    return orders.groupBy("status").agg(F.count("*").alias("n"))
