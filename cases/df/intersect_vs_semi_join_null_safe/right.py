"""Keys present in both tables with distinct and a left semi join on eqNullSafe, which matches NULL with NULL
as intersect does."""

from typing import Annotated

from pyspark.sql import DataFrame

Current = Annotated[DataFrame, "k INT, x STRING"]
Discontinued = Annotated[DataFrame, "k INT, y STRING"]


def common_keys(current: Current, discontinued: Discontinued) -> DataFrame:
    keys = current.select("k").distinct()
    return keys.join(discontinued, keys.k.eqNullSafe(discontinued.k), "left_semi")
