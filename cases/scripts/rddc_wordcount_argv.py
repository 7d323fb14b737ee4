# In the style of the book's examples/wordcount/wordcount.py: the command line printed first (the
# script's own name, the number of arguments, the list), then a word count printed and saved.
from __future__ import print_function
import sys
from pyspark.sql import SparkSession

print("This is the name of the script: ", sys.argv[0])
print("Number of arguments: ", len(sys.argv))
print("The arguments are: ", str(sys.argv))

if len(sys.argv) != 3:
    print("Usage: wordcount.py <input-path>, <output-path>", file=sys.stderr)
    exit(-1)

input_path = sys.argv[1]
print("input_path: ", input_path)
output_path = sys.argv[2]
print("output_path: ", output_path)

spark = SparkSession.builder.appName("PythonWordCount").getOrCreate()
lines = spark.sparkContext.textFile(input_path)
counts = lines.flatMap(lambda x: x.split(' ')).map(lambda x: (x, 1)).reduceByKey(lambda a, b: a + b)
output = counts.collect()
for (word, count) in output:
    print("%s: %i" % (word, count))
counts.saveAsTextFile(output_path)
spark.stop()
