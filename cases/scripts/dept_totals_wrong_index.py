"""Total salary per department -- with the key read from the wrong column (the name, not the dept)."""

import sys
from operator import add

from pyspark import SparkContext

if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("Usage: dept_totals_wrong_index.py <employees.csv>", file=sys.stderr)
        sys.exit(-1)
    sc = SparkContext(appName="DeptTotals")
    rows = sc.textFile(sys.argv[1]).map(lambda line: line.split(","))
    totals = rows.map(lambda f: (f[0], int(f[2]))).reduceByKey(add)
    for dept, total in totals.collect():
        print("%s\t%d" % (dept, total))
    sc.stop()
