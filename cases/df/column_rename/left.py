"""Total per customer, the aggregate left unnamed: Spark calls the column `sum(amount)`."""

from typing import Annotated

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

Orders = Annotated[DataFrame, "oid INT NOT NULL, cid INT, amount INT, status STRING"]


def totals(orders: Orders) -> DataFrame:
    return orders.groupBy("cid").agg(F.sum("amount"))
