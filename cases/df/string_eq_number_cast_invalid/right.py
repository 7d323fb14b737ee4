"""Rows whose code is the string '1': a string comparison, never an error (and '01' is not '1')."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Items = Annotated[DataFrame, "code STRING, qty INT"]


def code_one(items: Items) -> DataFrame:
    return items.filter(F.col("code") == "1")
