"""Clicks per page with DataFrames: count() is a BIGINT, which Python reads as an int too."""

from typing import Annotated

from pyspark.sql import DataFrame

Events = Annotated[DataFrame, "page STRING NOT NULL, user INT NOT NULL"]


def clicks(events: Events) -> DataFrame:
    return events.groupBy("page").count()
