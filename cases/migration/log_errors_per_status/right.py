"""Errors per status with DataFrames."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Logs = Annotated[DataFrame, "level STRING NOT NULL, status INT NOT NULL"]


def errors(logs: Logs) -> DataFrame:
    return logs.where(F.col("level") == "ERROR").groupBy("status").agg(F.count("*").alias("n"))
