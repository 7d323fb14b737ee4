# Rows built from dictionaries with their keys sorted, as in the corpus (chap03/dataframe_creation_from_collection.py).
from collections import OrderedDict

from pyspark.sql import Row, SparkSession


def convert_to_row(d: dict) -> Row:
    return Row(**OrderedDict(sorted(d.items())))


if __name__ == "__main__":
    spark = SparkSession.builder.appName("dfc_rows_from_dicts_sorted").getOrCreate()
    elements = [{"name": "alex", "city": "Ames", "age": 40}, {"name": "jane", "city": "Troy", "age": 31}]
    df = spark.sparkContext.parallelize(elements).map(convert_to_row).toDF()
    df.printSchema()
    df.show()
    print("df.collect() = ", df.collect())
    spark.stop()
