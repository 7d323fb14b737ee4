-- The joins in the opposite order (blocked, then customers, then orders), the columns selected again in
-- the original order: inner joins commute and associate.
SELECT o.oid, o.amount, c.name, b.id AS blocked_id
FROM blocked b
JOIN customers c ON b.id = c.id
JOIN orders o ON o.cid = c.id
