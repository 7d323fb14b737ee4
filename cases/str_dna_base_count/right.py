"""DNA base count with countByValue."""


from pyspark import RDD


def job(seqs: RDD[str]) -> dict[str, int]:
    return seqs.flatMap(lambda s: s.upper()).countByValue()
