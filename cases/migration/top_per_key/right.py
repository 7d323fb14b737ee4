"""Top score per player with DataFrames."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Scores = Annotated[DataFrame, "player STRING NOT NULL, score INT NOT NULL"]


def best(scores: Scores) -> DataFrame:
    return scores.groupBy("player").agg(F.max("score"))
