#!/usr/bin/python
# The same word count (path printed too), with the words cached and the session's settings named.
from __future__ import print_function
import sys
from pyspark import SparkConf
from pyspark.sql import SparkSession

if __name__ == '__main__':
    if len(sys.argv) != 2:
        print("Usage: word_count.py <file>", file=sys.stderr)
        exit(-1)

    conf = SparkConf()
    conf.setAppName("word_count_cached")
    spark = SparkSession.builder.config(conf=conf).getOrCreate()
    print("spark=", spark)
    input_path = sys.argv[1]
    print("input path : ", input_path)

    records = spark.sparkContext.textFile(input_path)
    words = records.flatMap(lambda line: line.split(" ")).cache()
    pairs = words.map(lambda word: (word, 1))
    pairs.persist()
    frequencies = pairs.reduceByKey(lambda a, b: a + b)
    print("frequencies.collect() = ", frequencies.collect())
    pairs.unpersist()

    spark.stop()
