# The population statistics of each URL with the group turned into a list first: the same values, so
# the same results (statistics computes exactly: the order of the values does not matter).
import statistics
import sys
from pyspark.sql import SparkSession


def compute_stats(frequencies):
    average = statistics.mean(list(frequencies))
    median = statistics.median(frequencies)
    standard_deviation = statistics.pstdev(frequencies)
    return (average, median, standard_deviation)


def create_pair(record):
    tokens = record.split(',')
    url_address = tokens[0]
    frequency = int(tokens[1])
    return (url_address, frequency)


if __name__ == "__main__":
    spark = SparkSession.builder.appName("compute_stats").getOrCreate()
    input_path = sys.argv[1]
    results = spark.sparkContext.textFile(input_path) \
        .filter(lambda record: len(record) > 5) \
        .map(create_pair) \
        .groupByKey() \
        .mapValues(compute_stats)
    print("results = ", sorted(results.collect()))
    spark.stop()
