"""The same join written with a condition and a.k selected: rows only in b have a.k NULL."""

from typing import Annotated

from pyspark.sql import DataFrame

Left = Annotated[DataFrame, "k INT, x STRING"]
Right = Annotated[DataFrame, "k INT, y STRING"]


def merged(a: Left, b: Right) -> DataFrame:
    return a.join(b, a.k == b.k, "full").select(a.k, "x", "y")
