"""The better of two scores with when/otherwise: with away NULL the condition is NULL, so the otherwise
branch gives NULL."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Games = Annotated[DataFrame, "id INT, home INT, away INT"]


def best_score(games: Games) -> DataFrame:
    best = F.when(F.col("home") >= F.col("away"), F.col("home")).otherwise(F.col("away"))
    return games.select("id", best.alias("best"))
