-- Orders of blocked customers, with IN.
SELECT oid, amount FROM orders WHERE cid IN (SELECT id FROM blocked)
