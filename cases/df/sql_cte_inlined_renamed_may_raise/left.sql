WITH big AS (
  SELECT cid, CAST(status AS INT) AS code, amount FROM orders WHERE amount > 10
)
SELECT c.name, SUM(b.amount) AS total
FROM customers c JOIN big b ON c.id = b.cid
WHERE c.id NOT IN (SELECT id FROM blocked) AND b.code >= 0
GROUP BY c.name
