"""The same query with the DataFrame API, the status filter applied before the join (it reads only order
columns). Tables come from --schema (the parameters are named like them)."""

from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def revenue(orders: DataFrame, customers: DataFrame) -> DataFrame:
    paid = orders.filter(F.col("status") == "paid")
    joined = paid.join(customers, paid.cid == customers.id)
    return joined.groupBy("city").agg(F.sum("amount").alias("revenue"))
