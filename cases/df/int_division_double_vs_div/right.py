"""Half the amount with SQL's integer division `div` (bigint, truncated toward zero)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def half(orders: Orders) -> DataFrame:
    return orders.select("oid", F.expr("amount div 2").alias("half"))
