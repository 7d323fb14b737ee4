from pyspark import RDD


def total(R: RDD[tuple[int, int]], S: RDD[tuple[int, int]]) -> int:
    return S.join(R).union(R.join(S)).map(lambda kv: kv[1][0]).sum()
