"""The same with the DataFrame API: aggregate, then filter the total (a bigint compared with 100, as HAVING
does; an all-NULL group has a NULL total, dropped by both)."""

from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def big_customers(orders: DataFrame) -> DataFrame:
    totals = orders.groupBy("cid").agg(F.sum("amount").alias("total"))
    return totals.filter(F.col("total") > 100)
