# Character frequencies over the whole upper-cased line: spaces and tabs are counted too.
import sys
from pyspark.sql import SparkSession


def create_pairs(record):
    pairs = [(c, 1) for c in record.upper()]
    return pairs


if __name__ == '__main__':
    spark = SparkSession.builder.appName("inmapper_combiner_use_basic_mapreduce").getOrCreate()
    input_path = sys.argv[1]
    records = spark.sparkContext.textFile(input_path)
    pairs = records.flatMap(create_pairs)
    print("pairs.count(): ", pairs.count())
    print("pairs.collect(): ", sorted(pairs.collect()))
    spark.stop()
