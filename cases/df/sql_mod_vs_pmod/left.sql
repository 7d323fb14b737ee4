-- Orders put into 7 buckets with %.
SELECT oid, amount % 7 AS bucket FROM orders
