-- Customers with their orders over 100, as a LEFT JOIN filtered on an order column.
SELECT c.id, c.name, o.oid, o.amount
FROM customers c LEFT JOIN orders o ON c.id = o.cid
WHERE o.amount > 100
