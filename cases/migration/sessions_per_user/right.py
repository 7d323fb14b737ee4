"""Sessionisation by key with DataFrames: min, max and count per user."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Events = Annotated[DataFrame, "user INT NOT NULL, ts BIGINT NOT NULL"]


def sessions(events: Events) -> DataFrame:
    return events.groupBy("user").agg(F.min("ts"), F.max("ts"), F.count(F.lit(1)))
