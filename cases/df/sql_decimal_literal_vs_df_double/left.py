"""Gross amounts with the DataFrame API: the Python float 1.1 is a double literal, so the product is a double
(3.3000000000000003 for 3)."""

from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def gross(orders: DataFrame) -> DataFrame:
    return orders.select("oid", (F.col("amount") * 1.1).alias("gross"))
