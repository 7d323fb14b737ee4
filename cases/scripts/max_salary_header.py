"""Highest salary in a "name,salary" CSV file (every line is parsed, the header too)."""

import sys

from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("MaxSalary").getOrCreate()
sc = spark.sparkContext

salaries = sc.textFile(sys.argv[1]).map(lambda line: int(line.split(",")[1]))
print("max salary:", salaries.max())
print("employees:", salaries.count())

spark.stop()
