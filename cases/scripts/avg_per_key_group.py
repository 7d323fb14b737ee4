"""Average amount per customer from "customer,amount" lines: groupByKey, then sum over count."""

import sys

from pyspark.sql import SparkSession


def parse(line):
    fields = line.split(",")
    return (fields[0], int(fields[1]))


def main():
    if len(sys.argv) != 2:
        print("Usage: avg_per_key_group.py <sales.csv>", file=sys.stderr)
        sys.exit(-1)
    spark = SparkSession.builder.appName("AveragePerCustomer").getOrCreate()
    sales = spark.sparkContext.textFile(sys.argv[1]).map(parse)
    averages = sales.groupByKey().mapValues(lambda amounts: sum(amounts) / len(amounts))
    for customer, avg in averages.collect():
        print(customer, avg)
    spark.stop()


if __name__ == "__main__":
    main()
