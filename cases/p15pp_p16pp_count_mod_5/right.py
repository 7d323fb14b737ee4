"""P16'': the same question about the tripled bag, counted with count()."""

from pyspark import RDD


def p16pp(R: RDD[int]) -> bool:
    return R.map(lambda x: 3 * x).count() % 5 == 0
