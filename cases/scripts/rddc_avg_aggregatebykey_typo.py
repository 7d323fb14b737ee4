# Average per key with aggregateByKey, as mahmoudparsian/pyspark-algorithms chap06 writes it: the
# combine function reads C[1] (a name defined nowhere) where it means C2[1]. Spark calls it only when
# one key's values sit in two partitions (here: the file is read in 4 byte ranges).
import sys
from pyspark.sql import SparkSession

if __name__ == '__main__':
    spark = SparkSession.builder.appName("average_by_key_use_aggregatebykey").getOrCreate()
    rdd = spark.sparkContext.textFile(sys.argv[1], 4).map(lambda line: (line[:1], len(line)))
    zero = (0, 0)
    sum_count = rdd.aggregateByKey(
        zero,
        lambda C, V: (C[0] + V, C[1] + 1),
        lambda C1, C2: (C1[0] + C2[0], C1[1] + C[1]))
    print("sum_count = ", sum_count.collect())
    spark.stop()
