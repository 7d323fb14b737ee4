# The same rows, their fields named one by one in sorted order.
from pyspark.sql import Row, SparkSession

if __name__ == "__main__":
    spark = SparkSession.builder.appName("dfc_rows_from_dicts_named").getOrCreate()
    elements = [{"name": "alex", "city": "Ames", "age": 40}, {"name": "jane", "city": "Troy", "age": 31}]
    rows = spark.sparkContext.parallelize(elements).map(lambda d: Row(age=d["age"], city=d["city"], name=d["name"]))
    df = rows.toDF()
    df.printSchema()
    df.show()
    print("df.collect() = ", df.collect())
    spark.stop()
