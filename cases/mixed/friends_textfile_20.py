"""friends_textfile.py with the teenage bound moved to 20: a different job, which sparkeq neither proves
nor searches (a DataFrame made by RDD code from a text file is compared by congruence only)."""
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
teenagers = spark.sql("SELECT * FROM people WHERE age >= 13 AND age <= 20")
for teen in teenagers.collect():
    print(teen)
schemaPeople.groupBy("age").count().orderBy("age").show()
spark.stop()
