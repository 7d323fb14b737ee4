"""Keys present in both tables with a distinct and a left semi join on ==: NULL = NULL is not true, so the
NULL key is missing."""

from typing import Annotated

from pyspark.sql import DataFrame

Current = Annotated[DataFrame, "k INT, x STRING"]
Discontinued = Annotated[DataFrame, "k INT, y STRING"]


def common_keys(current: Current, discontinued: Discontinued) -> DataFrame:
    keys = current.select("k").distinct()
    return keys.join(discontinued, keys.k == discontinued.k, "left_semi")
