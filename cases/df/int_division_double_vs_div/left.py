"""Half the amount with /: Spark's / always returns a double, even on INT operands."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def half(orders: Orders) -> DataFrame:
    return orders.select("oid", (F.col("amount") / 2).alias("half"))
