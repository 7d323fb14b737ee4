# The same contingency table, the literal rows listed in another order.
from pyspark.sql import SparkSession

if __name__ == "__main__":
    spark = SparkSession.builder.appName("dfc_crosstab_reordered").getOrCreate()
    data = [(4, None), (None, "c"), (3, "b"), (2, "c"), (2, "a"), (2, "a"), (1, "b"), (1, "a")]
    df = spark.createDataFrame(data, ["key", "value"])
    df.crosstab("key", "value").printSchema()
    df.crosstab("key", "value").show()
    spark.stop()
