"""Frank Kane's spark-sql.py shape (corpus): a text file parsed into Rows by RDD code, made a DataFrame
(schema inferred from the Rows), queried with SQL and with the DataFrame API."""
from pyspark.sql import Row, SparkSession

spark = SparkSession.builder.appName("SparkSQL").getOrCreate()


def mapper(line):
    fields = line.split(",")
    return Row(ID=int(fields[0]), name=str(fields[1].encode("utf-8")), age=int(fields[2]),
               numFriends=int(fields[3]))


lines = spark.sparkContext.textFile("friends.csv")
people = lines.map(mapper)
schemaPeople = spark.createDataFrame(people).cache()
schemaPeople.createOrReplaceTempView("people")
teenagers = spark.sql("SELECT * FROM people WHERE age >= 13 AND age <= 19")
for teen in teenagers.collect():
    print(teen)
schemaPeople.groupBy("age").count().orderBy("age").show()
spark.stop()
