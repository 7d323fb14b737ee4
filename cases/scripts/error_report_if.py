"""Count the ERROR lines of a log file and report them (or say there were none)."""

import logging
import sys

from pyspark.sql import SparkSession

logger = logging.getLogger(__name__)

if __name__ == "__main__":
    spark = SparkSession.builder.appName("ErrorReport").getOrCreate()
    log = spark.sparkContext.textFile(sys.argv[1])
    errors = log.filter(lambda line: line.startswith("ERROR"))
    n = errors.count()
    logger.info("found %d errors", n)
    if n > 0:
        print("errors: %d" % n)
    else:
        print("no errors")
    spark.stop()
