"""Prices rounded with F.round: half up (0.5 -> 1.0); F.bround would round half to even."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Prices = Annotated[DataFrame, "item INT NOT NULL, price DOUBLE NOT NULL"]


def rounded(prices: Prices) -> DataFrame:
    return prices.select("item", F.round("price", 0))
