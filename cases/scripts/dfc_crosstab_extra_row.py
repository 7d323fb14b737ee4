# The contingency table of one more row (3, "c"): one count differs.
from pyspark.sql import SparkSession

if __name__ == "__main__":
    spark = SparkSession.builder.appName("dfc_crosstab_extra_row").getOrCreate()
    data = [(1, "a"), (1, "b"), (2, "a"), (2, "a"), (2, "c"), (3, "b"), (3, "c"), (None, "c"), (4, None)]
    df = spark.createDataFrame(data, ["key", "value"])
    crosstab = df.crosstab("key", "value")
    crosstab.printSchema()
    crosstab.show()
    spark.stop()
