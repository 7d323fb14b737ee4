"""The column itself."""

from typing import Annotated

from pyspark.sql import DataFrame

Table = Annotated[DataFrame, "k INT, v INT"]


def adjusted(t: Table) -> DataFrame:
    return t.select("k", "v")
