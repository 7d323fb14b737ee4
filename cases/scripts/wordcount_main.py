"""Word count with a main function and the SparkContext API (grouping, then counting each group)."""

import sys

from pyspark import SparkConf, SparkContext


def split_words(line):
    return line.split(" ")


def main(argv):
    if len(argv) < 2:
        print("usage: wordcount_main.py <input>", file=sys.stderr)
        sys.exit(1)
    conf = SparkConf().setAppName("WordCountMain")
    sc = SparkContext(conf=conf)
    sc.setLogLevel("WARN")

    text = sc.textFile(argv[1])
    words = text.flatMap(split_words)
    counts = words.map(lambda w: (w, 1)).groupByKey().mapValues(len)

    for word, n in counts.collect():
        print(f"{word}: {n}")
    sc.stop()


if __name__ == "__main__":
    main(sys.argv)
