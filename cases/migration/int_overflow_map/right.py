"""Scores doubled in an INT column: 2 * 2**30 raises ARITHMETIC_OVERFLOW (ANSI mode)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Scores = Annotated[DataFrame, "player STRING NOT NULL, score INT NOT NULL"]


def doubled(scores: Scores) -> DataFrame:
    return scores.select("player", F.col("score") * 2)
