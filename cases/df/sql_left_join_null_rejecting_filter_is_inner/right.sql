-- The same with an inner JOIN: o.amount > 100 is never true on a row the LEFT JOIN pads with NULLs, so the
-- WHERE drops exactly the rows the inner join does not produce.
SELECT c.id, c.name, o.oid, o.amount
FROM customers c JOIN orders o ON c.id = o.cid
WHERE o.amount > 100
