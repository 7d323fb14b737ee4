-- Total and maximum per key computed in two subqueries and joined on k. Each side has exactly one row per
-- key and k is NOT NULL, so the inner join pairs them all.
SELECT a.k, a.total, b.top
FROM (SELECT k, SUM(v) AS total FROM t GROUP BY k) a
JOIN (SELECT k, MAX(v) AS top FROM t GROUP BY k) b ON a.k = b.k
