"""Document frequency with DataFrames: distinct (word, doc) pairs, counted per word."""

from typing import Annotated

from pyspark.sql import DataFrame

Postings = Annotated[DataFrame, "doc INT NOT NULL, word STRING NOT NULL"]


def document_frequency(postings: Postings) -> DataFrame:
    return postings.select("word", "doc").distinct().groupBy("word").count()
