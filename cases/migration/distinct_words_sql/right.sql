-- The same in Spark SQL: length() counts characters, as Python's len counts code points.
SELECT DISTINCT word FROM words WHERE length(word) > 3
