"""Replace missing amounts by 0, with a `when` that forgot its `otherwise`: every amount that was there
becomes NULL."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def fill_amount(orders: Orders) -> DataFrame:
    return orders.withColumn("amount", F.when(F.col("amount").isNull(), 0))
