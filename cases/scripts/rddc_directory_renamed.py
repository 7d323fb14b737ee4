# rddc_directory.py with other names for the directory and its listing.
import os
import sys
from pyspark.sql import SparkSession

if __name__ == '__main__':
    if len(sys.argv) != 2:
        print("Usage: rddc_directory_renamed.py <dir>", file=sys.stderr)
        exit(-1)

    spark = SparkSession.builder.appName("rddc_directory_renamed").getOrCreate()
    folder = sys.argv[1]
    print("dir path : ", folder)
    names = os.listdir(folder)
    print("dir_listing = ", names)

    rdd = spark.sparkContext.textFile(folder)
    print("rdd =", rdd)
    print("rdd.count = ", rdd.count())
    filtered = rdd.filter(lambda record: record.find('3') != -1)
    print("filtered.count = ", filtered.count())
    print("filtered.collect() = ", filtered.collect())
    spark.stop()
