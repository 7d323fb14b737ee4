# rddc_wordcount_argv.py with other names for its paths: the script's own name differs (an excluded field),
# the rest of what it prints is the same.
from __future__ import print_function
import sys
from pyspark.sql import SparkSession

print("This is the name of the script: ", sys.argv[0])
print("Number of arguments: ", len(sys.argv))
print("The arguments are: ", str(sys.argv))

if len(sys.argv) != 3:
    print("Usage: wordcount.py <input-path>, <output-path>", file=sys.stderr)
    exit(-1)

source = sys.argv[1]
print("input_path: ", source)
target = sys.argv[2]
print("output_path: ", target)

spark = SparkSession.builder.appName("PythonWordCount").getOrCreate()
lines = spark.sparkContext.textFile(source)
counts = lines.flatMap(lambda x: x.split(' ')).map(lambda x: (x, 1)).reduceByKey(lambda a, b: a + b)
output = counts.collect()
for (word, count) in output:
    print("%s: %i" % (word, count))
counts.saveAsTextFile(target)
spark.stop()
