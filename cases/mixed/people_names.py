"""The same people made a DataFrame with column names only (ages inferred as BIGINT)."""
from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("people").getOrCreate()
people = spark.sparkContext.parallelize([("alex", 25), ("mary", 22), ("jane", 20)])
df = people.toDF(["name", "age"])
df.printSchema()
print(df.rdd.collect())
spark.stop()
