from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def per_customer(orders: Orders) -> DataFrame:
    valid = orders.filter(F.col("amount") > 0)
    spread = valid.withColumn("rest", F.col("amount") % F.col("cid"))
    return spread.groupBy("cid").agg(F.sum("rest").alias("total"))
