"""Merge two tables on k with a full outer join USING k: the k column is the key of whichever side has the
row."""

from typing import Annotated

from pyspark.sql import DataFrame

Left = Annotated[DataFrame, "k INT, x STRING"]
Right = Annotated[DataFrame, "k INT, y STRING"]


def merged(a: Left, b: Right) -> DataFrame:
    return a.join(b, "k", "full").select("k", "x", "y")
