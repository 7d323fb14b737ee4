"""The same with a left_anti join: both keep an order unless some blocked row has an id equal (true, not
NULL) to its cid, so a NULL cid is kept by both."""

from pyspark.sql import DataFrame


def unblocked(orders: DataFrame, blocked: DataFrame) -> DataFrame:
    kept = orders.join(blocked, orders.cid == blocked.id, "left_anti")
    return kept.select("oid", "cid")
