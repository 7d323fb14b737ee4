"""Inner join ON a.k = b.k, keeping a.k (equal to b.k on every joined row)."""

from typing import Annotated

from pyspark.sql import DataFrame

Left = Annotated[DataFrame, "k INT, x STRING"]
Right = Annotated[DataFrame, "k INT, y STRING"]


def matched(a: Left, b: Right) -> DataFrame:
    return a.join(b, a.k == b.k).select(a.k, "x", "y")
