"""P2' (paper section 2): every element of R2 becomes 1; differs when |R1| != |R2|."""

from pyspark import RDD


def p2_prime(R1: RDD[int], R2: RDD[int]) -> RDD[int]:
    return R2.map(lambda x: 1)
