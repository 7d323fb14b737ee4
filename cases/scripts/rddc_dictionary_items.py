#!/usr/bin/python
# An RDD created from a Python dictionary's items, in the style of the book's chapter 3 scripts: the
# dictionary and its items are printed, then the RDD and what it holds.
from __future__ import print_function
import sys
from pyspark.sql import SparkSession

if __name__ == '__main__':

    spark = SparkSession\
        .builder\
        .appName("rdd_creation_from_dictionary")\
        .getOrCreate()

    mydict = {'A': '1', 'B': '2', 'D': '8', 'E': '99'}
    print("mydict=", mydict)
    print("mydict.items()= ", mydict.items())

    rdd = spark.sparkContext.parallelize(mydict.items())
    print("rdd.count = ", rdd.count())
    print("rdd.collect() = ", rdd.collect())
    labels = rdd.map(lambda kv: kv[0] + "=" + kv[1])
    print("labels = ", labels.collect())

    spark.stop()
