"""Replace missing amounts by 0 with coalesce."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def fill_amount(orders: Orders) -> DataFrame:
    return orders.withColumn("amount", F.coalesce(F.col("amount"), F.lit(0)))
