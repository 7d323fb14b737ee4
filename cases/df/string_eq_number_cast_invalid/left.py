"""Rows whose code is 1, compared with an int: Spark casts code to BIGINT, and under ANSI mode a code like
'x' raises NumberFormatException [CAST_INVALID_INPUT]."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Items = Annotated[DataFrame, "code STRING, qty INT"]


def code_one(items: Items) -> DataFrame:
    return items.filter(F.col("code") == 1)
