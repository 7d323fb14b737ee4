"""Total salary per department from "name,dept,salary" lines."""

import sys
from operator import add

from pyspark import SparkContext

if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("Usage: dept_totals.py <employees.csv>", file=sys.stderr)
        sys.exit(-1)
    sc = SparkContext(appName="DeptTotals")
    rows = sc.textFile(sys.argv[1]).map(lambda line: line.split(","))
    totals = rows.map(lambda f: (f[1], int(f[2]))).reduceByKey(add)
    for dept, total in totals.collect():
        print("%s\t%d" % (dept, total))
    sc.stop()
