"""All scores, with union: the archive's score lands in the id column and vice versa."""

from typing import Annotated

from pyspark.sql import DataFrame

Current = Annotated[DataFrame, "id INT, score INT"]
Archive = Annotated[DataFrame, "score INT, id INT"]


def all_scores(current: Current, archive: Archive) -> DataFrame:
    return current.union(archive)
