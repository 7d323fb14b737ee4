# A contingency table of two columns of literal data, as in the corpus (chap07/dataframe_crosstab.py).
from pyspark.sql import SparkSession

if __name__ == "__main__":
    spark = SparkSession.builder.appName("dfc_crosstab").getOrCreate()
    data = [(1, "a"), (1, "b"), (2, "a"), (2, "a"), (2, "c"), (3, "b"), (None, "c"), (4, None)]
    df = spark.createDataFrame(data, ["key", "value"])
    crosstab = df.crosstab("key", "value")
    crosstab.printSchema()
    crosstab.show()
    spark.stop()
