-- Orders per customer, counted with COUNT(amount).
SELECT cid, COUNT(amount) AS n FROM orders GROUP BY cid
