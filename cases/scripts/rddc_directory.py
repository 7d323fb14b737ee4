# In the style of the book's chapter 3 rdd_creation_from_directory.py: the input is a directory, its
# listing is printed, then Spark reads every file in it and keeps the records holding a '3'.
from __future__ import print_function
import os
import sys
from pyspark.sql import SparkSession

if __name__ == '__main__':
    if len(sys.argv) != 2:
        print("Usage: rddc_directory.py <dir>", file=sys.stderr)
        exit(-1)

    spark = SparkSession.builder.appName("rddc_directory").getOrCreate()
    dir_path = sys.argv[1]
    print("dir path : ", dir_path)
    dir_listing = os.listdir(dir_path)
    print("dir_listing = ", dir_listing)

    rdd = spark.sparkContext.textFile(dir_path)
    print("rdd =", rdd)
    print("rdd.count = ", rdd.count())
    filtered = rdd.filter(lambda record: record.find('3') != -1)
    print("filtered.count = ", filtered.count())
    print("filtered.collect() = ", filtered.collect())
    spark.stop()
