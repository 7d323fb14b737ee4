"""Word count written as text files, the lines built by concatenation (combineByKey to count)."""

import sys

from pyspark import SparkContext

if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("Usage: wordcount_save_concat.py <input> <output dir>", file=sys.stderr)
        sys.exit(1)
    sc = SparkContext(appName="WordCountSave")
    words = sc.textFile(sys.argv[1]).flatMap(lambda line: line.split())
    counts = words.map(lambda w: (w, 1)).combineByKey(
        lambda v: v, lambda acc, v: acc + v, lambda a, b: a + b)
    lines = counts.map(lambda kv: kv[0] + "\t" + str(kv[1]))
    lines.saveAsTextFile(sys.argv[2])
    sc.stop()
