"""The class of each status code with `div`, which truncates toward zero: -150 div 100 is -1 where
Python's -150 // 100 is -2."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Logs = Annotated[DataFrame, "path STRING NOT NULL, status INT NOT NULL"]


def classes(logs: Logs) -> DataFrame:
    return logs.select("path", F.expr("status div 100").alias("cls"))
