-- The same with CASE WHEN ... IS NULL: the same values (Spark marks this column nullable, a difference
-- sparkeq only warns about).
SELECT oid, cid, CASE WHEN amount IS NULL THEN 0 ELSE amount END AS amount, status FROM orders
