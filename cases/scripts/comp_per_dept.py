"""Total compensation (salary + bonus) per department, written as CSV with a header."""

import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

if __name__ == "__main__":
    if len(sys.argv) < 3:
        print("Usage: comp_per_dept.py <payroll.csv> <output dir>", file=sys.stderr)
        sys.exit(1)
    spark = SparkSession.builder.appName("CompPerDept").getOrCreate()
    payroll = spark.read.csv(sys.argv[1], header=True,
                             schema="emp_id INT, dept STRING, salary BIGINT, bonus BIGINT")
    totals = payroll.groupBy("dept").agg(F.sum(F.col("salary") + F.col("bonus")).alias("total_comp"))
    totals.write.mode("overwrite").option("header", True).csv(sys.argv[2])
    print("departments:", totals.count())
    spark.stop()
