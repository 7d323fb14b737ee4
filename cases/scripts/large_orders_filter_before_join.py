"""Large orders with their customer's region: the amount filter applied to the orders before the join."""

import sys

from pyspark.sql import SparkSession


def main(orders_path, customers_path, out_path):
    spark = SparkSession.builder.appName("LargeOrdersPushedDown").getOrCreate()
    orders = (spark.read.option("header", "true")
              .schema("order_id INT, customer_id INT, amount INT")
              .csv(orders_path))
    customers = (spark.read.option("header", "true")
                 .schema("customer_id INT, region STRING")
                 .csv(customers_path))
    large_orders = orders.filter(orders.amount >= 100)
    large = large_orders.join(customers, on="customer_id").select("order_id", "region", "amount")
    large.write.mode("overwrite").csv(out_path, header=True)
    print("large orders:", large.count())
    spark.stop()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("Usage: large_orders_filter_before_join.py <orders.csv> <customers.csv> <output dir>",
              file=sys.stderr)
        sys.exit(-1)
    main(sys.argv[1], sys.argv[2], sys.argv[3])
