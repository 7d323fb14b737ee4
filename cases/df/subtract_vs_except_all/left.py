"""Rows of current not in discontinued with subtract: duplicates collapse."""

from typing import Annotated

from pyspark.sql import DataFrame

Current = Annotated[DataFrame, "k INT, x STRING"]


def remaining(current: Current, discontinued: Current) -> DataFrame:
    return current.subtract(discontinued)
