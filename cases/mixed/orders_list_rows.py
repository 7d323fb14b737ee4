"""The same orders written as a literal list of Rows (no RDD)."""
from pyspark.sql import Row, SparkSession

spark = SparkSession.builder.appName("orders").getOrCreate()
orders = [
    Row(customer="ann", item="tea", qty=2),
    Row(customer="bob", item="cake", qty=1),
    Row(customer="ann", item="cake", qty=3),
    Row(customer="cid", item="tea", qty=5),
]
df = spark.createDataFrame(orders)
df.printSchema()
df.groupBy("item").sum("qty").orderBy("item").show()
big = df.filter(df.qty > 1)
print("big orders:", big.count())
spark.stop()
