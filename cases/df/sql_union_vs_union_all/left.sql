-- Every customer id that appears anywhere, with UNION (duplicates removed).
SELECT cid FROM orders UNION SELECT id FROM customers
