-- The same intent with NOT EXISTS: a NULL in blocked.id matches nothing, so it excludes nothing.
SELECT o.oid, o.cid
FROM orders o
WHERE NOT EXISTS (SELECT 1 FROM blocked b WHERE b.id = o.cid)
