-- Orders of customers that are not blocked, with NOT IN. If blocked.id holds a NULL, `cid NOT IN (...)` is
-- NULL or false for every cid, so no row survives.
SELECT oid, cid FROM orders WHERE cid NOT IN (SELECT id FROM blocked)
