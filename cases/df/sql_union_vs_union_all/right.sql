-- The same with UNION ALL: an id in both tables appears twice.
SELECT cid FROM orders UNION ALL SELECT id FROM customers
