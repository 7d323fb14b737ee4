"""The same job with the filter moved after the aggregation (keys are filtered, so it commutes)."""

import sys

from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("WordCountSkipEmpty").getOrCreate()
sc = spark.sparkContext

if len(sys.argv) != 2:
    print("Usage: wordcount_skip_empty_after.py <file>")
    sys.exit(2)

lines = sc.textFile(sys.argv[1])
counts = lines.flatMap(lambda line: line.split(" ")) \
    .map(lambda w: (w.lower(), 1)) \
    .reduceByKey(lambda a, b: a + b) \
    .filter(lambda kv: kv[0] != "")

for word, count in counts.collect():
    print("%s: %i" % (word, count))

spark.stop()
