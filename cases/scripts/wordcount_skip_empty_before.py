"""Word count that skips the empty "words" split(' ') yields for repeated spaces, before counting."""

import sys

from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("WordCountSkipEmpty").getOrCreate()
sc = spark.sparkContext

if len(sys.argv) != 2:
    print("Usage: wordcount_skip_empty_before.py <file>")
    sys.exit(2)

lines = sc.textFile(sys.argv[1])
pairs = lines.flatMap(lambda line: line.split(" ")).map(lambda w: (w.lower(), 1))
pairs = pairs.filter(lambda kv: kv[0] != "")
counts = pairs.reduceByKey(lambda a, b: a + b)

for word, count in counts.collect():
    print("%s: %i" % (word, count))

spark.stop()
