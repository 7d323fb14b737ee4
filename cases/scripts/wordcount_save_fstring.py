"""Word count written to a directory of text files, one "word<TAB>count" line per word."""

import sys

from pyspark import SparkContext


def main(input_path, output_path):
    sc = SparkContext(appName="WordCountSave")
    words = sc.textFile(input_path).flatMap(lambda line: line.split())
    counts = words.map(lambda w: (w, 1)).reduceByKey(lambda a, b: a + b)
    counts.map(lambda kv: f"{kv[0]}\t{kv[1]}").saveAsTextFile(output_path)
    sc.stop()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("Usage: wordcount_save_fstring.py <input> <output dir>", file=sys.stderr)
        sys.exit(1)
    main(sys.argv[1], sys.argv[2])
