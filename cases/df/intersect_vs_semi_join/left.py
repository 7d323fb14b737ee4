"""Keys present in both tables with intersect (set semantics, NULL equal to NULL)."""

from typing import Annotated

from pyspark.sql import DataFrame

Current = Annotated[DataFrame, "k INT, x STRING"]
Discontinued = Annotated[DataFrame, "k INT, y STRING"]


def common_keys(current: Current, discontinued: Discontinued) -> DataFrame:
    return current.select("k").intersect(discontinued.select("k"))
