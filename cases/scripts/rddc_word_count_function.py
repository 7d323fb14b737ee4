#!/usr/bin/python
# Word count in a function called from the main block, in the style of the book's chapter 1 scripts: the
# SparkContext is made inside a try whose handler prints a message, and the path is passed on.
import sys
from pyspark import SparkConf
from pyspark import SparkContext


def wordcount(sc, input_path):

    records_rdd = sc.textFile(input_path)
    print(records_rdd.collect())

    words_rdd = records_rdd.flatMap(lambda line: line.split(" "))
    pairs_rdd = words_rdd.map(lambda word: (word, 1))
    frequencies_rdd = pairs_rdd.reduceByKey(lambda a, b: a + b)
    print(frequencies_rdd.collect())


if __name__ == '__main__':

    conf = SparkConf()
    conf.setAppName("WordCount")
    conf.set('spark.executor.memory', '500M')
    try:
        sc = SparkContext(conf=conf)
        input_path = sys.argv[1]

    except:
        print("Failed to connect!")
        print(sys.exc_info()[0])

    # Execute word count
    wordcount(sc, input_path)
