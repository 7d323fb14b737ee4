"""People as an RDD of tuples, made a DataFrame with a DDL schema (ages are INT)."""
from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("people").getOrCreate()
people = spark.sparkContext.parallelize([("alex", 25), ("mary", 22), ("jane", 20)])
df = people.toDF("name string, age int")
df.printSchema()
print(df.rdd.collect())
spark.stop()
