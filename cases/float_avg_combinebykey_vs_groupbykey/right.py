"""Average per key with true division (groupbykey)."""


from pyspark import RDD


def job(sales: RDD[tuple[str, int]]) -> RDD[tuple[str, float]]:
    return sales.groupByKey().mapValues(lambda vs: sum(vs) / len(vs))
