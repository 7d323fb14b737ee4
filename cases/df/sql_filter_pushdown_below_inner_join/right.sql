-- Big orders with the customer's name: filter in a subquery, then join (an inner join commutes with a filter
-- on one side's columns).
SELECT b.oid, c.name, b.amount
FROM (SELECT * FROM orders WHERE amount > 100) b JOIN customers c ON b.cid = c.id
