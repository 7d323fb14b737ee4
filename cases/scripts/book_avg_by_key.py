#!/usr/bin/python
# Total value per key of a list of (name, city, number) tuples, in the style of the book's chapter 5
# scripts: the data is written in the script, and every step is printed for the reader.
from __future__ import print_function
import sys
from pyspark.sql import SparkSession


if __name__ == '__main__':

    spark = SparkSession\
        .builder\
        .appName("sum_by_key")\
        .getOrCreate()
    print("spark=", spark)

    list_of_tuples = [('alex', 'Sunnyvale', 25), ('alex', 'Sunnyvale', 33), ('mary', 'Ames', 22),
                      ('mary', 'Cupertino', 66), ('jane', 'Ames', 20), ('bob', 'Ames', 26)]
    print("list_of_tuples = ", list_of_tuples)
    rdd = spark.sparkContext.parallelize(list_of_tuples)
    print("rdd = ", rdd)
    print("rdd.count() = ", rdd.count())

    pairs = rdd.map(lambda t: (t[0], t[2]))
    sums = pairs.reduceByKey(lambda x, y: x + y)
    print("sums = ", sums)
    print("sums.collect() = ", sums.collect())

    spark.stop()
