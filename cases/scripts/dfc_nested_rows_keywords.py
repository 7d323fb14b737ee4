# The same departments, the employees written as keyword Rows.
from pyspark.sql import Row, SparkSession

if __name__ == "__main__":
    spark = SparkSession.builder.appName("dfc_nested_rows_keywords").getOrCreate()
    alex = Row(first_name="alex", last_name="smith", salary=110000)
    jane = Row(first_name="jane", last_name=None, salary=120000)
    dept1 = Row(id="100", name="Computer Science")
    d1 = Row(department=dept1, employees=[alex, jane])
    d2 = Row(department=Row(id="200", name="Music"), employees=[jane])
    print("dept1=", dept1)
    print("first last name:", d1.employees[0].last_name)
    df = spark.createDataFrame([d1, d2])
    df.show(truncate=False)
    df.printSchema()
    spark.stop()
