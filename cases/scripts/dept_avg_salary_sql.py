"""Average salary per department from an employees CSV file with a header, in Spark SQL over a view."""

import sys

from pyspark.sql import SparkSession
from pyspark.sql.types import IntegerType, StringType, StructField, StructType

SCHEMA = StructType([
    StructField("name", StringType(), True),
    StructField("dept", StringType(), True),
    StructField("salary", IntegerType(), True),
])


def main():
    spark = SparkSession.builder.appName("DeptAvgSalarySQL").getOrCreate()
    spark.read.option("header", "true").schema(SCHEMA).csv(sys.argv[1]).createOrReplaceTempView("employees")
    spark.sql("""
        SELECT dept, AVG(salary) AS avg_salary, COUNT(*) AS employees
        FROM employees
        WHERE salary IS NOT NULL
        GROUP BY dept
        ORDER BY dept
    """).show()
    spark.stop()


if __name__ == "__main__":
    main()
