"""All scores with a positional union after selecting the archive's columns in the current order."""

from typing import Annotated

from pyspark.sql import DataFrame

Current = Annotated[DataFrame, "id INT, score INT"]
Archive = Annotated[DataFrame, "score INT, id INT"]


def all_scores(current: Current, archive: Archive) -> DataFrame:
    return current.union(archive.select("id", "score"))
