-- Orders of blocked customers with the customer's details: orders, then customers, then blocked.
SELECT o.oid, o.amount, c.name, b.id AS blocked_id
FROM orders o
JOIN customers c ON o.cid = c.id
JOIN blocked b ON b.id = c.id
