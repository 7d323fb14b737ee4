-- The same with UNION ALL.
SELECT cid FROM orders UNION ALL SELECT id FROM customers
