-- Customers whose orders total more than 100, with HAVING.
SELECT cid, SUM(amount) AS total
FROM orders
GROUP BY cid
HAVING SUM(amount) > 100
