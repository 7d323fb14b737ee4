"""Bytes served per host with DataFrames: the sum of a BIGINT column raises ARITHMETIC_OVERFLOW past
2**63 - 1 (ANSI mode, Spark 4's default), where the RDD job went on."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Requests = Annotated[DataFrame, "host STRING NOT NULL, bytes BIGINT NOT NULL"]


def traffic(requests: Requests) -> DataFrame:
    return requests.groupBy("host").agg(F.sum("bytes"))
