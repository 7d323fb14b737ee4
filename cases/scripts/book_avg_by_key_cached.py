#!/usr/bin/python
# The same totals, with the diagnostics a developer adds while tuning the job: a log level, the RDD
# cached, a logger, a line on standard error and more RDDs printed (their ids and call sites change).
from __future__ import print_function
import logging
import sys
from pyspark.sql import SparkSession


if __name__ == '__main__':

    spark = SparkSession\
        .builder\
        .appName("sum_by_key_tuned")\
        .getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    log = logging.getLogger("avg")
    print("spark=", spark)

    list_of_tuples = [('alex', 'Sunnyvale', 25), ('alex', 'Sunnyvale', 33), ('mary', 'Ames', 22),
                      ('mary', 'Cupertino', 66), ('jane', 'Ames', 20), ('bob', 'Ames', 26)]
    print("list_of_tuples = ", list_of_tuples)
    rdd = spark.sparkContext.parallelize(list_of_tuples)
    rdd.cache()
    print("rdd = ", rdd)
    print("rdd.count() = ", rdd.count())
    log.info("input has %d tuples", rdd.count())

    pairs = rdd.map(lambda t: (t[0], t[2])).filter(lambda kv: True)
    sums = pairs.reduceByKey(lambda x, y: x + y)
    print("sums = ", sums.cache())
    print("pairs =", pairs, file=sys.stderr)
    print("sums.collect() = ", sums.collect())

    spark.stop()
