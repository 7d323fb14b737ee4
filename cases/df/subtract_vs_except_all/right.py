"""Rows of current not in discontinued with exceptAll: a row twice in current and absent from discontinued
stays twice."""

from typing import Annotated

from pyspark.sql import DataFrame

Current = Annotated[DataFrame, "k INT, x STRING"]


def remaining(current: Current, discontinued: Current) -> DataFrame:
    return current.exceptAll(discontinued)
