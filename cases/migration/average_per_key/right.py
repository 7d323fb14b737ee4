"""Average sale per store with DataFrames: sum over count (a DOUBLE, as Python's / gives a float)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Sales = Annotated[DataFrame, "store INT NOT NULL, amount INT NOT NULL"]


def average(sales: Sales) -> DataFrame:
    return sales.groupBy("store").agg((F.sum("amount") / F.count("amount")).alias("avg_amount"))
