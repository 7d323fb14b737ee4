"""friends_textfile.py with every name of the script changed (the parser, its locals, the DataFrames,
the view): the same job."""
from pyspark.sql import Row, SparkSession

session = SparkSession.builder.appName("Friends").getOrCreate()


def parse_friend(text):
    parts = text.split(",")
    return Row(ID=int(parts[0]), name=str(parts[1].encode("utf-8")), age=int(parts[2]),
               numFriends=int(parts[3]))


raw = session.sparkContext.textFile("friends.csv")
friends = raw.map(parse_friend)
friends_df = session.createDataFrame(friends).cache()
friends_df.createOrReplaceTempView("friends")
young = session.sql("SELECT * FROM friends WHERE age >= 13 AND age <= 19")
for row in young.collect():
    print(row)
friends_df.groupBy("age").count().orderBy("age").show()
session.stop()
