"""The better of two scores with greatest, which ignores a NULL argument."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Games = Annotated[DataFrame, "id INT, home INT, away INT"]


def best_score(games: Games) -> DataFrame:
    return games.select("id", F.greatest("home", "away").alias("best"))
