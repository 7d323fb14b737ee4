#!/usr/bin/python
# rddc_debug_file.py with the file printed inline (open(path).read(): no helper, no variable, no close).
from __future__ import print_function
import sys
from pyspark.sql import SparkSession


def create_pair(record):
    tokens = record.split(",")
    key = tokens[0]
    value = tokens[1]
    return (key, int(value))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print("Usage: rddc_debug_file_inline.py <file>", file=sys.stderr)
        exit(-1)

    spark = SparkSession.builder.appName("rddc_debug_file_inline").getOrCreate()
    input_path = sys.argv[1]
    print("input path : ", input_path)
    print("file_contents = \n" + open(input_path).read())

    rdd = spark.sparkContext.textFile(input_path)
    print("rdd.count = ", rdd.count())
    pairs = rdd.map(create_pair)
    filtered = pairs.filter(lambda kv: kv[1] > 24)
    print("filtered.count = ", filtered.count())
    print("filtered.collect() = ", filtered.collect())
    spark.stop()
