# rddc_directory.py without the listing of the directory: the same job, one line less.
import sys
from pyspark.sql import SparkSession

if __name__ == '__main__':
    if len(sys.argv) != 2:
        print("Usage: rddc_directory_unlisted.py <dir>", file=sys.stderr)
        exit(-1)

    spark = SparkSession.builder.appName("rddc_directory_unlisted").getOrCreate()
    dir_path = sys.argv[1]
    print("dir path : ", dir_path)

    rdd = spark.sparkContext.textFile(dir_path)
    print("rdd =", rdd)
    print("rdd.count = ", rdd.count())
    filtered = rdd.filter(lambda record: record.find('3') != -1)
    print("filtered.count = ", filtered.count())
    print("filtered.collect() = ", filtered.collect())
    spark.stop()
