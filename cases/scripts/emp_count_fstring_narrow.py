#!/usr/bin/python
#-----------------------------------------------------
# Head count per department, with the totals printed
# in aligned columns (a narrower f-string width).
# Input: a CSV file with a header (id,name,salary,dept)
#------------------------------------------------------
import sys
from pyspark.sql import SparkSession

if __name__ == '__main__':
    spark = SparkSession.builder.appName("emp_count").getOrCreate()
    df = spark.read.csv(sys.argv[1], header=True, schema="id INT, name STRING, salary INT, dept STRING")

    total = df.count()
    paid = df.filter(df.salary.isNotNull()).count()
    print(f"employees: {total:>6,}")
    print(f"paid:      {paid:>8,}")

    df.groupBy("dept").count().orderBy("dept").show()
    spark.stop()
