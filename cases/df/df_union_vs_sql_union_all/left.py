"""Every customer id of both tables with the DataFrame union."""

from pyspark.sql import DataFrame


def customer_ids(orders: DataFrame, customers: DataFrame) -> DataFrame:
    return orders.select("cid").union(customers.select("id"))
