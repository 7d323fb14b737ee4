"""Average per key with F.avg: a DOUBLE (7.0 where the RDD job printed 7, 3.5 where it printed 3)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Sales = Annotated[DataFrame, "store INT NOT NULL, amount INT NOT NULL"]


def average(sales: Sales) -> DataFrame:
    return sales.groupBy("store").agg(F.avg("amount"))
