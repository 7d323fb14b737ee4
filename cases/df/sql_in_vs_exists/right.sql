-- The same with EXISTS: IN is true exactly when some blocked id equals cid, which is the EXISTS condition;
-- where IN is NULL rather than false the WHERE drops the row anyway.
SELECT oid, amount
FROM orders
WHERE EXISTS (SELECT 1 FROM blocked b WHERE b.id = orders.cid)
