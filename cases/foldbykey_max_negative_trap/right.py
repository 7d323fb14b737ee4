from pyspark import RDD


def peak(readings: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return readings.reduceByKey(max)
