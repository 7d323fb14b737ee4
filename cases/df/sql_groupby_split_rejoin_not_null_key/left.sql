-- Total and maximum per key in one aggregation.
SELECT k, SUM(v) AS total, MAX(v) AS top FROM t GROUP BY k
