"""Distinct users with DataFrames."""

from typing import Annotated

from pyspark.sql import DataFrame

Visits = Annotated[DataFrame, "user INT NOT NULL, page STRING NOT NULL"]


def users(visits: Visits) -> int:
    return visits.select("user").distinct().count()
