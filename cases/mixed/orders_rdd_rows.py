"""Orders built as an RDD of Rows, then a DataFrame (a mixed job)."""
from pyspark.sql import Row, SparkSession

spark = SparkSession.builder.appName("orders").getOrCreate()
sc = spark.sparkContext
raw = [("ann", "tea", 2), ("bob", "cake", 1), ("ann", "cake", 3), ("cid", "tea", 5)]
orders = sc.parallelize(raw).map(lambda t: Row(customer=t[0], item=t[1], qty=t[2]))
df = spark.createDataFrame(orders)
df.printSchema()
df.groupBy("item").sum("qty").orderBy("item").show()
big = df.filter(df.qty > 1)
print("big orders:", big.rdd.count())
spark.stop()
