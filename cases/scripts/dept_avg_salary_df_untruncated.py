"""Average salary per department from an employees CSV file with a header, DataFrame API, shown sorted
with show(truncate=False): long department names are printed whole."""

import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("Usage: dept_avg_salary_df.py <employees.csv>", file=sys.stderr)
        sys.exit(-1)
    spark = SparkSession.builder.appName("DeptAvgSalary").getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    employees = spark.read.csv(sys.argv[1], header=True, schema="name STRING, dept STRING, salary INT")
    averages = (
        employees.where(F.col("salary").isNotNull())
        .groupBy("dept")
        .agg(F.avg("salary").alias("avg_salary"), F.count("*").alias("employees"))
        .orderBy("dept")
    )
    averages.show(truncate=False)
    spark.stop()
