#!/usr/bin/python
#-----------------------------------------------------
# Apply a filter() to a DataFrame of literal data
# Input: NONE
#-------------------------------------------------------
from __future__ import print_function
from pyspark.sql import SparkSession
from pyspark.sql import Row

if __name__ == '__main__':

    spark = SparkSession.builder.appName("people_filter").getOrCreate()
    print("spark=", spark)

    people = [Row(name="alex", city="Ames", age=20),
              Row(name="mary", city="Stanford", age=45),
              Row(name="jeff", city="Sunnyvale", age=70),
              Row(name="jane", city="Austin", age=None)]
    print("people = ", people)
    df = spark.createDataFrame(people)
    print("df.columns: ", df.columns)
    df.printSchema()

    df2 = df.filter(df.age > 40)
    print("df2.count(): ", df2.count())
    print("df2.collect(): ", df2.collect())
    df2.show()

    spark.stop()
