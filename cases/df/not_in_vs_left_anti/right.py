"""The same with a left_anti join: an order whose cid is NULL matches no blocked row, so the anti join keeps
it (and a NULL in blocked.id excludes nothing). Not the NOT IN of left.sql."""

from pyspark.sql import DataFrame


def unblocked(orders: DataFrame, blocked: DataFrame) -> DataFrame:
    kept = orders.join(blocked, orders.cid == blocked.id, "left_anti")
    return kept.select("oid", "cid")
