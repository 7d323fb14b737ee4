"""Inner join USING k."""

from typing import Annotated

from pyspark.sql import DataFrame

Left = Annotated[DataFrame, "k INT, x STRING"]
Right = Annotated[DataFrame, "k INT, y STRING"]


def matched(a: Left, b: Right) -> DataFrame:
    return a.join(b, "k").select("k", "x", "y")
