-- The same with one projection: the unread columns pruned, the renames applied directly.
SELECT status AS state, oid AS order_id FROM orders
