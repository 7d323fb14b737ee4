from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("prices").getOrCreate()
sc = spark.sparkContext
prices = sc.parallelize([("tea", 2), ("cake", 3.5), ("tea", 4)]).map(lambda t: (t[0], float(t[1])))
print("prices =", prices)
df = prices.toDF(["item", "price"])
df.printSchema()
df.groupBy("item").sum("price").orderBy("item").show()
print(df.rdd.count())
spark.stop()
