-- Orders per customer, counted with COUNT(*). Not the same: COUNT(amount) skips orders whose amount is NULL.
SELECT cid, COUNT(*) AS n FROM orders GROUP BY cid
