"""Highest salary in a "name,salary" CSV file, skipping the header line "name,salary"."""

import sys

from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("MaxSalary").getOrCreate()
sc = spark.sparkContext

lines = sc.textFile(sys.argv[1])
rows = lines.filter(lambda line: not line.startswith("name,"))
salaries = rows.map(lambda line: int(line.split(",")[1]))
print("max salary:", salaries.max())
print("employees:", salaries.count())

spark.stop()
