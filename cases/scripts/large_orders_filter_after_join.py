"""Large orders with their customer's region, from two CSV files with headers, written as CSV."""

import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("Usage: large_orders_filter_after_join.py <orders.csv> <customers.csv> <output dir>",
              file=sys.stderr)
        sys.exit(-1)
    spark = SparkSession.builder.appName("LargeOrders").getOrCreate()
    orders = spark.read.csv(sys.argv[1], header=True, schema="order_id INT, customer_id INT, amount INT")
    customers = spark.read.csv(sys.argv[2], header=True, schema="customer_id INT, region STRING")
    joined = orders.join(customers, "customer_id")
    large = joined.where(F.col("amount") >= 100).select("order_id", "region", "amount")
    large.write.mode("overwrite").option("header", True).csv(sys.argv[3])
    print("large orders:", large.count())
    spark.stop()
