"""Revenue per customer from JSON-lines orders; this version sums the quantity column by mistake."""

import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def main(orders_path):
    spark = SparkSession.builder.appName("CustomerRevenue").getOrCreate()
    orders = spark.read.json(orders_path, schema="order_id INT, customer STRING, amount DOUBLE, quantity INT")
    revenue = (orders.groupBy("customer")
               .agg(F.sum("quantity").alias("revenue"))
               .orderBy(F.desc("revenue"), "customer"))
    for row in revenue.collect():
        print(f"{row.customer}: {row.revenue}")
    spark.stop()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("Usage: customer_revenue.py <orders.jsonl>", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
