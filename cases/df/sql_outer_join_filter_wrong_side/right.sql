-- The condition moved into the ON clause, i.e. pushed onto the NULL-padded side: every customer is kept,
-- padded with NULLs when no big order matches. Not the same rows.
SELECT c.id, c.name, o.oid, o.amount
FROM customers c LEFT JOIN orders o ON c.id = o.cid AND o.amount > 100
