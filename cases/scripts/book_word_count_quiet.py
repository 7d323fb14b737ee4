#!/usr/bin/python
# The same word count without the debug print of the input path.
from __future__ import print_function
import sys
from pyspark.sql import SparkSession

if __name__ == '__main__':
    if len(sys.argv) != 2:
        print("Usage: word_count.py <file>", file=sys.stderr)
        exit(-1)

    spark = SparkSession.builder.appName("word_count").getOrCreate()
    print("spark=", spark)
    input_path = sys.argv[1]

    records = spark.sparkContext.textFile(input_path)
    words = records.flatMap(lambda line: line.split(" "))
    pairs = words.map(lambda word: (word, 1))
    frequencies = pairs.reduceByKey(lambda a, b: a + b)
    print("frequencies.collect() = ", frequencies.collect())

    spark.stop()
