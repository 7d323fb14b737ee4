#!/usr/bin/python
#-----------------------------------------------------
# Head count and total salary per department.
# Input: a CSV file with a header (id,name,salary,dept)
#------------------------------------------------------
# Input Parameters:
#    argv[1]: String, input path
#-------------------------------------------------------
from __future__ import print_function
import sys
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

# sparkeq: schema sys.argv[1] = "id INT, name STRING, salary INT, dept STRING"

if __name__ == '__main__':

    if len(sys.argv) != 2:
        print("Usage: emp_dept_report.py <file>", file=sys.stderr)
        exit(-1)

    spark = SparkSession.builder.appName("emp_dept_report").getOrCreate()
    print("spark=", spark)

    input_path = sys.argv[1]
    print("input_path: {}".format(input_path))

    df = spark.read.csv(input_path, header=True, inferSchema=True)
    df.printSchema()
    df.explain()

    report = df.groupBy("dept").agg(F.count("id").alias("employees"), F.sum("salary").alias("total"))
    report.orderBy("dept").show()
    report.explain()

    spark.stop()
