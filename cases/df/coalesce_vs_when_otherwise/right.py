"""Replace missing amounts by 0 with when/otherwise: the same values; Spark marks this column nullable, a
difference sparkeq only warns about."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def fill_amount(orders: Orders) -> DataFrame:
    return orders.withColumn("amount", F.when(F.col("amount").isNull(), 0).otherwise(F.col("amount")))
