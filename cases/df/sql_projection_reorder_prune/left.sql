-- Order ids and states, picked in a new order from a subquery that renames and computes more columns than
-- the query reads.
SELECT state, order_id
FROM (SELECT oid AS order_id, cid, amount, status AS state, upper(status) AS loud FROM orders) t
