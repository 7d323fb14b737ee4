"""Average amount per customer from "customer,amount" lines: sums and counts with reduceByKey."""

import sys

from pyspark.sql import SparkSession


def parse(line):
    fields = line.split(",")
    return (fields[0], int(fields[1]))


def main():
    if len(sys.argv) != 2:
        print("Usage: avg_per_key_reduce.py <sales.csv>", file=sys.stderr)
        sys.exit(-1)
    spark = SparkSession.builder.appName("AveragePerCustomer").getOrCreate()
    sales = spark.sparkContext.textFile(sys.argv[1]).map(parse)
    sums = sales.mapValues(lambda v: (v, 1)) \
        .reduceByKey(lambda a, b: (a[0] + b[0], a[1] + b[1]))
    averages = sums.mapValues(lambda t: t[0] / t[1])
    for customer, avg in averages.collect():
        print(customer, avg)
    spark.stop()


if __name__ == "__main__":
    main()
