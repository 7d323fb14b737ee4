#!/usr/bin/python
#-----------------------------------------------------
# Average salary per department, printing the input
# file first (the debug print relabelled).
# Input: a CSV file with a header (id,name,salary,dept)
#------------------------------------------------------
# Input Parameters:
#    argv[1]: String, input path
#-------------------------------------------------------
from __future__ import print_function
import sys
from pyspark.sql import SparkSession
import pyspark.sql.functions as F


def debug_file(input_path):
    # open a file for read
    f = open(input_path, 'r')
    # To get everything in the file, just use read()
    file_contents = f.read()
    print("contents of the input:\n" + file_contents)
    f.close()


if __name__ == '__main__':

    if len(sys.argv) != 2:
        print("Usage: emp_debug_file_relabelled.py <file>", file=sys.stderr)
        exit(-1)

    spark = SparkSession.builder.appName("emp_debug_file").getOrCreate()

    input_path = sys.argv[1]
    print("input path : ", input_path)
    debug_file(input_path)

    df = spark.read.csv(input_path, header=True, schema="id INT, name STRING, salary INT, dept STRING")
    print("df.count() = ", df.count())

    average = df.groupBy("dept").agg(F.avg("salary").alias("average"))
    average.orderBy("dept").show()

    spark.stop()
