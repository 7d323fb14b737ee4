-- Orders of customers that are not blocked, with NOT EXISTS.
SELECT o.oid, o.cid
FROM orders o
WHERE NOT EXISTS (SELECT 1 FROM blocked b WHERE b.id = o.cid)
