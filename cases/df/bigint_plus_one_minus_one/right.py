"""v cast to bigint."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Table = Annotated[DataFrame, "k INT, v INT"]


def adjusted(t: Table) -> DataFrame:
    return t.select("k", F.col("v").cast("bigint").alias("v"))
