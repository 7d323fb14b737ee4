#!/usr/bin/python
# Word count written straight in the main block, with operator.add and the words' RDD cached.
import sys
from operator import add
from pyspark import SparkConf
from pyspark import SparkContext


if __name__ == '__main__':

    conf = SparkConf()
    conf.setAppName("WordCount")
    sc = SparkContext(conf=conf)
    input_path = sys.argv[1]

    records_rdd = sc.textFile(input_path)
    print(records_rdd.collect())
    words_rdd = records_rdd.flatMap(lambda line: line.split(" ")).cache()
    frequencies_rdd = words_rdd.map(lambda word: (word, 1)).reduceByKey(add)
    print(frequencies_rdd.collect())
    sc.stop()
