-- Customers with their orders over 100: the WHERE after the left join drops customers whose order columns
-- are NULL (NULL > 100 is not true).
SELECT c.id, c.name, o.oid, o.amount
FROM customers c LEFT JOIN orders o ON c.id = o.cid
WHERE o.amount > 100
