"""Distinct readings with DataFrames: Spark normalises -0.0 to 0.0 and treats every NaN as one value."""

from typing import Annotated

from pyspark.sql import DataFrame

Samples = Annotated[DataFrame, "sensor INT NOT NULL, v DOUBLE NOT NULL"]


def readings(samples: Samples) -> DataFrame:
    return samples.select("v").distinct()
