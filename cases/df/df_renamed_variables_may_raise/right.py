from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def per_customer_renamed(o: Orders) -> DataFrame:
    kept = o.filter(F.col("amount") > 0)
    with_mod = kept.withColumn("m", F.col("amount") % F.col("cid"))
    return with_mod.groupBy("cid").agg(F.sum("m").alias("total"))
