"""Count the ERROR lines of a log file and print the count (also when it is zero)."""

import sys

from pyspark.sql import SparkSession

if __name__ == "__main__":
    spark = SparkSession.builder.appName("ErrorReport").getOrCreate()
    log = spark.sparkContext.textFile(sys.argv[1])
    n = log.filter(lambda line: line.startswith("ERROR")).count()
    print("errors: %d" % n)
    spark.stop()
