-- Big orders with the customer's name: join, then filter.
SELECT o.oid, c.name, o.amount
FROM orders o JOIN customers c ON o.cid = c.id
WHERE o.amount > 100
