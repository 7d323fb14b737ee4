"""Version parts migrated to DataFrames, with the classic trap: ``F.split``'s pattern is a Java regular
expression, so ``"."`` matches every character (``F.split(col, "[.]")`` or ``"\\\\."`` is the literal dot)."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Versions = Annotated[DataFrame, "version STRING NOT NULL"]


def parts(versions: Versions) -> DataFrame:
    return versions.select(F.explode(F.split("version", ".")).alias("part")).groupBy("part").count()
