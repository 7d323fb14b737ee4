# The same job with the combine function fixed (C2[1]): every partitioning gives the same result.
import sys
from pyspark.sql import SparkSession

if __name__ == '__main__':
    spark = SparkSession.builder.appName("average_by_key_use_aggregatebykey").getOrCreate()
    rdd = spark.sparkContext.textFile(sys.argv[1], 4).map(lambda line: (line[:1], len(line)))
    zero = (0, 0)
    sum_count = rdd.aggregateByKey(
        zero,
        lambda C, V: (C[0] + V, C[1] + 1),
        lambda C1, C2: (C1[0] + C2[0], C1[1] + C2[1]))
    print("sum_count = ", sum_count.collect())
    spark.stop()
