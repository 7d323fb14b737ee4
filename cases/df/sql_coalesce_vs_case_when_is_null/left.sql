-- Replace missing amounts by 0 with COALESCE.
SELECT oid, cid, COALESCE(amount, 0) AS amount, status FROM orders
