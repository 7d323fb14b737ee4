#!/usr/bin/python
# Average per key with groupByKey(), in the style of the book's chapter 12 scripts: every RDD and every
# intermediate result is printed for the reader, the RDD of the text file and the grouped pairs included.
from __future__ import print_function
import sys
from pyspark.sql import SparkSession


def create_pair(record):
    tokens = record.split(",")
    return (tokens[0], int(tokens[1]))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print("Usage: ", __file__, " <input-path>", file=sys.stderr)
        exit(-1)

    spark = SparkSession\
        .builder\
        .appName("average_monoid_use_groupbykey")\
        .getOrCreate()

    input_path = sys.argv[1]
    print("input_path: {}".format(input_path))

    records = spark.sparkContext.textFile(input_path)
    print("records : ", records)
    print("records.count(): ", records.count())

    pairs = records.map(create_pair)
    grouped_by_key = pairs.groupByKey()
    print("grouped_by_key.count(): ", grouped_by_key.count())
    print("grouped_by_key.collect(): ", grouped_by_key.collect())

    averages = grouped_by_key.mapValues(lambda values: float(sum(values)) / float(len(values)))
    print("averages.collect(): ", averages.collect())

    spark.stop()
