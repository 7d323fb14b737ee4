# The same departments, jane's salary written as a float: the salary column becomes a double.
from pyspark.sql import Row, SparkSession

if __name__ == "__main__":
    spark = SparkSession.builder.appName("dfc_nested_rows_salary").getOrCreate()
    Employee = Row("first_name", "last_name", "salary")
    alex = Employee("alex", "smith", 110000.0)
    jane = Employee("jane", None, 120000.0)
    dept1 = Row(id="100", name="Computer Science")
    dept2 = Row(id="200", name="Music")
    d1 = Row(department=dept1, employees=[alex, jane])
    d2 = Row(department=dept2, employees=[jane])
    print("dept1=", dept1)
    print("first last name:", d1.employees[0].last_name)
    df = spark.createDataFrame([d1, d2])
    df.show(truncate=False)
    df.printSchema()
    spark.stop()
