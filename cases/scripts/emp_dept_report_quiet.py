#!/usr/bin/python
#-----------------------------------------------------
# Head count and total salary per department, with
# the plans no longer printed and Spark's log quieter.
#------------------------------------------------------
from __future__ import print_function
import sys
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

# sparkeq: schema sys.argv[1] = "id INT, name STRING, salary INT, dept STRING"

if __name__ == '__main__':

    if len(sys.argv) != 2:
        print("Usage: emp_dept_report_quiet.py <file>", file=sys.stderr)
        exit(-1)

    spark = SparkSession.builder.appName("emp_dept_report").getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    print("spark=", spark)

    input_path = sys.argv[1]
    print("input_path: {}".format(input_path))

    df = spark.read.csv(input_path, header=True, inferSchema=True)
    df.printSchema()

    report = df.groupBy("dept").agg(F.count("id").alias("employees"), F.sum("salary").alias("total"))
    report.orderBy("dept").show()

    spark.stop()
