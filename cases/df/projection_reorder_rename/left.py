"""Order ids and states, renamed with aliases."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def order_states(orders: Orders) -> DataFrame:
    return orders.select(F.col("status").alias("state"), F.col("oid").alias("order_id"))
