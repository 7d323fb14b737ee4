#!/usr/bin/python
# In the style of the book's chapter 3 scripts (rdd_creation_from_file.py): the input file is printed with
# open() before Spark reads it, then pairs are parsed and filtered.
from __future__ import print_function
import sys
from pyspark.sql import SparkSession


def debug_file(input_path):
    f = open(input_path, 'r')
    file_contents = f.read()
    print("file_contents = \n" + file_contents)
    f.close()


def create_pair(record):
    tokens = record.split(",")
    key = tokens[0]
    value = tokens[1]
    return (key, int(value))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print("Usage: rddc_debug_file.py <file>", file=sys.stderr)
        exit(-1)

    spark = SparkSession.builder.appName("rddc_debug_file").getOrCreate()
    input_path = sys.argv[1]
    print("input path : ", input_path)
    debug_file(input_path)

    rdd = spark.sparkContext.textFile(input_path)
    print("rdd.count = ", rdd.count())
    pairs = rdd.map(create_pair)
    filtered = pairs.filter(lambda kv: kv[1] > 24)
    print("filtered.count = ", filtered.count())
    print("filtered.collect() = ", filtered.collect())
    spark.stop()
