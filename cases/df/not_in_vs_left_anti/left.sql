-- Orders of customers that are not blocked, with NOT IN: a NULL cid compared with a non-empty list is NULL,
-- so the order is dropped.
SELECT oid, cid FROM orders WHERE cid NOT IN (SELECT id FROM blocked)
