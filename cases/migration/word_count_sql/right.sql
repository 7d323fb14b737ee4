-- Word count migrated to Spark SQL over the table of words.
SELECT word, COUNT(*) AS n FROM words GROUP BY word
