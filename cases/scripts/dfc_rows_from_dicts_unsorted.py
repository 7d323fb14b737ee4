# Rows built from the dictionaries as they are: Row(**d) keeps the keys' order (name, city, age).
from pyspark.sql import Row, SparkSession


def convert_to_row(d: dict) -> Row:
    return Row(**dict(d))


if __name__ == "__main__":
    spark = SparkSession.builder.appName("dfc_rows_from_dicts_unsorted").getOrCreate()
    elements = [{"name": "alex", "city": "Ames", "age": 40}, {"name": "jane", "city": "Troy", "age": 31}]
    df = spark.sparkContext.parallelize(elements).map(convert_to_row).toDF()
    df.printSchema()
    df.show()
    print("df.collect() = ", df.collect())
    spark.stop()
