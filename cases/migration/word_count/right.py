"""Word count migrated to DataFrames: group by the word and count the rows."""

from typing import Annotated

from pyspark.sql import DataFrame

Words = Annotated[DataFrame, "word STRING NOT NULL"]


def word_count(words: Words) -> DataFrame:
    return words.groupBy("word").count()
