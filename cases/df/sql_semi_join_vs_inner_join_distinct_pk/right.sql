-- The same as an inner join, the order columns kept and duplicates removed by DISTINCT. DISTINCT would also
-- merge duplicate orders, which the PRIMARY KEY on orders.oid rules out.
SELECT DISTINCT o.oid, o.cid, o.amount, o.status
FROM orders o JOIN customers c ON o.cid = c.id
