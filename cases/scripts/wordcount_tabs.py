"""Word count printing tab-separated lines (same counts as wordcount_example.py, printed differently)."""

import sys
from operator import add

from pyspark.sql import SparkSession

if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("Usage: wordcount_tabs <file>", file=sys.stderr)
        sys.exit(-1)
    spark = SparkSession.builder.appName("WordCountTabs").getOrCreate()
    sc = spark.sparkContext

    counts = sc.textFile(sys.argv[1]) \
        .flatMap(lambda line: line.split(" ")) \
        .map(lambda word: (word, 1)) \
        .reduceByKey(add)
    for word, count in counts.collect():
        print(word, count, sep="\t")
    spark.stop()
